#include "launch/diagnose/failure_diagnosis.h"

#include "protocol/finding_codes.h"

#include <QtGlobal> // QT_TRANSLATE_NOOP only: marks the table's texts for lupdate, expands to the plain literal

#include <cctype>
#include <regex>

namespace ddpdesk::launch {

namespace {

#define DDP_TR(text) QT_TRANSLATE_NOOP("ddpdesk::launch::FailureDiagnosis", text)

// A kind and the texts that identify it (ECMAScript, case-insensitive, searched anywhere in a line). Each
// pattern names where the text comes from, so a change in PyTorch's wording can be traced; the tests produce
// each text with a real PyTorch where this machine can, and quote the source or issue tracker otherwise
// (tests/launch/failure_texts).
struct Entry {
    FailureKind kind;
    std::vector<const char*> patterns;
};

const std::vector<Entry>& table() {
    static const std::vector<Entry> entries = {
        // ---- root causes: configuration or environment, the same on every rank ----
        {{protocol::diagnosis::NcclUnavailable,
          DDP_TR("This PyTorch has no NCCL: NCCL exists only in Linux builds with CUDA, never on Windows "
                 "or in CPU-only builds."),
          DDP_TR("Use the gloo backend: init_process_group(\"gloo\", ...). DDP Desk's own workers always "
                 "use Gloo."),
          false},
         {// torch/distributed/distributed_c10d.py (CPU-only and Windows builds)
          R"(Distributed package doesn't have NCCL built in)"}},
        {{protocol::diagnosis::LibuvUnavailable,
          DDP_TR("PyTorch's TCPStore was asked to use libuv, but this PyTorch was built without it "
                 "(Windows builds of torch 2.4 and later, Debian's torch 2.6)."),
          DDP_TR("Set USE_LIBUV=0 in the environment (DDP Desk sets it for script runs where the "
                 "interpreter lacks libuv) or create the TCPStore with use_libuv=False. torchrun 2.x "
                 "ignores USE_LIBUV=0: start the ranks with DDP Desk instead."),
          false},
         {// torch/csrc/distributed/c10d/TCPStore.cpp; pytorch#139990 (sic: "build without")
          R"(use_libuv was requested but PyTorch was buil[dt] without libuv support)"}},
        {{protocol::diagnosis::GlooDeviceUnsupported,
          DDP_TR("Gloo could not create its network device: the transport it was asked for is not in this "
                 "build. Windows torch 2.8 and 2.9 fail like this for every Gloo job (a known broken Gloo "
                 "in those releases)."),
          DDP_TR("On Windows, pin the last working release (pip install torch==2.7.1) until a fixed one "
                 "ships; elsewhere, unset GLOO_DEVICE_TRANSPORT."),
          false},
         {// torch/csrc/distributed/c10d/GlooDeviceFactory.cpp; OneTrainer#1122, gloo#472
          R"(makeDeviceForHostname\(\): unsupported gloo device)"}},
        {{protocol::diagnosis::GlooAddressUnresolved,
          DDP_TR("Gloo could not turn this machine's hostname or network interface into a local address to "
                 "listen on."),
          DDP_TR("Set GLOO_SOCKET_IFNAME to the network interface to use (for example eth0), or make the "
                 "hostname resolve to one of this machine's own addresses."),
          false},
         {// ProcessGroupGloo::createDeviceForHostname; GlooDeviceFactory makeUVDevice (Applio#79)
          R"(Cannot resolve \S+ to a \(local\) address)", R"(interface or hostname can't be empty)"}},
        {{protocol::diagnosis::GlooVersionMismatch,
          DDP_TR("The ranks' Gloo libraries disagree on how a network address is written: the ranks run "
                 "different PyTorch releases (1.x beside 2.x), or a ddpdesk-worker built against another "
                 "LibTorch than the Python ranks use. The rank on the other side may fail with a bare "
                 "std::bad_alloc."),
          DDP_TR("Run every rank with the same PyTorch release: the same interpreter and torch version on "
                 "every node, and a ddpdesk-worker built against that release's LibTorch (ddpdesk-worker "
                 "--version names it)."),
          false},
         {// gloo/transport/tcp/address.cc: "sizeof(impl_) == bytes.size(). 136 vs 170" (a 1.13 rank reading
          // a 2.6 rank's address; tests/launch/failure_texts/gloo_version_mismatch.txt)
          R"(sizeof\(impl_\) == bytes\.size\(\))"}},
        {{protocol::diagnosis::CudaOutOfMemory, DDP_TR("A GPU ran out of memory."),
          DDP_TR("Lower the batch size per rank, make sure each rank uses its own GPU "
                 "(torch.cuda.set_device(LOCAL_RANK)), or free the GPU from other processes; "
                 "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True helps against fragmentation."),
          false},
         {// c10/cuda/CUDACachingAllocator.cpp; raised as torch.cuda.OutOfMemoryError / torch.OutOfMemoryError
          R"(CUDA out of memory)", R"(\bOutOfMemoryError\b)"}},
        {{protocol::diagnosis::CudaInvalidDevice,
          DDP_TR("A rank asked for a GPU that does not exist here (invalid device ordinal): more ranks per "
                 "node than visible GPUs, or CUDA_VISIBLE_DEVICES hides some."),
          DDP_TR("Run at most one rank per visible GPU and select it with LOCAL_RANK "
                 "(torch.cuda.set_device), or run on CPU with the gloo backend."),
          false},
         {// the CUDA runtime's cudaErrorInvalidDevice text, through C10_CUDA_CHECK
          R"(invalid device ordinal)"}},
        {{protocol::diagnosis::CudaUnavailable,
          DDP_TR("The script uses CUDA, but this PyTorch has no CUDA support, or no GPU or NVIDIA driver "
                 "is visible."),
          DDP_TR("Install a CUDA build of PyTorch and the NVIDIA driver, or run on CPU: keep the model and "
                 "tensors on \"cpu\" and use the gloo backend."),
          false},
         {// torch/cuda/__init__.py (_lazy_init, _check_driver); c10/cuda/CUDAFunctions.cpp
          R"(Torch not compiled with CUDA enabled)", R"(No CUDA GPUs are available)",
          R"(Found no NVIDIA driver on your system)", R"(CUDA driver version is insufficient)",
          // torch.cuda.set_device on a CPU-only build
          R"(has no attribute '_cuda_setDevice')"}},
        // ---- root causes: the training code ----
        {{protocol::diagnosis::TorchTooOld,
          DDP_TR("The script uses a part of PyTorch that this interpreter's PyTorch does not have (the line "
                 "below names it): it was written for a newer PyTorch release."),
          DDP_TR("Run it with an interpreter whose PyTorch has it (--python, or the Python setting on the "
                 "Setup page), or upgrade PyTorch in this one; `python -c \"import torch; "
                 "print(torch.__version__)\"` names the release an interpreter has."),
          false},
         {// Python's AttributeError for a public name a module of torch lacks, e.g. torch.compile on 1.13
          R"(module 'torch(\.\w+)*' has no attribute '[A-Za-z]\w*')"}},
        {{protocol::diagnosis::BackendRequired,
          DDP_TR(
              "init_process_group() was called without a backend: PyTorch 2.x picks one itself, PyTorch 1.x "
              "needs it named, so the script was written for PyTorch 2.x."),
          DDP_TR("Name the backend: init_process_group(\"gloo\") (CPU, and any machine) or \"nccl\" (Linux "
                 "with CUDA); or run the script with a PyTorch 2.x interpreter."),
          false},
         {// torch/distributed/distributed_c10d.py of 1.x: backend is a required argument
          R"(init_process_group\(\) missing 1 required positional argument: 'backend')"}},
        {{protocol::diagnosis::DdpUnusedParameters,
          DDP_TR("DistributedDataParallel expected a gradient for every parameter, but some parameters did "
                 "not take part in computing the loss."),
          DDP_TR("Pass find_unused_parameters=True to DistributedDataParallel, or make every parameter "
                 "take part in the loss (remove layers the forward pass does not use)."),
          false},
         {// torch/csrc/distributed/c10d/reducer.cpp
          R"(Expected to have finished reduction in the prior iteration)"}},
        {{protocol::diagnosis::CollectiveMismatch,
          DDP_TR("The ranks called different collectives, or the same one with different tensor shapes or "
                 "in a different order (their sequence numbers differ): their code paths diverged."),
          DDP_TR("Make every rank run the same collectives in the same order with the same shapes: watch "
                 "rank-dependent branches and uneven last batches (DistributedSampler with "
                 "drop_last=True). TORCH_DISTRIBUTED_DEBUG=DETAIL reports the first difference."),
          false},
         {// torch/csrc/distributed/c10d/ProcessGroupWrapper.cpp (TORCH_DISTRIBUTED_DEBUG=DETAIL)
          R"(Detected mismatch between collectives on ranks)", R"(Sequence number: \d+\s*vs\s*\d+)",
          // gloo/transport/tcp/pair.cc: a peer sent more bytes than this rank's collective expects
          R"(op\.preamble\.length <= op\.nbytes)",
          // NCCL's net transport (NVIDIA/nccl#531, #969)
          R"(collective mismatch error)"}},
        {{protocol::diagnosis::NanLoss,
          DDP_TR("The loss became NaN or infinite: training diverged (or the data contains NaN)."),
          DDP_TR("Lower the learning rate, check the input data for NaN and inf, clip gradients; "
                 "torch.autograd.set_detect_anomaly(True) names the operation that produced it."),
          false},
         {// ddpdesk-worker's error event (core/train/base/errors.h), as "NAN_LOSS: message"
          R"(\bNAN_LOSS\b)",
          // torch/csrc/autograd/engine.cpp under anomaly mode
          R"(returned nan values in its)",
          // what scripts commonly raise themselves
          R"(\bloss (?:became|is|was) (?:nan|inf|infinite|non-finite)\b)", R"(\b(?:nan|non-finite) loss\b)"}},
        {{protocol::diagnosis::RanksDiverged,
          DDP_TR("The run completed, but its ranks ended with different parameters (their params_sha256 "
                 "differ): DDP keeps every rank identical, so something on some rank changed the model "
                 "outside the gradient exchange."),
          DDP_TR(
              "Look for code that touches parameters on one rank only, a non-deterministic custom operation, "
              "or ranks on different LibTorch builds; train.equivalence-style runs with --grad-transport "
              "gloo "
              "narrow it down. Use rank 0's model.pt, which is the one saved."),
          false},
         {// RunModel's own check of the workers' done events
          R"(\bRANKS_DIVERGED\b)"}},
        // ---- root causes: the network setup ----
        {{protocol::diagnosis::AddressInUse,
          DDP_TR("The rendezvous port is already in use by another process (often another training job on "
                 "the default port 29500)."),
          DDP_TR("Pick a free port (MASTER_PORT, or --store tcp://HOST:PORT); ddpdesk-cli doctor names the "
                 "process that holds it."),
          false},
         {// torch/csrc/distributed/c10d/socket.cpp: "(errno: 98 - Address already in use)" on Linux,
          // "(system error: 10048 - <localised text>)" on Windows; Python's own [WinError 10048]
          R"(errno:? 98\b)", R"(Address already in use)", R"((?:system error:?|WinError|Errno) 10048\b)",
          R"(Only one usage of each socket address)"}},
        {{protocol::diagnosis::AddressNotAvailable,
          DDP_TR("The address to listen on or connect to is not valid on this machine (for example 0.0.0.0 "
                 "as the master address on Windows, or an IP address this machine does not have)."),
          DDP_TR("Use the master node's real address for MASTER_ADDR or the TCP store, and on the master "
                 "an address of one of its own network interfaces."),
          false},
         {// socket.cpp on Linux (errno 99) and Windows (10049, pytorch#77523)
          R"(errno:? 99\b)", R"(Cannot assign requested address)",
          R"((?:system error:?|WinError|Errno) 10049\b)",
          R"(requested address is not valid in its context)"}},
        {{protocol::diagnosis::PortAccessDenied,
          DDP_TR("The operating system refused the port: on Windows a port inside an excluded range "
                 "(Hyper-V, WSL, Docker reserve them) or blocked by policy; elsewhere a privileged port "
                 "below 1024."),
          DDP_TR("Choose another port: outside the ranges that 'netsh interface ipv4 show "
                 "excludedportrange protocol=tcp' lists on Windows, above 1024 elsewhere."),
          false},
         {// socket.cpp on Windows (10013) and Linux (errno 13 on bind)
          R"((?:system error:?|WinError|Errno) 10013\b)", R"(forbidden by its access permissions)",
          R"(failed to bind .*errno:? 13\b)"}},
        // ---- consequences: this rank waited for another one that failed, hangs or never came ----
        {{protocol::diagnosis::RendezvousTimeout,
          DDP_TR("Not every rank arrived at the rendezvous in time: a rank did not start, failed before "
                 "it, or cannot reach the store."),
          DDP_TR("Check that every rank started (every node launched with the same world size and store), "
                 "that the store address is reachable from every node and that no stale FileStore file is "
                 "reused; ddpdesk-cli doctor checks these."),
          true},
         {// TCPStore master: "Timed out after N seconds waiting for clients. k/n clients joined."
          R"(Timed out.*waiting for clients)",
          // distributed_c10d.py _store_based_barrier; FileStore::wait ("Wait timeout")
          R"(store based barrier)", R"(\bWait timeout\b)",
          // ProcessGroupGloo::monitoredBarrier: "Rank 1 failed to pass monitoredBarrier in 2000 ms"
          R"(failed to pass monitoredBarrier)"}},
        {{protocol::diagnosis::PeerTimeout,
          DDP_TR("A network operation timed out waiting for another rank: that rank died, hangs, or cannot "
                 "be reached (a firewall)."),
          DDP_TR("Look at the rank that failed first. If none did, allow the program (not only one port) "
                 "through the firewall on every node, and check that all ranks run the same number of "
                 "steps."),
          true},
         {// ProcessGroupGloo / TCPStore on 1.x: "Socket Timeout" (pytorch#85621)
          R"(\bSocket Timeout\b)",
          // socket.cpp: "The client socket has timed out after 2s while trying to connect to (host, port)."
          R"(socket has timed out)",
          // gloo/transport/tcp/unbound_buffer.cc: "Timed out waiting 5000ms for recv operation to complete"
          R"(Timed out waiting \d+ ?ms for (?:recv|send))",
          // ProcessGroupNCCL's watchdog
          R"(Watchdog caught collective operation timeout)"}},
        {{protocol::diagnosis::ConnectionLost,
          DDP_TR("The connection to another rank was closed or reset: that rank died first (a crash, an "
                 "out-of-memory kill, Ctrl-C)."),
          DDP_TR("Look at the output and exit status of the rank that failed first; this rank's error is "
                 "only the consequence."),
          true},
         {// gloo/transport/tcp/pair.cc: "Read error [ip]:port: Connection reset by peer",
          // "Connection closed by peer [ip]:port"; Windows: WSAECONNRESET 10054
          R"(Connection reset by peer)", R"(Connection closed by peer)", R"(\bBroken pipe\b)",
          R"((?:system error:?|WinError|Errno) 10054\b)", R"(forcibly closed by the remote host)"}},
        // Last, and counted like a consequence: PyTorch's threads can abort like this while Python exits
        // after
        // any other failure, so any other text recognised in any rank's output explains the run better.
        {{protocol::diagnosis::CppTerminate,
          DDP_TR(
              "The rank's process was ended by C++'s std::terminate with no exception in flight: a C++ "
              "thread of PyTorch was destroyed while still running. Most often this happens while Python "
              "shuts down after the script's last line: PyTorch 1.13 and 2.6 do it now and then in scripts "
              "that register a Python DDP communication hook (reproduced without DDP Desk). If the rank's "
              "last step and its files are there, the training itself completed."),
          DDP_TR("End the script with dist.destroy_process_group() and, once everything is saved, flushed "
                 "and closed (atexit handlers do not run), os._exit(0): it skips the interpreter shutdown in "
                 "which PyTorch's threads abort. If it happens during training, TORCH_SHOW_CPP_STACKTRACES=1 "
                 "shows which C++ code ended the process."),
          true},
         {// libstdc++'s verbose terminate handler (std::thread destroyed while joinable, or std::terminate()
          // called directly); seen from PyTorch 2.6 and 1.13 ranks at interpreter exit
          // (tests/launch/failure_texts/terminate_at_exit_torch2.txt)
          R"(terminate called without an active exception)"}},
    };
    return entries;
}

#undef DDP_TR

// A literal that every match of a pattern contains (lowercase; "" when none can be told, e.g. with
// alternatives): a plain find() on it rules most lines out before std::regex, which is slow, has to look at
// them.
std::string requiredLiteral(const std::string& p) {
    if (p.find('|') != std::string::npos) return {};
    std::string best, cur;
    const auto flush = [&] {
        if (cur.size() > best.size()) best = cur;
        cur.clear();
    };
    for (std::size_t i = 0; i < p.size(); ++i) {
        const char c = p[i];
        if (c == '\\') { // \d, \b, \( ...: not a literal run
            flush();
            ++i;
        } else if (c == '?' || c == '*' || c == '+' ||
                   c == '{') { // the character before may be absent or repeat
            if (!cur.empty()) cur.pop_back();
            flush();
            if (c == '{') i = p.find('}', i);
        } else if (c == '(' || c == ')' || c == '.' || c == '^' || c == '$' || c == '[' || c == ']') {
            flush();
            if (c == '[') i = p.find(']', i);
            if (c == '(' && i + 2 < p.size() && p[i + 1] == '?' && p[i + 2] == ':') i += 2;
        } else {
            cur += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        if (i == std::string::npos) break;
    }
    flush();
    return best.size() >= 4 ? best : std::string();
}

struct Pattern {
    std::regex re;
    std::string literal;
};

struct Compiled {
    const FailureKind* kind;
    std::vector<Pattern> patterns;
};

const std::vector<Compiled>& compiled() {
    static const std::vector<Compiled> all = [] {
        std::vector<Compiled> out;
        for (std::size_t i = 0; i < table().size(); ++i) {
            // The kind's address in failureKinds(): the one identity findFailureKind() also returns.
            Compiled c{&failureKinds()[i], {}};
            for (const char* p : table()[i].patterns)
                c.patterns.push_back(
                    {std::regex(p, std::regex::ECMAScript | std::regex::icase | std::regex::optimize),
                     requiredLiteral(p)});
            out.push_back(std::move(c));
        }
        return out;
    }();
    return all;
}

// c10d and glog warnings ("[W socket.cpp:426] ...", "W20261201 02:36:01.9 ... socket.cpp:426]", "[W1201 ...")
// are attempts that may have succeeded another way (Windows tries every address of a hostname and warns about
// 10049 on the ones that fail): they count only when no other line explains the failure.
bool isWarning(const std::string& line) {
    static const std::regex warning(R"(^\s*(?:\[rank\d+\]:\s*)?\[?W(?:\d{4}|\s))");
    return std::regex_search(line, warning);
}

std::string trimmed(const std::string& s) {
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return {};
    const auto e = s.find_last_not_of(" \t\r\n");
    std::string t = s.substr(b, e - b + 1);
    if (t.size() > kMaxMatchedChars) {
        t.resize(kMaxMatchedChars);
        // Never cut a UTF-8 sequence in half: drop continuation bytes and the lead byte they belong to.
        while (!t.empty() && (static_cast<unsigned char>(t.back()) & 0xC0) == 0x80)
            t.pop_back();
        if (!t.empty() && (static_cast<unsigned char>(t.back()) & 0x80)) t.pop_back();
        t += "...";
    }
    return t;
}

} // namespace

const std::vector<FailureKind>& failureKinds() {
    static const std::vector<FailureKind> kinds = [] {
        std::vector<FailureKind> out;
        for (const Entry& e : table())
            out.push_back(e.kind);
        return out;
    }();
    return kinds;
}

const FailureKind* findFailureKind(const std::string& code) {
    for (const FailureKind& k : failureKinds())
        if (code == k.code) return &k;
    return nullptr;
}

std::optional<LineMatch> diagnoseLines(const std::vector<std::string>& lines) {
    // Only a line's head is searched: the texts sit near the start of their line, and std::regex is slow on
    // the very long lines some tracebacks have (50 lines of 8 ranks are searched on the GUI thread when a run
    // ends).
    constexpr std::size_t kSearchedChars = 1000;
    std::vector<std::string> heads, lowered;
    std::vector<bool> warning;
    for (const std::string& l : lines) {
        heads.push_back(l.size() > kSearchedChars ? l.substr(0, kSearchedChars) : l);
        lowered.push_back(heads.back());
        for (char& ch : lowered.back())
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        warning.push_back(isWarning(heads.back()));
    }
    // Table order is priority: a traceback often carries several texts (the root cause, then the consequences
    // printed while shutting down). Within a kind, the last matching line is the final error, the most
    // telling.
    for (bool warnings : {false, true}) {
        for (const Compiled& c : compiled()) {
            for (std::size_t k = heads.size(); k-- > 0;) {
                if (warning[k] != warnings) continue;
                for (const Pattern& p : c.patterns)
                    if ((p.literal.empty() || lowered[k].find(p.literal) != std::string::npos) &&
                        std::regex_search(heads[k], p.re))
                        return LineMatch{c.kind, trimmed(lines[k])};
            }
        }
    }
    return std::nullopt;
}

std::optional<Diagnosis> diagnoseRun(const std::vector<RankOutput>& ranks, int firstFailedRank) {
    std::vector<const RankOutput*> order;
    for (const RankOutput& r : ranks)
        if (r.rank == firstFailedRank) order.push_back(&r);
    for (const RankOutput& r : ranks)
        if (r.rank != firstFailedRank) order.push_back(&r);

    const RankOutput* consequenceRank = nullptr;
    std::optional<LineMatch> consequence;
    for (const RankOutput* r : order) {
        std::optional<LineMatch> m = diagnoseLines(r->lines);
        if (!m) continue;
        if (!m->kind->consequence) {
            Diagnosis d{m->kind->code, m->kind->message, m->kind->fix, m->line, r->rank, -1, {}};
            // The release this interpreter has, where DDP Desk's module said it under the traceback.
            if (d.code == protocol::diagnosis::TorchTooOld)
                for (const std::string& line : r->lines)
                    if (line.rfind(kInterpreterTorchNote, 0) == 0)
                        d.matched += " (this interpreter's PyTorch: " +
                                     line.substr(std::string(kInterpreterTorchNote).size()) + ")";
            return d;
        }
        if (!consequence) {
            consequence = m;
            consequenceRank = r;
        }
    }
    if (!consequence) return std::nullopt;
    Diagnosis d{consequence->kind->code,
                consequence->kind->message,
                consequence->kind->fix,
                consequence->line,
                consequenceRank->rank,
                -1,
                {}};
    // The rank whose connection went away had finished its work (exit code 0) while this one still waited:
    // nobody died; this rank waited in a collective the other never entered.
    const bool otherFailedFirst = firstFailedRank >= 0 && firstFailedRank != consequenceRank->rank;
    if (d.code == protocol::diagnosis::ConnectionLost && !otherFailedFirst)
        for (const RankOutput& r : ranks)
            if (r.rank != consequenceRank->rank && r.exitCode == 0) {
                const FailureKind* mismatch = findFailureKind(protocol::diagnosis::CollectiveMismatch);
                if (!mismatch) break;
                d.code = mismatch->code;
                d.message = "Rank " + std::to_string(r.rank) +
                            " had already finished (exit code 0) when rank " +
                            std::to_string(consequenceRank->rank) +
                            " lost its connection to it: no rank died; rank " +
                            std::to_string(consequenceRank->rank) +
                            " waited in a collective the other never entered, so the ranks ran different "
                            "collectives (a metric, an evaluation or a DDP forward only some ranks do).";
                d.fix = mismatch->fix;
                return d;
            }
    if (otherFailedFirst) {
        d.firstFailedRank = firstFailedRank;
        for (const RankOutput& r : ranks)
            if (r.rank == firstFailedRank) d.firstFailedExit = r.exitText;
        d.message += " Rank " + std::to_string(firstFailedRank) + " failed first" +
                     (d.firstFailedExit.empty() ? std::string() : " (" + d.firstFailedExit + ")") +
                     ": its output and exit status show the cause.";
    }
    return d;
}

} // namespace ddpdesk::launch
