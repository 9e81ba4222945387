#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""check_docs.py - the docs say what is true.

Every example in README.md and docs/*.md is run on this machine and must
end as the text says:

- a ```sh block: each line is run by bash in a scratch directory (with
  perfkit on PATH, the source tree's tests/ reachable as ./tests, and a
  Makefile, ./a.out and ./bench for the examples that name them) and must
  exit 0; a line whose comment says "until Ctrl-C" gets SIGINT after two
  seconds and must then exit 0;
- a ``` block that starts with "$ COMMAND": the command is run the same
  way and its output (stderr, then stdout) must be the lines that follow,
  where a line ending in "..." matches any line that starts with what
  precedes it, and a line "..." alone any number of lines; the exit status must be non-zero when the first line is
  an error ("perfkit CMD: ..."), zero otherwise;
- a ```c block: compiled against the library just built and run; exit 0.

A block is skipped only when the line before it is
"<!-- docs-test: skip REASON -->", and the reason is printed.  Then every
flag `perfkit CMD --help` lists must appear in docs/CLI.md's section for
CMD, and every flag that section names must be one --help lists; and every
relative link in the docs must lead to a file of the tree.  TAP output.

usage: check_docs.py SRCDIR (env: PERFKIT, PERFKIT_DOCS_CC: the compile
command for C examples, with CFLAGS and the library to link)
"""
import glob
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile

SRC = sys.argv[1]
PERFKIT = os.environ["PERFKIT"]
n = 0
failed = 0


def ok(desc):
    global n
    n += 1
    print(f"ok {n} - {desc}")


def not_ok(desc, *diag):
    global n, failed
    n += 1
    failed = 1
    print(f"not ok {n} - {desc}")
    for d in diag:
        for line in str(d).splitlines():
            print(f"# {line}")


def blocks(path):
    """Yield (lang, first line number, lines, skip reason) per fenced block."""
    lines = open(path, encoding="utf-8").read().splitlines()
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        skip = None
        if i > 0:
            s = re.match(r"^<!-- docs-test: skip (.+) -->$", lines[i - 1])
            if s:
                skip = s.group(1)
        start = i + 1
        j = start
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        yield m.group(1), start + 1, lines[start:j], skip
        i = j + 1


def sandbox():
    """A scratch directory with what the examples use."""
    d = tempfile.mkdtemp(prefix="docs.")
    os.makedirs(os.path.join(d, "bin"))
    os.symlink(PERFKIT, os.path.join(d, "bin", "perfkit"))
    os.symlink(os.path.join(SRC, "tests"), os.path.join(d, "tests"))
    prog = os.path.join(d, "prog.c")
    with open(prog, "w") as f:
        f.write("int main(void) { volatile unsigned long s = 0;\n"
                "  for (unsigned long i = 0; i < 1000000; i++) s += i; return 0; }\n")
    for out in ("a.out", "bench"):
        subprocess.run(["cc", "-O1", "-o", os.path.join(d, out), prog], check=True)
    with open(os.path.join(d, "Makefile"), "w") as f:
        f.write("all: one two\none:\n\t@./a.out\ntwo:\n\t@./bench\n")
    return d


def run_line(box, cmd, ctrl_c):
    env = dict(os.environ, PATH=os.path.join(box, "bin") + ":" + os.environ["PATH"])
    p = subprocess.Popen(["bash", "-c", cmd], cwd=box, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True, text=True)
    try:
        out, err = p.communicate(timeout=2 if ctrl_c else 120)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGINT)
        try:
            out, err = p.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            out, err = p.communicate()
            return -1, out, err + "\n(hung: killed)"
        if not ctrl_c:
            return -1, out, err + "\n(timed out after 120 s)"
    return p.returncode, out, err


def joined(lines):
    """The lines with backslash continuations joined."""
    out, cur = [], ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            cur += line.rstrip()[:-1] + " "
        else:
            out.append(cur + line)
            cur = ""
    return out + ([cur] if cur else [])


def check_sh(box, where, lines):
    for k, line in enumerate(joined(lines)):
        cmd = line.strip()
        if not cmd or cmd.startswith("#"):
            continue
        ctrl_c = "until Ctrl-C" in cmd
        rc, out, err = run_line(box, cmd, ctrl_c)
        desc = f"{where}+{k}: {cmd[:70]}"
        if rc == 0:
            ok(desc)
        else:
            not_ok(desc, f"exit status {rc}", err[-1500:])


def line_matches(want, got):
    if want.endswith("..."):
        return got.startswith(want[:-3].rstrip()) or got.rstrip() == want[:-3].rstrip()
    return got.rstrip() == want.rstrip()


def lines_match(want, got):
    """A line "..." alone stands for any number of lines."""
    if not want:
        return not got
    if want[0] == "...":
        return any(lines_match(want[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and line_matches(want[0], got[0]) and lines_match(want[1:], got[1:])


def check_transcript(box, where, lines):
    cmd = lines[0][2:]
    want = lines[1:]
    rc, out, err = run_line(box, cmd, False)
    got = (err + out).splitlines()
    desc = f"{where}: $ {cmd[:60]}"
    bad = not lines_match(want, got)
    is_error = bool(want) and re.match(r"^perfkit( [a-z-]+)?: ", want[0])
    if bad:
        not_ok(desc + " (output)", "want:", *want, "got:", *got)
    elif bool(is_error) != (rc != 0):
        not_ok(desc + " (exit status)", f"exit status {rc}")
    else:
        ok(desc)


def check_c(box, where, lines):
    cc = os.environ.get("PERFKIT_DOCS_CC")
    desc = f"{where}: C example compiles and runs"
    if not cc:
        not_ok(desc, "PERFKIT_DOCS_CC is not set")
        return
    src = os.path.join(box, "example.c")
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    exe = os.path.join(box, "example")
    parts = shlex.split(cc)
    r = subprocess.run(parts[:1] + [src, "-o", exe] + parts[1:], capture_output=True, text=True)
    if r.returncode != 0:
        not_ok(desc, r.stderr[-1500:])
        return
    r = subprocess.run([exe], capture_output=True, text=True, timeout=60)
    if r.returncode == 0:
        ok(desc)
    else:
        not_ok(desc, f"exit status {r.returncode}", r.stdout, r.stderr)


def examples(box):
    docs = [os.path.join(SRC, "README.md")] + sorted(glob.glob(os.path.join(SRC, "docs", "*.md")))
    for path in docs:
        rel = os.path.relpath(path, SRC)
        for lang, first, lines, skip in blocks(path):
            where = f"{rel}:{first}"
            runnable = lang in ("sh", "c") or (lang == "" and lines and lines[0].startswith("$ "))
            if not runnable:
                continue
            if skip:
                print(f"# {where}: skipped: {skip}")
                continue
            if lang == "sh":
                check_sh(box, where, lines)
            elif lang == "c":
                check_c(box, where, lines)
            else:
                check_transcript(box, where, lines)


FLAG = re.compile(r"(?<![\w-])(--[A-Za-z][\w-]*[\w]|-[A-Za-z])")


def help_flags(cmd):
    """The flags `perfkit CMD --help` lists, from its option lines."""
    r = subprocess.run([PERFKIT, cmd, "--help"], capture_output=True, text=True)
    flags = set()
    for line in (r.stdout + r.stderr).splitlines():
        if not re.match(r"^ {2,6}-", line):
            continue
        spec = re.split(r"\s{2,}", line.strip())[0]
        flags.update(FLAG.findall(spec))
    return flags


def commands():
    r = subprocess.run([PERFKIT, "--help"], capture_output=True, text=True)
    text = r.stdout + r.stderr
    part = text.split("commands:", 1)[1] if "commands:" in text else ""
    return [m.group(1) for m in re.finditer(r"^\s{2}([a-z][\w-]*)\s{2,}", part, re.M)]


def doc_flags(section, cmd):
    """The flags a CLI.md section names: at the start of a `code span`, and
    anywhere in a usage line of the command."""
    flags = set()
    for span in re.findall(r"`([^`\n]+)`", section):
        m = FLAG.match(span)
        if m and not span[m.end():].startswith("*"):
            flags.add(m.group(1))
    for line in section.splitlines():
        if line.startswith(f"perfkit {cmd} "):
            flags.update(FLAG.findall(line[len(f"perfkit {cmd} "):]))
    return flags


def check_flags():
    text = open(os.path.join(SRC, "docs", "CLI.md"), encoding="utf-8").read()
    sections = dict(re.findall(r"^## perfkit ([a-z][\w-]*)\n(.*?)(?=^## |\Z)", text, re.M | re.S))
    for cmd in commands():
        if cmd not in sections:
            not_ok(f"docs/CLI.md has a section for perfkit {cmd}")
            continue
        helped = help_flags(cmd)
        documented = doc_flags(sections[cmd], cmd)
        missing = sorted(helped - documented)
        extra = sorted(documented - helped)
        if missing:
            not_ok(f"every flag of perfkit {cmd} --help is in docs/CLI.md", "not in CLI.md: " + " ".join(missing))
        else:
            ok(f"every flag of perfkit {cmd} --help is in docs/CLI.md")
        if extra:
            not_ok(f"every flag docs/CLI.md gives perfkit {cmd} is in --help", "not in --help: " + " ".join(extra))
        else:
            ok(f"every flag docs/CLI.md gives perfkit {cmd} is in --help")


def check_links():
    docs = [os.path.join(SRC, "README.md")] + sorted(glob.glob(os.path.join(SRC, "docs", "*.md")))
    for path in docs:
        text = open(path, encoding="utf-8").read()
        bad = []
        for target in re.findall(r"\]\(([^)\s#]+)(?:#[^)]*)?\)", text):
            if re.match(r"^[a-z]+:", target):
                continue
            if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(path), target))):
                bad.append(target)
        # paths outside the tree that READMEs used to point to
        bad += re.findall(r"\.\./shared/\S+", text)
        rel = os.path.relpath(path, SRC)
        if bad:
            not_ok(f"{rel}: every link leads into the tree", "broken: " + " ".join(bad))
        else:
            ok(f"{rel}: every link leads into the tree")


def main():
    box = sandbox()
    try:
        examples(box)
    finally:
        subprocess.run(["rm", "-rf", box])
    check_flags()
    check_links()
    print(f"1..{n}")
    return failed


if __name__ == "__main__":
    sys.exit(main())
