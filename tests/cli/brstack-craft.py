#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""brstack-craft.py [--feature] [--vary-cycles] [--small-period N] [--deep N | --overlap N | --callstack [--empty N] [--no-user N]] IN OUT: a copy of the perf.data file IN whose samples
carry a branch stack (PERF_SAMPLE_BRANCH_STACK), for machines without LBR.

Every sample gets four entries built from its own ip and the previous and
next samples' (so both ends resolve to real symbols; the next one may be in
a DSO no sample has hit yet, which perf's brstackoff prints as an offset),
one from an address no map holds, with flags that cover perf script's columns: predicted/mispredicted,
in a transaction, aborted, cycles and the branch types (an extended one).
IN must be a single-event file whose sample_type has nothing after
BRANCH_STACK in the kernel's order (perf record -e cpu-clock's layout)
or one with a call chain and no READ or RAW (--call-graph dwarf's: the
branch stack goes between its call chain and its registers), in this
machine's byte order; the sections after the data move with it.

--deep N: every Nth sample's third entry leaves from ip + 1, so perf's
remove_loops finds no loop in it and its chain is 8 frames where the
others' are 6 (perf diff --stream orders entries of one thread by the
depth of their chains before their names).

--callstack crafts what an LBR call stack (--call-graph lbr) records
instead, for a -g recording: branch_sample_type gets CALL_STACK and each
sample's entries are its own call chain's user part, innermost call first:
entry k goes from the (k+1)th return address minus one (a call site in the
caller) to the kth address (the ip for k = 0); a chain with the ip alone
gets one entry from the ip to itself, one with no user part none; the
user part ends before an address that is 0 or above 2^47 (an FP walk
gone astray).  With --empty N every Nth
sample's branch stack is empty; with --no-user N every Nth sample that has
kernel frames loses the user part of its call chain (a kernel thread's).

--overlap N (for a -g recording) gives each sample N entries that meet
its call chain as perf's first_call looks for them: entry k goes from
the kth chain address minus one (a call instruction just before a
return address) to that address, or from the previous sample's ip to its
own where the kth address is a context marker, so perf skips the call
chain entries the branches overlap before it goes on with the rest.

--vary-cycles gives the default entries' cycles that change from sample
to sample (7 + n % 13 and 300 + 5n % 17 for the nth sample) instead of
7 and 300, so diff -c cycles --cycles-hist of it against the same
recording crafted without it has differences to chart.

--small-period N gives every Nth sample a period of 1000 (the file must
record PERIOD, as -F does): with --deep N, a node of such a sample alone
is under perf's
callchain min_percent (0.5% of the total), which perf diff --stream leaves
out of the hits its percentages are of, as frequency mode's first samples
of small periods are left out on a loaded machine.

--feature also sets the BRANCH_STACK header feature (an empty section, as
perf record writes for a branch-stack recording), which perf diff checks
before it computes -c cycles or --stream.
"""
import struct
import sys

SAMPLE_BRANCH_STACK = 1 << 11
# what the kernel writes after the branch stack (IDENTIFIER, bit 16, comes first)
AFTER_BRANCH_STACK = ((1 << 25) - 1) & ~((1 << 12) - 1) & ~(1 << 16)
BRANCH_USER, BRANCH_ANY, BRANCH_CALL_STACK = 1 << 0, 1 << 3, 1 << 11
# what the kernel writes before the call chain, 8 bytes each: IP, TID,
# TIME, ADDR, ID, CPU, PERIOD, STREAM_ID, IDENTIFIER
BEFORE_CALLCHAIN = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 3) | (1 << 6) | (1 << 7) | \
    (1 << 8) | (1 << 9) | (1 << 16)
# what the kernel writes before PERIOD, 8 bytes each
BEFORE_PERIOD = (1 << 16) | (1 << 0) | (1 << 1) | (1 << 2) | (1 << 3) | (1 << 6) | (1 << 9) | (1 << 7)
SAMPLE_PERIOD = 1 << 8
SAMPLE_READ, SAMPLE_CALLCHAIN, SAMPLE_RAW = 1 << 4, 1 << 5, 1 << 10
CONTEXT_KERNEL, CONTEXT_USER = 2**64 - 128, 2**64 - 512
CONTEXT_MARKERS = 2**64 - 4095  # PERF_CONTEXT_MAX
RECORD_SAMPLE = 9
FEAT_BRANCH_STACK = 15
HEADER = struct.Struct("<8sQQ2Q2Q2Q32s")  # attr_size: an attr and its ids section


def flags(mispred=0, predicted=0, in_tx=0, abort=0, cycles=0, btype=0, new_type=0):
    return (mispred | predicted << 1 | in_tx << 2 | abort << 3 | cycles << 4 |
            btype << 20 | new_type << 26)


def entries(ip, prev, nxt, deep=False, vary=None):
    c1, c2 = (7, 300) if vary is None else (7 + vary % 13, 300 + 5 * vary % 17)
    return [(prev, ip, flags(predicted=1, cycles=c1, btype=1)),          # COND
            (ip, nxt, flags(btype=2)),                                   # UNCOND
            (ip + deep, prev, flags(mispred=1, in_tx=1, cycles=c2, btype=4)),  # CALL
            (0x1234, ip, flags(abort=1, btype=15, new_type=1))]          # FAULT_DATA


def callstack_entries(rec, at, opts, n):
    """The sample's chain at `at` in rec, as LBR call-stack entries; the
    chain is cut at its user marker for --no-user."""
    nr, = struct.unpack_from('<Q', rec, at)
    ips = list(struct.unpack_from('<%dQ' % nr, rec, at + 8))
    if CONTEXT_USER not in ips:
        return rec, []
    u = ips.index(CONTEXT_USER)
    user = [ip for ip in ips[u + 1:] if ip < CONTEXT_USER]
    for k, ip in enumerate(user):  # the end, or an FP walk gone astray
        if ip == 0 or ip >= 1 << 47:
            user = user[:k]
            break
    if not user:
        return rec, []
    if opts.get('no_user') and n % opts['no_user'] == 0 and CONTEXT_KERNEL in ips[:u]:
        rec = rec[:at] + struct.pack('<%dQ' % (u + 1), u, *ips[:u])
    if opts.get('empty') and n % opts['empty'] == 0:
        return rec, []
    if len(user) == 1:  # no caller known: a call from the ip to itself
        return rec, [(user[0], user[0], flags(btype=4))]
    return rec, [(user[k + 1] - 1, user[k], flags(btype=4)) for k in range(len(user) - 1)]


def overlap_entries(rec, at, ip, prev, n):
    """n entries that overlap the call chain at `at` in rec (--overlap)."""
    nr, = struct.unpack_from('<Q', rec, at)
    ips = struct.unpack_from('<%dQ' % nr, rec, at + 8)
    out = []
    for k, a in enumerate(ips[:n]):
        if a >= CONTEXT_MARKERS or a == 0:
            out.append((prev, ip, flags(predicted=1, cycles=7 + k, btype=1)))
        else:
            out.append((a - 1, a, flags(cycles=20 + k, btype=4)))
    return out


def add_empty_feature(rest, bits, feat):
    """rest (the feature index and its sections) with an empty section for
    feat inserted in the index at its place (the index is in bit order);
    every section moves by the 16 bytes of the new entry."""
    nfeat = bin(bits).count('1')
    at = bin(bits & ((1 << feat) - 1)).count('1')
    index = [list(struct.unpack_from('<QQ', rest, i * 16)) for i in range(nfeat)]
    for e in index:
        e[0] += 16
    # an empty section where the next one starts (or at the end)
    end_of_index = 16 * nfeat
    where = index[at][0] if at < nfeat else (
        max((e[0] + e[1] for e in index), default=end_of_index + 16))
    index.insert(at, [where, 0])
    head = b''.join(struct.pack('<QQ', *e) for e in index)
    return bytearray(head) + rest[end_of_index:]


def main(src, dst, opts=None):
    opts = opts or {}
    buf = bytearray(open(src, 'rb').read())
    (magic, hsize, attr_size, attrs_off, attrs_size, data_off, data_size,
     types_off, types_size, feats) = HEADER.unpack_from(buf, 0)
    if magic != b'PERFILE2' or attrs_size != attr_size:
        sys.exit('brstack-craft: need a single-event PERFILE2 file in this byte order')
    stype, = struct.unpack_from('<Q', buf, attrs_off + 24)
    dwarf = stype & AFTER_BRANCH_STACK
    if dwarf and (stype & (SAMPLE_READ | SAMPLE_RAW) or not stype & SAMPLE_CALLCHAIN):
        sys.exit('brstack-craft: sample_type 0x%x has fields after BRANCH_STACK but no call chain '
                 'to put it after (or READ or RAW)' % stype)
    cs = opts.get('callstack')
    ov = opts.get('overlap')
    if (cs or ov) and (stype & (SAMPLE_READ | SAMPLE_RAW) or not stype & SAMPLE_CALLCHAIN):
        sys.exit('brstack-craft: --callstack and --overlap need a call chain and no READ or RAW')
    struct.pack_into('<Q', buf, attrs_off + 24, stype | SAMPLE_BRANCH_STACK)
    struct.pack_into('<Q', buf, attrs_off + 72,
                     BRANCH_USER | (BRANCH_CALL_STACK if cs else BRANCH_ANY))
    chain_at = 8 + 8 * bin(stype & BEFORE_CALLCHAIN).count('1')
    ips, pos = [], data_off
    while pos < data_off + data_size:
        rtype, misc, size = struct.unpack_from('<IHH', buf, pos)
        if rtype == RECORD_SAMPLE:
            ips.append(struct.unpack_from('<Q', buf, pos + 8)[0])
        pos += size
    out, pos, prev, n = bytearray(), data_off, None, 0
    while pos < data_off + data_size:
        rtype, misc, size = struct.unpack_from('<IHH', buf, pos)
        rec = bytearray(buf[pos:pos + size])
        if rtype == RECORD_SAMPLE:
            ip, = struct.unpack_from('<Q', rec, 8)
            n += 1
            small = opts.get('small_period')
            if small and n % small == 0:
                if not stype & SAMPLE_PERIOD:
                    sys.exit('brstack-craft: --small-period needs samples that record PERIOD')
                struct.pack_into('<Q', rec, 8 + 8 * bin(stype & BEFORE_PERIOD).count('1'), 1000)
            if cs:
                rec, br = callstack_entries(rec, chain_at, opts, n)
            elif ov:
                br = overlap_entries(rec, chain_at, ip, prev if prev is not None else ip, ov)
            else:
                deep = bool(opts.get('deep')) and n % opts['deep'] == 0
                br = entries(ip, prev if prev is not None else ip, ips[n] if n < len(ips) else ip, deep,
                             n if opts.get('vary_cycles') else None)
            # after the call chain (and before a DWARF recording's registers
            # and stack), else at the end
            at = len(rec)
            if dwarf:
                nr, = struct.unpack_from('<Q', rec, chain_at)
                at = chain_at + 8 + 8 * nr
            rec[at:at] = struct.pack('<Q', len(br)) + b''.join(struct.pack('<QQQ', *e) for e in br)
            struct.pack_into('<H', rec, 6, len(rec))
            prev = ip
        out += rec
        pos += size
    grow = len(out) - data_size
    rest = buf[data_off + data_size:]
    # the feature index right after the data: every section it names moves
    bits = int.from_bytes(feats, 'little')
    nfeat = bin(bits).count('1')
    for i in range(nfeat):
        off, = struct.unpack_from('<Q', rest, i * 16)
        struct.pack_into('<Q', rest, i * 16, off + grow)
    if opts.get('feature') and not bits & (1 << FEAT_BRANCH_STACK):
        rest = add_empty_feature(rest, bits, FEAT_BRANCH_STACK)
        bits |= 1 << FEAT_BRANCH_STACK
        feats = bits.to_bytes(32, 'little')
    head = buf[:data_off]
    HEADER.pack_into(head, 0, magic, hsize, attr_size, attrs_off, attrs_size, data_off,
                     len(out), types_off, types_size, feats)
    open(dst, 'wb').write(bytes(head) + bytes(out) + bytes(rest))


if __name__ == '__main__':
    args, opts = sys.argv[1:], {}
    while args and args[0].startswith('--'):
        o = args.pop(0)
        if o == '--callstack':
            opts['callstack'] = True
        elif o == '--feature':
            opts['feature'] = True
        elif o == '--vary-cycles':
            opts['vary_cycles'] = True
        elif o in ('--empty', '--no-user', '--deep', '--overlap', '--small-period'):
            opts[o[2:].replace('-', '_')] = int(args.pop(0))
        else:
            sys.exit('brstack-craft: unknown option ' + o)
    if len(args) != 2:
        sys.exit(__doc__)
    main(args[0], args[1], opts)
