#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_system.sh - report -D, script -D and --header-only against
# perf 6.1 on recordings that need the whole machine in a state other
# tests must not see, so this test runs alone (tests/cli/meson.build):
# two BPF programs loaded (tests/cli/bpf-load.c) while perf and perfkit
# record -a, so both files carry KSYMBOL and BPF_EVENT records and the
# programs in BPF_PROG_INFO (perf's "# bpf_prog_info ID: bpf_prog_<tag>_
# <name> addr 0x... size N" lines, one named by its BTF); and
# kernel.perf_event_max_sample_rate lowered, so the kernel throttles a
# cpu-clock event (THROTTLE and UNTHROTTLE records), then restored.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
rate=
restore() {
	[ -n "$rate" ] && sysctl -qw kernel.perf_event_max_sample_rate="$rate"
	rm -rf "$tmp"
}
trap restore EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

if ! command -v perf >/dev/null; then
	skip "comparisons with perf" "perf is not installed"
	done_testing
	exit 0
fi

# same CMD FILE: perfkit CMD -D prints what perf CMD -D prints (script's
# tab-indented frame lines aside: the resolver's, see test_report_dump.sh).
same() {
	perf "$1" -D -i "$2" 2>/dev/null | grep -v "^$(printf '\t')" >theirs.txt
	"$PERFKIT" "$1" -D -i "$2" 2>err.txt | grep -v "^$(printf '\t')" >ours.txt
	if [ -s ours.txt ] && cmp -s theirs.txt ours.txt; then ok "$2: $1 -D equals perf's"
	else not_ok "$2: $1 -D equals perf's"; diag "$(diff theirs.txt ours.txt | head -20)" "$(cat err.txt)"; fi
}

mkfifo bpf.in bpf.out
"$PERFKIT_BPF_LOAD" <bpf.in >bpf.out 2>bpf.err &
loader=$!
exec 3>bpf.in	# the loader exits when this closes
read -r plain withbtf btf <bpf.out
if [ -z "$btf" ]; then
	exec 3>&-
	wait "$loader"
	skip "BPF programs in -D and --header-only" "bpf-load: $(cat bpf.err)"
else
	perf record -q -a -e cpu-clock -F 100 -o perf-bpf.data -- sleep 0.1 >/dev/null 2>&1
	"$PERFKIT" record -q -a -e cpu-clock -F 100 -o perfkit-bpf.data -- sleep 0.1 >/dev/null 2>&1
	exec 3>&-
	wait "$loader"
	for f in perf-bpf.data perfkit-bpf.data; do
		same report "$f"
		check "$f: -D decodes our programs' BPF_EVENT records" \
			grep -Eq "PERF_RECORD_BPF_EVENT type 1, flags 0, id ($plain|$withbtf)\$" ours.txt
		same script "$f"
		perf report --header-only -i "$f" >theirs.txt 2>/dev/null
		"$PERFKIT" report --header-only -i "$f" >ours.txt 2>err.txt
		if [ -s ours.txt ] && cmp -s theirs.txt ours.txt; then ok "$f: --header-only equals perf's"
		else not_ok "$f: --header-only equals perf's"; diag "$(diff theirs.txt ours.txt | head -20)" "$(cat err.txt)"; fi
		check "$f: the program with BTF is named by its BTF function" grep -Eq \
			"^# bpf_prog_info $withbtf: bpf_prog_[0-9a-f]{16}_pk_btf_func_long_name addr 0x[0-9a-f]+ size [0-9]+\$" ours.txt
		check "$f: the other by its own name" grep -Eq \
			"^# bpf_prog_info $plain: bpf_prog_[0-9a-f]{16}_pk_plain addr 0x[0-9a-f]+ size [0-9]+\$" ours.txt
	done
fi

# Throttling: 1000 samples a second at most, a cpu-clock event asking for
# 100000.  The limit is the machine's: restored on exit.
if rate=$(sysctl -n kernel.perf_event_max_sample_rate 2>/dev/null) &&
	sysctl -qw kernel.perf_event_max_sample_rate=1000 2>/dev/null; then
	perf record -q -e cpu-clock -c 10000 -o throttle.data -- "$W" hot 30 >/dev/null 2>&1
	# record over the limit: perf's rule, the rate lowered to it with a
	# warning (the kernel lowers the limit itself on a slow machine), or
	# refused with --strict-freq.
	"$PERFKIT" record -F 5000 -o over.data -- "$W" hot 30 >/dev/null 2>over.err; orc=$?
	"$PERFKIT" record --strict-freq -F 5000 -o strict.data -- "$W" hot 30 >/dev/null 2>strict.err; src=$?
	sysctl -qw kernel.perf_event_max_sample_rate="$rate"
	check "record -F 5000 over a limit of 1000: exit 0 (got $orc)" test "$orc" -eq 0
	check "... with a warning naming the limit" grep -q "over the kernel's maximum, 1000" over.err
	check "... sampling at 1000 a second, as perf would" \
		grep -q "sample_freq }: 1000," <(perf evlist -v -i over.data 2>/dev/null)
	check "--strict-freq: refused (exit 2, got $src)" test "$src" -eq 2
	check "... saying how to raise the limit" grep -q "sysctl -w kernel.perf_event_max_sample_rate=5000" strict.err
	check "... and no file" test ! -e strict.data
	rate=
	same report throttle.data
	check "throttle.data: report -D says perf's handler leaves THROTTLE unhandled" \
		grep -q 'PERF_RECORD_THROTTLE: unhandled!$' ours.txt
	same script throttle.data
else
	rate=
	skip "throttle.data: THROTTLE records" "cannot set kernel.perf_event_max_sample_rate"
fi

echo "1..$tap_n"
exit $tap_fail
