#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_symbols.sh - perfkit script -F ip,sym,dso against perf 6.1's
# on -g recordings, every frame of every sample: /bin/dash running a loop
# (a stripped program whose PLT entries perf names: free@plt, malloc@plt)
# and dash starting programs (their call chains pass through ld.so's
# untyped labels _start and _dl_start_user, and through execve, whose
# samples after the exec's COMM still have the old program's stack).
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
if ! command -v perf >/dev/null || [ ! -x /bin/dash ]; then
	skip "perfkit script against perf script" "perf or /bin/dash is not installed"
	done_testing
	exit 0
fi

# same_frames NAME FILE [NEEDLE]: perfkit script and perf script print the
# same frames for FILE; with NEEDLE, perf's output has it (the case is real).
same_frames() {
	perf script -i "$2" -F ip,sym,dso >perf.txt 2>/dev/null
	"$PERFKIT" script -i "$2" -F ip,sym,dso >ours.txt 2>ours.err
	local n d
	n=$(grep -c . perf.txt) d=$(diff perf.txt ours.txt | grep -c '^<')
	check "$1: every frame as perf script prints it ($n lines, $d differ)" test "$n" -gt 100 -a "$d" -eq 0
	[ "$d" -eq 0 ] || diag "$(diff perf.txt ours.txt | head -20)"
	if [ -n "${3:-}" ]; then
		contains "$1: perf names $3" "$(cat perf.txt)" "$3"
	fi
}

perf record -q -g -o loop.data -- /bin/dash -c \
	'i=0; s=; while [ $i -lt 200000 ]; do i=$((i+1)); s="$s"; done' >/dev/null 2>&1
same_frames "dash -c loop (-g)" loop.data
perf record -q -g -F 20000 -o exec.data -- /bin/dash -c \
	'i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i+1)); done' >/dev/null 2>&1
same_frames "dash starting /bin/true 300 times (-g)" exec.data _dl_start_user
# perfkit's own recording of the same, read by both
run record -g -F 20000 -o pk-exec.data -- /bin/dash -c 'i=0; while [ $i -lt 300 ]; do /bin/true; i=$((i+1)); done'
expect_rc "perfkit record -g of the same (got $rc)" 0
same_frames "perfkit's recording of it" pk-exec.data

done_testing
