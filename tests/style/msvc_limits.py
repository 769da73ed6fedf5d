#!/usr/bin/python3
"""MSVC refuses what GCC, Clang and mingw-w64 accept: a string literal over 16,380 bytes before adjacent literals
are joined (error C2026), and a joined string over 65,535 bytes (C2026 as well). Every CI leg builds with GCC or
mingw-w64, so this reads the sources and the headers CMake generates (the embedded Python module) and fails, naming
file and line, on any literal past those limits. docs/windows.md lists the limits checked.

    msvc_limits.py ROOT [GENERATED_DIR ...]
"""
import os
import re
import sys

PIECE_LIMIT = 16380   # bytes of one literal, its terminating NUL not counted
JOINED_LIMIT = 65535  # bytes of adjacent literals joined, with the NUL
SOURCE_DIRS = ("app", "core", "ui", "tests", "resources")
SUFFIXES = (".cpp", ".h", ".hpp", ".cc", ".in")

RAW_START = re.compile(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')
PLAIN_START = re.compile(r'(?:u8|u|U|L)?"')
ESCAPE = re.compile(r'\\(x[0-9a-fA-F]+|[0-7]{1,3}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)', re.S)


def literals(text):
    """Yields (offset, end, byte length) for each string literal, skipping comments and character literals."""
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif c == "'" and not (i > 0 and (text[i - 1].isalnum() or text[i - 1] == "_")):
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif c in 'uULR"' and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = RAW_START.match(text, i)
            if m:
                close = ")" + m.group(1) + '"'
                j = text.find(close, m.end())
                if j < 0:
                    return
                yield i, j + len(close), len(text[m.end():j].encode("utf-8"))
                i = j + len(close)
                continue
            m = PLAIN_START.match(text, i)
            if not m:
                i += 1
                continue
            j = m.end()
            size = 0
            while j < n and text[j] != '"':
                if text[j] == "\\":
                    e = ESCAPE.match(text, j)
                    j = e.end() if e else j + 2
                    size += 1
                else:
                    size += len(text[j].encode("utf-8"))
                    j += 1
            yield i, j + 1, size
            i = j + 1
        else:
            i += 1


def check(path, problems):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return
    joined_start, joined_size, last_end = None, 0, None
    for start, end, size in literals(text):
        line = text.count("\n", 0, start) + 1
        if size > PIECE_LIMIT:
            problems.append(f"{path}:{line}: a string literal of {size} bytes; MSVC takes at most {PIECE_LIMIT} (C2026)")
        # Adjacent: only white space between this literal and the previous one.
        if last_end is not None and text[last_end:start].strip() == "":
            joined_size += size
        else:
            joined_start, joined_size = line, size + 1
        if joined_size > JOINED_LIMIT:
            problems.append(f"{path}:{joined_start}: adjacent literals joined to {joined_size} bytes; MSVC takes at "
                            f"most {JOINED_LIMIT} (C2026)")
            joined_size = -(1 << 40)  # reported once per run of literals
        last_end = end


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    root, generated = argv[1], argv[2:]
    files = []
    for top in [os.path.join(root, d) for d in SOURCE_DIRS] + generated:
        for folder, dirs, names in os.walk(top):
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            files += [os.path.join(folder, n) for n in names if n.endswith(SUFFIXES)]
    problems = []
    for path in sorted(files):
        check(path, problems)
    for p in problems:
        print(p)
    print(f"msvc_limits: {len(files)} files read, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
