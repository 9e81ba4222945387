#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# vmlinux-craft.py OUT [other]: a vmlinux for this machine's running kernel, made
# from /proc/kallsyms and /sys/kernel/notes: an x86-64 ELF executable whose
# .text section spans _stext to _etext at the kernel's (KASLR-moved)
# addresses, holding no bytes (a sparse file), a FUNC symbol for each text
# symbol kallsyms lists there (sized to the next one), _text among them
# for perf's relocation, and the kernel's own build-id note, so perf and
# perfkit both take it for the running kernel's vmlinux under --symfs.
# With "other", the build-id's last byte is flipped: another kernel's.
import struct
import sys


def kallsyms():
    syms = []
    with open('/proc/kallsyms') as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3 or len(parts) > 3:
                continue	# module symbols: "[name]" after the name
            syms.append((int(parts[0], 16), parts[1], parts[2]))
    return syms


def build_id():
    """The GNU build-id note's descriptor from /sys/kernel/notes."""
    b = open('/sys/kernel/notes', 'rb').read()
    pos = 0
    while pos + 12 <= len(b):
        namesz, descsz, ntype = struct.unpack_from('<III', b, pos)
        name = b[pos + 12:pos + 12 + namesz]
        desc_at = pos + 12 + ((namesz + 3) & ~3)
        if ntype == 3 and name.rstrip(b'\0') == b'GNU':
            return b[desc_at:desc_at + descsz]
        pos = desc_at + ((descsz + 3) & ~3)
    sys.exit('vmlinux-craft.py: no build-id in /sys/kernel/notes')


def main():
    syms = kallsyms()
    addr = {n: a for a, t, n in syms}
    stext, etext = addr.get('_stext'), addr.get('_etext')
    if not stext or not etext or stext >= etext:
        sys.exit('vmlinux-craft.py: no _stext/_etext with addresses (not root?)')
    text = sorted({(a, n) for a, t, n in syms if t in 'tT' and stext <= a < etext})
    bid = build_id()
    if sys.argv[2:] == ['other']:
        bid = bid[:-1] + bytes([bid[-1] ^ 0xff])

    strtab = bytearray(b'\0')
    symtab = bytearray(b'\0' * 24)
    for i, (a, n) in enumerate(text):
        end = text[i + 1][0] if i + 1 < len(text) else etext
        off = len(strtab)
        strtab += n.encode() + b'\0'
        # STB_GLOBAL/STT_FUNC, section 1 (.text)
        symtab += struct.pack('<IBBHQQ', off, 0x12, 0, 1, a, end - a)
    note = struct.pack('<III', 4, len(bid), 3) + b'GNU\0' + bid
    note += b'\0' * (-len(note) % 4)
    shstr = b'\0.text\0.note.gnu.build-id\0.symtab\0.strtab\0.shstrtab\0'

    text_off = 0x1000
    text_size = etext - stext
    at = text_off + text_size
    at += -at % 8
    note_off = at
    at += len(note)
    at += -at % 8
    symtab_off = at
    at += len(symtab)
    strtab_off = at
    at += len(strtab)
    shstr_off = at
    at += len(shstr)
    at += -at % 8
    shoff = at

    ehdr = struct.pack('<16sHHIQQQIHHHHHH', b'\x7fELF\x02\x01\x01' + b'\0' * 9, 2, 62, 1, stext,
                       64, shoff, 0, 64, 56, 2, 64, 6, 5)
    phdrs = struct.pack('<IIQQQQQQ', 1, 5, text_off, stext, stext, text_size, text_size, 0x1000)
    phdrs += struct.pack('<IIQQQQQQ', 4, 4, note_off, 0, 0, len(note), len(note), 4)

    def sh(name, stype, flags, addr_, off, size, link=0, info=0, align=1, entsize=0):
        return struct.pack('<IIQQQQIIQQ', name, stype, flags, addr_, off, size, link, info, align, entsize)
    shdrs = sh(0, 0, 0, 0, 0, 0)
    shdrs += sh(1, 1, 6, stext, text_off, text_size, align=4096)
    shdrs += sh(7, 7, 2, 0, note_off, len(note), align=4)
    shdrs += sh(26, 2, 0, 0, symtab_off, len(symtab), link=4, info=1, align=8, entsize=24)
    shdrs += sh(34, 3, 0, 0, strtab_off, len(strtab))
    shdrs += sh(42, 3, 0, 0, shstr_off, len(shstr))

    with open(sys.argv[1], 'wb') as f:
        f.write(ehdr + phdrs)
        f.seek(note_off)	# the text's bytes: a hole
        f.write(note)
        f.seek(symtab_off)
        f.write(symtab + strtab + shstr)
        f.seek(shoff)
        f.write(shdrs)


main()
