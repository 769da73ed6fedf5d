// The run's TensorBoard file: opened once per run, written with every event of the run.
#include "launch/run/tensorboard_feed.h"

#include "protocol/telemetry.h"

#include <QDir>

namespace ddpdesk::launch {

void TensorBoardFeed::write(const nlohmann::json& event) {
    QString why;
    if (!m_log.write(event, &why)) m_message(tr("TensorBoard: %1").arg(why));
}

void TensorBoardFeed::open(const RunConfig& config, QStringList* notes) {
    m_log.close();
    m_file.clear();
    if (!config.tensorboard) return;
    QString why;
    int earlier = 0;
    if (!m_log.open(config.outDir, TensorBoardRun::of(config), protocol::nowSeconds(), &why, &earlier)) {
        *notes << tr("TensorBoard: %1").arg(why);
        return;
    }
    m_file = m_log.filePath();
    if (earlier > 0)
        *notes
            << tr("TensorBoard: %1 already holds event files of an earlier run in this folder; TensorBoard "
                  "shows them as one run with this one's")
                   .arg(QDir::toNativeSeparators(TensorBoardLog::folder(config.outDir)));
}

} // namespace ddpdesk::launch
