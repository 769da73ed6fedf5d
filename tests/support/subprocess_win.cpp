// Windows side of subprocess.h: CreateProcessW with a command line quoted the way the C runtime splits it,
// the child inheriting exactly its three standard handles (PROC_THREAD_ATTRIBUTE_HANDLE_LIST, so a rank
// started concurrently never holds another rank's pipe open), and readers that poll with PeekNamedPipe so
// they can give up on a pipe that a grandchild keeps open.

#include "subprocess.h"

#ifndef NOMINMAX
#define NOMINMAX
#endif
#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#include <windows.h>
#include <winsock2.h>
#include <ws2tcpip.h>

#include <algorithm>
#include <cwchar>

namespace ddpdesk::testsupport {

struct Subprocess::Native {
    HANDLE process = nullptr;
    HANDLE outRead = nullptr;
    HANDLE errRead = nullptr;
};

namespace {

std::wstring widen(const std::string& utf8) {
    if (utf8.empty()) return {};
    const int n = MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), nullptr, 0);
    std::wstring out(static_cast<size_t>(n), L'\0');
    MultiByteToWideChar(CP_UTF8, 0, utf8.data(), static_cast<int>(utf8.size()), out.data(), n);
    return out;
}

// One argument quoted so that CommandLineToArgvW / the C runtime read it back unchanged.
void appendQuoted(std::wstring& line, const std::wstring& arg) {
    if (!line.empty()) line += L' ';
    if (!arg.empty() && arg.find_first_of(L" \t\n\v\"") == std::wstring::npos) {
        line += arg;
        return;
    }
    line += L'"';
    for (size_t i = 0;; ++i) {
        size_t backslashes = 0;
        while (i < arg.size() && arg[i] == L'\\') {
            ++i;
            ++backslashes;
        }
        if (i == arg.size()) {
            line.append(backslashes * 2, L'\\'); // doubled: the closing quote follows
            break;
        }
        if (arg[i] == L'"') {
            line.append(backslashes * 2 + 1, L'\\');
            line += L'"';
        } else {
            line.append(backslashes, L'\\');
            line += arg[i];
        }
    }
    line += L'"';
}

// This process's environment with `changes` applied, as a CreateProcessW block (NAME=VALUE\0...\0\0). Names
// compare case-insensitively, as Windows does.
std::wstring mergedEnvironment(const EnvChanges& changes) {
    std::vector<std::wstring> env;
    if (wchar_t* block = GetEnvironmentStringsW()) {
        for (const wchar_t* p = block; *p; p += std::wcslen(p) + 1)
            env.emplace_back(p);
        FreeEnvironmentStringsW(block);
    }
    for (const auto& [name, value] : changes) {
        const std::wstring prefix = widen(name) + L"=";
        env.erase(std::remove_if(env.begin(), env.end(),
                                 [&](const std::wstring& s) {
                                     return s.size() >= prefix.size() &&
                                            _wcsnicmp(s.c_str(), prefix.c_str(), prefix.size()) == 0;
                                 }),
                  env.end());
        if (value) env.push_back(prefix + widen(*value));
    }
    std::wstring out;
    for (const std::wstring& e : env) {
        out += e;
        out += L'\0';
    }
    out += L'\0';
    return out;
}

std::string lastErrorText(const char* what) {
    return std::string(what) + " failed (Windows error " + std::to_string(GetLastError()) + ")";
}

void closeHandle(HANDLE& h) {
    if (h) CloseHandle(h);
    h = nullptr;
}

} // namespace

Subprocess::Subprocess() : m_native(std::make_unique<Native>()) {}

Subprocess::~Subprocess() {
    if (m_started && !m_exited) kill();
    finishReading();
    closeHandle(m_native->process);
}

bool Subprocess::start(const std::string& program, const std::vector<std::string>& args,
                       const EnvChanges& env) {
    if (m_started) {
        m_startError = "already started";
        return false;
    }
    SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
    HANDLE outRead = nullptr, outWrite = nullptr, errRead = nullptr, errWrite = nullptr;
    if (!CreatePipe(&outRead, &outWrite, &inherit, 0) || !CreatePipe(&errRead, &errWrite, &inherit, 0)) {
        m_startError = lastErrorText("CreatePipe");
        closeHandle(outRead);
        closeHandle(outWrite);
        return false;
    }
    // Only the child's ends are inherited.
    SetHandleInformation(outRead, HANDLE_FLAG_INHERIT, 0);
    SetHandleInformation(errRead, HANDLE_FLAG_INHERIT, 0);
    // No test feeds a child stdin; NUL makes one that reads it see end of file instead of waiting.
    HANDLE nul = CreateFileW(L"NUL", GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, &inherit,
                             OPEN_EXISTING, 0, nullptr);

    HANDLE inherited[3] = {nul, outWrite, errWrite};
    SIZE_T attrSize = 0;
    InitializeProcThreadAttributeList(nullptr, 1, 0, &attrSize);
    std::vector<unsigned char> attrBuffer(attrSize);
    auto* attrs = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(attrBuffer.data());
    const bool attrsOk = InitializeProcThreadAttributeList(attrs, 1, 0, &attrSize) &&
                         UpdateProcThreadAttribute(attrs, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherited,
                                                   sizeof inherited, nullptr, nullptr);

    STARTUPINFOEXW si{};
    si.StartupInfo.cb = sizeof si;
    si.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    si.StartupInfo.hStdInput = nul;
    si.StartupInfo.hStdOutput = outWrite;
    si.StartupInfo.hStdError = errWrite;
    si.lpAttributeList = attrs;

    std::wstring commandLine;
    appendQuoted(commandLine, widen(program));
    for (const std::string& a : args)
        appendQuoted(commandLine, widen(a));
    std::wstring environment = mergedEnvironment(env);
    PROCESS_INFORMATION pi{};
    // No application name: the program is looked up as the command line's first word, PATH included.
    const BOOL created =
        attrsOk && nul != INVALID_HANDLE_VALUE &&
        CreateProcessW(nullptr, commandLine.data(), nullptr, nullptr, TRUE,
                       CREATE_UNICODE_ENVIRONMENT | EXTENDED_STARTUPINFO_PRESENT | CREATE_NO_WINDOW,
                       environment.data(), nullptr, &si.StartupInfo, &pi);
    if (!created) m_startError = program + ": " + lastErrorText("CreateProcessW");
    if (attrsOk) DeleteProcThreadAttributeList(attrs);
    if (nul != INVALID_HANDLE_VALUE) CloseHandle(nul);
    closeHandle(outWrite);
    closeHandle(errWrite);
    if (!created) {
        closeHandle(outRead);
        closeHandle(errRead);
        return false;
    }
    CloseHandle(pi.hThread);
    m_native->process = pi.hProcess;
    m_native->outRead = outRead;
    m_native->errRead = errRead;
    m_pid = static_cast<std::int64_t>(pi.dwProcessId);
    m_started = true;
    m_outReader = std::thread([this] { readPipe(1, &m_out); });
    m_errReader = std::thread([this] { readPipe(2, &m_err); });
    return true;
}

void Subprocess::readPipe(int which, std::string* into) {
    const HANDLE pipe = which == 1 ? m_native->outRead : m_native->errRead;
    int quietAfterExit = 0;
    char buffer[65536];
    for (;;) {
        DWORD available = 0;
        if (!PeekNamedPipe(pipe, nullptr, 0, nullptr, &available, nullptr))
            return; // broken pipe: every writer closed it
        if (available == 0) {
            // Two quiet seconds after the child is gone: what is left holds the pipe without writing.
            if (m_childGone && ++quietAfterExit >= 200) return;
            Sleep(10);
            continue;
        }
        DWORD got = 0;
        if (!ReadFile(pipe, buffer, std::min<DWORD>(available, sizeof buffer), &got, nullptr) || got == 0)
            return;
        std::lock_guard<std::mutex> lock(m_mutex);
        into->append(buffer, got);
    }
}

void Subprocess::closePipes() {
    closeHandle(m_native->outRead);
    closeHandle(m_native->errRead);
}

bool Subprocess::waitUntil(Clock::time_point deadline) {
    if (!m_started) return false;
    if (m_exited) return true;
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    const DWORD waitMs = left <= 0 ? 0 : static_cast<DWORD>(std::min<long long>(left, 0x7fffffff));
    if (WaitForSingleObject(m_native->process, waitMs) != WAIT_OBJECT_0) return false;
    DWORD code = 0;
    m_exitCode = GetExitCodeProcess(m_native->process, &code) ? static_cast<int>(code) : -1;
    m_exited = true;
    finishReading();
    return true;
}

void Subprocess::kill() {
    if (!m_started || m_exited) return;
    TerminateProcess(m_native->process, 1);
    WaitForSingleObject(m_native->process, 10000);
    m_exited = true;
    m_exitCode = -1;
    finishReading();
}

std::string currentExecutable() {
    std::wstring path(32768, L'\0');
    const DWORD n = GetModuleFileNameW(nullptr, path.data(), DWORD(path.size()));
    path.resize(n);
    const int bytes =
        WideCharToMultiByte(CP_UTF8, 0, path.data(), int(path.size()), nullptr, 0, nullptr, nullptr);
    std::string out(size_t(bytes > 0 ? bytes : 0), '\0');
    if (bytes > 0)
        WideCharToMultiByte(CP_UTF8, 0, path.data(), int(path.size()), out.data(), bytes, nullptr, nullptr);
    return out;
}

std::uint16_t freeLoopbackPort() {
    WSADATA data;
    if (WSAStartup(MAKEWORD(2, 2), &data) != 0) return 0;
    std::uint16_t port = 0;
    const SOCKET s = socket(AF_INET, SOCK_STREAM, IPPROTO_TCP);
    if (s != INVALID_SOCKET) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        int length = sizeof address;
        if (bind(s, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
            getsockname(s, reinterpret_cast<sockaddr*>(&address), &length) == 0)
            port = ntohs(address.sin_port);
        closesocket(s);
    }
    WSACleanup();
    return port;
}

} // namespace ddpdesk::testsupport
