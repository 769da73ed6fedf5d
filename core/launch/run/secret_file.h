#pragma once

// Node 0's run secret for the other nodes, in a file only its owner can read (OUT/run-secret), so the join
// command node 0 prints names the file (--run-secret-file), never the secret: a secret on a command line is
// visible to every user of that machine in the process list. The file is created exclusively and removed at
// the end of the run while it is still that file (owned_file.h).

#include "os/owned_file.h"

#include <QString>

namespace ddpdesk::launch {

class SecretFile {
public:
    SecretFile() = default;
    SecretFile(const SecretFile&) = delete;
    SecretFile& operator=(const SecretFile&) = delete;
    ~SecretFile() { release(); }

    // Writes `hex` to OUT/run-secret (replacing only DDP Desk's own earlier one). False with why.
    bool write(const QString& outDir, const QString& hex, QString* error);
    QString path() const { return m_path; }
    void release();

private:
    QString m_path;
    OwnedFile m_id;
};

} // namespace ddpdesk::launch
