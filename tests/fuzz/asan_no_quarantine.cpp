// Linked into the sanitized tests that measure their own resident memory (net.store_server_hostile): ASan
// keeps freed memory in a quarantine (256 MB by default) to catch a use after free, which those tests would
// count as growth (50,000 connect/close cycles: +255 MB). Without it they measure what the server holds.
// ASAN_OPTIONS in the environment still overrides this.
extern "C" const char* __asan_default_options() {
    return "quarantine_size_mb=0:thread_local_quarantine_size_kb=0";
}
