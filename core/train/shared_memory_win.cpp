#include "train/shared_memory.h"

#include <stdexcept>
#include <string>

#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

namespace ddpdesk::train {

struct SharedMemory::Impl {
    HANDLE mapping = nullptr;
};

namespace {

// "Local\" keeps the name inside this logon session: ranks of one user's job share it, other users cannot.
std::wstring osName(const std::string& token) {
    return L"Local\\ddpdesk-" + std::wstring(token.begin(), token.end());
}

std::runtime_error osError(const std::string& what, const std::string& token) {
    return std::runtime_error(what + " ddpdesk-" + token + " (Windows error " +
                              std::to_string(GetLastError()) + ")");
}

void mapView(SharedMemory::Impl& impl, unsigned char*& data, std::size_t bytes, const std::string& token) {
    void* p = MapViewOfFile(impl.mapping, FILE_MAP_ALL_ACCESS, 0, 0, bytes);
    if (!p) {
        std::runtime_error e = osError("cannot map shared memory", token);
        CloseHandle(impl.mapping);
        impl.mapping = nullptr;
        throw e;
    }
    data = static_cast<unsigned char*>(p);
}

} // namespace

std::unique_ptr<SharedMemory> SharedMemory::create(const std::string& token, std::size_t bytes) {
    std::unique_ptr<SharedMemory> shm(new SharedMemory);
    shm->m_impl = std::make_unique<Impl>();
    const unsigned long long size = bytes;
    // SEC_COMMIT (the default) charges the whole size against the commit limit now, so "out of memory" shows
    // here and not on first write.
    HANDLE h =
        CreateFileMappingW(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, static_cast<DWORD>(size >> 32),
                           static_cast<DWORD>(size & 0xffffffffu), osName(token).c_str());
    if (!h) throw osError("cannot create shared memory", token);
    if (GetLastError() == ERROR_ALREADY_EXISTS) {
        CloseHandle(h);
        throw std::runtime_error("shared memory ddpdesk-" + token + " already exists");
    }
    shm->m_impl->mapping = h;
    mapView(*shm->m_impl, shm->m_data, bytes, token);
    shm->m_size = bytes;
    return shm;
}

std::unique_ptr<SharedMemory> SharedMemory::open(const std::string& token, std::size_t bytes) {
    std::unique_ptr<SharedMemory> shm(new SharedMemory);
    shm->m_impl = std::make_unique<Impl>();
    HANDLE h = OpenFileMappingW(FILE_MAP_ALL_ACCESS, FALSE, osName(token).c_str());
    if (!h) throw osError("cannot open shared memory", token);
    shm->m_impl->mapping = h;
    mapView(*shm->m_impl, shm->m_data, bytes, token);
    MEMORY_BASIC_INFORMATION info{};
    if (VirtualQuery(shm->m_data, &info, sizeof(info)) == 0 || info.RegionSize < bytes)
        throw std::runtime_error("shared memory ddpdesk-" + token + " is smaller than expected");
    shm->m_size = bytes;
    return shm;
}

SharedMemory::~SharedMemory() {
    if (m_data) UnmapViewOfFile(m_data);
    if (m_impl && m_impl->mapping) CloseHandle(m_impl->mapping);
}

void SharedMemory::removeName() {}

void SharedMemory::removeName(const std::string&) {
    // A Windows mapping's name lives as long as a handle to it: nothing to remove.
}

void SharedMemory::removeCreatedNames() {}

} // namespace ddpdesk::train
