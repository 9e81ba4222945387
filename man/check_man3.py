#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_man3.py - the library's man pages cover the API (TAP output):
every public header has its pk_<header>(3), libperfkit(3) names each of
them, and every function a header declares with PK_API is in its page's
synopsis with a contract under FUNCTIONS and its own link page,
pk_evlist_open(3) holding just ".so man3/pk_evlist.3", for `man
pk_evlist_open`.  The function names are found here independently of
mkman3.py's parser.

usage: check_man3.py MANDIR HEADER...
"""
import os
import re
import sys

MANDIR, HEADERS = sys.argv[1], sys.argv[2:]
results = []


def check(ok, name, why=""):
    results.append((ok, name, why))


def words(path):
    text = open(path, encoding="utf-8").read()
    return re.sub(r"\\f[BIRP]", "", text).replace("\\-", "-").replace("\\e", "\\").replace("\\&", "")


top = f"{MANDIR}/libperfkit.3"
check(os.path.exists(top), "libperfkit(3) exists")
index = words(top) if os.path.exists(top) else ""
for h in HEADERS:
    name = "pk_" + os.path.basename(h)[:-2]
    path = f"{MANDIR}/{name}.3"
    if not os.path.exists(path):
        check(False, f"{name}(3) exists", "is the header in public_headers?")
        continue
    text = words(path)
    check(f"{name}(3)" in index, f"libperfkit(3) names {name}(3)")
    src = open(h, encoding="utf-8").read()
    funcs = re.findall(r"^PK_API\b[^;(]*?\b(pk_\w+)\s*\(", src, re.M)
    synopsis, _, functions = text.partition(".SH FUNCTIONS")
    missing = [f for f in funcs if not re.search(r"\b" + f + r"\(", synopsis)]
    bare = [f for f in funcs if not re.search(r"\.TP\n(?:.*\n)*?.*\b" + f + r"\(", functions)]
    check(not missing and not bare, f"{name}(3) has all {len(funcs)} functions of {os.path.basename(h)}",
          "missing: " + " ".join(missing + bare) if missing or bare else "")
    # Each function has its contract: prose after its signature in its
    # FUNCTIONS entry (a declaration with no comment above it has none).
    raw = open(path, encoding="utf-8").read().partition(".SH FUNCTIONS")[2].split(".SH ")[0]
    nocontract = []
    for block in raw.split("\n.TP\n")[1:]:
        lines = [ln for ln in block.splitlines() if ln.strip() and ln != ".br"]
        sigs = [ln for ln in lines if ln.startswith("\\fB")]
        if len(sigs) == len(lines):
            nocontract += re.findall(r"\b(pk_\w+)\\?\(", " ".join(sigs).replace("\\-", "-"))
    # man finds a function by its own name: a link page to this one.
    nolink = [f for f in funcs if not os.path.exists(f"{MANDIR}/{f}.3") or
              open(f"{MANDIR}/{f}.3", encoding="utf-8").read() != f".so man3/{name}.3\n"]
    check(not nolink, f"every function of {name}(3) has a link page to it",
          "without: " + " ".join(nolink) if nolink else "")
    check(not nocontract, f"every function of {name}(3) has its contract",
          "without: " + " ".join(nocontract) if nocontract else "")

print(f"1..{len(results)}")
for n, (ok, name, why) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {n} - {name}")
    if why:
        print(f"# {why}")
sys.exit(0 if all(r[0] for r in results) else 1)
