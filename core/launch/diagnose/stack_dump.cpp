#include "launch/diagnose/stack_dump.h"

#include "launch/process/process_control.h"
#include "os/process.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

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
        // The rank removes the request file once it has answered; one still there is a question not yet
        // answered, which stands for this one too.
        QFile request(it->request);
        const bool asked = it->byRequestFile ? os::processAlive(it->pid) &&
                                                   (request.open(QIODevice::WriteOnly | QIODevice::NewOnly) ||
                                                    request.exists())
                                             : requestPythonStacks(it->pid, it->file, it->request);
        if (asked)
            ++it;
        else
            it = targets.erase(it);
    }
}

QString collectStacks(const StackTarget& target) {
    QFile f(target.file);
    if (!f.open(QIODevice::ReadOnly) || !f.seek(target.offset)) return {};
    return QString::fromUtf8(f.read(kMaxStacksBytes)).trimmed();
}

} // namespace ddpdesk::launch
