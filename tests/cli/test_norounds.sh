#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_norounds.sh - a file without FINISHED_ROUND records, several times
# 64 MB (norounds-craft.py: one recording's samples copied with later
# times, out of file order by a few blocks everywhere): perfkit script
# and report read it within 64 MB of peak RSS (the time-order queue
# flushes in halves at its limit), and script delivers the samples in
# perf 6.1's order on the same file (perf queues the whole file and
# sorts it).  DWARF samples (16 KiB of stack each) keep the number of
# samples, and perf script's time, small for the file's size.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
CRAFT="$(cd "$(dirname "$0")" && pwd)/norounds-craft.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
LIMIT_KB=65536

perf record -q -e cpu-clock -c 2000000 --call-graph dwarf,16384 -o in.data -- \
	"$PERFKIT_WORKLOAD" hot 100 >/dev/null 2>&1
read -r n late < <(python3 "$CRAFT" in.data big.data 200)
size=$(stat -c %s big.data)
if [ "${late:-0}" -gt 0 ] && [ "$size" -gt $((3 * 64 << 20)) ]; then
	ok "a $size-byte file without rounds, $n samples, $late of them after a later one"
else
	not_ok "crafted file: $size bytes, $n samples, ${late:-?} out of order"
fi

# peak KIB ARGS...: perfkit ARGS with stdout in $out; the peak RSS in KiB.
peak() {
	local kb="$1"
	shift
	/usr/bin/time -o "$kb" -f %M "$PERFKIT" "$@" >out.txt 2>err.txt
	rc=$?
}

asan=false
grep -qaE "__asan_init|AddressSanitizer" "$PERFKIT" && asan=true

peak script.kb script -i big.data -F tid,time
check "script exits 0" test "$rc" -eq 0
perf script -i big.data -F tid,time >perf.txt 2>/dev/null
if cmp -s out.txt perf.txt; then
	ok "script: the $(wc -l <perf.txt) samples in perf's order"
else
	not_ok "script: the samples in perf's order"
	diag "$(diff out.txt perf.txt | head -10)"
fi
if $asan; then
	skip "script's peak RSS" "ASan's shadow memory and quarantine"
elif [ "$(cat script.kb)" -lt $LIMIT_KB ]; then
	ok "script's peak RSS $(cat script.kb) KiB < $LIMIT_KB"
else
	not_ok "script's peak RSS $(cat script.kb) KiB >= $LIMIT_KB"
fi

peak report.kb report -i big.data --stdio -n --sort comm -g none --no-children
got=$(awk '/^ +[0-9.]+%/ { s += $2 } END { print s + 0 }' out.txt)
if [ "$rc" -eq 0 ] && [ "$got" -eq "$n" ]; then
	ok "report counts all $n samples"
else
	not_ok "report counts $got samples of $n (exit $rc)"
	diag "$(head -20 out.txt err.txt)"
fi
if $asan; then
	skip "report's peak RSS" "ASan's shadow memory and quarantine"
elif [ "$(cat report.kb)" -lt $LIMIT_KB ]; then
	ok "report's peak RSS $(cat report.kb) KiB < $LIMIT_KB"
else
	not_ok "report's peak RSS $(cat report.kb) KiB >= $LIMIT_KB"
fi

echo "1..$tap_n"
exit $tap_fail
