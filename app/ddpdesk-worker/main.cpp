// ddpdesk-worker: one process = one rank of a DDP job. The program lives in core/train (worker.cpp); this
// file only adds --version, which reports what the shared version text reports for every DDP Desk executable.

#include "train/worker/worker.h"

#include <cstdio>
#include <cstring>
#include <string>

#ifdef DDPDESK_HAVE_VERSION_TEXT
#include "common/version_text.h"
#else
#include <ddpdesk/build_info.h>
#endif

int main(int argc, char** argv) {
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--version") == 0) {
#ifdef DDPDESK_HAVE_VERSION_TEXT
            std::string text = ddpdesk::versionText("ddpdesk-worker");
#else
            std::string text =
                std::string("ddpdesk-worker ") + DDPDESK_VERSION + "\nLibTorch: " + DDPDESK_TORCH_VERSION +
                "\nCUDA: " + (DDPDESK_TORCH_HAS_CUDA ? "compiled in" : "not available (CPU-only LibTorch)");
#endif
            std::printf("%s\n", text.c_str());
            return 0;
        }
    }
    return ddpdesk::train::runWorker(argc, argv);
}
