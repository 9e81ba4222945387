#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""norounds-craft.py IN OUT MBYTES: a perf.data file of at least MBYTES MiB
of data without FINISHED_ROUND records, made from the single-event file IN
(this machine's byte order): IN's records once, its rounds left out, then
its samples again and again, each copy's times moved past the copy
before's, until the data is that large.  In every copy each two
consecutive blocks of 16 samples trade places, as two CPUs' rings drained
one after the other do: the file is out of time order everywhere, by a
few blocks at most.  Without rounds perf 6.1 queues every record before
it delivers any (its queue has no limit unless report.queue-size is set):
its order is the whole file sorted by time.  Prints the number of samples
and the number of them that come before an earlier one in the file."""
import struct
import sys

HEADER = struct.Struct("<8sQQ2Q2Q2Q32s")
RECORD_SAMPLE, RECORD_FINISHED_ROUND = 9, 12
# IDENTIFIER, IP and TID come before TIME
BEFORE_TIME = (1 << 16) | (1 << 0) | (1 << 1)
SAMPLE_TIME = 1 << 2
BLOCK = 16


def main(src, dst, mbytes):
    buf = bytearray(open(src, 'rb').read())
    (magic, hsize, attr_size, attrs_off, attrs_size, data_off, data_size,
     types_off, types_size, feats) = HEADER.unpack_from(buf, 0)
    if magic != b'PERFILE2' or attrs_size != attr_size:
        sys.exit('norounds-craft: need a single-event PERFILE2 file in this byte order')
    stype, = struct.unpack_from('<Q', buf, attrs_off + 24)
    if not stype & SAMPLE_TIME:
        sys.exit('norounds-craft: the samples have no time')
    tat = 8 + 8 * bin(stype & BEFORE_TIME).count('1')
    head, samples, pos = bytearray(), [], data_off
    while pos < data_off + data_size:
        rtype, _, size = struct.unpack_from('<IHH', buf, pos)
        rec = bytes(buf[pos:pos + size])
        if rtype == RECORD_SAMPLE:
            samples.append(rec)
        if rtype != RECORD_FINISHED_ROUND:
            head += rec
        pos += size
    times = [struct.unpack_from('<Q', s, tat)[0] for s in samples]
    span = max(times) - min(times) + 1
    # a copy: blocks of 16 samples, each pair swapped
    order = []
    for i in range(0, len(samples), 2 * BLOCK):
        order += list(range(i + BLOCK, min(i + 2 * BLOCK, len(samples))))
        order += list(range(i, min(i + BLOCK, len(samples))))
    out, copy = [bytes(head)], 0
    total, n, late, latest = len(head), 0, 0, 0
    for t in times:
        late += t < latest
        latest = max(latest, t)
    n = len(samples)
    while total < mbytes << 20:
        copy += 1
        for i in order:
            rec = bytearray(samples[i])
            t = times[i] + copy * span
            struct.pack_into('<Q', rec, tat, t)
            late += t < latest
            latest = max(latest, t)
            out.append(bytes(rec))
            total += len(rec)
            n += 1
    data = b''.join(out)
    rest = buf[data_off + data_size:]
    grow = len(data) - data_size
    bits = int.from_bytes(feats, 'little')
    for i in range(bin(bits).count('1')):	# the sections after the data move
        off, = struct.unpack_from('<Q', rest, i * 16)
        struct.pack_into('<Q', rest, i * 16, off + grow)
    hdr = buf[:data_off]
    HEADER.pack_into(hdr, 0, magic, hsize, attr_size, attrs_off, attrs_size, data_off,
                     len(data), types_off, types_size, feats)
    with open(dst, 'wb') as f:
        f.write(bytes(hdr))
        f.write(data)
        f.write(bytes(rest))
    print(n, late)


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
