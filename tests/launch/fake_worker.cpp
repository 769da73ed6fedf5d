// A stand-in for ddpdesk-worker that misbehaves on purpose, so supervision is tested against real processes.
// Mode from DDPDESK_FAKE_MODE (ok|crash|hang|garbage|slow), the misbehaving rank from DDPDESK_FAKE_RANK
// (default 1), the rank from --rank or $RANK. Plain C++ so it behaves the same on every platform.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>

namespace {

std::string env(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}

void emit(const std::string& json) {
    std::cout << json << "\n" << std::flush;
}

std::string event(const std::string& type, int rank, const std::string& fields) {
    return "{\"v\":1,\"event\":\"" + type + "\",\"rank\":" + std::to_string(rank) + ",\"t\":" +
           std::to_string(
               std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count()) +
           (fields.empty() ? "" : "," + fields) + "}";
}

void step(int rank, int s, int batch) {
    const double loss = 1.0 / (1.0 + s);
    emit(event("step", rank,
               "\"epoch\":0,\"step\":" + std::to_string(s) + ",\"loss\":" + std::to_string(loss) +
                   ",\"samples\":" + std::to_string(s * batch) +
                   ",\"step_ms\":10,\"compute_ms\":8,\"comm_wait_ms\":2,\"bytes_allreduced\":100"));
}

void sleepMs(int ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

} // namespace

int main(int argc, char** argv) {
    int rank = std::atoi(env("RANK", "0").c_str());
    int steps = 20;
    for (int i = 1; i + 1 < argc; ++i) {
        if (!std::strcmp(argv[i], "--rank")) rank = std::atoi(argv[i + 1]);
        if (!std::strcmp(argv[i], "--steps")) steps = std::atoi(argv[i + 1]);
    }
    const std::string mode = env("DDPDESK_FAKE_MODE", "ok");
    const int bad = std::atoi(env("DDPDESK_FAKE_RANK", "1").c_str());
    if (env("DDPDESK_FAKE_IGNORE_TERM", "0") == "1")
        std::signal(SIGTERM, SIG_IGN); // forces the launcher to escalate to kill

    emit(event("hello", rank, "\"world_size\":2,\"pid\":0,\"host\":\"fake\""));
    emit(event("rendezvous", rank, "\"phase\":\"done\""));
    std::cerr << "fake worker rank " << rank << " mode " << mode << std::endl;

    if (mode == "garbage") {
        std::cout << "plain text that is not telemetry\n";
        std::cout
            << "{\"v\":1,\"event\":\"step\",\"step\":\"not a number\",\"loss\":\"abc\",\"samples\":[1]}\n";
        std::cout << "{\"event\": 5}\n{\"v\":1,\"event\":\"step\",\"step\":\n[1,2,3]\n";
        std::cout << std::string(200000, 'x') << "\n";                // an over-long line
        std::cout.write("\x00\x01\xff\xfe binary \x80\x81\n", 16);    // bytes that are not UTF-8, a NUL
        std::cout << "{\"v\":99,\"event\":\"step\",\"step\":1}\n";    // unknown protocol version
        std::cout << std::string(3000000, '{') << "\n" << std::flush; // 3 MB of braces, no valid JSON
        std::cerr << std::string(100000, 'e') << "\nstderr garbage \xff\xfe\n" << std::flush;
    }
    for (int s = 1; s <= steps; ++s) {
        if (mode == "crash" && rank == bad && s == 3) {
            for (int i = 1; i <= 60; ++i)
                std::cerr << "crash trace line " << i << "\n";
            std::cerr << std::flush;
            emit(event("error", rank, "\"code\":\"NAN_LOSS\",\"message\":\"loss became NaN at step 3\""));
            return 4;
        }
        if (mode == "hang" && rank == bad && s == 3) {
            std::cerr << "rank " << rank << " hangs now" << std::endl;
            for (;;)
                sleepMs(1000);
        }
        if ((mode == "crash" || mode == "hang") && rank != bad && s >= 5) {
            for (;;) // waiting in a collective for a peer that never comes
                sleepMs(1000);
        }
        step(rank, s, 32);
        sleepMs(mode == "slow" && rank == bad ? 400 : 50);
    }
    emit(event("done", rank,
               "\"steps\":" + std::to_string(steps) + ",\"wall_s\":1.0,\"final_loss\":" +
                   std::to_string(1.0 / (1.0 + steps)) + ",\"samples_per_s\":640"));
    return 0;
}
