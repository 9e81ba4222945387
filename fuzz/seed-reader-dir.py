#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# seed-reader-dir.py - make fuzz_reader_dir seeds from perf record --threads
# directories: each DIR gives one seed in fuzz_reader_dir.c's layout, a
# byte naming how many data.N files follow (1-3, the low two bits; N taken
# in order), then DIR/data and each data.N but the last as a little-endian
# u32 length and the bytes, then the last data.N as the rest.
# usage: fuzz/seed-reader-dir.py OUT-DIR DIR...
import os
import re
import struct
import sys


def seed(d):
    names = sorted((int(m.group(1)), n) for n in os.listdir(d)
                   if (m := re.fullmatch(r'data\.(\d+)', n)))
    if not 1 <= len(names) <= 3:
        raise SystemExit(f'{d}: {len(names)} data.N files, the layout holds 1-3')
    files = [os.path.join(d, 'data')] + [os.path.join(d, n) for _, n in names]
    blobs = [open(f, 'rb').read() for f in files]
    out = bytes([len(names)])
    for b in blobs[:-1]:
        out += struct.pack('<I', len(b)) + b
    return out + blobs[-1]


out = sys.argv[1]
os.makedirs(out, exist_ok=True)
for d in sys.argv[2:]:
    name = 'seed-' + os.path.basename(os.path.normpath(d)).replace('.data', '')
    with open(os.path.join(out, name), 'wb') as f:
        f.write(seed(d))
