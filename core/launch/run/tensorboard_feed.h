#pragma once

// Owns the run's TensorBoard file (tensorboard_log.h), kept across restarts (one file per run), and its path,
// which stays after the run ends for the end report: every event metrics.jsonl gets also becomes scalars.

#include "launch/config/run_config.h"
#include "launch/record/tensorboard_log.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

#include <nlohmann/json_fwd.hpp>

#include <functional>

namespace ddpdesk::launch {

class TensorBoardFeed {
    Q_DECLARE_TR_FUNCTIONS(ddpdesk::launch::Supervisor) // its texts keep the Supervisor's translations

public:
    explicit TensorBoardFeed(std::function<void(const QString&)> message) : m_message(std::move(message)) {}

    // A new file for the run (unless config.tensorboard is off). A file that cannot be written is a note in
    // *notes, never a reason not to train.
    void open(const RunConfig& config, QStringList* notes);
    void write(const nlohmann::json& event); // a failure is a message
    void close() { m_log.close(); }
    QString file() const { return m_file; } // empty when the run writes none

private:
    std::function<void(const QString&)> m_message;
    TensorBoardLog m_log;
    QString m_file;
};

} // namespace ddpdesk::launch
