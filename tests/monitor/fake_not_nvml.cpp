// A shared library that loads fine but is not NVML: the loader must say which required symbols are missing.

#ifdef _WIN32
#define FAKE_EXPORT extern "C" __declspec(dllexport)
#else
#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))
#endif

FAKE_EXPORT int notNvmlAnswer() {
    return 42;
}
