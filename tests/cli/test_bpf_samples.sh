#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_bpf_samples.sh - samples inside a JIT-compiled BPF program, end to
# end: tests/cli/bpf-busy.c keeps a CPU in "pk_busy" while `record -a`
# runs, loaded before the recording (its KSYMBOL synthesized at the start)
# and loaded and unloaded during it (the kernel's own KSYMBOL records).
# perfkit report names the program's symbol, bpf_prog_<tag>_pk_busy, in
# perfkit's files and perf's, with the share perf gives it, and perf finds
# it in perfkit's files.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
B=${PERFKIT_BPF_BUSY:?PERFKIT_BPF_BUSY must name tests/cli/bpf-busy}

# bpf_line TOOL FILE: TOOL's report line for pk_busy (overhead, symbol).
bpf_line() {
	local tool=$1 file=$2
	if [ "$tool" = perf ]; then
		perf report -i "$file" --stdio --sort sym 2>/dev/null
	else
		"$PERFKIT" report -i "$file" --stdio --sort sym 2>/dev/null
	fi | grep -E '\[k\] bpf_prog_[0-9a-f]{16}_pk_busy$' | sed 's/^ *//'
}

mkfifo busy.in busy.out
"$B" <busy.in >busy.out 2>busy.err &
busy=$!
exec 3>busy.in	# bpf-busy runs until this closes
read -r id <busy.out
if [ -z "$id" ]; then
	exec 3>&-
	wait "$busy"
	skip "samples in a BPF program" "bpf-busy: $(cat busy.err)"
	done_testing
	exit 0
fi
perf record -q -a -e cpu-clock -F 999 -o perf.data -- sleep 0.5 >/dev/null 2>&1
run record -q -a -e cpu-clock -F 999 -o pk.data -- sleep 0.5
exec 3>&-
wait "$busy"
check "record -a while a BPF program runs: exit 0 (got $rc)" test "$rc" -eq 0
got=$(bpf_line perfkit pk.data)
check "perfkit report names pk_busy in perfkit's file: $got" test -n "$got"
check "perf names it the same, with the same share" test "$got" = "$(bpf_line perf pk.data)"
got=$(bpf_line perfkit perf.data)
check "perfkit report names pk_busy in perf's file: $got" test -n "$got"
check "as perf does" test "$got" = "$(bpf_line perf perf.data)"

# Loaded after the recording starts and unloaded before it ends: the
# samples resolve through the kernel's KSYMBOL records, in time order.
run record -q -a -e cpu-clock -F 999 -o come-go.data -- "$B" 500
check "record -a -- bpf-busy 500: exit 0 (got $rc)" test "$rc" -eq 0
got=$(bpf_line perfkit come-go.data)
check "a program loaded and unloaded during the recording is named: $got" test -n "$got"
check "as perf names it" test "$got" = "$(bpf_line perf come-go.data)"
check "its KSYMBOL register and unregister are in the file" \
	test "$(perf script --show-bpf-events -i come-go.data 2>/dev/null |
		grep -cE 'PERF_RECORD_KSYMBOL .*name bpf_prog_[0-9a-f]{16}_pk_busy$')" -ge 2
done_testing
