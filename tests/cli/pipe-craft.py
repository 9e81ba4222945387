#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# pipe-craft.py MODE < STREAM > STREAM: a pipe-mode perf.data stream (perf
# record -o -) rewritten record by record, every other byte kept:
#   noname  drops what names the events, the EVENT_UPDATE name records and
#           the HEADER_FEATURE record of EVENT_DESC (a perf that sends none)
#   late    drops them too and moves every HEADER_ATTR to just after the
#           HEADER_TRACING_DATA record and the tracing data that follows it
import struct
import sys

HEADER_ATTR, HEADER_TRACING_DATA, EVENT_UPDATE, UPDATE_NAME = 64, 66, 78, 2
HEADER_FEATURE, FEAT_EVENT_DESC = 80, 12


def records(b):
    """(type, bytes) for each record after the 16-byte header; the tracing
    data, padded to 8 as perf writes it, goes with its record."""
    pos = 16
    while pos + 8 <= len(b):
        rtype, _, size = struct.unpack_from('<IHH', b, pos)
        if size < 8:
            sys.exit('pipe-craft.py: a record of size %d at %d' % (size, pos))
        end = pos + size
        if rtype == HEADER_TRACING_DATA:
            end += (struct.unpack_from('<I', b, pos + 8)[0] + 7) & ~7
        yield rtype, b[pos:end]
        pos = end


def names(rtype, r):
    """Whether the record names events."""
    sub = struct.unpack_from('<Q', r, 8)[0] if len(r) >= 16 else None
    return (rtype, sub) in ((EVENT_UPDATE, UPDATE_NAME), (HEADER_FEATURE, FEAT_EVENT_DESC))


def main():
    mode = sys.argv[1]
    b = sys.stdin.buffer.read()
    if b[:8] != b'PERFILE2' or struct.unpack_from('<Q', b, 8)[0] != 16:
        sys.exit('pipe-craft.py: not a little-endian pipe-mode stream')
    recs = [(t, r) for t, r in records(b) if not names(t, r)]
    attrs = [r for t, r in recs if t == HEADER_ATTR]
    out = [b[:16]]
    for t, r in recs:
        if mode == 'late' and t == HEADER_ATTR:
            continue
        out.append(r)
        if mode == 'late' and t == HEADER_TRACING_DATA:
            out.extend(attrs)
    sys.stdout.buffer.write(b''.join(out))


main()
