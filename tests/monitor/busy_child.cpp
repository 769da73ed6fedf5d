// A worker stand-in for the per-process sampler tests: holds memory, runs extra threads and (optionally)
// burns CPU, then exits by itself so a failed test never leaves it behind.
//   monitor_busy_child <seconds> <megabytes> <extra-threads> <busy|idle>
// Prints "ready" once the memory is touched and the threads run.

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: monitor_busy_child <seconds> <megabytes> <extra-threads> <busy|idle>\n");
        return 2;
    }
    const double seconds = std::atof(argv[1]);
    const size_t megabytes = size_t(std::atoi(argv[2]));
    const int extraThreads = std::atoi(argv[3]);
    const bool busy = std::strcmp(argv[4], "busy") == 0;

    // Written page by page so it is resident, not just reserved.
    std::vector<char> memory(megabytes * 1024 * 1024);
    for (size_t i = 0; i < memory.size(); i += 4096)
        memory[i] = char(i);

    std::atomic<bool> done{false};
    std::vector<std::thread> threads;
    for (int i = 0; i < extraThreads; ++i)
        threads.emplace_back([&done] {
            while (!done)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
        });
    std::printf("ready\n");
    std::fflush(stdout);

    const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    volatile unsigned long long sink = 0;
    while (std::chrono::steady_clock::now() < end) {
        if (busy) {
            for (int i = 0; i < 100000; ++i)
                sink = sink + unsigned(i) * 2654435761u;
        } else {
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    }
    done = true;
    for (auto& t : threads)
        t.join();
    return int(memory[4096] & 0) + int(sink & 0);
}
