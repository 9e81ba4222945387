#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""poke-craft.py IN OUT ADDR OLD NEW: a copy of the perf.data file IN with a
PERF_RECORD_TEXT_POKE record inserted after its first COMM record: at ADDR
(hex), OLD bytes 0x10, 0x11, ... replaced by NEW bytes 0xe8, 0xe9, ...;
the record ends with that COMM's sample_id trailer (same attr, so the same
layout). The data section grows by the record and the feature sections
after it move with it. IN must be in this machine's byte order.
"""
import struct
import sys

SAMPLE_ID_BITS = (1, 2, 6, 9, 7, 16)  # TID TIME ID STREAM_ID CPU IDENTIFIER
RECORD_COMM, RECORD_TEXT_POKE = 3, 20


def main():
    src, dst, addr, nold, nnew = sys.argv[1], sys.argv[2], int(sys.argv[3], 16), int(sys.argv[4]), int(sys.argv[5])
    b = bytearray(open(src, 'rb').read())
    attr_off = struct.unpack_from('<Q', b, 24)[0]
    off, size = struct.unpack_from('<QQ', b, 40)
    sample_type = struct.unpack_from('<Q', b, attr_off + 24)[0]
    ntrail = sum(1 for bit in SAMPLE_ID_BITS if sample_type >> bit & 1)
    p = off
    while p < off + size:
        t, _, s = struct.unpack_from('<IHH', b, p)
        if t == RECORD_COMM:
            break
        p += s
    else:
        sys.exit('no COMM record in ' + src)
    trailer = bytes(b[p + s - 8 * ntrail:p + s])
    old = bytes((0x10 + i) & 0xff for i in range(nold))
    new = bytes((0xe8 + i) & 0xff for i in range(nnew))
    body = struct.pack('<QHH', addr, nold, nnew) + old + new
    body += b'\0' * (-(8 + len(body)) % 8)
    rec = struct.pack('<IHH', RECORD_TEXT_POKE, 0, 8 + len(body) + len(trailer)) + body + trailer
    b[p + s:p + s] = rec
    struct.pack_into('<Q', b, 48, size + len(rec))
    nfeat = bin(int.from_bytes(b[72:104], 'little')).count('1')
    table = off + size + len(rec)
    for i in range(nfeat):
        o = struct.unpack_from('<Q', b, table + 16 * i)[0]
        struct.pack_into('<Q', b, table + 16 * i, o + len(rec))
    open(dst, 'wb').write(b)


main()
