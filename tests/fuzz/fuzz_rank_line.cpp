// A rank's output lines as the launcher reads them (launch/run/rank_line_reader.h): telemetry events into the
// RunModel and the run's record, the rest as log text, a script's loss lines as steps. The input is what two
// local ranks print, one line each in turn.
// Input: one mode byte, then lines. Mode & 3: 0 a worker run, 1 a script run, 2 a script run with the
// instrumentation module (its events are taken); bit n+2 (n = line index % 6) sends that line to stderr.
#include "fuzz_support.h"

#include "launch/config/run_config.h"
#include "launch/model/run_model.h"
#include "launch/run/rank_line_reader.h"
#include "protocol/telemetry.h"

#include <QCoreApplication>

using namespace ddpdesk;
using namespace ddpdesk::launch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static int argc = 1;
    static char name[] = "fuzz_rank_line";
    static char* argv[] = {name, nullptr};
    static auto* app = new QCoreApplication(argc, argv);
    (void)app;
    if (size == 0) return 0;
    const int mode = data[0] & 3;
    RunConfig config;
    config.nproc = 2;
    if (mode != 0) config.scriptFile = QStringLiteral("train.py");
    RunModel model;
    model.reset({0, 1}, 2, config.isScript() ? QStringLiteral("script") : QStringLiteral("autoencoder"), 100);
    RankLineReader reader(config, model,
                          [](const nlohmann::json& event) { (void)protocol::encodeLine(event); });
    reader.setInstrumented(mode == 2);
    reader.beginAttempt();
    const auto lines = fuzz::splitLines(std::string_view(reinterpret_cast<const char*>(data + 1), size - 1));
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const bool isStderr = (data[0] >> (2 + i % 6)) & 1;
        reader.onLine(int(i % 2), QByteArray::fromStdString(lines[i]), isStderr);
    }
    return 0;
}
