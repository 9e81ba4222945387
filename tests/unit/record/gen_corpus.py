#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# gen_corpus.py - (re)write the seed corpus of fuzz/fuzz_record.c into
# tests/fixtures/records/: one file per seed, named by SHA-1 like libFuzzer's
# own.  A seed is an attr in six u64s (sample_type, read_format,
# sample_regs_user, sample_regs_intr, branch_sample_type, flags: bit 0 =
# sample_id_all) and then records laid out as the kernel writes them.
# Usage: tests/unit/record/gen_corpus.py [outdir]
import hashlib, os, struct, sys

S = dict(IP=1 << 0, TID=1 << 1, TIME=1 << 2, ADDR=1 << 3, READ=1 << 4, CALLCHAIN=1 << 5,
         ID=1 << 6, CPU=1 << 7, PERIOD=1 << 8, STREAM_ID=1 << 9, RAW=1 << 10,
         BRANCH_STACK=1 << 11, REGS_USER=1 << 12, STACK_USER=1 << 13, WEIGHT=1 << 14,
         DATA_SRC=1 << 15, IDENTIFIER=1 << 16, TRANSACTION=1 << 17, REGS_INTR=1 << 18,
         PHYS_ADDR=1 << 19, AUX=1 << 20, CGROUP=1 << 21, DATA_PAGE_SIZE=1 << 22,
         CODE_PAGE_SIZE=1 << 23, WEIGHT_STRUCT=1 << 24)
ID_ALL = S['TID'] | S['TIME'] | S['ID'] | S['STREAM_ID'] | S['CPU'] | S['IDENTIFIER']
q = lambda *v: struct.pack('<%dQ' % len(v), *v)
l = lambda *v: struct.pack('<%dI' % len(v), *v)


def pad8(b):
    return b + b'\0' * (-len(b) % 8)


def cstr(s):
    return pad8(s.encode() + b'\0')


def rec(type_, body, misc=0):
    return struct.pack('<IHH', type_, misc, 8 + len(body)) + body


def trailer(st):
    out = b''
    if st & S['TID']: out += l(100, 101)
    if st & S['TIME']: out += q(5000)
    if st & S['ID']: out += q(0x42)
    if st & S['STREAM_ID']: out += q(0x43)
    if st & S['CPU']: out += l(1, 0)
    if st & S['IDENTIFIER']: out += q(0x42)
    return out


def attr(st, rf=0, ru=0, ri=0, bst=0, sid=1):
    return q(st, rf, ru, ri, bst, sid)


def others(st):
    t = trailer(st)
    return b''.join([
        rec(1, l(100, 101) + q(0x400000, 0x1000, 0) + cstr('/usr/bin/true') + t, 2),
        rec(2, q(0x42, 3) + t),
        rec(3, l(100, 101) + cstr('worker') + t, 1 << 13),
        rec(4, l(100, 1, 101, 1) + q(6000) + t),
        rec(5, q(1, 0x42, 0x43) + t), rec(6, q(2, 0x42, 0x43) + t),
        rec(7, l(102, 100, 102, 101) + q(7000) + t),
        rec(8, l(100, 101) + q(42, 0x42) + t),
        rec(10, l(100, 101) + q(0x7f0000000000, 0x3000, 0) + l(8, 1) + q(1234, 5) + l(5, 2) +
            cstr('/lib/x86_64-linux-gnu/libc.so.6') + t, 2),
        rec(10, l(100, 101) + q(0x7f0000000000, 0x3000, 0) + bytes([20, 0, 0, 0]) +
            bytes(range(1, 21)) + l(5, 2) + cstr('/lib/ld.so') + t, 2 | (1 << 14)),
        rec(11, q(0x1000, 0x200, 1) + t), rec(12, l(100, 101) + t), rec(13, q(9) + t),
        rec(14, t, 1 << 13), rec(15, l(103, 104) + t),
        rec(16, l(100, 101) + q(2, 1, 2, 3, 4) + t),
        rec(17, q(0xffffffffc0000000) + l(0x100) + struct.pack('<HH', 1, 0) + cstr('bpf_prog_x') + t),
        rec(18, struct.pack('<HHI', 1, 0, 42) + bytes(8) + t),
        rec(19, q(0x99) + cstr('/system.slice') + t),
        rec(20, pad8(q(0xffffffff81000000) + struct.pack('<HH', 2, 2) + b'\x90\x90\xeb\xfe') + t),
        rec(21, q(0xabc) + t),
        rec(64, q(1, 2)),
    ])


def sample(st, rf=0, ru=0, ri=0, bst=0):
    b = b''
    if st & S['IDENTIFIER']: b += q(0x42)
    if st & S['IP']: b += q(0xffffffff81000000)
    if st & S['TID']: b += l(100, 101)
    if st & S['TIME']: b += q(5000)
    if st & S['ADDR']: b += q(0xdead000)
    if st & S['ID']: b += q(0x42)
    if st & S['STREAM_ID']: b += q(0x43)
    if st & S['CPU']: b += l(1, 0)
    if st & S['PERIOD']: b += q(100000)
    if st & S['READ']:
        b += q(2, 10, 0x42, 20, 0x43) if rf & 8 else q(42, 0x42)
    if st & S['CALLCHAIN']: b += q(3, 2**64 - 128, 0xffffffff81000000, 2**64 - 512)
    if st & S['RAW']: b += l(12) + b'tracepoint!\0'
    if st & S['BRANCH_STACK']:
        b += q(1) + (q(7) if bst & (1 << 17) else b'') + q(0x1000, 0x2000, 1)
    if st & S['REGS_USER']: b += q(2) + q(*range(bin(ru).count('1')))
    if st & S['STACK_USER']: b += q(16) + b'0123456789abcdef' + q(8)
    if st & (S['WEIGHT'] | S['WEIGHT_STRUCT']): b += q(0x0003000200000001)
    if st & S['DATA_SRC']: b += q(0x29c0000142)
    if st & S['TRANSACTION']: b += q(3)
    if st & S['REGS_INTR']: b += q(2) + q(*range(bin(ri).count('1')))
    if st & S['PHYS_ADDR']: b += q(0x1000)
    if st & S['CGROUP']: b += q(0x99)
    if st & S['DATA_PAGE_SIZE']: b += q(4096)
    if st & S['CODE_PAGE_SIZE']: b += q(4096)
    if st & S['AUX']: b += q(8) + bytes(8)
    return rec(9, b, 2)


def seeds():
    allf = (1 << 25) - 1 & ~S['WEIGHT']
    yield attr(ID_ALL | S['IP']) + others(ID_ALL) + sample(ID_ALL | S['IP'])
    yield attr(S['TIME'] | S['ID'] | S['CPU'], sid=1) + others(S['TIME'] | S['ID'] | S['CPU'])
    yield attr(0, sid=0) + others(0)
    yield attr(allf, 8 | 4, 7, 5, 1 << 17) + sample(allf, 8 | 4, 7, 5, 1 << 17)
    yield attr(allf & ~S['WEIGHT_STRUCT'] | S['WEIGHT'], 4, 3, 1, 8) + \
        sample(allf & ~S['WEIGHT_STRUCT'] | S['WEIGHT'], 4, 3, 1, 8)
    cc = S['IDENTIFIER'] | S['IP'] | S['TID'] | S['TIME'] | S['CPU'] | S['PERIOD'] | S['CALLCHAIN']
    yield attr(cc) + b''.join(sample(cc) for _ in range(4)) + others(cc)[:200]
    for bit in range(25):
        yield attr(1 << bit, 4, 7, 7, 1 << 17) + sample(1 << bit, 4, 7, 7, 1 << 17)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, '..', '..', 'fixtures', 'records')
    os.makedirs(out, exist_ok=True)
    for s in seeds():
        with open(os.path.join(out, hashlib.sha1(s).hexdigest()), 'wb') as f:
            f.write(s)


if __name__ == '__main__':
    main()
