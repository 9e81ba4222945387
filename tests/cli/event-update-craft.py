#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# event-update-craft.py NAME < STREAM > STREAM: a pipe-mode perf.data stream
# (perf record -o -) with a second EVENT_UPDATE name record, naming the
# event NAME, right after each EVENT_UPDATE name record perf wrote; every
# other byte kept.  perf 6.1 takes the last name an event is given.
import struct
import sys

HEADER_TRACING_DATA, EVENT_UPDATE, UPDATE_NAME = 66, 78, 2


def records(b):
    """The bytes of each record after the 16-byte header; the tracing data,
    padded to 8 as perf writes it, goes with its record."""
    pos = 16
    while pos + 8 <= len(b):
        rtype, _, size = struct.unpack_from('<IHH', b, pos)
        if size < 8:
            sys.exit('event-update-craft.py: a record of size %d at %d' % (size, pos))
        end = pos + size
        if rtype == HEADER_TRACING_DATA:
            end += (struct.unpack_from('<I', b, pos + 8)[0] + 7) & ~7
        yield rtype, b[pos:end]
        pos = end


def renamed(r, name):
    """An EVENT_UPDATE name record for r's event id, naming it `name`."""
    body = name.encode() + b'\0'
    body += b'\0' * (-len(body) % 8)
    event_id = struct.unpack_from('<Q', r, 16)[0]
    return struct.pack('<IHHQQ', EVENT_UPDATE, 0, 24 + len(body), UPDATE_NAME, event_id) + body


def main():
    name = sys.argv[1]
    b = sys.stdin.buffer.read()
    if b[:8] != b'PERFILE2' or struct.unpack_from('<Q', b, 8)[0] != 16:
        sys.exit('event-update-craft.py: not a little-endian pipe-mode stream')
    out = [b[:16]]
    for rtype, r in records(b):
        out.append(r)
        if rtype == EVENT_UPDATE and struct.unpack_from('<Q', r, 8)[0] == UPDATE_NAME:
            out.append(renamed(r, name))
    sys.stdout.buffer.write(b''.join(out))


main()
