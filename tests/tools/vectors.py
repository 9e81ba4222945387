#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""vectors.py - generate and re-check perfkit's golden event-string vectors.

The oracle is perf 6.1: for every string of tests/fixtures/vectors/strings-SET.txt
it runs `perf stat -vv -e STRING true` (with perf-open-shim.so preloaded so a
refused perf_event_open does not stop perf before it has printed every
event's attr), parses the attr blocks perf prints, and writes
tests/fixtures/vectors/perf61-SET.tsv.  Strings perf rejects go to
perf61-invalid-SET.tsv with perf's own message.

TSV format (perf61-*.tsv): one line per string,
    STRING <TAB> EVENT <TAB> EVENT ...
and each EVENT is space-separated key=value pairs:
  - leader=N (index of the group leader within this string's events) always;
  - the identity fields type config config1 config2 bp_type bp_addr bp_len
    exclude_user exclude_kernel exclude_hv precise_ip pinned exclusive when
    non-zero (absent means 0: the test compares all of them, always);
  - inherit when the event has an inherit/no-inherit term;
  - exclude_guest/exclude_host when the event's modifiers contain u, G, H or p
    (perf 6.1 derives them from those letters), exclude_idle when they contain
    I, and sample_period/sample_freq/freq when the event sets period= or freq=
    (taken from `perf record -vv`, because perf stat never applies config
    terms).  Present means compared, even when 0.
  Symbolic values, resolved by the test on the machine it runs on:
    config=tp:SYS:NAME   the id in tracefs events/SYS/NAME/id
    type=pmu:NAME        <sysfs>/bus/event_source/devices/NAME/type (used for
                         every dynamic type, >= 6)
  Directives ("#! ..." lines) tell the test how to run a file:
    #! sysfs live|intel|amd    the sysfs the vectors were generated against
    #! env NAME=VALUE          an environment variable to set first
    #! sha256 PATH HEX         skip the file unless PATH still has this hash

Usage:
  vectors.py gen SET [--sysfs DIR] [--cpuid STR]   (re)write perf61-SET.tsv
  vectors.py pfmcheck FILE                          cross-check hand-written libpfm4 vectors
  vectors.py check SET [N]                          rerun perf on N strings (default 20)
                                                    and compare with the committed TSV
"""
import atexit
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VDIR = os.path.join(ROOT, "tests", "fixtures", "vectors")

IDENTITY = ["type", "config", "config1", "config2", "bp_type", "bp_addr", "bp_len",
            "exclude_user", "exclude_kernel", "exclude_hv", "precise_ip",
            "pinned", "exclusive"]
# perf's spellings of the union fields
COMBINED = {
    "{ bp_addr, config1 }": "config1",
    "{ bp_len, config2 }": "config2",
    "{ sample_period, sample_freq }": "sample_period",
}
MODCHARS = set("ukhGHIpPSDeWb")


def strings_of(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            out.append(line)
    return out


# --- splitting a string into items, to know each event's modifiers ---------

def split_items(s):
    """Top-level items of an event list with the modifiers that apply to each:
    [(text, modifiers)], groups expanded to their members with the group's
    modifiers appended.  Only used to decide which optional fields to compare."""
    items, depth, cur, in_terms = [], 0, "", False
    for ch in s:
        if ch == "/" and not cur.startswith("mem:") and depth >= 0:
            in_terms = not in_terms
        if ch == "," and not in_terms and depth == 0:
            items.append(cur)
            cur = ""
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        cur += ch
    items.append(cur)
    out = []
    for it in items:
        m = re.match(r"^\{(.*)\}(?::([A-Za-z]*))?$", it)
        if m:
            gmod = m.group(2) or ""
            for sub, mod in split_items(m.group(1)):
                out.append((sub, mod + gmod))
        else:
            if it.startswith("{"):
                it = it[1:]
            out.append((it, own_modifiers(it)))
    return out


def own_modifiers(it):
    m = re.match(r"^[\w.-]+/.*/([A-Za-z]*)$", it)
    if m:
        return m.group(1)
    if ":" in it:
        last = it.rsplit(":", 1)[1]
        if last and set(last) <= MODCHARS:
            return last
    return ""


# --- running perf and parsing its attr blocks -------------------------------

_scratch = None


def scratch(name):
    """A path NAME in this process's own temporary directory (under $TMPDIR),
    which is removed, with everything in it, when the process exits."""
    global _scratch
    if _scratch is None:
        _scratch = tempfile.mkdtemp(prefix="perfkit-vectors-")
        atexit.register(shutil.rmtree, _scratch, True)
    return os.path.join(_scratch, name)


def shim_path():
    p = os.environ.get("PERF_OPEN_SHIM")
    if p and os.path.exists(p):
        return p
    out = scratch("perf-open-shim.so")
    if not os.path.exists(out):
        src = os.path.join(HERE, "perf-open-shim.c")
        subprocess.check_call(["cc", "-shared", "-fPIC", "-O2", "-o", out, src, "-ldl"])
    return out


def run_perf(s, sysfs=None, cpuid=None, record=False):
    env = dict(os.environ)
    env["LD_PRELOAD"] = shim_path()
    env["LC_ALL"] = "C"
    if cpuid:
        env["PERF_CPUID"] = cpuid
    if record:
        data = scratch("perf.data")
        perf = ["perf", "record", "-vv", "-o", data, "-e", s, "true"]
    else:
        perf = ["perf", "stat", "-vv", "-e", s, "true"]
    if sysfs:
        # A private mount namespace: perf sees the fixture tree as
        # /sys/bus/event_source/devices and nothing leaks to the host.
        cmd = ["unshare", "-m", "sh", "-c",
               'mount --bind "$0" /sys/bus/event_source/devices && exec "$@"',
               os.path.join(sysfs, "bus", "event_source", "devices")] + perf
    else:
        cmd = perf
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors="replace", timeout=60)
    return p.returncode, p.stderr + p.stdout


def parse_blocks(out):
    """The first attr block of each event, with its group_fd and fd.
    A block that follows a failed open ("sys_perf_event_open failed",
    "switching off", "Warning") is a retry of the same event and is skipped."""
    events, cur, in_block, retry = [], None, False, False
    for line in out.splitlines():
        if line.startswith("perf_event_attr:"):
            in_block = True
            cur = {"attr": {}, "group_fd": None, "fd": None}
            continue
        if in_block:
            if line.startswith("-----"):
                in_block = False
                if retry:
                    cur = None   # a retry: keep the event's first block
                else:
                    events.append(cur)
                retry = False
                continue
            m = re.match(r"^  (\{ [^}]+ \}|\S+)\s+(\S.*)$", line)
            if m:
                key = COMBINED.get(m.group(1), m.group(1))
                cur["attr"][key] = m.group(2).strip()
            continue
        m = re.match(r"^sys_perf_event_open: pid \S+\s+cpu \S+\s+group_fd (-?\d+)\s+flags \S+(?: = (\d+))?", line)
        if m and events and cur is not None and events[-1] is cur:
            if cur["group_fd"] is None:
                cur["group_fd"] = int(m.group(1))
                cur["fd"] = int(m.group(2)) if m.group(2) else None
            continue
        if ("sys_perf_event_open failed" in line or "switching off" in line
                or line.startswith("Warning")):
            retry = True
    return events


def num(v):
    v = v.strip()
    return int(v, 16) if v.lower().startswith("0x") else int(v)


def tracepoint_names():
    """id -> "SYS:NAME" from the live tracefs."""
    ids = {}
    for base in ("/sys/kernel/tracing/events", "/sys/kernel/debug/tracing/events"):
        if not os.path.isdir(base):
            continue
        for sysname in os.listdir(base):
            d = os.path.join(base, sysname)
            if not os.path.isdir(d):
                continue
            for ev in os.listdir(d):
                try:
                    with open(os.path.join(d, ev, "id")) as f:
                        ids[int(f.read())] = sysname + ":" + ev
                except OSError:
                    pass
        break
    return ids


def pmu_types(sysfs):
    """type -> PMU name for the dynamic types (>= 6) of the sysfs in use."""
    d = os.path.join(sysfs or "/sys", "bus", "event_source", "devices")
    out = {}
    for name in os.listdir(d):
        try:
            with open(os.path.join(d, name, "type")) as f:
                t = int(f.read())
        except (OSError, ValueError):
            continue
        if t >= 6:
            out[t] = name
    return out


def encode_events(s, events, items, rec, tps, pmus):
    fd_index = {}
    rows = []
    for i, ev in enumerate(events):
        if ev["fd"] is not None:
            fd_index[ev["fd"]] = i
    mods = [m for _, m in items] if len(items) == len(events) else None
    texts = [t for t, _ in items] if len(items) == len(events) else None
    if mods is None and len(items) == 1:
        mods = [items[0][1]] * len(events)
        texts = [items[0][0]] * len(events)
    if mods is None:
        raise ValueError("cannot map %d perf events onto %d items of %r" % (len(events), len(items), s))
    for i, ev in enumerate(events):
        a = ev["attr"]
        leader = fd_index.get(ev["group_fd"], i) if ev["group_fd"] not in (None, -1) else i
        kv = ["leader=%d" % leader]
        t = num(a.get("type", "0"))
        for f in IDENTITY:
            if f not in a:
                continue
            v = num(a[f])
            if v == 0:
                continue
            if f == "config" and t == 2 and v in tps and re.match(r"^[A-Za-z_][\w*?]*:", texts[i] if texts else ""):
                kv.append("config=tp:" + tps[v])
            elif f == "type" and v in pmus:
                kv.append("type=pmu:" + pmus[v])
            elif f.startswith("config") or f in ("bp_addr",):
                kv.append("%s=0x%x" % (f, v))
            else:
                kv.append("%s=%d" % (f, v))
        if mods is None:
            raise ValueError("cannot map %d perf events onto %d items of %r" % (len(events), len(items), s))
        m = set(mods[i])
        if m & set("uGHp"):
            kv.append("exclude_guest=%d" % num(a.get("exclude_guest", "0")))
            kv.append("exclude_host=%d" % num(a.get("exclude_host", "0")))
        if "I" in m:
            kv.append("exclude_idle=%d" % num(a.get("exclude_idle", "0")))
        if re.search(r"(^|[/,])(period|freq)=", texts[i]):
            r = rec[i]["attr"]
            freq = num(r.get("freq", "0"))
            val = num(r.get("sample_period", "0"))
            kv.append("freq=%d" % freq)
            kv.append(("sample_freq=%d" if freq else "sample_period=%d") % val)
        if rec is not None and re.search(r"(^|[/,])(no-)?inherit([/,]|$)", texts[i]):
            kv.append("inherit=%d" % num(rec[i]["attr"].get("inherit", "0")))
        rows.append(" ".join(kv))
    return rows


def sort_glob(s, events, rows):
    """perf 6.1 expands tracepoint globs in readdir order, which depends on the
    filesystem; the vectors keep them sorted by name (perfkit's documented
    order), with leader indices renumbered.  Only single-item strings are
    reordered."""
    if ("*" not in s and "?" not in s) or "," in s:
        return rows
    order = sorted(range(len(rows)), key=lambda i: re.search(r"config=(\S+)", rows[i]).group(1))
    new_of = {old: new for new, old in enumerate(order)}
    out = []
    for old in order:
        lead = int(re.match(r"leader=(\d+)", rows[old]).group(1))
        out.append(re.sub(r"^leader=\d+", "leader=%d" % new_of[lead], rows[old]))
    return out


def perf_message(out):
    lines = out.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("event syntax error"):
            msg = lines[i + 1].strip() if i + 1 < len(lines) else ""
            msg = re.sub(r"^\\___\s*", "", msg)
            return msg or "syntax error"
    for line in lines:
        if "Run 'perf list'" in line:
            return "rejected"
    return None


def vectors_for(s, sysfs=None, cpuid=None, tps=None):
    """Returns ("ok", [rows]) or ("invalid", message) or ("error", text)."""
    rc, out = run_perf(s, sysfs, cpuid)
    via_record = False
    if rc != 0 and "is not usable in 'perf stat'" in out:
        # Terms perf stat refuses (freq, call-graph, inherit, time...) are
        # still parse-level terms: take the attrs from perf record instead.
        rc, out = run_perf(s, sysfs, cpuid, record=True)
        via_record = True
    if rc != 0:
        msg = perf_message(out)
        if msg:
            return "invalid", msg
        return "error", out.strip().splitlines()[-1] if out.strip() else "rc=%d" % rc
    events = parse_blocks(out)
    if not events:
        return "error", "no attr printed"
    items = split_items(s)
    if via_record and "*" not in s and len(events) > len(items):
        events = events[:len(items)]   # perf record's own tracking dummy
    rec = None
    if via_record:
        rec = events
    elif re.search(r"(period|freq)=", s):
        rc2, out2 = run_perf(s, sysfs, cpuid, record=True)
        if rc2 != 0:
            return "error", "perf record failed"
        rec = parse_blocks(out2)[:len(events)]
    try:
        rows = encode_events(s, events, items, rec, tps or {}, pmu_types(sysfs))
    except ValueError as e:
        return "error", str(e)
    return "ok", sort_glob(s, events, rows)


HEADER = """# Golden vectors: event string -> perf_event_attr as perf 6.1 encodes it.
# Generated by tests/tools/gen-vectors.sh %s (perf %s%s); do not edit by hand.
# Format: STRING<TAB>EVENT<TAB>EVENT...; EVENT = space-separated key=value.
# leader=N is the group leader's index.  Identity fields (type config config1
# config2 bp_type bp_addr bp_len exclude_user exclude_kernel exclude_hv
# precise_ip pinned exclusive) are listed when non-zero and compared always
# (absent = 0).  exclude_guest/exclude_host/exclude_idle/freq/sample_period/
# sample_freq are compared only where listed.  config=tp:SYS:NAME and
# type=pmu:NAME are resolved on the machine running the test.
"""


def gen(setname, sysfs=None, cpuid=None):
    src = os.path.join(VDIR, "strings-%s.txt" % setname)
    tps = tracepoint_names()
    ok, bad, err = [], [], []
    for s in strings_of(src):
        kind, res = vectors_for(s, sysfs, cpuid, tps)
        if kind == "ok":
            ok.append(s + "\t" + "\t".join(res))
        elif kind == "invalid":
            bad.append(s + "\t" + res)
        else:
            err.append((s, res))
    ver = subprocess.run(["perf", "version"], stdout=subprocess.PIPE, text=True).stdout.split()[-1]
    extra = ""
    if sysfs:
        extra += ", sysfs " + os.path.relpath(sysfs, ROOT)
    if cpuid:
        extra += ", PERF_CPUID=" + cpuid
    directive = "#! sysfs %s\n" % (os.path.basename(sysfs) if sysfs else "live")
    with open(os.path.join(VDIR, "perf61-%s.tsv" % setname), "w", encoding="utf-8") as f:
        f.write(HEADER % (setname, ver, extra))
        f.write(directive)
        for line in ok:
            f.write(line + "\n")
    with open(os.path.join(VDIR, "perf61-invalid-%s.tsv" % setname), "w", encoding="utf-8") as f:
        f.write("# Strings perf %s rejects (set %s): STRING<TAB>perf's message.\n" % (ver, setname))
        f.write("# perfkit must reject them too (any negative errno), except the strings\n"
                "# perfkit-ext.tsv lists as perfkit extensions.\n")
        f.write(directive)
        for line in bad:
            f.write(line + "\n")
    for s, why in err:
        print("gen-vectors: %s: %r: %s (left out)" % (setname, s, why), file=sys.stderr)
    print("gen-vectors: %s: %d valid, %d rejected by perf, %d left out"
          % (setname, len(ok), len(bad), len(err)), file=sys.stderr)


def check(setname, n):
    """Rerun perf on a sample of the committed vectors; exit 1 on drift.
    Speaks TAP; skips (1..0 # SKIP) when perf or, for fixture sets, root
    (needed for the private mount namespace) is missing."""
    from shutil import which
    if not which("perf"):
        print("1..0 # SKIP perf is not installed")
        return 0
    path = os.path.join(VDIR, "perf61-%s.tsv" % setname)
    lines = [l.rstrip("\n") for l in open(path, encoding="utf-8") if not l.startswith("#") and l.strip()]
    step = max(1, len(lines) // n)
    sample = lines[::step][:n]
    tps = tracepoint_names()
    sysfs = cpuid = None
    for l in open(path, encoding="utf-8"):
        m = re.search(r"sysfs (\S+?)[,)]", l)
        if m:
            sysfs = os.path.join(ROOT, m.group(1))
        m = re.search(r"PERF_CPUID=(\S+?)\)", l)
        if m:
            cpuid = m.group(1)
        if not l.startswith("#"):
            break
    if sysfs and os.geteuid() != 0:
        print("1..0 # SKIP binding the fixture sysfs over /sys needs root")
        return 0
    print("1..%d" % len(sample))
    bad = 0
    for i, l in enumerate(sample, 1):
        s, *want = l.split("\t")
        kind, got = vectors_for(s, sysfs, cpuid, tps)
        if kind == "ok" and got == want:
            print("ok %d - %s" % (i, s))
        else:
            bad += 1
            print("not ok %d - %s" % (i, s))
            print("# committed: %s" % " | ".join(want))
            print("# perf now:  %s" % (" | ".join(got) if kind == "ok" else kind + ": " + str(got)))
    return 1 if bad else 0


def pfmcheck(path):
    """Cross-check a hand-written libpfm4 vector file against the installed
    libpfm4 (pfm-encode.c); prints every disagreement, exit 1 if any."""
    exe = scratch("pfm-encode")
    subprocess.check_call(["cc", "-o", exe, os.path.join(HERE, "pfm-encode.c"), "-lpfm"])
    env = dict(os.environ)
    rows = []
    for l in open(path, encoding="utf-8"):
        m = re.match(r"^#! env (\w+)=(\S+)", l)
        if m:
            env[m.group(1)] = m.group(2)
        elif l.strip() and not l.startswith("#"):
            rows.append(l.rstrip("\n").split("\t"))
    out = subprocess.run([exe] + [r[0] for r in rows], env=env, stdout=subprocess.PIPE,
                         text=True).stdout.splitlines()
    names = {"type": "type", "config": "config", "config1": "config1", "eu": "exclude_user",
             "ek": "exclude_kernel", "eh": "exclude_hv", "eG": "exclude_guest",
             "eH": "exclude_host", "precise": "precise_ip", "pinned": "pinned",
             "excl": "exclusive"}
    bad = 0
    for r, line in zip(rows, out):
        want = dict(kv.split("=", 1) for kv in r[1].split())
        got = dict(kv.split("=", 1) for kv in line.split("\t")[1].split() if "=" in kv)
        for k, f in names.items():
            w = num(want.get(f, "0")) if f in want or f not in ("exclude_guest", "exclude_host") else None
            if w is None:
                continue
            if k not in got or num(got[k]) != w:
                bad += 1
                print("pfmcheck: %s: %s: vectors say %s, libpfm4 says %s" % (r[0], f, w, got.get(k, line)))
    print("pfmcheck: %s: %d strings, %d disagreements" % (os.path.basename(path), len(rows), bad))
    return 1 if bad else 0


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, setname = argv[1], argv[2]
    if cmd == "gen":
        sysfs = cpuid = None
        rest = argv[3:]
        while rest:
            if rest[0] == "--sysfs":
                sysfs = os.path.abspath(rest[1])
            elif rest[0] == "--cpuid":
                cpuid = rest[1]
            rest = rest[2:]
        gen(setname, sysfs, cpuid)
        return 0
    if cmd == "pfmcheck":
        return pfmcheck(setname)
    if cmd == "check":
        return check(setname, int(argv[3]) if len(argv) > 3 else 20)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
