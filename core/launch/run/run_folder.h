#pragma once

// A run's output folder is made when the run starts in it, never while a configuration is only checked (the
// GUI checks as the user types): RunConfig::validate() creates nothing. The folders made here are
// remembered, so a start that fails removes them again while they are still empty, and the default store
// folder goes once its file is gone. The files the launcher (re)writes in OUT are listed in the folder's mark
// (protocol/output_mark.h) before any is written.

#include "launch/config/run_config.h"

#include <QString>
#include <QStringList>

namespace ddpdesk::launch {

class RunFolder {
public:
    // Makes OUT and the store file's folder as needed and marks the launcher's and the worker's output
    // names. False with a message naming the path.
    bool make(const RunConfig& config, QString* error);
    // Removes the folders make() created that are empty now, deepest first; forgets them.
    void removeEmptyCreated();

    // Whether `dir` is the user's own folder (os::folderOwner): DDP Desk reuses only such a folder for what
    // it writes and what the ranks run from it; false with a message naming the folder and why.
    static bool isOwn(const QString& dir, bool followLink, QString* error);
    // Adds `names` to dir's mark; false with the reason.
    static bool mark(const QString& dir, const QStringList& names, QString* error);

private:
    bool makePath(const QString& dir, QString* error);

    QStringList m_created; // outermost first
};

} // namespace ddpdesk::launch
