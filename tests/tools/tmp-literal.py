#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tmp-literal.py - no test makes its scratch files under a literal /tmp.

Every test runs with TMPDIR pointing at a fresh directory that
tests/tools/tmpguard.sh checks is empty afterwards; a test that builds its
template from "/tmp/..." instead escapes that check, and what it leaves
behind after a failed assertion stays in the machine's /tmp (issue 9:
"Tests leave nothing behind").  This scans the C and shell sources of
tests/, fuzz/, bench/, examples/ and scripts/ for a mkdtemp/mkstemp/mktemp
template, a redirection or a "$$" name under a literal /tmp, and prints one
TAP line per file.  A fallback for an unset TMPDIR (`dir ? dir : "/tmp"`)
is no template and is allowed.  Usage: tmp-literal.py SRCROOT.
"""
import os
import re
import sys

BAD = [
    (re.compile(r'"/tmp/[^"]*XXXXXX"'), "a mkdtemp/mkstemp template under /tmp"),
    (re.compile(r'mktemp\b[^|;\n]*\s/tmp/'), "mktemp under /tmp"),
    (re.compile(r'mktemp\b[^|;\n]*-p\s+/tmp\b'), "mktemp -p /tmp"),
    (re.compile(r'>+\s*/tmp/'), "a redirection into /tmp"),
    (re.compile(r'/tmp/[A-Za-z0-9_.-]*\$\$'), "a $$ name under /tmp"),
]
DIRS = ["tests", "fuzz", "bench", "examples", "scripts"]
EXTS = (".c", ".h", ".sh", ".py")


def scan(path):
    found = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for no, line in enumerate(f, 1):
            if line.lstrip().startswith(("#", "*", "/*", "//")):
                continue  # a comment naming what another program does
            for rx, what in BAD:
                if rx.search(line):
                    found.append(f"{path}:{no}: {what}: {line.strip()}")
    return found


def main():
    root = sys.argv[1]
    me = os.path.abspath(__file__)
    files = []
    for d in DIRS:
        for dirpath, dirnames, names in os.walk(os.path.join(root, d)):
            dirnames[:] = [n for n in dirnames if n != "corpus"]
            files += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith(EXTS)]
    files = [f for f in sorted(files) if os.path.abspath(f) != me]
    print(f"1..{len(files)}")
    bad = 0
    for i, path in enumerate(files, 1):
        found = scan(path)
        rel = os.path.relpath(path, root)
        if found:
            bad += 1
            print(f"not ok {i} - {rel} makes files under a literal /tmp (use $TMPDIR, tests/common/tmpdir.h)")
            for line in found:
                print(f"# {os.path.relpath(line, root)}")
        else:
            print(f"ok {i} - {rel}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
