// A finished run replayed from its folder (launch/model/run_replay.h: the History page, `ddpdesk-cli show`):
// the input is the run's metrics.jsonl and, after a line "%%summary.json", its summary.json. Both are files
// anyone who can write to the runs folder may have changed. The folder is also scanned as the History page
// lists runs.
#include "fuzz_support.h"

#include "launch/model/run_model.h"
#include "launch/model/run_replay.h"

#include <QCoreApplication>

using namespace ddpdesk;
using namespace ddpdesk::launch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static int argc = 1;
    static char name[] = "fuzz_run_replay";
    static char* argv[] = {name, nullptr};
    static auto* app = new QCoreApplication(argc, argv);
    (void)app;
    const fuzz::fs::path runs = fuzz::freshFolder("runs");
    const fuzz::fs::path run = runs / "run-1";
    fuzz::fs::create_directories(run);
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::string_view marker = "%%summary.json\n";
    std::size_t cut = input.find(marker);
    if (cut != std::string_view::npos && cut > 0 && input[cut - 1] != '\n') cut = std::string_view::npos;
    fuzz::writeFile(run / "metrics.jsonl", input.substr(0, cut));
    if (cut != std::string_view::npos)
        fuzz::writeFile(run / "summary.json", input.substr(cut + marker.size()));
    RunModel model;
    QString error;
    ReplayStats stats;
    replayRecordedRun(QString::fromStdString(run.string()), &model, &error, &stats);
    stats.describe();
    scanRecordedRuns(QString::fromStdString(runs.string()));
    return 0;
}
