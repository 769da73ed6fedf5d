#pragma once

// The FileStore file of a single-node run: the launcher creates it itself before the workers start
// (exclusively, so a folder, a symbolic link or anybody's file already at that path is refused, never reused
// or deleted) and removes it only while it is still that same file - between restarts and at the end.
// Multi-node and TCP runs own no file.

#include "launch/config/run_config.h"
#include "os/owned_file.h"

#include <QString>
#include <QVector>

namespace ddpdesk::launch {

class RunStore {
public:
    RunStore() = default;
    RunStore(const RunStore&) = delete;
    RunStore& operator=(const RunStore&) = delete;
    ~RunStore() { release(); }

    // Creates the store file `config` names (nothing to do for a TCP or multi-node store). False with a
    // message naming the path when something is already there or it cannot be created.
    bool claim(const RunConfig& config, QString* error);
    // Removes the file claim() created, if it is still that file; forgets it either way.
    void release();
    bool ownsFile() const { return m_id.valid; }

private:
    QString m_path;
    OwnedFile m_id;
};

} // namespace ddpdesk::launch
