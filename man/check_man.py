#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_man.py - the man pages are in step with the CLI: every command
`perfkit --help` lists has its perfkit-CMD(1), and every flag that
`perfkit CMD --help` lists appears in that page's text (TAP output).

usage: check_man.py PERFKIT MANDIR
"""
import os
import re
import subprocess
import sys

PERFKIT, MANDIR = sys.argv[1], sys.argv[2]
FLAG = re.compile(r"(?<![\w-])(--[A-Za-z][\w-]*[\w]|-[A-Za-z])")
results = []


def check(ok, name, why=""):
    results.append((ok, name, why))


def helptext(*args):
    r = subprocess.run([PERFKIT, *args, "--help"], capture_output=True, text=True)
    return r.stdout + r.stderr


def help_flags(cmd):
    """The flags of the option lines of `perfkit CMD --help`."""
    flags = set()
    for ln in helptext(cmd).splitlines():
        if re.match(r"^ {2,6}-", ln):
            flags.update(FLAG.findall(re.split(r"\s{2,}", ln.strip())[0]))
    return flags


def page_text(path):
    """The words of a page: troff font escapes and \\- undone."""
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"\\f[BIRP]", "", text).replace("\\-", "-").replace("\\&", "")
    return text


part = helptext().split("commands:", 1)
cmds = re.findall(r"^\s{2}([a-z][\w-]*)\s{2,}", part[1] if len(part) > 1 else "", re.M)
check(len(cmds) > 0, "perfkit --help lists commands")
check(os.path.exists(f"{MANDIR}/perfkit.1"), "perfkit(1) exists")
for cmd in cmds:
    path = f"{MANDIR}/perfkit-{cmd}.1"
    if not os.path.exists(path):
        check(False, f"perfkit-{cmd}(1) exists", "add it to man/meson.build's pages")
        continue
    text = page_text(path)
    flags = help_flags(cmd)
    missing = sorted(f for f in flags if not re.search(r"(?<![\w-])" + re.escape(f) + r"(?![\w-])", text))
    check(len(flags) > 0 and not missing, f"every flag of perfkit {cmd} --help is in perfkit-{cmd}(1)",
          "missing: " + " ".join(missing) if missing else "")
    check(f"perfkit {cmd}" in text, f"perfkit-{cmd}(1) shows the usage")

print(f"1..{len(results)}")
for n, (ok, name, why) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {n} - {name}")
    if why:
        print(f"# {why}")
sys.exit(0 if all(r[0] for r in results) else 1)
