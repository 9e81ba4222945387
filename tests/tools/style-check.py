#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""style-check.py - the house style's hard limits, as a TAP test: no file
under src/ or include/ over 800 lines, no C function over 80 lines, every
.c file opening with an SPDX line, and every public function declared in
include/ preceded by a contract comment.  The soft caps (60 lines a
function) are for review; these are the lines a change may not cross."""
import os
import re
import sys

ROOT = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PERFKIT_SRCDIR", ".")
MAX_FILE, MAX_FUNC = 800, 80
results = []


def check(ok, what):
    results.append((ok, what))


def files(top, exts):
    for d, _, names in os.walk(os.path.join(ROOT, top)):
        for n in sorted(names):
            if n.endswith(exts):
                yield os.path.join(d, n)


def functions(lines):
    """(name, first line, length) of each top-level function definition."""
    start = None
    for i, line in enumerate(lines):
        if start is None and line == "{" and i and re.match(r"^\s*[A-Za-z_].*\)\s*$", lines[i - 1]):
            j = i - 1
            while j > 0 and lines[j][:1] in (" ", "\t"):
                j -= 1	# continuation lines of the signature are indented
            m = re.search(r"(\w+)\s*\(", lines[j])
            start = (m.group(1) if m else "?", j + 1)
        elif start is not None and line == "}":
            yield start[0], start[1], i + 1 - start[1]
            start = None


for path in list(files("src", (".c", ".h"))) + list(files("include", (".h",))):
    rel = os.path.relpath(path, ROOT)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    lines = text.split("\n")
    n = len(lines) - (1 if text.endswith("\n") else 0)
    check(n <= MAX_FILE, f"{rel}: {n} lines (at most {MAX_FILE})")
    if path.endswith(".c"):
        check(lines[0].startswith("/* SPDX-License-Identifier:"), f"{rel}: opens with an SPDX line")
        for name, first, length in functions(lines):
            if length > MAX_FUNC:
                check(False, f"{rel}:{first}: {name}() is {length} lines (at most {MAX_FUNC})")
    if path.startswith(os.path.join(ROOT, "include")):
        for i, line in enumerate(lines):
            if line.startswith("PK_API"):
                j = i - 1
                while j >= 0 and lines[j].strip() and not lines[j].rstrip().endswith("*/") \
                        and not lines[j].startswith("PK_API"):
                    j -= 1
                ok = j >= 0 and (lines[j].rstrip().endswith("*/") or lines[j].startswith("PK_API"))
                m = re.search(r"(pk_\w+)\s*\(", line)
                check(ok, f"{rel}:{i + 1}: {m.group(1) if m else line[:40]} has a contract comment")

print(f"1..{len(results)}")
for k, (ok, what) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {k} - {what}")
sys.exit(0 if all(ok for ok, _ in results) else 1)
