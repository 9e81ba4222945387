#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""unfinished-fix.py IN OUT: the perf.data file IN whose header says its
data size is 0 (perf record never finished it), as the finished file perf
6.1 can read: the data size set to the whole records from the data offset
on (a record cut by the end of the file left out), no feature bits (the
feature table was never written), the file ending after the records.
perf 6.1 warns on IN and reads none of its records; on OUT it reads them,
which is what perfkit must read from IN.  Prints the number of records."""
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
b = bytearray(open(src, 'rb').read())
assert b[:8] == b'PERFILE2', 'not a PERFILE2 file'
data_off, data_size = struct.unpack_from('<QQ', b, 40)
assert data_size == 0, 'the data size is not 0'
at, n = data_off, 0
while at + 8 <= len(b):
    size = struct.unpack_from('<H', b, at + 6)[0]
    if size < 8 or at + size > len(b):
        break
    at += size
    n += 1
struct.pack_into('<Q', b, 48, at - data_off)
b[72:104] = bytes(32)
open(dst, 'wb').write(b[:at])
print(n)
