// The Supervisor's TensorBoard file (tensorboard_log.h): every event metrics.jsonl gets also becomes scalars.
#include "launch/supervisor.h"

#include "launch/supervisor_impl.h"
#include "launch/tensorboard_log.h"
#include "protocol/telemetry.h"

#include <QDir>

namespace ddpdesk::launch {

void Supervisor::record(const nlohmann::json& event) {
    d->log.write(event);
    QString why;
    if (!d->tensorboard.write(event, &why)) emit message(tr("TensorBoard: %1").arg(why));
}

QString Supervisor::tensorboardFile() const {
    return d->tensorboardFile;
}

// A TensorBoard file that cannot be written is a note, never a reason not to train.
void Supervisor::openTensorBoard(QStringList* notes) {
    d->tensorboard.close();
    d->tensorboardFile.clear();
    if (!m_config.tensorboard) return;
    QString why;
    int earlier = 0;
    if (!d->tensorboard.open(m_config.outDir, TensorBoardRun::of(m_config), protocol::nowSeconds(), &why,
                             &earlier)) {
        *notes << tr("TensorBoard: %1").arg(why);
        return;
    }
    d->tensorboardFile = d->tensorboard.filePath();
    if (earlier > 0)
        *notes
            << tr("TensorBoard: %1 already holds event files of an earlier run in this folder; TensorBoard "
                  "shows them as one run with this one's")
                   .arg(QDir::toNativeSeparators(TensorBoardLog::folder(m_config.outDir)));
}

} // namespace ddpdesk::launch
