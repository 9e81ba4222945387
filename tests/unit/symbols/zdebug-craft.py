#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""zdebug-craft.py IN OUT: a copy of the ELF64 file IN (little-endian, its
.debug_info uncompressed, units of 32-bit DWARF) in which the header of
the second unit that starts past the first 256 KiB of .debug_info claims
the 64-bit DWARF length 2^64 - 12: 12 added to it wraps to 0.  Compressed
afterwards (objcopy --compress-debug-sections=zlib), the file makes
srcline-zdebug.c walk to that unit when an address of a later unit is
asked; a walk that adds the length unchecked never moves on."""
import struct
import sys


def debug_info(b):
    shoff, = struct.unpack_from('<Q', b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
    strs_off = struct.unpack_from('<Q', b, shoff + shstrndx * shentsize + 0x18)[0]
    for i in range(shnum):
        sh = shoff + i * shentsize
        name, = struct.unpack_from('<I', b, sh)
        off, size = struct.unpack_from('<QQ', b, sh + 0x18)
        if b[strs_off + name:strs_off + name + 12] == b'.debug_info\0':
            return off, size
    sys.exit('zdebug-craft: no .debug_info in ' + sys.argv[1])


def main():
    b = bytearray(open(sys.argv[1], 'rb').read())
    if b[:4] != b'\x7fELF' or b[4] != 2 or b[5] != 1:
        sys.exit('zdebug-craft: IN must be a little-endian ELF64 file')
    off, size = debug_info(b)
    unit, past = 0, 0
    while unit + 4 <= size:
        length, = struct.unpack_from('<I', b, off + unit)
        if length >= 0xfffffff0:
            sys.exit('zdebug-craft: IN has 64-bit DWARF units')
        if unit >= 256 << 10:
            past += 1
            if past == 2:
                struct.pack_into('<IQ', b, off + unit, 0xffffffff, (1 << 64) - 12)
                open(sys.argv[2], 'wb').write(b)
                return
        unit += 4 + length
    sys.exit('zdebug-craft: .debug_info of IN is too small')


main()
