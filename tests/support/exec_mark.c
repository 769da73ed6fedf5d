// Loaded with LD_PRELOAD by in_process_share.py: the first process a test case starts (exec*, posix_spawn*,
// system, popen) is written to $DDPDESK_EXEC_MARK and ends the case at once (the test process is killed), so
// a case is known to start processes in the time it takes to start its first one. Without the variable it
// only passes each call on. POSIX only: it measures the suite, it ships in nothing.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void mark(const char* what, const char* path) {
    const char* file = getenv("DDPDESK_EXEC_MARK");
    if (!file) return;
    int fd = open(file, O_WRONLY | O_APPEND | O_CREAT, 0600);
    if (fd >= 0) {
        char line[600];
        int n = snprintf(line, sizeof line, "%s %s\n", what, path ? path : "?");
        if (n > 0) (void)!write(fd, line, (size_t)n);
        close(fd);
    }
}
// exec* runs in the child QProcess (or fork) made: the test process is its parent.
static void stopChild(const char* what, const char* path) {
    if (!getenv("DDPDESK_EXEC_MARK")) return;
    mark(what, path);
    kill(getppid(), SIGKILL);
    _exit(127);
}
// posix_spawn*, system and popen run in the test process itself.
static void stopSelf(const char* what, const char* path) {
    if (!getenv("DDPDESK_EXEC_MARK")) return;
    mark(what, path);
    _exit(127);
}
#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))
int execve(const char* p, char* const a[], char* const e[]) {
    stopChild("execve", p);
    return NEXT(execve)(p, a, e);
}
int execv(const char* p, char* const a[]) {
    stopChild("execv", p);
    return NEXT(execv)(p, a);
}
int execvp(const char* p, char* const a[]) {
    stopChild("execvp", p);
    return NEXT(execvp)(p, a);
}
int execvpe(const char* p, char* const a[], char* const e[]) {
    stopChild("execvpe", p);
    return NEXT(execvpe)(p, a, e);
}
int posix_spawn(pid_t* pid, const char* p, const posix_spawn_file_actions_t* fa, const posix_spawnattr_t* at,
                char* const a[], char* const e[]) {
    stopSelf("posix_spawn", p);
    return NEXT(posix_spawn)(pid, p, fa, at, a, e);
}
int posix_spawnp(pid_t* pid, const char* p, const posix_spawn_file_actions_t* fa, const posix_spawnattr_t* at,
                 char* const a[], char* const e[]) {
    stopSelf("posix_spawnp", p);
    return NEXT(posix_spawnp)(pid, p, fa, at, a, e);
}
int system(const char* c) {
    stopSelf("system", c);
    return NEXT(system)(c);
}
FILE* popen(const char* c, const char* m) {
    stopSelf("popen", c);
    return NEXT(popen)(c, m);
}
