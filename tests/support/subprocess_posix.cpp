// POSIX side of subprocess.h: posix_spawnp with pipes created close-on-exec (a rank started concurrently must
// not inherit another rank's pipe and keep it open past that rank's exit), the child in its own process group
// so a timeout kills wrappers and what they started, and poll() on the pipes so a reader can give up on a
// pipe that a grandchild keeps open.

#include "subprocess.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>

extern char** environ;

namespace ddpdesk::testsupport {

struct Subprocess::Native {
    pid_t pid = -1;
    int outFd = -1;
    int errFd = -1;
};

namespace {

// This process's environment with `changes` applied, as NAME=VALUE strings.
std::vector<std::string> mergedEnvironment(const EnvChanges& changes) {
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e)
        env.emplace_back(*e);
    for (const auto& [name, value] : changes) {
        const std::string prefix = name + "=";
        env.erase(
            std::remove_if(env.begin(), env.end(),
                           [&](const std::string& s) { return s.compare(0, prefix.size(), prefix) == 0; }),
            env.end());
        if (value) env.push_back(prefix + *value);
    }
    return env;
}

void closeFd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

} // namespace

Subprocess::Subprocess() : m_native(std::make_unique<Native>()) {}

Subprocess::~Subprocess() {
    if (m_started && !m_exited) kill();
    finishReading();
}

bool Subprocess::start(const std::string& program, const std::vector<std::string>& args,
                       const EnvChanges& env) {
    if (m_started) {
        m_startError = "already started";
        return false;
    }
    int outPipe[2], errPipe[2];
    if (::pipe2(outPipe, O_CLOEXEC) != 0) {
        m_startError = std::string("pipe: ") + std::strerror(errno);
        return false;
    }
    if (::pipe2(errPipe, O_CLOEXEC) != 0) {
        m_startError = std::string("pipe: ") + std::strerror(errno);
        ::close(outPipe[0]);
        ::close(outPipe[1]);
        return false;
    }

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    // No test feeds a child stdin; /dev/null makes one that reads it see end of file instead of waiting.
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, outPipe[1], 1);
    posix_spawn_file_actions_adddup2(&actions, errPipe[1], 2);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setpgroup(&attr, 0);
    // The test runner may ignore SIGPIPE; a child should get the defaults back.
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, m_ownGroup ? POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF
                                               : POSIX_SPAWN_SETSIGDEF);

    std::vector<std::string> argStrings;
    argStrings.push_back(program);
    argStrings.insert(argStrings.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : argStrings)
        argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> envStrings = mergedEnvironment(env);
    std::vector<char*> envp;
    for (std::string& e : envStrings)
        envp.push_back(e.data());
    envp.push_back(nullptr);

    pid_t pid = -1;
    const int rc = ::posix_spawnp(&pid, program.c_str(), &actions, &attr, argv.data(), envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(outPipe[1]);
    ::close(errPipe[1]);
    if (rc != 0) {
        m_startError = program + ": " + std::strerror(rc);
        ::close(outPipe[0]);
        ::close(errPipe[0]);
        return false;
    }
    m_native->pid = pid;
    m_native->outFd = outPipe[0];
    m_native->errFd = errPipe[0];
    m_pid = pid;
    m_started = true;
    m_outReader = std::thread([this] { readPipe(1, &m_out); });
    m_errReader = std::thread([this] { readPipe(2, &m_err); });
    return true;
}

void Subprocess::readPipe(int which, std::string* into) {
    const int fd = which == 1 ? m_native->outFd : m_native->errFd;
    int quietAfterExit = 0;
    char buffer[65536];
    for (;;) {
        pollfd p{fd, POLLIN, 0};
        const int ready = ::poll(&p, 1, 100);
        if (ready < 0 && errno == EINTR) continue;
        if (ready == 0) {
            // Two quiet seconds after the child is gone: what is left holds the pipe without writing.
            if (m_childGone && ++quietAfterExit >= 20) return;
            continue;
        }
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return;
        std::lock_guard<std::mutex> lock(m_mutex);
        into->append(buffer, static_cast<size_t>(n));
    }
}

void Subprocess::closePipes() {
    closeFd(m_native->outFd);
    closeFd(m_native->errFd);
}

bool Subprocess::waitUntil(Clock::time_point deadline) {
    if (!m_started) return false;
    for (;;) {
        if (m_exited) return true;
        int status = 0;
        const pid_t done = ::waitpid(m_native->pid, &status, WNOHANG);
        if (done == m_native->pid || (done < 0 && errno == ECHILD)) {
            m_exited = true;
            m_exitCode = done == m_native->pid && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
            m_termSignal = done == m_native->pid && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
            finishReading();
            return true;
        }
        const auto now = Clock::now();
        if (now >= deadline) return false;
        std::this_thread::sleep_for(std::min<Clock::duration>(deadline - now, std::chrono::milliseconds(5)));
    }
}

void Subprocess::kill() {
    if (!m_started || m_exited) return;
    if (m_ownGroup) ::kill(-m_native->pid, SIGKILL); // the group: wrappers and what they started
    ::kill(m_native->pid, SIGKILL);
    int status = 0;
    while (::waitpid(m_native->pid, &status, 0) < 0 && errno == EINTR) {
    }
    m_exited = true;
    m_exitCode = -1;
    finishReading();
}

std::string currentExecutable() {
    std::string path(4096, '\0');
    const ssize_t n = ::readlink("/proc/self/exe", path.data(), path.size()); // Linux; elsewhere empty
    path.resize(n > 0 ? size_t(n) : 0);
    return path;
}

std::uint16_t freeLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return 0;
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    std::uint16_t port = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0)
        port = ntohs(address.sin_port);
    ::close(fd);
    return port;
}

} // namespace ddpdesk::testsupport
