#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_vdso.sh - DWARF unwinding through the vDSO: a workload that
# spends its time in clock_gettime, recorded by perf with --call-graph
# dwarf (user space only, fixed period), and the chains of its samples
# inside the vDSO printed by perfkit script and perf script 6.1 on the
# SAME file.  The unwinder reads the vDSO image of the recorded build-id:
# this process's own (the same kernel; perf 6.1 is given it in its cache,
# where alone it looks), a build-id cache entry when the
# file names another build (crafted here: the id flipped in the file and
# in a copy of the image), and none when neither has it (the chain stops
# at the vDSO frame, as perf's).
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
if ! command -v perf >/dev/null; then
	skip "vDSO unwinding against perf script" "perf is not installed"
	done_testing
	exit 0
fi
W=${PERFKIT_WORKLOAD:?}
perf record -q -e cpu-clock:u -c 500000 --call-graph dwarf,4096 -o v.data -- "$W" clock 150 \
	>/dev/null 2>rec.err
id=$(perf buildid-list -i v.data 2>/dev/null | awk '$2 == "[vdso]" { print $1 }')
# The crafted files: the running vDSO's image (it is the recorded one:
# same kernel) as a cache entry in R; with the build-id's last byte
# flipped, as a cache entry in C; and the recording naming that flipped id.
if [ -z "$id" ] || ! python3 - "$id" 2>craft.err <<'EOF'; then
import os, sys
line = [l for l in open('/proc/self/maps').read().splitlines() if l.endswith('[vdso]')][0]
start, end = (int(v, 16) for v in line.split()[0].split('-'))
with open('/proc/self/mem', 'rb') as mem:
    mem.seek(start)
    img = mem.read(end - start)
old = bytes.fromhex(sys.argv[1])
new = old[:-1] + bytes([old[-1] ^ 0xff])
h = new.hex()
assert img.count(old) == 1, 'the running vDSO is not the recorded one'
for cache, h, image in (('R', old.hex(), img), ('C', h, img.replace(old, new))):
    os.makedirs(cache + '/[vdso]/' + h)
    os.makedirs(cache + '/.build-id/' + h[:2])
    open(cache + '/[vdso]/%s/vdso' % h, 'wb').write(image)
    os.symlink('../../[vdso]/' + h, cache + '/.build-id/%s/%s' % (h[:2], h[2:]))
data = open('v.data', 'rb').read()
assert data.count(old) == 1, 'the recorded id is not once in the file'
open('flip.data', 'wb').write(data.replace(old, new))
EOF
	skip "vDSO unwinding" "no vDSO build-id to work with: $(head -c 300 craft.err rec.err)"
	done_testing
	exit 0
fi
mkdir E
printf '[buildid]\n\tdir = %s\n' "$tmp/C" >c.cfg
printf '[buildid]\n\tdir = %s\n' "$tmp/R" >r.cfg
printf '[buildid]\n\tdir = %s\n' "$tmp/E" >e.cfg

# vdso_chains FILE: the samples whose first frame is in the vDSO, whole
vdso_chains() {
	awk 'BEGIN { RS = ""; ORS = "\n\n" } { split($0, l, "\n"); if (l[2] ~ /\(\[vdso\]\)$/) print }' "$1"
}
# deep FILE: how many of those chains go on past the vDSO frame
deep() {
	vdso_chains "$1" | awk 'BEGIN { RS = "" } { if (split($0, l, "\n") > 2) n++ } END { print n + 0 }'
}

# compare NAME FILE CFG CACHE: perf (its cache dir from CFG) and perfkit
# (CACHE) print the same vDSO samples; leaves them in perf.v / ours.v
compare() {
	PERF_CONFIG=$3 perf script -i "$2" >perf.txt 2>/dev/null
	PERFKIT_BUILDID_DIR=$4 "$PERFKIT" script -i "$2" >ours.txt 2>ours.err
	vdso_chains perf.txt >perf.v
	vdso_chains ours.txt >ours.v
	check "$1: the vDSO samples' chains, as perf's ($(grep -c '(\[vdso\])' perf.v) samples)" \
		test -s perf.v -a "$(cksum <perf.v)" = "$(cksum <ours.v)"
	cmp -s perf.v ours.v || diag "$(diff perf.v ours.v | head -12)" "$(head -3 ours.err)"
}

# This process's own vDSO: perfkit has no cache entry, the image is the
# running one; perf 6.1 reads only the cache's, given the same image.
compare "own vDSO" v.data r.cfg "$tmp/E"
n=$(deep ours.txt)
check "own vDSO: chains go on past the vDSO frame ($n of $(grep -c '(\[vdso\])' ours.v))" test "$n" -ge 3
check "own vDSO: ... to main" grep -q 'main+0x' ours.v
# Another build: only the cache's entry has it.
compare "another build from the cache" flip.data c.cfg "$tmp/C"
n=$(deep ours.txt)
check "cache's vDSO: chains go on past the vDSO frame ($n)" test "$n" -ge 3
# Another build and no entry: the running image is never read for it.
compare "another build, no image" flip.data e.cfg "$tmp/E"
n=$(deep ours.txt)
check "no image of the recorded build: every vDSO chain stops there ($n go on)" test "$n" -eq 0 -a -s ours.v
done_testing
