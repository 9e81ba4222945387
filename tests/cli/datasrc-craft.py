#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""datasrc-craft.py IN OUT: a copy of the perf.data file IN whose samples'
PERF_SAMPLE_DATA_SRC words take, in turn, values that cover perf script's
decoding (no PMU here to record real ones): each memory operation, levels
by bit and by number (named and "L<n>"), remote and hops, every snoop and
snoopx bit, TLB, lock and block bits, and words whose decoding is long
enough to be cut.  IN must be a single-event file (perf record -d -e
page-faults) whose sample_type ends at DATA_SRC, in this machine's byte
order: the word is the last of each sample, so no record changes size.
"""
import struct
import sys

SAMPLE_DATA_SRC = 1 << 15
RECORD_SAMPLE = 9
HEADER = struct.Struct("<8sQQ2Q2Q2Q32s")


def word(op=0, lvl=0, snoop=0, lock=0, tlb=0, lvlnum=0, remote=0, snoopx=0, blk=0, hops=0):
    return (op | lvl << 5 | snoop << 19 | lock << 24 | tlb << 26 | lvlnum << 33 | remote << 37 |
            snoopx << 38 | blk << 40 | hops << 43)


WORDS = [
    word(op=2, lvl=0x2 | 0x8, snoop=2, tlb=0x2 | 0x8 | 0x10, blk=1),  # LOAD, L1 hit, TLB L1 or L2 hit
    word(op=4, lvl=0x4 | 0x40, lvlnum=3, remote=1, snoop=16, snoopx=1, tlb=0x4 | 0x20, lock=2, blk=6),
    word(op=8, hops=2, lvlnum=0xd, remote=1, lvl=0x2),
    word(op=0x10, lvlnum=9, snoopx=2, lock=1),
    word(),
    word(op=1, lvl=1, snoop=1, lock=1, tlb=1, lvlnum=0xf, blk=1),
    word(op=2, lvl=0x3fff, snoop=0x1f, snoopx=3, tlb=0x7f, lvlnum=0xe, remote=1, blk=7),
    word(op=2, lvlnum=0xb, hops=4),
    word(op=4, lvlnum=4),
    word(op=4, lvlnum=6, lvl=0x80 | 0x1000, tlb=0x40),
    word(op=2 | 4, lvlnum=0xc, snoop=4 | 8),
]


def main(src, dst):
    buf = bytearray(open(src, 'rb').read())
    (magic, hsize, attr_size, attrs_off, attrs_size, data_off, data_size,
     types_off, types_size, feats) = HEADER.unpack_from(buf, 0)
    if magic != b'PERFILE2' or attrs_size != attr_size:
        sys.exit('datasrc-craft: need a single-event PERFILE2 file in this byte order')
    stype, = struct.unpack_from('<Q', buf, attrs_off + 24)
    if stype & SAMPLE_DATA_SRC == 0 or stype >> 16:
        sys.exit('datasrc-craft: sample_type 0x%x does not end at DATA_SRC' % stype)
    pos, n = data_off, 0
    while pos < data_off + data_size:
        rtype, misc, size = struct.unpack_from('<IHH', buf, pos)
        if rtype == RECORD_SAMPLE:
            struct.pack_into('<Q', buf, pos + size - 8, WORDS[n % len(WORDS)])
            n += 1
        pos += size
    open(dst, 'wb').write(bytes(buf))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
