// A saved run profile (launch/config/run_config.h, RunConfig::loadProfile: the GUI's File > Open profile and
// the CLI's --profile): the input is the profile file's bytes. A profile that loads is checked as the form
// does (validateValues), turned into a worker's arguments and a rank's environment, and saved back as JSON.
#include "fuzz_support.h"

#include "launch/config/run_config.h"

#include <QCoreApplication>
#include <QJsonDocument>

using namespace ddpdesk;
using namespace ddpdesk::launch;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static int argc = 1;
    static char name[] = "fuzz_profile";
    static char* argv[] = {name, nullptr};
    static auto* app = new QCoreApplication(argc, argv);
    (void)app;
    const fuzz::fs::path file = fuzz::scratch() / "profile.json";
    fuzz::writeFile(file, std::string_view(reinterpret_cast<const char*>(data), size));
    RunConfig config;
    QString error;
    if (!RunConfig::loadProfile(QString::fromStdString(file.string()), &config, &error)) return 0;
    config.validateValues();
    if (config.nproc >= 1 && config.nproc <= 64) {
        config.workerArgs(0);
        config.rankEnvironment(0);
    }
    (void)QJsonDocument(config.toJson()).toJson();
    return 0;
}
