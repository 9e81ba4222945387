#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""brstackinsn-craft.py IN OUT: the file IN that brstack-craft.py made
(four branch entries at the end of each sample) with the newest entry of
every second sample from and to the byte after the sample's ip (not from
the ip, where perf prints no last block, nor to it): the block from there to the ip runs backwards, so perf scans 128
bytes from it and stops at the first branch, "... not reaching sample
..." (in the workload's hot loops the bytes after any instruction's
first decode into the loop's own, up to its branch), as with LBR data
that missed a branch."""
import struct
import sys

HEADER = struct.Struct("<8sQQ2Q2Q2Q32s")
RECORD_SAMPLE, NR = 9, 4


def main(src, dst):
    buf = bytearray(open(src, 'rb').read())
    data_off, data_size = HEADER.unpack_from(buf, 0)[5:7]
    at, samples = data_off, []
    while at < data_off + data_size:
        rtype, _, size = struct.unpack_from('<IHH', buf, at)
        if rtype == RECORD_SAMPLE:
            nr, = struct.unpack_from('<Q', buf, at + size - 24 * NR - 8)
            assert nr == NR, 'not a brstack-craft.py file'
            samples.append(at + size - 24 * NR)
        at += size
    for k in range(0, len(samples), 2):
        ip, = struct.unpack_from('<Q', buf, samples[k] + 24 * 3 + 8)  # the last entry's to: the ip
        struct.pack_into('<QQ', buf, samples[k], ip + 1, ip + 1)
    open(dst, 'wb').write(buf)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
