#pragma once

// Test-side access to the fake NVML library: environment scripting and the fake's call counters, reached
// through the project's own DynamicLibrary (the same path the loader uses, so both see one loaded copy).

#include "monitor/nvml_library.h"
#include "os/dynamic_library.h"

#include <QByteArray>
#include <QtTest>

#include <string>
#include <vector>

namespace ddpdesk::monitor::test {

// Sets environment variables for one test and restores the previous values afterwards.
class ScopedEnv {
public:
    ScopedEnv& set(const char* name, const QByteArray& value) {
        remember(name);
        qputenv(name, value);
        return *this;
    }
    ScopedEnv& unset(const char* name) {
        remember(name);
        qunsetenv(name);
        return *this;
    }
    ~ScopedEnv() {
        for (auto it = m_saved.rbegin(); it != m_saved.rend(); ++it) {
            if (it->had)
                qputenv(it->name.c_str(), it->value);
            else
                qunsetenv(it->name.c_str());
        }
    }

private:
    struct Saved {
        std::string name;
        bool had;
        QByteArray value;
    };
    void remember(const char* name) {
        m_saved.push_back({name, qEnvironmentVariableIsSet(name), qgetenv(name)});
    }
    std::vector<Saved> m_saved;
};

// Points the loader at a fake and clears every script variable, so each test starts from the default script.
inline void useLibrary(ScopedEnv& env, const char* path) {
    env.set(kNvmlLibraryEnv, path)
        .unset("FAKE_NVML_INIT_RESULT")
        .unset("FAKE_NVML_LOST_AFTER")
        .unset("FAKE_NVML_PROCESSES")
        .unset("FAKE_NVML_HANG_AFTER");
}

class FakeNvmlControl {
public:
    explicit FakeNvmlControl(const char* path) {
        std::string error;
        if (!m_library.open(path, &error)) qFatal("cannot open the fake NVML %s: %s", path, error.c_str());
        m_calls = reinterpret_cast<int (*)(const char*, int)>(m_library.symbol("fakeNvmlCalls"));
        m_inits = reinterpret_cast<int (*)()>(m_library.symbol("fakeNvmlInitCount"));
        m_shutdowns = reinterpret_cast<int (*)()>(m_library.symbol("fakeNvmlShutdownCount"));
        m_hanging = reinterpret_cast<int (*)()>(m_library.symbol("fakeNvmlHanging"));
        m_release = reinterpret_cast<void (*)()>(m_library.symbol("fakeNvmlReleaseHang"));
        if (!m_calls || !m_inits || !m_shutdowns || !m_hanging || !m_release)
            qFatal("the fake NVML %s lacks its introspection functions", path);
    }
    int calls(const char* function, int gpu) const { return m_calls(function, gpu); }
    int inits() const { return m_inits(); }
    int shutdowns() const { return m_shutdowns(); }
    int hanging() const { return m_hanging(); } // calls blocked by FAKE_NVML_HANG_AFTER right now
    void releaseHang() const { m_release(); }

private:
    DynamicLibrary m_library;
    int (*m_calls)(const char*, int) = nullptr;
    int (*m_inits)() = nullptr;
    int (*m_shutdowns)() = nullptr;
    int (*m_hanging)() = nullptr;
    void (*m_release)() = nullptr;
};

inline bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

inline bool containsName(const std::vector<std::string>& list, const std::string& name) {
    for (const std::string& s : list)
        if (s == name || contains(s, name)) return true;
    return false;
}

} // namespace ddpdesk::monitor::test
