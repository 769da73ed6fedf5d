#include "launch/diagnose/stack_dump.h"

#include "launch/process/process_control.h"
#include "os/process.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <limits>

namespace ddpdesk::launch {

namespace {

constexpr qint64 kMaxStacksBytes = 256 * 1024;

struct Announcement {
    qint64 pid = 0;
    bool byRequestFile = false;
};

// The last announcement in a stacks file is the one that holds: each attempt of a restarted run announces
// itself again, and so does a script rank that takes SIGUSR1 for itself (" request-file").
Announcement lastAnnouncement(const QString& path) {
    static const QRegularExpression ready(
        QStringLiteral("^%1 pid (\\d+) rank (\\d+)( %2)?$")
            .arg(QLatin1String(protocol::kStacksReadyPrefix), QLatin1String(protocol::kStacksByRequestFile)));
    Announcement a;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return a;
    while (!f.atEnd()) {
        const auto r = ready.match(QString::fromUtf8(f.readLine(4096)).trimmed());
        if (!r.hasMatch()) continue;
        a.pid = r.captured(1).toLongLong();
        a.byRequestFile = !r.captured(3).isEmpty();
    }
    return a;
}

QString askedFile(const StackTarget& t) {
    return QFileInfo(t.file).dir().filePath(QStringLiteral("stacks-%1.asked").arg(t.rank));
}

// Another asker's question that still stands: its marker is younger than an answer takes (a marker its asker
// left behind, crashed, is older and is taken over). Returns the offset that question was asked at, -1 if
// none.
qint64 standingQuestion(const QString& marker) {
    QFile f(marker);
    const QFileInfo info(marker);
    if (!info.exists() || info.isSymLink()) return -1;
    const qint64 age = info.lastModified().msecsTo(QDateTime::currentDateTime());
    if (age > 2 * kStacksWaitMs) return -1;
    bool ok = false;
    const qint64 offset =
        f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.read(32)).trimmed().toLongLong(&ok) : 0;
    // Fresh but not written yet (its asker is between creating and writing it): standing, from where we are.
    return ok && offset >= 0 ? offset : std::numeric_limits<qint64>::max();
}

// Takes the rank's marker for this process, with the offset its question is asked at.
bool takeMarker(const QString& marker, qint64 offset) {
    QFile f(marker);
    if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
        if (standingQuestion(marker) >= 0 || QFileInfo(marker).isSymLink() || !QFile::remove(marker))
            return false;
        if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly)) return false;
    }
    return f.write(QByteArray::number(offset)) > 0;
}

} // namespace

QString stacksFile(const QString& instrumentDir, int rank) {
    return QDir(instrumentDir).filePath(QStringLiteral("stacks-%1.txt").arg(rank));
}

QString stacksRequestFile(const QString& instrumentDir, int rank) {
    return QDir(instrumentDir).filePath(QStringLiteral("stacks-%1.request").arg(rank));
}

QVector<StackTarget> stackTargets(const QString& instrumentDir) {
    static const QRegularExpression name(QStringLiteral("^stacks-(\\d+)\\.txt$"));
    QVector<StackTarget> targets;
    const QDir dir(instrumentDir);
    for (const QFileInfo& info :
         dir.entryInfoList({QStringLiteral("stacks-*.txt")}, QDir::Files, QDir::Name)) {
        const auto m = name.match(info.fileName());
        if (!m.hasMatch() || info.isSymLink()) continue;
        const Announcement a = lastAnnouncement(info.filePath());
        if (a.pid <= 0 || !os::processAlive(a.pid)) continue;
        StackTarget t;
        t.rank = m.captured(1).toInt();
        t.pid = a.pid;
        t.byRequestFile = a.byRequestFile;
        t.file = info.filePath();
        t.request = stacksRequestFile(instrumentDir, t.rank);
        targets.push_back(t);
    }
    return targets;
}

void requestStacks(QVector<StackTarget>& targets) {
    for (auto it = targets.begin(); it != targets.end();) {
        // Read again right before a signal: a script that took SIGUSR1 since the targets were listed said so
        // first, and its handler is not DDP Desk's to call.
        if (!it->byRequestFile) {
            const Announcement now = lastAnnouncement(it->file);
            it->byRequestFile = now.pid == it->pid && now.byRequestFile;
        }
        it->offset = QFileInfo(it->file).size();
        const QString marker = askedFile(*it);
        const qint64 standing = standingQuestion(marker);
        if (standing >= 0 || !takeMarker(marker, it->offset)) {
            // Asked already: this asker reads that answer. A marker it could neither read nor take (two
            // takers at once) means the same.
            const qint64 at = standingQuestion(marker);
            if (at >= 0) it->offset = qMin(it->offset, at);
            ++it;
            continue;
        }
        it->asker = true;
        // The rank removes the request file once it has answered; one still there is a question not yet
        // answered, which stands for this one too.
        QFile request(it->request);
        const bool asked = it->byRequestFile ? os::processAlive(it->pid) &&
                                                   (request.open(QIODevice::WriteOnly | QIODevice::NewOnly) ||
                                                    request.exists())
                                             : requestPythonStacks(it->pid, it->file, it->request);
        if (asked) {
            ++it;
        } else {
            QFile::remove(marker);
            it = targets.erase(it);
        }
    }
}

void doneAsking(const QVector<StackTarget>& targets) {
    for (const StackTarget& t : targets)
        if (t.asker) QFile::remove(askedFile(t));
}

QString collectStacks(const StackTarget& target) {
    QFile f(target.file);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(target.offset)) return {};
    return QString::fromUtf8(f.read(kMaxStacksBytes)).trimmed();
}

namespace {

struct Frame {
    QString path, function;
    int line = 0;
};

bool libraryFrame(const QString& path) {
    const QString p = QDir::fromNativeSeparators(path);
    return p.startsWith(QLatin1Char('<')) || p.endsWith(QLatin1String("/ddpdesk_instrument.py")) ||
           p.contains(QLatin1String("/torch/")) || p.contains(QLatin1String("-packages/")) ||
           p.contains(QRegularExpression(QStringLiteral("/lib/python[0-9.]*/"),
                                         QRegularExpression::CaseInsensitiveOption));
}

QString sourceLine(const QString& path, int number) {
    QFile f(path);
    if (number <= 0 || !f.open(QIODevice::ReadOnly)) return {};
    for (int i = 1; i < number && !f.atEnd(); ++i)
        f.readLine(64 * 1024);
    return f.atEnd() ? QString() : QString::fromUtf8(f.readLine(400)).trimmed();
}

} // namespace

QString whereInUserCode(const QString& stacks) {
    static const QRegularExpression frame(QStringLiteral("^\\s*File \"(.+)\", line (\\d+) in (.+)$"));
    static const QRegularExpression thread(QStringLiteral("^(Current thread|Thread) 0x"));
    // Thread blocks, innermost frame first; the main thread is the one that runs the script (its outermost
    // frames are DDP Desk's module).
    QVector<QVector<Frame>> threads;
    for (const QString& raw : stacks.split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (thread.match(line).hasMatch()) {
            threads.push_back({});
            continue;
        }
        const auto m = frame.match(line);
        if (!m.hasMatch()) continue;
        if (threads.isEmpty()) threads.push_back({});
        threads.back().push_back({m.captured(1), m.captured(3), m.captured(2).toInt()});
    }
    if (threads.isEmpty()) { // not a Python dump: a worker says what it waits in, first
        for (const QString& line : stacks.split(QLatin1Char('\n')))
            if (!line.trimmed().isEmpty()) return line.trimmed().left(300);
        return {};
    }
    const QVector<Frame>* main = &threads.front();
    for (const QVector<Frame>& t : threads)
        if (!t.isEmpty() && t.back().path.endsWith(QLatin1String("ddpdesk_instrument.py"))) main = &t;
    for (const Frame& f : *main) {
        if (libraryFrame(f.path)) continue;
        const QString code = sourceLine(f.path, f.line);
        const QString at =
            QStringLiteral("%1:%2 in %3").arg(QFileInfo(f.path).fileName()).arg(f.line).arg(f.function);
        return code.isEmpty() ? at : at + QStringLiteral(": ") + code;
    }
    return {};
}

} // namespace ddpdesk::launch
