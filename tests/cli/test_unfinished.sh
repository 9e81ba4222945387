#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_unfinished.sh - files perf record never finished (their header's
# data size is still 0): perf record of a command that does not exist,
# perf record killed with SIGKILL at several points of a recording, such a
# file with nothing after its data offset, and one whose last record is
# cut.  perf 6.1 warns "The FILE file's data size field is 0 which is
# unexpected" and reads none of the records (script exits 255, report
# says "failed to process sample"); perfkit prints the same warning and
# reads every whole record: its script and report on the file must equal
# perf's on the same file finished by unfinished-fix.py (data size set,
# no feature table).  --header-only equals perf's where perf reads no
# feature table (it does not fit in the file); elsewhere perf prints the
# records it takes for feature sections, and only the header's layout
# and missing-features lines are compared.  perfkit's own recording
# SIGKILLed leaves a file perf and perfkit read alike.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
FIX="$(cd "$(dirname "$0")" && pwd)/unfinished-fix.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD
WARN="WARNING: The %s file's data size field is 0 which is unexpected.
Was the 'perf record' command properly terminated?"

# kill_at NAME BYTES: perf record of a long workload, SIGKILLed once its
# file holds BYTES bytes (or the recording stopped); the workload, left
# running by perf, is killed too.
kill_at() {
	local pid child n
	perf record -q -m 1 -F 2000 -e cpu-clock -o "$1.data" -- "$W" hot 20000 >/dev/null 2>&1 &
	pid=$!
	while n=$(stat -c %s "$1.data" 2>/dev/null || echo 0); [ "$n" -lt "$2" ] && kill -0 "$pid" 2>/dev/null; do
		sleep 0.05	# polls the file's size: the condition is the handshake
	done
	child=$(pgrep -P "$pid")
	kill -KILL "$pid"
	wait "$pid" 2>/dev/null
	[ -n "$child" ] && kill -KILL $child 2>/dev/null
}

# data_size FILE: the header's data size
data_size() { python3 -c "import struct,sys; print(struct.unpack_from('<Q', open(sys.argv[1],'rb').read(56), 48)[0])" "$1"; }

# same_as_perf NAME FULL_HEADER: perfkit on NAME.data against perf on the
# same file and on its finished copy.
same_as_perf() {
	local f=$1.data want
	want=$(printf "$WARN" "$f")
	check "$1: the header says data size 0" test "$(data_size "$f")" = 0
	perf script -i "$f" >/dev/null 2>perf.err
	contains "$1: perf warns" "$(cat perf.err)" "$want"
	nrec=$(python3 "$FIX" "$f" "$1-fixed.data")
	diag "$1: $(stat -c %s "$f") bytes, $nrec whole records"
	"$PERFKIT" script -i "$f" >"$1.script" 2>pk.err
	rc=$? err=$(cat pk.err)
	expect_rc "$1: script exits 0" 0
	check "$1: script warns as perf does" test "$err" = "$want"
	cp "$1.script" pk.script
	perf script -i "$1-fixed.data" >perf.script 2>/dev/null
	check "$1: script prints the records perf reads from the finished copy" cmp -s pk.script perf.script
	run report --stdio -i "$f"
	expect_rc "$1: report exits 0" 0
	contains "$1: report warns as perf does" "$err" "$want"
	printf '%s\n' "$out" | grep -v '^# (Tip:' >pk.report
	perf report --stdio -i "$1-fixed.data" 2>/dev/null | grep -v '^# (Tip:' >perf.report
	check "$1: report prints perf's table on the finished copy" cmp -s pk.report perf.report
	run report -D -i "$f"
	expect_rc "$1: -D exits 0" 0
	contains "$1: -D warns" "$err" "$want"
	check "$1: -D prints every whole record" test "$(printf '%s\n' "$out" | grep -c '^[0-9]* 0x[0-9a-f]* \[0x[0-9a-f]*\]: PERF_RECORD_')" -ge "$nrec"
	run report --header-only -i "$f"
	expect_rc "$1: --header-only exits 0" 0
	perf report --header-only -i "$f" >perf.hdr 2>perf.err
	check "$1: --header-only warns as perf does" test "$err" = "$(cat perf.err)"
	if [ "$2" = full ]; then
		check "$1: --header-only prints perf's header" test "$out" = "$(cat perf.hdr)"
	else
		check "$1: --header-only prints perf's layout and missing features" \
			test "$(printf '%s\n' "$out" | grep -E '^# (header version|data|feat|missing)')" = \
			"$(grep -E '^# (header version|data|feat|missing)' perf.hdr)"
	fi
}

# 1. The workload cannot be started: perf wrote the header, its synthesized
#    records and FINISHED_INIT, then gave up.
perf record -q -o exec.data -- ./no-such-command >/dev/null 2>&1
same_as_perf exec full
run script -i exec.data -F comm,pid,event
check "exec: no samples" test -z "$out"

# 2. Nothing after the data offset.
head -c "$(python3 -c "import struct,sys; print(struct.unpack_from('<Q', open(sys.argv[1],'rb').read(48), 40)[0])" exec.data)" exec.data >empty.data
same_as_perf empty full

# 3. perf record killed with SIGKILL: as soon as the file exists, after
#    its first 16 KiB, after 64 KiB.
kill_at kill0 1
kill_at kill16k 16384
kill_at kill64k 65536
for k in kill0 kill16k kill64k; do
	same_as_perf "$k" part
done
run script -i kill64k.data -F comm,event
check "kill64k: samples of the workload read" test "$(printf '%s\n' "$out" | grep -c 'perfkit-workloa')" -ge 50

# 4. The last record cut: killed while perf was writing it.
head -c $(( $(stat -c %s kill64k.data) - 12 )) kill64k.data >cut.data
same_as_perf cut part
check "cut: the cut sample is not printed" test "$(wc -l <cut.script)" -eq "$(( $(wc -l <kill64k.script) - 1 ))"

# 5. perfkit's own recording killed with SIGKILL (issue 9): its writer puts
#    the header and attrs down first and the records at least once a
#    second, fixing the header's data size each time, so the partial file
#    left is no unfinished file: perf and perfkit read the same samples
#    from it, without a warning.  Killed once the header has grown twice
#    (the handshake: a flush after the first, which may hold only the
#    synthesized records, so samples of the running workload are in).
"$PERFKIT" record -q -F 1000 -e cpu-clock -o pk.data -- "$W" hot 30000 >/dev/null 2>pkrec.err &
pid=$!
partial= first=0 size=0
while [ "$first" = 0 ] || [ "$size" -le "$first" ]; do
	kill -0 "$pid" 2>/dev/null || break
	sleep 0.05	# polls the header: the condition is the handshake
	partial=$(ls pk.data.partial.* 2>/dev/null | head -1)
	[ -n "$partial" ] && size=$(data_size "$partial" 2>/dev/null || echo 0)	# 0 while the header is not down yet
	[ "$first" = 0 ] && first=$size
done
child=$(pgrep -P "$pid")
kill -KILL "$pid"
wait "$pid" 2>/dev/null
[ -n "$child" ] && kill -KILL $child 2>/dev/null
check "perfkit killed: a partial file is left, not pk.data ($partial)" test -n "$partial" -a ! -e pk.data
check "perfkit killed: its header counts records" test "$(data_size "$partial")" -gt 0
perf script -i "$partial" -F comm,tid,time,event >perf.script 2>perf.err
check "perfkit killed: perf script reads it, exit 0" test $? -eq 0
check "perfkit killed: perf says nothing" test ! -s perf.err
run script -i "$partial" -F comm,tid,time,event
expect_rc "perfkit killed: perfkit script exits 0" 0
check "perfkit killed: perfkit says nothing" test -z "$err"
printf '%s\n' "$out" >pk.script
check "perfkit killed: perfkit prints the samples perf prints" cmp -s pk.script perf.script
n=$(grep -c 'cpu-clock' perf.script)
diag "perfkit killed: $(stat -c %s "$partial") bytes, $n samples"
check "perfkit killed: samples of the workload are there ($n)" test "$n" -ge 1
run report --stdio -i "$partial"
expect_rc "perfkit killed: report exits 0" 0
contains "perfkit killed: report shows the workload" "$out" "perfkit-workloa"

done_testing
