// POSIX side of dynamic_library.h: dlopen.
#include "os/dynamic_library.h"

#include <dlfcn.h>

namespace ddpdesk::monitor {

void* DynamicLibrary::openHandle(const std::string& nameOrPath, std::string* error) {
    dlerror(); // clear a stale message so the one read below belongs to this call
    // RTLD_LOCAL keeps NVML's symbols out of the global namespace, where they could clash with a test's fake.
    void* handle = dlopen(nameOrPath.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        const char* message = dlerror();
        *error = message ? message : "";
    }
    return handle;
}

void DynamicLibrary::closeHandle(void* handle) {
    dlclose(handle);
}

void* DynamicLibrary::symbolAddress(void* handle, const char* name) {
    return dlsym(handle, name);
}

} // namespace ddpdesk::monitor
