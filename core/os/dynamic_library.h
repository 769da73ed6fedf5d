#pragma once

// A shared library loaded at run time (dlopen / LoadLibraryW), owned by one object: the handle is closed when
// the object dies or is reassigned, so every failure path after a successful open releases it.

#include <string>

namespace ddpdesk::monitor {

class DynamicLibrary {
public:
    DynamicLibrary() = default;
    ~DynamicLibrary();
    DynamicLibrary(const DynamicLibrary&) = delete;
    DynamicLibrary& operator=(const DynamicLibrary&) = delete;
    DynamicLibrary(DynamicLibrary&& other) noexcept;
    DynamicLibrary& operator=(DynamicLibrary&& other) noexcept;

    // Loads `nameOrPath` (UTF-8): a bare file name is searched the platform's way, a path is used as is. On
    // Windows only a full path is accepted (a bare name would search the current folder and PATH: DLL
    // planting). Closes whatever this object held before. On failure returns false and puts the loader's own
    // message in *error.
    bool open(const std::string& nameOrPath, std::string* error);
    void close();
    bool isOpen() const { return m_handle != nullptr; }
    const std::string& path() const { return m_path; }

    // The exported symbol's address, or nullptr when the library does not export it.
    void* symbol(const char* name) const;

private:
    // The platform part (dynamic_library_posix.cpp / _win.cpp).
    static void* openHandle(const std::string& nameOrPath, std::string* error);
    static void closeHandle(void* handle);
    static void* symbolAddress(void* handle, const char* name);

    void* m_handle = nullptr;
    std::string m_path;
};

} // namespace ddpdesk::monitor
