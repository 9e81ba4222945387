#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# seed-tracing.py - make fuzz_tracing seeds from tracepoint recordings:
# each perf.data file (little-endian, not pipe mode) gives one seed, its
# first tracepoint sample's PERF_SAMPLE_RAW bytes and its HEADER_TRACING_DATA
# section, in fuzz_tracing.c's layout (u16 raw length, raw, section).
# usage: fuzz/seed-tracing.py OUT-DIR FILE.data...
import os
import struct
import sys

ORDER = [(1 << 16, 'identifier'), (1, 'ip'), (2, 'tid'), (4, 'time'), (8, 'addr'),
         (64, 'id'), (512, 'stream_id'), (128, 'cpu'), (256, 'period')]


def seed(path):
    b = open(path, 'rb').read()
    attr_size, = struct.unpack_from('<Q', b, 16)
    attrs_off, attrs_size, data_off, data_size = struct.unpack_from('<QQQQ', b, 24)
    features = int.from_bytes(b[72:104], 'little')
    if not features & 2:
        raise SystemExit(f'{path}: no tracing data')
    td_off, td_size = struct.unpack_from('<QQ', b, data_off + data_size)
    section = b[td_off:td_off + td_size]
    ids, attrs = {}, []
    for a in range(attrs_off, attrs_off + attrs_size, attr_size):	# attr + ids section
        typ, = struct.unpack_from('<I', b, a)
        stype, = struct.unpack_from('<Q', b, a + 24)
        ids_off, ids_size = struct.unpack_from('<QQ', b, a + attr_size - 16)
        attrs.append((typ, stype))
        for i in range(ids_off, ids_off + ids_size, 8):
            ids[struct.unpack_from('<Q', b, i)[0]] = (typ, stype)
    off = data_off
    while off < data_off + data_size:
        rtype, misc, size = struct.unpack_from('<IHH', b, off)
        if rtype == 9:
            p = off + 8
            typ, stype = attrs[0]
            if len(attrs) > 1:	# several attrs: the sample's id (IDENTIFIER or ID) says which
                q = p
                for bit, name in ORDER:
                    if stype & bit and name in ('identifier', 'id'):
                        typ, stype = ids[struct.unpack_from('<Q', b, q)[0]]
                        break
                    q += 8 if stype & bit else 0
            for bit, name in ORDER:
                if stype & bit:
                    p += 8
            if stype & 32:
                nr, = struct.unpack_from('<Q', b, p)
                p += 8 + 8 * nr
            if typ == 2 and stype & 1024:
                n, = struct.unpack_from('<I', b, p)
                raw = b[p + 4:p + 4 + n]
                return struct.pack('<H', len(raw)) + raw + section
        off += size
    raise SystemExit(f'{path}: no tracepoint sample with raw data')


out = sys.argv[1]
for f in sys.argv[2:]:
    name = os.path.join(out, os.path.basename(f).replace('.data', ''))
    open(name, 'wb').write(seed(f))
