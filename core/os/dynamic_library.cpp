// The portable half of dynamic_library.h: ownership of the handle; the OS calls are in its _posix / _win
// halves.
#include "os/dynamic_library.h"

#include <utility>

namespace ddpdesk::monitor {

DynamicLibrary::~DynamicLibrary() {
    close();
}

DynamicLibrary::DynamicLibrary(DynamicLibrary&& other) noexcept
    : m_handle(std::exchange(other.m_handle, nullptr)), m_path(std::move(other.m_path)) {}

DynamicLibrary& DynamicLibrary::operator=(DynamicLibrary&& other) noexcept {
    if (this != &other) {
        close();
        m_handle = std::exchange(other.m_handle, nullptr);
        m_path = std::move(other.m_path);
    }
    return *this;
}

bool DynamicLibrary::open(const std::string& nameOrPath, std::string* error) {
    close();
    std::string message;
    m_handle = openHandle(nameOrPath, &message);
    if (!m_handle) {
        if (error) *error = message.empty() ? "loading " + nameOrPath + " failed without a message" : message;
        return false;
    }
    m_path = nameOrPath;
    return true;
}

void DynamicLibrary::close() {
    if (m_handle) closeHandle(std::exchange(m_handle, nullptr));
    m_path.clear();
}

void* DynamicLibrary::symbol(const char* name) const {
    return m_handle ? symbolAddress(m_handle, name) : nullptr;
}

} // namespace ddpdesk::monitor
