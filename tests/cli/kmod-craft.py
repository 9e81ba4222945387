#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kmod-craft.py IN OUT PATH START LEN: a copy of the perf.data file IN
(a perf record without call chains, one sample layout) as if a kernel module
had been loaded: a kernel PERF_RECORD_MMAP of PATH at [START, START+LEN)
(hex) is inserted after the kernel's own MMAP (with its sample_id
trailer), and every other kernel sample's ip is moved into that range
(START + ip % LEN).  Prints how many samples moved.  The data section
grows by the record and the feature sections after it move with it.  IN
must be in this machine's byte order.
"""
import struct
import sys

SAMPLE_ID_BITS = (1, 2, 6, 9, 7, 16)  # TID TIME ID STREAM_ID CPU IDENTIFIER
RECORD_MMAP, RECORD_SAMPLE, MISC_KERNEL = 1, 9, 1


def main():
    src, dst, path = sys.argv[1], sys.argv[2], sys.argv[3].encode()
    start, length = int(sys.argv[4], 16), int(sys.argv[5], 16)
    b = bytearray(open(src, 'rb').read())
    attr_off = struct.unpack_from('<Q', b, 24)[0]
    off, size = struct.unpack_from('<QQ', b, 40)
    sample_type = struct.unpack_from('<Q', b, attr_off + 24)[0]
    ntrail = sum(1 for bit in SAMPLE_ID_BITS if sample_type >> bit & 1)
    ip_at = 8 + (8 if sample_type >> 16 & 1 else 0)  # after IDENTIFIER
    kmap, moved, nkernel = None, 0, 0
    p = off
    while p < off + size:
        t, misc, s = struct.unpack_from('<IHH', b, p)
        if t == RECORD_MMAP and kmap is None and struct.unpack_from('<i', b, p + 8)[0] == -1:
            kmap = (p, s)
        elif t == RECORD_SAMPLE and misc & 7 == MISC_KERNEL and sample_type & 1:
            nkernel += 1
            if nkernel % 2 == 0:
                ip = struct.unpack_from('<Q', b, p + ip_at)[0]
                struct.pack_into('<Q', b, p + ip_at, start + ip % length)
                moved += 1
        p += s
    if kmap is None:
        sys.exit('no kernel MMAP record in ' + src)
    p, s = kmap
    trailer = bytes(b[p + s - 8 * ntrail:p + s])
    name = path + b'\0' * (8 - len(path) % 8)
    body = struct.pack('<iIQQQ', -1, 0, start, length, 0) + name
    rec = struct.pack('<IHH', RECORD_MMAP, MISC_KERNEL, 8 + len(body) + len(trailer)) + body + trailer
    b[p + s:p + s] = rec
    struct.pack_into('<Q', b, 48, size + len(rec))
    nfeat = bin(int.from_bytes(b[72:104], 'little')).count('1')
    table = off + size + len(rec)
    for i in range(nfeat):
        o = struct.unpack_from('<Q', b, table + 16 * i)[0]
        struct.pack_into('<Q', b, table + 16 * i, o + len(rec))
    open(dst, 'wb').write(b)
    print(moved)


main()
