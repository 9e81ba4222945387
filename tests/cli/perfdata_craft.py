# SPDX-License-Identifier: MIT
"""perfdata_craft: what the *-craft.py scripts that change a perf.data
file's records share (imported from their directory)."""
import struct


def with_data(b, data):
    """The PERFILE2 file b (this machine's byte order) with its data
    section replaced by data: the header's data size set and the feature
    sections after the data moved by the change in size."""
    off, size = struct.unpack_from('<QQ', b, 40)
    delta = len(data) - size
    tail = bytearray(b[off + size:])
    for i in range(bin(int.from_bytes(b[72:104], 'little')).count('1')):
        o, = struct.unpack_from('<Q', tail, 16 * i)
        struct.pack_into('<Q', tail, 16 * i, o + delta)
    out = bytearray(b[:off]) + data + tail
    struct.pack_into('<Q', out, 48, len(data))
    return out
