#include "thread_ranks.h"

#include "thread_process_group.h"

#include "train/base/telemetry_emitter.h"
#include "train/worker/worker.h"

#include <exception>
#include <thread>

namespace ddpdesk::traintest {

std::vector<ThreadRankOutput> runRankThreads(int world, const std::vector<std::string>& common) {
    testsupport::ThreadProcessGroup group(world);
    std::vector<ThreadRankOutput> out(static_cast<std::size_t>(world));
    std::vector<std::thread> threads;
    for (int r = 0; r < world; ++r)
        threads.emplace_back([&group, &out, &common, world, r] {
            ThreadRankOutput& mine = out[static_cast<std::size_t>(r)];
            std::vector<std::string> args = common;
            args.insert(args.end(), {"--rank", std::to_string(r), "--world-size", std::to_string(world)});
            try {
                train::TelemetryEmitter::ThreadSink sink(
                    [&mine](const std::string& line, bool log) { (log ? mine.log : mine.events) += line; });
                mine.exitCode = train::runRankInGroup(args, group.rank(r));
            } catch (
                const std::exception& e) { // runRankInGroup reports its own failures; this is the harness's
                mine.log += std::string("rank thread failed: ") + e.what() + "\n";
                mine.exitCode = -2;
            } catch (...) {
                mine.log += "rank thread failed\n";
                mine.exitCode = -2;
            }
            group.leave(r);
        });
    for (std::thread& t : threads)
        t.join();
    return out;
}

} // namespace ddpdesk::traintest
