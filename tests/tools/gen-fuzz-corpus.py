#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""gen-fuzz-corpus.py - seed fuzz/corpus/events/ with every event string of
the golden vectors (tests/fixtures/vectors/*.tsv) plus a few hand-picked
edge cases.  Files are named by the SHA-1 of their content, as libFuzzer
names what it adds, so reseeding never duplicates.  Existing files (crashes
found by fuzzing, minimised inputs) are kept."""
import glob
import hashlib
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "fuzz", "corpus", "events")

EXTRA = [
    "uprobe:/bin/true:0x10", "uretprobe:/bin/true:0x10", "uprobe:/dev/zero:main",
    "uprobe:/proc/self/mem:main", "kprobe:vfs_read+0x10", "sched:*", "*:*",
    "{" * 64, "}" * 64, "cycles:" + "p" * 64, "r" + "f" * 40, "mem:0x" + "f" * 40,
    "cpu/" + "event=1," * 200 + "/", "cpu/event=0x3c,name=" + "x" * 300 + "/",
    "a" * 5000, ",", "{cycles,{", "cpu//", "cpu/=/", "cpu/event==1/", "mem:0x1000/",
    "cycles:u,", "INST_RETIRED:ANY_P:c=255:i=1:e=1:u:k", "INST_RETIRED:" * 20,
    "tracepoint/config=0xffffffffffffffff/", "4294967295:1", "-1:1", "0x1:0x1",
]


def strings():
    out = set(EXTRA)
    for path in glob.glob(os.path.join(ROOT, "tests", "fixtures", "vectors", "*.tsv")):
        for line in open(path, encoding="utf-8"):
            if line.startswith("#") or not line.strip("\n"):
                continue
            s = line.rstrip("\n").split("\t")[0]
            out.add(s.replace("@VECTORS@", "tests/fixtures/vectors"))
    return sorted(out)


def main():
    os.makedirs(OUT, exist_ok=True)
    n = 0
    for s in strings():
        data = s.encode()
        name = os.path.join(OUT, hashlib.sha1(data).hexdigest())
        if not os.path.exists(name):
            with open(name, "wb") as f:
                f.write(data)
            n += 1
    print("gen-fuzz-corpus: %d new seeds, %d in %s" % (n, len(os.listdir(OUT)),
                                                       os.path.relpath(OUT, ROOT)))


if __name__ == "__main__":
    main()
