#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_spill.sh - report's arrays moved to temporary files
# (sys/spill.c: what is kept of every distinct chain, and a compressed
# debug file's inflated image such as libc's, past a budget that
# $PERFKIT_SPILL_BUDGET sets for tests) change nothing: perf's tables on a
# frame-pointer profile with a budget of 4 KiB, and on DWARF recordings
# (a deep recursion, a shell running find) every report mode prints what
# it prints with the arrays in memory; with $TMPDIR unusable the arrays
# stay in memory and print the same; no file is left behind.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
: "${PERFKIT_UNWIND_TARGET:?PERFKIT_UNWIND_TARGET must name the unwinding target}"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD T=$PERFKIT_UNWIND_TARGET
mkdir spilldir
export TMPDIR=$tmp/spilldir
# no build-id cache: a debug file's whole image is then never kept there
# and read back (test_report_kept.sh), so it is made, and spilled, here
export PERFKIT_BUILDID_DIR=$tmp/no-cache

. "$here/report-perf.sh"

# same_spilled FILE ARGS...: the report with a 4 KiB budget (in files),
# and with $TMPDIR unusable (in memory after all), equals the default's.
same_spilled() {
	local file=$1 plain spilled kept
	shift
	plain=$("$PERFKIT" report -i "$file" --stdio "$@" 2>&1)
	spilled=$(PERFKIT_SPILL_BUDGET=4096 "$PERFKIT" report -i "$file" --stdio "$@" 2>&1)
	kept=$(TMPDIR=/nonexistent/perfkit PERFKIT_SPILL_BUDGET=4096 "$PERFKIT" report -i "$file" --stdio "$@" 2>&1)
	if [ -n "$plain" ] && [ "$plain" = "$spilled" ] && [ "$plain" = "$kept" ]; then
		ok "$file: report $* is the same spilled"
	else
		not_ok "$file: report $* is the same spilled"
		diag "$(diff <(printf '%s\n' "$plain") <(printf '%s\n' "$spilled") | head -10)" \
			"$(diff <(printf '%s\n' "$plain") <(printf '%s\n' "$kept") | head -10)"
	fi
}

"$PERFKIT" record -q -N -e task-clock -c 200000 --call-graph dwarf -o deep.data -- "$T" 20000000 deep \
	>/dev/null 2>&1
check "perfkit recorded a deep recursion with --call-graph dwarf" test -s deep.data
"$PERFKIT" record -q -N -e task-clock -c 200000 --call-graph dwarf -o find.data -- \
	sh -c 'find /usr/share -name "*.zz"; find /usr/lib -name "*.zz"' >/dev/null 2>&1
check "perfkit recorded a shell running find with --call-graph dwarf" test -s find.data
for f in deep.data find.data; do
	same_spilled "$f"
	same_spilled "$f" --percent-limit 0 -g caller,0,callee,function,percent
	same_spilled "$f" --no-children --sort comm,dso,sym -g folded
	same_spilled "$f" --sort pid,sym -g fractal,0
	same_spilled "$f" --hierarchy
	same_spilled "$f" --no-children --sort dso,srcline -g none
done

if command -v perf >/dev/null; then
	perf record -q -e cpu-clock -F 4000 -g -o fp.data -- "$W" hot 400 >/dev/null 2>&1
	check "perf recorded the workload" test -s fp.data
	export PERFKIT_SPILL_BUDGET=4096
	same_as_perf fp.data --children --percent-limit 0
	same_as_perf fp.data --children --sort dso,sym -g folded
	same_as_perf fp.data --sort pid,comm,dso,sym -g caller,0.5,callee,function,count
	unset PERFKIT_SPILL_BUDGET
else
	skip "comparisons with perf report" "perf is not installed"
fi
check "no temporary file is left" test -z "$(ls -A spilldir)"
done_testing
