#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gen-probes.py - expected encodings of uprobe/kprobe event strings.

perf 6.1 has no event-string syntax for the uprobe/kprobe PMUs (it creates
probes through tracefs instead), so these vectors follow the kernel's
documented encoding (perf_event_open(2), "kprobe and uprobe" and
kernel/events/core.c): type = the PMU's sysfs type, config = the bit of
format/retprobe for a return probe, config1 = a pointer to the path (uprobe)
or function name (kprobe), NULL for a raw kprobe address, config2 = the file
offset (uprobe), the offset into the function or the address (kprobe).

File offsets come from binutils, not from perfkit: st_value from `nm`, the
PT_LOAD segment from `readelf -lW`, offset = st_value - p_vaddr + p_offset.

Writes tests/fixtures/vectors/perfkit-probes.tsv (against the committed
probe/probe-target and the fixture sysfs trees: suite unit) and
kernel-uprobe.tsv (against this machine's libc: suite kernel, guarded by
the file's sha256 so a libc upgrade skips with a reason instead of failing).
Same line format as perf61-*.tsv; config1=str:TEXT compares the string the
pointer points at, @VECTORS@ stands for tests/fixtures/vectors.
"""
import hashlib
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
VDIR = os.path.join(ROOT, "tests", "fixtures", "vectors")
LIBC = "/usr/lib/x86_64-linux-gnu/libc.so.6"


def loads(path):
    segs = []
    out = subprocess.check_output(["readelf", "-lW", path], text=True)
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "LOAD":
            segs.append((int(f[1], 16), int(f[2], 16), int(f[5], 16)))  # off, vaddr, memsz
    return segs


def symbols(path, dynamic):
    cmd = ["nm", "--defined-only"] + (["-D"] if dynamic else []) + [path]
    syms = {}
    for line in subprocess.check_output(cmd, text=True).splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "TtWw":
            syms.setdefault(f[2].split("@")[0], int(f[0], 16))
    return syms


def file_offset(path, sym, dynamic=False):
    addr = symbols(path, dynamic)[sym]
    for off, vaddr, memsz in loads(path):
        if vaddr <= addr < vaddr + memsz:
            return addr - vaddr + off
    raise KeyError(sym)


def retprobe_config(sysfs_root, pmu):
    with open(os.path.join(sysfs_root, "bus/event_source/devices", pmu, "format/retprobe")) as f:
        m = re.match(r"config:(\d+)$", f.read().strip())
    return 1 << int(m.group(1))


def row(s, fields):
    return s + "\t" + "leader=0 " + " ".join(fields)


def fixture_set():
    target = os.path.join(VDIR, "probe", "probe-target")
    src = os.path.join(VDIR, "probe", "probe-target.c")
    subprocess.check_call(["cc", "-O0", "-g0", "-no-pie", "-fno-pie", "-rdynamic",
                           "-Wl,-Ttext-segment=0x400000", "-Wl,--build-id=none",
                           "-o", target, src])
    p = "@VECTORS@/probe/probe-target"
    rp = retprobe_config(os.path.join(ROOT, "tests/fixtures/sysfs/intel"), "uprobe")
    krp = retprobe_config(os.path.join(ROOT, "tests/fixtures/sysfs/intel"), "kprobe")
    a, b, g = (file_offset(target, n) for n in ("pk_probe_alpha", "pk_probe_beta", "pk_probe_gamma"))
    up = ["type=pmu:uprobe", "config1=str:" + p]
    rows = [
        row("uprobe:%s:pk_probe_alpha" % p, up + ["config2=0x%x" % a]),
        row("uprobe:%s:pk_probe_beta" % p, up + ["config2=0x%x" % b]),
        row("uprobe:%s:pk_probe_gamma" % p, up + ["config2=0x%x" % g]),
        row("uprobe:%s:pk_probe_beta+4" % p, up + ["config2=0x%x" % (b + 4)]),
        row("uprobe:%s:pk_probe_alpha+0x10" % p, up + ["config2=0x%x" % (a + 0x10)]),
        row("uprobe:%s:0x%x" % (p, g), up + ["config2=0x%x" % g]),
        row("uprobe:%s:0x1000" % p, up + ["config2=0x1000"]),
        row("uretprobe:%s:pk_probe_alpha" % p, ["type=pmu:uprobe", "config=0x%x" % rp,
                                                "config1=str:" + p, "config2=0x%x" % a]),
        row("uretprobe:%s:pk_probe_gamma" % p, ["type=pmu:uprobe", "config=0x%x" % rp,
                                                "config1=str:" + p, "config2=0x%x" % g]),
        row("kprobe:do_sys_openat2", ["type=pmu:kprobe", "config1=str:do_sys_openat2"]),
        row("kprobe:vfs_read", ["type=pmu:kprobe", "config1=str:vfs_read"]),
        row("kprobe:vfs_read+8", ["type=pmu:kprobe", "config1=str:vfs_read", "config2=0x8"]),
        row("kretprobe:vfs_read", ["type=pmu:kprobe", "config=0x%x" % krp, "config1=str:vfs_read"]),
        row("kprobe:0xffffffff81000000", ["type=pmu:kprobe", "config2=0xffffffff81000000"]),
        row("kretprobe:0xffffffff81000000", ["type=pmu:kprobe", "config=0x%x" % krp,
                                             "config2=0xffffffff81000000"]),
    ]
    rows.append("%s,%s\t%s\t%s" % (
        "uprobe:%s:pk_probe_alpha" % p, "uretprobe:%s:pk_probe_alpha" % p,
        "leader=0 " + " ".join(up + ["config2=0x%x" % a]),
        "leader=1 type=pmu:uprobe config=0x%x config1=str:%s config2=0x%x" % (rp, p, a)))
    with open(os.path.join(VDIR, "perfkit-probes.tsv"), "w") as f:
        f.write("# uprobe/kprobe vectors from the kernel's documented encoding (no perf\n"
                "# equivalent); offsets from nm + readelf on probe/probe-target.\n"
                "# Run with PERFKIT_SYSFS_ROOT=tests/fixtures/sysfs/intel (kprobe 6, uprobe 7).\n"
                "# Generated by tests/tools/gen-vectors.sh probes; see gen-probes.py.\n"
                "#! sysfs intel\n")
        for r in rows:
            f.write(r + "\n")
    return len(rows)


def libc_set():
    h = hashlib.sha256(open(LIBC, "rb").read()).hexdigest()
    rp = retprobe_config("/sys", "uprobe") if os.path.exists(
        "/sys/bus/event_source/devices/uprobe/format/retprobe") else 1
    rows = []
    for name, plus in (("malloc", 0), ("free", 0), ("printf", 0), ("getpid", 0),
                       ("open", 0), ("malloc", 4), ("free", 0x10)):
        off = file_offset(LIBC, name, dynamic=True) + plus
        s = "uprobe:%s:%s%s" % (LIBC, name, "+%d" % plus if plus else "")
        rows.append(row(s, ["type=pmu:uprobe", "config1=str:" + LIBC, "config2=0x%x" % off]))
    off = file_offset(LIBC, "malloc", dynamic=True)
    rows.append(row("uretprobe:%s:malloc" % LIBC, ["type=pmu:uprobe", "config=0x%x" % rp,
                                                   "config1=str:" + LIBC, "config2=0x%x" % off]))
    with open(os.path.join(VDIR, "kernel-uprobe.tsv"), "w") as f:
        f.write("# uprobes on this machine's libc (kernel's documented encoding; offsets\n"
                "# from nm -D + readelf -lW).  Valid only for the libc whose sha256 is:\n")
        f.write("#! sysfs live\n")
        f.write("#! sha256 %s %s\n" % (LIBC, h))
        for r in rows:
            f.write(r + "\n")
    return len(rows)


if __name__ == "__main__":
    n = fixture_set()
    m = libc_set()
    print("gen-probes: %d fixture probe vectors, %d libc uprobe vectors" % (n, m), file=sys.stderr)
