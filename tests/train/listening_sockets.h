#pragma once

// Linux: the local addresses of a process's TCP sockets (all, or the listening ones), read from /proc (its
// fds' socket inodes matched against /proc/net/tcp and tcp6), as "127.0.0.1:PORT" / "0.0.0.0:PORT" /
// "[::1]:PORT" /
// "[::]:PORT" / "[hex]:PORT". Gloo (LibTorch 1.13) closes its listener once the pairs are connected, so a
// test looks at the connected sockets' local addresses too: each was bound to the address Gloo listened on.
// Shared by the rank-proof and loopback tests (train and launch).

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QString>
#include <QStringList>

namespace listentest {

inline QSet<QString> socketInodes(qint64 pid) {
    QSet<QString> inodes;
    const QDir fds(QStringLiteral("/proc/%1/fd").arg(pid));
    for (const QString& name : fds.entryList(QDir::System | QDir::NoDotAndDotDot)) {
        const QString target = QFileInfo(fds.filePath(name)).symLinkTarget();
        const QString link = target.isEmpty() ? QFile::symLinkTarget(fds.filePath(name)) : target;
        const int open = link.indexOf(QLatin1String("socket:["));
        if (open >= 0) inodes.insert(link.mid(open + 8).chopped(1));
    }
    return inodes;
}

inline QString decodeAddress(const QString& hexAddr, const QString& hexPort, bool v6) {
    const QString port = QString::number(hexPort.toUInt(nullptr, 16));
    if (!v6) {
        const uint v = hexAddr.toUInt(nullptr, 16); // little-endian in /proc
        return QStringLiteral("%1.%2.%3.%4:%5")
            .arg(v & 0xff)
            .arg((v >> 8) & 0xff)
            .arg((v >> 16) & 0xff)
            .arg((v >> 24) & 0xff)
            .arg(port);
    }
    if (hexAddr == QLatin1String("00000000000000000000000001000000")) return QStringLiteral("[::1]:") + port;
    if (hexAddr == QLatin1String("00000000000000000000000000000000")) return QStringLiteral("[::]:") + port;
    if (hexAddr.startsWith(QLatin1String("0000000000000000FFFF0000"))) // v4-mapped
        return decodeAddress(hexAddr.right(8), hexPort, false);
    return QStringLiteral("[%1]:%2").arg(hexAddr, port);
}

inline QStringList localAddresses(qint64 pid, bool listeningOnly) {
    const QSet<QString> inodes = socketInodes(pid);
    QStringList out;
    for (const bool v6 : {false, true}) {
        QFile f(v6 ? QStringLiteral("/proc/net/tcp6") : QStringLiteral("/proc/net/tcp"));
        if (!f.open(QIODevice::ReadOnly)) continue;
        f.readLine(); // header
        while (!f.atEnd()) {
            const QStringList cols = QString::fromLatin1(f.readLine()).simplified().split(QLatin1Char(' '));
            if (cols.size() < 10 || (listeningOnly && cols[3] != QLatin1String("0A")) ||
                !inodes.contains(cols[9]))
                continue; // 0A: LISTEN
            const QStringList local = cols[1].split(QLatin1Char(':'));
            out << decodeAddress(local.value(0), local.value(1), v6);
        }
    }
    return out;
}

inline QStringList listeningAddresses(qint64 pid) {
    return localAddresses(pid, true);
}

inline bool isLoopback(const QString& address) {
    return address.startsWith(QLatin1String("127.")) || address.startsWith(QLatin1String("[::1]"));
}

} // namespace listentest
