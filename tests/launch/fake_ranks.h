#pragma once

// Ranks as entries in a table behind the Supervisor's rank-launcher seam (core/launch/run/rank_launcher.h),
// as torch.distributed.elastic tests its agent with _start_workers overridden: no process starts. What the
// ranks do is the test's script. Used by launch.supervisor_logic (restarts, culprit, stop) and
// launch.file_safety (what a run creates and removes around its ranks).

#include "launch/run/rank_launcher.h"

#include <QObject>
#include <QSet>
#include <QTimer>
#include <QVector>

#include <csignal>
#include <functional>
#include <memory>
#include <vector>

namespace launchtest {

using ddpdesk::launch::RankAttempt;
using ddpdesk::launch::RankLaunch;
using ddpdesk::launch::RankLauncher;
using ddpdesk::launch::RunConfig;
using ddpdesk::launch::WarmWorkers;

// What the Supervisor asked of its launcher, kept by the test after the Supervisor is gone.
struct LauncherLog {
    QVector<int> attempts; // RankAttempt::attempt of each spawnAll
    int terminateCalls = 0;
    RankLaunch launch;
};

// Ranks as entries in a table. Like RankProcesses, it reports on the owner's event loop, never from inside
// the call that caused it, and a terminate reaches only ranks that still run. What ranks do is the test's
// `script`, called once an attempt's ranks have started.
class FakeRanks final : public RankLauncher {
public:
    using Script = std::function<void(FakeRanks& ranks, int attempt)>;

    FakeRanks(QObject& owner, const RunConfig& config, Events events, LauncherLog& log, Script script)
        : m_owner(owner), m_config(config), m_events(std::move(events)), m_log(log),
          m_script(std::move(script)) {}

    void setWarmWorkers(WarmWorkers*) override {}
    void setLaunch(const RankLaunch& launch) override { m_log.launch = launch; }
    void clear() override { m_ranks.assign(static_cast<std::size_t>(m_config.nproc), Rank()); }

    // The ranks exist from the call on, as processes QProcess::start made do (a stop right after the start
    // reaches them); their start is reported, and the script runs, on the owner's event loop.
    void spawnAll(const RankAttempt& attempt) override {
        m_log.attempts << attempt.attempt;
        const int generation = ++m_generation;
        for (int i = 0; i < int(m_ranks.size()); ++i)
            m_ranks[std::size_t(i)].pid = 100000 + 100 * attempt.attempt + i;
        QTimer::singleShot(0, &m_owner, [this, attempt, generation] {
            if (generation != m_generation) return;
            for (int i = 0; i < int(m_ranks.size()); ++i)
                m_events.started(i, m_ranks[std::size_t(i)].pid, false);
            m_script(*this, attempt.attempt);
        });
    }

    // A terminate reaches every rank still running; each ends of SIGTERM a moment later.
    void terminateAll(int) override {
        ++m_log.terminateCalls;
        for (Rank& r : m_ranks)
            if (r.running()) r.signalled = 1;
        QTimer::singleShot(0, &m_owner, [this] {
            for (int i = 0; i < int(m_ranks.size()); ++i)
                if (m_ranks[std::size_t(i)].signalled && !m_ranks[std::size_t(i)].reported)
                    report(i, SIGTERM, true);
        });
    }
    void endLeftovers(int) override {}
    void killAll() override {}
    QSet<qint64> livePids() const override {
        QSet<qint64> live;
        for (const Rank& r : m_ranks)
            if (r.pid && !r.reported) live.insert(r.pid);
        return live;
    }

    // For the script.
    void say(int i, const QByteArray& line, bool isStderr = true) { m_events.line(i, line, isStderr); }
    // Rank i is gone; its exit is read now.
    void exit(int i, int code, bool crashed = false) {
        m_ranks[std::size_t(i)].ended = true;
        report(i, code, crashed);
    }
    // Ranks that ended at the same moment: none can be signalled any more, their exits are read in this
    // order.
    void exitTogether(const QVector<QPair<int, int>>& exits) {
        for (const auto& [i, code] : exits)
            m_ranks[std::size_t(i)].ended = true;
        for (const auto& [i, code] : exits)
            report(i, code, false);
    }

private:
    struct Rank {
        qint64 pid = 0;
        bool ended = false, reported = false;
        int signalled = 0;
        bool running() const { return pid && !ended && !reported; }
    };

    void report(int i, int code, bool crashed) {
        Rank& r = m_ranks[std::size_t(i)];
        if (r.reported) return;
        r.reported = true;
        m_events.exited(i, code, crashed, QString(), r.signalled);
        for (const Rank& other : m_ranks)
            if (!other.reported) return;
        m_events.allExited();
    }

    QObject& m_owner;
    const RunConfig& m_config;
    Events m_events;
    LauncherLog& m_log;
    Script m_script;
    std::vector<Rank> m_ranks;
    int m_generation = 0;
};

inline RankLauncher::Factory fakeRanks(LauncherLog& log, FakeRanks::Script script) {
    return [&log, script](QObject& owner, const RunConfig& config, RankLauncher::Events events) {
        return std::make_unique<FakeRanks>(owner, config, std::move(events), log, script);
    };
}

} // namespace launchtest
