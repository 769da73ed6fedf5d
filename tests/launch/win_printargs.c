/* Test helper for launch.command_quoting, cross-compiled with mingw-w64 and run under wine: what a Windows */
/* program receives after cmd.exe and the C runtime have parsed a batch-file line. */
#include <stdio.h>
#include <wchar.h>
#include <windows.h>
/* Writes argv[2..] to the file argv[1], UTF-8, each followed by a NUL (arguments may hold anything else). */
int wmain(int argc, wchar_t** argv) {
    if (argc < 2) return 2;
    FILE* f = _wfopen(argv[1], L"wb");
    if (!f) return 3;
    for (int i = 2; i < argc; ++i) {
        char buf[8192];
        int n = WideCharToMultiByte(CP_UTF8, 0, argv[i], -1, buf, sizeof buf, NULL, NULL);
        if (n > 0) fwrite(buf, 1, (size_t)n, f); /* n includes the NUL */
    }
    fclose(f);
    return 0;
}
