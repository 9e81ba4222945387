#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""tx-craft.py IN OUT: a copy of the perf.data file IN whose samples'
PERF_SAMPLE_TRANSACTION words take, in turn, values that cover perf
report's transaction key (no PMU here to record real ones): each flag
perf names, SYNC and ASYNC missing ("NEITHER"), abort codes, and 0.  IN
must be a single-event file (perf record --transaction) whose sample_type
ends at TRANSACTION, in this machine's byte order: the word is the last of
each sample, so no record changes size.
"""
import struct
import sys

SAMPLE_TRANSACTION = 1 << 17
RECORD_SAMPLE = 9
HEADER = struct.Struct("<8sQQ2Q2Q2Q32s")

# PERF_TXN_: ELISION 1, TRANSACTION 2, SYNC 4, ASYNC 8, RETRY 16,
# CONFLICT 32, CAPACITY_WRITE 64, CAPACITY_READ 128; abort code << 32
WORDS = [
    1 | 4,
    2 | 8 | 16,
    2,
    32 | 64 | 128 | 0x1234 << 32,
    0,
    1 | 2 | 4 | 8 | 16 | 32 | 64 | 128 | 0xffffffff << 32,
    4 | 0xab << 32,
]


def main(src, dst):
    buf = bytearray(open(src, 'rb').read())
    (magic, hsize, attr_size, attrs_off, attrs_size, data_off, data_size,
     types_off, types_size, feats) = HEADER.unpack_from(buf, 0)
    if magic != b'PERFILE2' or attrs_size != attr_size:
        sys.exit('tx-craft: need a single-event PERFILE2 file in this byte order')
    stype, = struct.unpack_from('<Q', buf, attrs_off + 24)
    if stype & SAMPLE_TRANSACTION == 0 or stype >> 18:
        sys.exit('tx-craft: sample_type 0x%x does not end at TRANSACTION' % stype)
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
