#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""trace-craft.py IN OUT N: a copy of the perf.data file IN (a perf record
of a tracepoint event beside others, samples with PERF_SAMPLE_IDENTIFIER)
in which the tracepoint event's samples are its first one, N times over:
the others are left out.  Every other record is kept.  perf 6.1 makes a
tracepoint entry's "Trace output" text only when it compares two samples,
so one sample (N=1) prints cut to the column's header, and N identical
ones (one entry) print whole.  Prints the number of samples left out.  The
feature sections after the data move with it.  IN must be in this
machine's byte order.
"""
import struct
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from perfdata_craft import with_data  # noqa: E402

RECORD_SAMPLE, TYPE_TRACEPOINT, SAMPLE_IDENTIFIER = 9, 2, 1 << 16


def tracepoint_ids(b):
    attr_size, attr_off, attrs_size = struct.unpack_from('<QQQ', b, 16)
    ids = set()
    for a in range(attr_off, attr_off + attrs_size, attr_size):
        atype, = struct.unpack_from('<I', b, a)
        stype, = struct.unpack_from('<Q', b, a + 24)
        if not stype & SAMPLE_IDENTIFIER:
            sys.exit('trace-craft: the samples carry no PERF_SAMPLE_IDENTIFIER')
        ids_off, ids_size = struct.unpack_from('<QQ', b, a + attr_size - 16)
        if atype == TYPE_TRACEPOINT:
            ids.update(struct.unpack_from('<%dQ' % (ids_size // 8), b, ids_off))
    return ids


def main():
    src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
    b = bytearray(open(src, 'rb').read())
    ids = tracepoint_ids(b)
    off, size = struct.unpack_from('<QQ', b, 40)
    out, first, dropped, p = bytearray(), None, 0, off
    while p < off + size:
        t, _, s = struct.unpack_from('<IHH', b, p)
        rec = bytes(b[p:p + s])
        p += s
        if t == RECORD_SAMPLE and struct.unpack_from('<Q', rec, 8)[0] in ids:
            if first is None:
                first = rec
                out += rec * n
            else:
                dropped += 1
            continue
        out += rec
    if first is None:
        sys.exit('trace-craft: no tracepoint sample in ' + src)
    open(dst, 'wb').write(with_data(b, out))
    print(dropped)


main()
