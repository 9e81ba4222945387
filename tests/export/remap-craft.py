#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""remap-craft.py NAME IN OUT: a copy of the perf.data file IN with one
MMAP2 record added half way through its samples that maps the executable
mapping of the file whose path ends in NAME again, over the same
addresses, to /nonexistent/remapped.  The samples after it have the same
call chains as before but resolve to another DSO, which a memo from
chains to stacks must notice.

IN must be a single-event PERFILE2 file in this byte order whose
sample_type puts TID and TIME first and nothing of the sample id after
them (perf record -e cpu-clock -g's layout: the side-band records end
with pid, tid, time); the sections after the data move with it.
"""
import struct
import sys

HEADER = struct.Struct("<8sQQ2Q2Q2Q32s")
RECORD_MMAP2, RECORD_SAMPLE = 10, 9
SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME = 1 << 0, 1 << 1, 1 << 2
# the sample id fields other than TID and TIME: ID, CPU, STREAM_ID, IDENTIFIER
OTHER_ID = (1 << 6) | (1 << 7) | (1 << 9) | (1 << 16)
MMAP_BUILD_ID = 1 << 14
PROT_EXEC = 4
NEW_NAME = b'/nonexistent/remapped'


def records(buf, off, size):
    pos = off
    while pos < off + size:
        rtype, misc, rsize = struct.unpack_from('<IHH', buf, pos)
        yield pos, rtype, misc, bytes(buf[pos:pos + rsize])
        pos += rsize


def remapped(rec, misc, time):
    """An MMAP2 record like rec (pid, tid, addr, len, pgoff, prot, flags)
    naming NEW_NAME, with no device, inode or build-id, at `time`."""
    pid, tid, addr, length, pgoff = struct.unpack_from('<IIQQQ', rec, 8)
    prot, flags = struct.unpack_from('<II', rec, 8 + 56)
    name = NEW_NAME + b'\0' * (8 - len(NEW_NAME) % 8)
    body = struct.pack('<IIQQQIIQQII', pid, tid, addr, length, pgoff, 0, 0, 0, 0, prot, flags) + name
    body += struct.pack('<IIQ', pid, tid, time)
    return struct.pack('<IHH', RECORD_MMAP2, misc & ~MMAP_BUILD_ID, 8 + len(body)) + body


def main(name, src, dst):
    buf = bytearray(open(src, 'rb').read())
    (magic, hsize, attr_size, attrs_off, attrs_size, data_off, data_size,
     types_off, types_size, feats) = HEADER.unpack_from(buf, 0)
    if magic != b'PERFILE2' or attrs_size != attr_size:
        sys.exit('remap-craft: need a single-event PERFILE2 file in this byte order')
    stype, = struct.unpack_from('<Q', buf, attrs_off + 24)
    if (stype & (SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME)) != (SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME) or stype & OTHER_ID:
        sys.exit('remap-craft: sample_type 0x%x is not IP, TID, TIME and no other id' % stype)
    recs = list(records(buf, data_off, data_size))
    exe = [r for r in recs if r[1] == RECORD_MMAP2 and
           r[3][8 + 64:].split(b'\0')[0].endswith(name.encode()) and
           struct.unpack_from('<I', r[3], 8 + 56)[0] & PROT_EXEC]
    samples = [r for r in recs if r[1] == RECORD_SAMPLE]
    if not exe or len(samples) < 2:
        sys.exit('remap-craft: no executable mapping of %s, or too few samples' % name)
    mid = samples[len(samples) // 2]
    time, = struct.unpack_from('<Q', mid[3], 24)
    new = remapped(exe[0][3], exe[0][2], time - 1)
    at = mid[0] - data_off
    out = buf[data_off:data_off + at] + new + buf[data_off + at:data_off + data_size]
    rest = buf[data_off + data_size:]
    for i in range(bin(int.from_bytes(feats, 'little')).count('1')):
        off, = struct.unpack_from('<Q', rest, i * 16)
        struct.pack_into('<Q', rest, i * 16, off + len(new))
    head = buf[:data_off]
    HEADER.pack_into(head, 0, magic, hsize, attr_size, attrs_off, attrs_size, data_off,
                     len(out), types_off, types_size, feats)
    open(dst, 'wb').write(bytes(head) + bytes(out) + bytes(rest))


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
