#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""rawfield-craft.py bpf IN OUT | weight IN OUT: copies of a one-event
perf.data file IN (this machine's byte order) with sample fields no PMU
or BPF program here can give.

bpf: IN is a tracepoint recording whose sample_type ends at RAW (perf
record -e sched:sched_switch); the event becomes a BPF output event
(software, PERF_COUNT_SW_BPF_OUTPUT) and the samples' raw data take, in
turn, payloads that cover perf script's bpf-output dump: a string ended by
NULs, binary bytes over several lines, Latin-1 letters, a NUL followed by
more text, and an empty one.  Records change size; the feature sections
after the data move with it.

weight: IN is a perf record -W file whose sample_type ends at
WEIGHT_STRUCT; the samples' var1_dw, var2_w (ins_lat) and var3_w take
varied values, in place.  Prints the number of samples changed.
"""
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from perfdata_craft import with_data  # noqa: E402

RECORD_SAMPLE, SAMPLE_RAW, SAMPLE_WEIGHT_STRUCT = 9, 1 << 10, 1 << 24
TYPE_SOFTWARE, SW_BPF_OUTPUT = 1, 10

# each 4 + len a multiple of 8, as the kernel pads raw data
PAYLOADS = [
    b'hello, world' + b'\0' * 8,
    bytes(range(0x80, 0x80 + 28)),
    b'caf\xe9 na\xefve' + b'\0' * 10,
    b'ab\0cd\0\0\0\0\0\0\0',
    b'\0\0\0\0',
    b'0123456789abcdefghijklmnopqrs' + b'\0' * 7,
]


def header(b):
    attr_size, attr_off, attrs_size, data_off, data_size = struct.unpack_from('<QQQQQ', b, 16)
    if attrs_size != attr_size:
        sys.exit('rawfield-craft: IN must have one event')
    return attr_off, data_off, data_size


def bpf(b):
    attr_off, off, size = header(b)
    stype, = struct.unpack_from('<Q', b, attr_off + 24)
    if stype >> 10 != 1:
        sys.exit('rawfield-craft: the samples must end at RAW')
    struct.pack_into('<I', b, attr_off, TYPE_SOFTWARE)
    struct.pack_into('<Q', b, attr_off + 8, SW_BPF_OUTPUT)
    for data in PAYLOADS:
        assert (4 + len(data)) % 8 == 0
    out, n, p = bytearray(), 0, off
    while p < off + size:
        t, misc, s = struct.unpack_from('<IHH', b, p)
        rec = bytes(b[p:p + s])
        p += s
        if t == RECORD_SAMPLE:
            # RAW is the last field: every field before it is one word
            raw_at = 8 + 8 * bin(stype & (SAMPLE_RAW - 1)).count('1')
            data = PAYLOADS[n % len(PAYLOADS)]
            body = rec[8:raw_at] + struct.pack('<I', len(data)) + data
            rec = struct.pack('<IHH', t, misc, 8 + len(body)) + body
            n += 1
        out += rec
    return off, size, out, n


def weight(b):
    attr_off, off, size = header(b)
    stype, = struct.unpack_from('<Q', b, attr_off + 24)
    if stype >> 24 != 1:
        sys.exit('rawfield-craft: the samples must end at WEIGHT_STRUCT')
    n, p = 0, off
    while p < off + size:
        t, _, s = struct.unpack_from('<IHH', b, p)
        if t == RECORD_SAMPLE:
            struct.pack_into('<IHH', b, p + s - 8, (n * 977) % 70000, (n * 31) % 65536, n % 300)
            n += 1
        p += s
    return off, size, None, n


def main():
    mode, src, dst = sys.argv[1], sys.argv[2], sys.argv[3]
    b = bytearray(open(src, 'rb').read())
    off, size, out, n = (bpf if mode == 'bpf' else weight)(b)
    open(dst, 'wb').write(b if out is None else with_data(b, out))
    print(n)


main()
