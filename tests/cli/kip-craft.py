#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""kip-craft.py [--user] IN OUT ADDR...: a copy of the perf.data file IN
(this machine's byte order, one event first) whose kernel-mode samples
with at least two kernel frames in their call chains have, in turn,
their last kernel frame set to each ADDR (hex), each ADDR on its own
sample, so that report and script resolve kernel addresses chosen
around the kernel map's end (init text, the gap after _etext, the last
kallsyms symbol's end).  With --user, user-mode samples with at least
two user frames have their last user frame set instead (the garbage a
frame-pointer walk can find: addresses at or above 2^63); with
--user-rest too, every later such sample's last user frame becomes its
first (a resolved address in place of whatever garbage the walk read
there, which then is no unresolved address of many samples).  Prints the
number of frames set to an ADDR."""
import struct
import sys

SAMPLE_IDENTIFIER, CALLCHAIN, READ = 1 << 16, 1 << 5, 1 << 4
# the one-word fields before CALLCHAIN, in the record's order
WORDS = (SAMPLE_IDENTIFIER, 1 << 0, 1 << 1, 1 << 2, 1 << 3, 1 << 6, 1 << 9, 1 << 7, 1 << 8)


def frames(ips, user):
    """The indexes of a chain's kernel frames, or its user frames (those
    after the user context marker)."""
    if not user:
        return [i for i, v in enumerate(ips) if 0xffff000000000000 <= v < 0xfffffffffffff000]
    marks = [i for i, v in enumerate(ips) if v == 0xfffffffffffffe00]
    return list(range(marks[0] + 1, len(ips))) if marks else []


def main():
    args = sys.argv[1:]
    rest = args[:1] == ['--user-rest']
    user = rest or args[:1] == ['--user']
    args = args[1:] if user else args
    src, dst, addrs = args[0], args[1], [int(a, 16) for a in args[2:]]
    b = bytearray(open(src, 'rb').read())
    attr_off, = struct.unpack_from('<Q', b, 24)
    data_off, data_size = struct.unpack_from('<QQ', b, 40)
    stype, = struct.unpack_from('<Q', b, attr_off + 24)
    if not stype & CALLCHAIN or stype & READ:
        sys.exit('kip-craft: IN must have call chains and no read values')
    p, done = data_off, 0
    while p < data_off + data_size and (rest or done < len(addrs)):
        t, misc, size = struct.unpack_from('<IHH', b, p)
        if t == 9 and misc & 7 == (2 if user else 1):
            q = p + 8 + 8 * sum(1 for bit in WORDS if stype & bit)
            nr, = struct.unpack_from('<Q', b, q)
            ips = struct.unpack_from('<%dQ' % nr, b, q + 8)
            at = frames(ips, user)
            if len(at) >= 2 and done < len(addrs):
                struct.pack_into('<Q', b, q + 8 + 8 * at[-1], addrs[done])
                done += 1
            elif len(at) >= 2:
                struct.pack_into('<Q', b, q + 8 + 8 * at[-1], ips[at[0]])
        p += size
    open(dst, 'wb').write(b)
    print(done)


main()
