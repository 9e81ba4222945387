#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""datasrc-craft.py IN OUT [--mem [ADDR...]]: a copy of the perf.data file IN whose samples'
PERF_SAMPLE_DATA_SRC words take, in turn, values that cover perf script's
decoding (no PMU here to record real ones): each memory operation, levels
by bit and by number (named and "L<n>"), remote and hops, every snoop and
snoopx bit, TLB, lock and block bits, and words whose decoding is long
enough to be cut.  IN must be a single-event file (perf record -d -e
page-faults) whose sample_type ends at DATA_SRC, in this machine's byte
order: the word is the last of each sample, so no record changes size.

With --mem (for report --mem-mode), IN is a perf record -d -W
[--phys-data] [--data-page-size] file of fixed-size samples (no call
chains, registers or stacks): each sample's data_src takes MEM_WORDS in
turn (no decoding longer than perf's 64-byte buffers), its weight,
physical address and data page size values from small cycles, and every
third sample's address the next ADDR given (hex: the address of a known
global, say), the others keeping the address the kernel faulted on.
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


# For report's columns: perf decodes each field into 64 bytes there.
MEM_WORDS = [w for i, w in enumerate(WORDS) if i != 6] + [
    word(op=2, lvl=0x2 | 0x20, snoop=4, tlb=0x2 | 0x10, lock=2, blk=2),
    word(op=4, lvl=0x4 | 0x80, snoop=8, tlb=0x4 | 0x40, blk=4),
]
WEIGHTS = [0, 1, 7, 30, 30, 250, 1000]
PAGE_SIZES = [4096, 2 << 20, 0, 1 << 30, 4096]
# sample_type bits of fixed size, in the order the kernel writes them
FIXED = [(0, 'ip', 8), (1, 'tid', 8), (2, 'time', 8), (3, 'addr', 8), (6, 'id', 8), (9, 'stream', 8),
         (7, 'cpu', 8), (8, 'period', 8)]
LATER = [(14, 'weight', 8), (24, 'weight', 8), (15, 'data_src', 8), (17, 'transaction', 8),
         (19, 'phys_addr', 8), (21, 'cgroup', 8), (22, 'data_page_size', 8), (23, 'code_page_size', 8)]
VARIABLE = (1 << 4) | (1 << 5) | (1 << 10) | (1 << 11) | (1 << 12) | (1 << 13) | (1 << 18) | (1 << 20)


def offsets(stype):
    if stype & VARIABLE or stype & (1 << 16):
        sys.exit('datasrc-craft: --mem needs fixed-size samples (sample_type 0x%x)' % stype)
    off, out = 8, {}
    for bit, name, size in FIXED + LATER:
        if stype & (1 << bit):
            out[name] = off
            off += size
    return out


def craft_mem(buf, data_off, data_size, stype, addrs):
    where = offsets(stype)
    if 'data_src' not in where or 'addr' not in where:
        sys.exit('datasrc-craft: --mem needs ADDR and DATA_SRC in the samples')
    pos, n = data_off, 0
    while pos < data_off + data_size:
        rtype, misc, size = struct.unpack_from('<IHH', buf, pos)
        if rtype == RECORD_SAMPLE:
            struct.pack_into('<Q', buf, pos + where['data_src'], MEM_WORDS[n % len(MEM_WORDS)])
            if 'weight' in where:
                struct.pack_into('<Q', buf, pos + where['weight'], WEIGHTS[n % len(WEIGHTS)])
            if 'phys_addr' in where:
                struct.pack_into('<Q', buf, pos + where['phys_addr'], 0x12340000 + (n % 5) * 0x1040)
            if 'data_page_size' in where:
                struct.pack_into('<Q', buf, pos + where['data_page_size'], PAGE_SIZES[n % len(PAGE_SIZES)])
            if addrs and n % 3 == 0:
                struct.pack_into('<Q', buf, pos + where['addr'], addrs[(n // 3) % len(addrs)])
            n += 1
        pos += size


def main(src, dst, mem=False, addrs=()):
    buf = bytearray(open(src, 'rb').read())
    (magic, hsize, attr_size, attrs_off, attrs_size, data_off, data_size,
     types_off, types_size, feats) = HEADER.unpack_from(buf, 0)
    if magic != b'PERFILE2' or attrs_size != attr_size:
        sys.exit('datasrc-craft: need a single-event PERFILE2 file in this byte order')
    stype, = struct.unpack_from('<Q', buf, attrs_off + 24)
    if mem:
        craft_mem(buf, data_off, data_size, stype, addrs)
        open(dst, 'wb').write(bytes(buf))
        return
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
    if len(sys.argv) < 3 or (len(sys.argv) > 3 and sys.argv[3] != '--mem'):
        sys.exit('usage: datasrc-craft.py IN OUT [--mem [ADDR...]]')
    main(sys.argv[1], sys.argv[2], len(sys.argv) > 3, [int(a, 16) for a in sys.argv[4:]])
