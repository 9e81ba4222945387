#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""comm-craft.py IN OUT: the file IN (this machine's byte order, its
events of one sample type, samples and sample_id_all trailers with their
times) with its
command's first samples taken before anything named it: the COMMs that
named the command's process before its exec (perf's and perfkit's
"perf-exec") left out, and the exec's COMM moved, by its time, to just
before the middle one of the process's samples.  A reader that meets a
thread's first COMM after samples of it (a FORK lost, an overwritten
ring) sees exactly this.  Prints the pid and how many samples come before
the COMM now."""
import struct
import sys

from perfdata_craft import with_data

RECORD_COMM, RECORD_SAMPLE = 3, 9
MISC_COMM_EXEC = 1 << 13
IDENTIFIER, IP, TID, TIME, ID, CPU, STREAM_ID = 1 << 16, 1, 2, 4, 64, 128, 512
SAMPLE_ID_ALL = 1 << 18


def records(buf, off, size):
    pos = off
    while pos < off + size:
        rtype, misc, rsize = struct.unpack_from('<IHH', buf, pos)
        yield rtype, misc, bytearray(buf[pos:pos + rsize])
        pos += rsize


def main(src, dst):
    buf = open(src, 'rb').read()
    attr_size, attrs_off, attrs_size, data_off, data_size = struct.unpack_from('<5Q', buf, 16)
    stypes = {struct.unpack_from('<Q', buf, a + 24)[0] for a in range(attrs_off, attrs_off + attrs_size, attr_size)}
    stype, = stypes
    flags, = struct.unpack_from('<Q', buf, attrs_off + 40)
    if len(stypes) != 1 or not stype & TIME or not stype & TID or not flags & SAMPLE_ID_ALL:
        sys.exit('comm-craft: need events of one sample type, samples and trailers with TID and TIME')
    trailer = 8 * bin(stype & (TID | TIME | ID | STREAM_ID | CPU | IDENTIFIER)).count('1')
    stime = 8 + 8 * bin(stype & (IDENTIFIER | IP | TID)).count('1')
    spid = 8 + 8 * bin(stype & (IDENTIFIER | IP)).count('1')
    recs = list(records(buf, data_off, data_size))
    execs = [r for t, m, r in recs if t == RECORD_COMM and m & MISC_COMM_EXEC]
    if not execs:
        sys.exit('comm-craft: no exec COMM')
    pid, = struct.unpack_from('<I', execs[0], 8)
    times = sorted(struct.unpack_from('<Q', r, stime)[0] for t, m, r in recs
                   if t == RECORD_SAMPLE and struct.unpack_from('<I', r, spid)[0] == pid)
    if len(times) < 4:
        sys.exit('comm-craft: too few samples of process %d' % pid)
    when = times[len(times) // 2] - 1
    out = bytearray()
    for t, m, r in recs:
        if t == RECORD_COMM and struct.unpack_from('<I', r, 8)[0] == pid:
            if not m & MISC_COMM_EXEC:
                continue
            if r is execs[0]:
                struct.pack_into('<Q', r, len(r) - trailer + 8, when)
        out += r
    with open(dst, 'wb') as f:
        f.write(with_data(buf, bytes(out)))
    print(pid, sum(1 for x in times if x < when))


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
