#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_nosym.sh - a report that shows no symbol reads none: with
# keys of threads, DSOs and CPUs only and no call graph, perfkit report
# reads no kallsyms (nor symbol tables, but those of objects whose names
# are shorter than an address: the column's width), and still prints
# perf's table on the same file; a key that shows symbols reads them as
# before.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

. "$(dirname "$0")/report-perf.sh"

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
else
	perf record -q -e cpu-clock -F 999 -g -o g.data -- "$W" hot 100 >/dev/null 2>&1
	# Faulting pages in: samples in the kernel.
	perf record -q -e cpu-clock -F 999 -g -o k.data -- "$W" pages 20000 >/dev/null 2>&1
	same_as_perf k.data --no-children -g none --sort comm,dso
	same_as_perf g.data --no-children -g none --sort comm,dso
	same_as_perf g.data -g none --sort dso
	same_as_perf g.data --no-children -g none --sort pid,cpu
	same_as_perf g.data --no-children -g none --sort comm,dso -n --percent-limit 1
	# The object column: perf widens it to an address's 16 digits for an
	# entry whose symbol did not resolve, so a short-named object's
	# samples are still looked up (a stripped static program "w", user
	# samples only: 16 wide; not stripped, "ws": its header's 13; two
	# sources, so that no build-id cache gives w the symbols of ws).
	printf 'volatile unsigned long n;\nint main(void) { for (unsigned long i = 0; i < 300000000ul; i++) n += i; return 0; }\n' >w.c
	sed 's/n += i/n ^= i/' w.c >ws.c
	if gcc -O1 -static -s -o w w.c 2>/dev/null && gcc -O1 -static -o ws ws.c &&
		perf record -q -e cpu-clock:u -c 1000000 -o w.data -- ./w >/dev/null 2>&1 &&
		perf record -q -e cpu-clock:u -c 1000000 -o ws.data -- ./ws >/dev/null 2>&1; then
		for f in w.data ws.data; do
			same_as_perf $f --no-children --sort pid,dso
			same_as_perf $f --no-children --sort dso
			same_as_perf $f --no-children -F overhead,dso
			same_as_perf $f --no-children --sort dso -F overhead,comm
		done
		same_as_perf w.data --no-children --sort dso --dsos w
	else
		skip "a static program's recordings" "gcc -static or perf record failed"
	fi
fi

# opened FILE ARGS...: the files report -i FILE ARGS opens, one a line.
opened() {
	local file=$1
	shift
	strace -f -qq -e trace=open,openat -e signal=none -o "$tmp/trace" \
		"$PERFKIT" report -i "$file" --stdio "$@" >/dev/null 2>&1
	sed -n 's/.*open[a-z]*([^"]*"\([^"]*\)".*/\1/p' "$tmp/trace"
}

"$PERFKIT" record -F 999 -g -o plain.data -- "$W" hot 100 >/dev/null 2>&1
wl=$(readlink -f "$W")
if ! command -v strace >/dev/null; then
	skip "which files report opens" "strace is not installed"
else
	files=$(opened plain.data --no-children -g none --sort comm,dso,sym)
	check "--sort comm,dso,sym reads the workload's symbols" test -n "$(printf '%s\n' "$files" | grep -Fx "$wl")"
	files=$(opened plain.data --no-children --sort comm,dso)
	check "--sort comm,dso with its call graph reads them too" \
		test -n "$(printf '%s\n' "$files" | grep -Fx "$wl")"
fi
if ! command -v strace >/dev/null || ! command -v perf >/dev/null; then
	skip "which kallsyms report reads" "needs strace and perf"
else
	files=$(opened k.data --no-children -g none --sort comm,dso,sym)
	check "kernel samples by symbol read kallsyms" test -n "$(printf '%s\n' "$files" | grep kallsyms)"
	files=$(opened k.data --no-children --sort comm,dso)
	check "... and so does their call graph" test -n "$(printf '%s\n' "$files" | grep kallsyms)"
	files=$(opened k.data --no-children -g none --sort comm,dso)
	check "--sort comm,dso -g none reads no kallsyms" test -z "$(printf '%s\n' "$files" | grep kallsyms)"
	files=$(opened k.data -g none --sort pid,cpu,dso)
	check "--sort pid,cpu,dso -g none (children) reads none" test -z "$(printf '%s\n' "$files" | grep kallsyms)"
fi
done_testing
