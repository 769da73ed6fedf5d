#include "os/shared_memory.h"

#include <stdexcept>
#include <string>
#include <vector>

#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
// After windows.h, which it needs.
#include <aclapi.h>
#include <sddl.h>

namespace ddpdesk::train {

struct SharedMemory::Impl {
    HANDLE mapping = nullptr;
};

namespace {

// "Local\" keeps the name inside this logon session: ranks of one user's job share it, other users cannot.
std::wstring wideName(const std::string& token) {
    const std::string name = SharedMemory::osName(token);
    return std::wstring(name.begin(), name.end());
}

// This process's user as a TOKEN_USER (its SID inside the buffer); empty when it cannot be read.
std::vector<unsigned char> currentUser() {
    HANDLE token = nullptr;
    if (!OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token)) return {};
    DWORD size = 0;
    GetTokenInformation(token, TokenUser, nullptr, 0, &size);
    std::vector<unsigned char> buffer(size);
    if (size == 0 || !GetTokenInformation(token, TokenUser, buffer.data(), size, &size)) buffer.clear();
    CloseHandle(token);
    return buffer;
}

PSID sidOf(std::vector<unsigned char>& user) {
    return user.empty() ? nullptr : reinterpret_cast<TOKEN_USER*>(user.data())->User.Sid;
}

// The POSIX side's 0600: this user owns the mapping and only this user may open it. Spelled out rather than
// left to the token's default (whose owner is Administrators in an elevated process, and which wine leaves
// without any owner), so open() can insist on exactly this owner.
struct OwnerOnly {
    std::vector<unsigned char> user = currentUser();
    std::vector<unsigned char> acl = std::vector<unsigned char>(256);
    SECURITY_DESCRIPTOR descriptor{};
    SECURITY_ATTRIBUTES attributes{};

    bool build() {
        const PSID sid = sidOf(user);
        if (!sid || GetLengthSid(sid) + 64 > acl.size()) return false;
        auto* list = reinterpret_cast<PACL>(acl.data());
        if (!InitializeAcl(list, static_cast<DWORD>(acl.size()), ACL_REVISION) ||
            !AddAccessAllowedAce(list, ACL_REVISION, GENERIC_ALL, sid) ||
            !InitializeSecurityDescriptor(&descriptor, SECURITY_DESCRIPTOR_REVISION) ||
            !SetSecurityDescriptorOwner(&descriptor, sid, FALSE) ||
            !SetSecurityDescriptorDacl(&descriptor, TRUE, list, FALSE))
            return false;
        attributes.nLength = sizeof(attributes);
        attributes.lpSecurityDescriptor = &descriptor;
        return true;
    }
};

// The mapping's owner, as text for a message ("S-1-5-21-..."), or "none".
std::string ownerText(PSID sid) {
    LPSTR text = nullptr;
    if (!sid || !ConvertSidToStringSidA(sid, &text)) return "none";
    std::string out = text;
    LocalFree(text);
    return out;
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

std::string SharedMemory::osName(const std::string& token) {
    return "Local\\ddpdesk-" + token;
}

std::unique_ptr<SharedMemory> SharedMemory::create(const std::string& token, std::size_t bytes) {
    std::unique_ptr<SharedMemory> shm(new SharedMemory);
    shm->m_impl = std::make_unique<Impl>();
    const unsigned long long size = bytes;
    OwnerOnly security;
    if (!security.build()) throw osError("cannot describe this user as the owner of shared memory", token);
    // SEC_COMMIT (the default) charges the whole size against the commit limit now, so "out of memory" shows
    // here and not on first write.
    HANDLE h = CreateFileMappingW(INVALID_HANDLE_VALUE, &security.attributes, PAGE_READWRITE,
                                  static_cast<DWORD>(size >> 32), static_cast<DWORD>(size & 0xffffffffu),
                                  wideName(token).c_str());
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
    HANDLE h = OpenFileMappingW(FILE_MAP_ALL_ACCESS, FALSE, wideName(token).c_str());
    if (!h) throw osError("cannot open shared memory", token);
    // create() names this user as the owner; a mapping someone else created under this name first (another
    // user in this session, e.g. by runas) carries that user, or no owner at all: its contents are theirs.
    PSID owner = nullptr;
    PSECURITY_DESCRIPTOR descriptor = nullptr;
    const DWORD got = GetSecurityInfo(h, SE_KERNEL_OBJECT, OWNER_SECURITY_INFORMATION, &owner, nullptr,
                                      nullptr, nullptr, &descriptor);
    std::vector<unsigned char> user = currentUser();
    const bool mine = got == ERROR_SUCCESS && owner && sidOf(user) && EqualSid(owner, sidOf(user));
    const std::string who = got == ERROR_SUCCESS ? ownerText(owner) : "unknown";
    if (descriptor) LocalFree(descriptor);
    if (!mine) {
        CloseHandle(h);
        throw UntrustedSharedMemory("shared memory ddpdesk-" + token + " belongs to another user (owner " +
                                    who + "): not used");
    }
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
