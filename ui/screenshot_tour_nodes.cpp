// The screenshot tour's multi-node part: this window is node 0 of a 2 x 2 run, a ddpdesk-cli beside it node
// 1 (both on this machine, over loopback: the picture needs no second computer), and the Run page shows every
// node's ranks, the node table and every node's charts.

#include "launch/model/run_model.h"
#include "launch/run/supervisor.h"
#include "main_window.h"
#include "os/platform.h"
#include "run_panel.h"
#include "screenshot_tour.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>

namespace ddpdesk::ui {

namespace {

constexpr int kTourStorePort = 29623; // the node link takes 29624
const char* const kTourSecret = "7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a";

QString cliPath() {
    return QDir(QCoreApplication::applicationDirPath())
        .filePath(QString::fromStdString(os::executableName("ddpdesk-cli")));
}

} // namespace

void ScreenshotTour::addMultiNodeRun(const QString& tmpDir) {
    const QString store = QStringLiteral("tcp://127.0.0.1:%1").arg(kTourStorePort);
    auto model = [this] { return m_window->supervisor() ? m_window->supervisor()->model() : nullptr; };
    add(
        QStringLiteral("two nodes"), [] { return true; },
        [this, tmpDir, store] {
            QFile secret(QDir(tmpDir).filePath(QStringLiteral("secret")));
            if (secret.open(QIODevice::WriteOnly)) secret.write(kTourSecret);
            secret.close();
            secret.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
            m_otherNode = std::make_shared<QProcess>();
            m_otherNode->setProcessChannelMode(QProcess::ForwardedErrorChannel);
            m_otherNode->setStandardOutputFile(QProcess::nullDevice());
            m_otherNode->start(cliPath(), {QStringLiteral("run"),
                                           QStringLiteral("--workload"),
                                           QStringLiteral("autoencoder"),
                                           QStringLiteral("--nproc"),
                                           QStringLiteral("2"),
                                           QStringLiteral("--nnodes"),
                                           QStringLiteral("2"),
                                           QStringLiteral("--node-rank"),
                                           QStringLiteral("1"),
                                           QStringLiteral("--store"),
                                           store,
                                           QStringLiteral("--run-secret-file"),
                                           QDir(tmpDir).filePath(QStringLiteral("secret")),
                                           QStringLiteral("--steps"),
                                           QStringLiteral("4000"),
                                           QStringLiteral("--batch-size"),
                                           QStringLiteral("64"),
                                           QStringLiteral("--threads"),
                                           QStringLiteral("1"),
                                           QStringLiteral("--out"),
                                           QDir(tmpDir).filePath(QStringLiteral("node1"))});
            launch::RunConfig c;
            c.workload = QStringLiteral("autoencoder");
            c.nproc = 2;
            c.nnodes = 2;
            c.nodeRank = 0;
            c.store = store;
            c.runSecret = QString::fromLatin1(kTourSecret);
            c.training.steps = 4000;
            c.training.batchSize = 64;
            c.training.threads = 1;
            c.outDir = QDir(tmpDir).filePath(QStringLiteral("runs/two-nodes"));
            m_window->startRun(c);
        });
    add(
        QStringLiteral("node 1's ranks training on node 0"),
        [model] {
            const launch::RunModel* m = model();
            if (!m || m->rankCount() != 4 || m->nodes().size() != 2 ||
                m->nodes()[1].contact != launch::NodeContactState::Connected)
                return false;
            return m->rank(3).step >= 300;
        },
        [this] { m_window->runPanel()->refreshNow(); }, 90000);
    add(
        QStringLiteral("grab run-nodes"), [] { return true; }, [this] { grab(QStringLiteral("run-nodes")); });
    add(
        QStringLiteral("stop both nodes"), [] { return true; }, [this] { m_window->stopRun(); });
    add(
        QStringLiteral("node 1 ended"),
        [this] { return !m_otherNode || m_otherNode->state() == QProcess::NotRunning; },
        [this] { m_otherNode.reset(); }, 30000);
}

} // namespace ddpdesk::ui
