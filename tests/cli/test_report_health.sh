#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_health.sh - perfkit report's stack health on recordings
# made to show each problem: -g on a binary without frame pointers,
# --call-graph dwarf,512 on a deep recursion, --call-graph dwarf on a copy
# with its unwind tables removed, --max-stack 3 on a full
# DWARF chain, a stripped copy of a binary, and a copy replaced by another
# binary after a recording with -N (another build-id).  Each says what
# it should on stderr and leaves stdout alone; a clean DWARF recording
# says nothing; -q silences it; --stats prints every figure.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
: "${PERFKIT_UNWIND_TARGET:?PERFKIT_UNWIND_TARGET must name the unwinding target}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
# A private build-id cache, left empty (every recording is made with -N),
# so that no copy of the binaries changed below answers for them.
mkdir -p "$tmp/debug"
export PERFKIT_BUILDID_DIR=$tmp/debug PERF_BUILDID_DIR=$tmp/debug
W=$PERFKIT_WORKLOAD T=$PERFKIT_UNWIND_TARGET
P="perfkit report: stack health:"

record() {
	"$PERFKIT" record -q -N -e task-clock -c 1000000 -o "$@" >/dev/null 2>&1
}

# matches DESC HAYSTACK ERE: some line of HAYSTACK matches ERE.
matches() {
	if printf '%s\n' "$2" | grep -Eq -- "$3"; then ok "$1"; else not_ok "$1"; diag "no line matches: $3" "in: $2"; fi
}

# Some (not none) of the samples, with their share: the recordings below
# cut the stacks of all but samples taken before main or in the kernel.
SOME="[1-9][0-9]* of [1-9][0-9]* samples \\([0-9]+\\.[0-9]{2}%\\)"

# No lines of stack health in the table on stdout, ever.
no_health_on_stdout() {
	case $out in
	*"stack health"*) not_ok "$1: nothing of it on stdout"; diag "$out" ;;
	*) ok "$1: nothing of it on stdout" ;;
	esac
}

# A clean recording: DWARF unwinding reaches _start in every sample.
record clean.data --call-graph dwarf -- "$T" 20000000
run report -i clean.data --stdio
expect_rc "clean: report runs" 0
if [ -z "$err" ] && [ -n "$out" ]; then ok "clean: no stack-health lines"; else not_ok "clean: no stack-health lines"; diag "$err"; fi
run report -i clean.data --stats
matches "clean --stats: the figures" "$err" "^$P ([0-9]+) samples, \\1 with call chains, \\1 with a --call-graph dwarf stack copy; chains cut: 0 by the copy's size, 0 by missing frame pointers, 0 by missing unwind tables, 0 at the 127-frame limit; 0 samples in DSOs with problems$"
contains "clean --stats: nothing was cut" "$err" "$P no call stack was cut"

# --max-stack 3 cuts those seven-frame chains.
run report -i clean.data --stdio --max-stack 3
matches "--max-stack 3: the limit reached" "$err" "^$P $SOME have call chains of 3 frames, the limit: report with a larger --max-stack"
no_health_on_stdout "--max-stack 3"
# On one stream (2>&1, a pager), the lines follow the whole table.
both=$("$PERFKIT" report -i clean.data --stdio --max-stack 3 2>&1)
last_row=$(printf '%s\n' "$both" | grep -vn "^$P" | tail -1 | cut -d: -f1)
first_health=$(printf '%s\n' "$both" | grep -n "^$P" | head -1 | cut -d: -f1)
if [ -n "$first_health" ] && [ -n "$last_row" ] && [ "$first_health" -gt "$last_row" ]; then
	ok "--max-stack 3, 2>&1: the table first, then the lines"
else
	not_ok "--max-stack 3, 2>&1: the table first, then the lines"; diag "$both"
fi
run report -i clean.data --stdio --max-stack 3 -q
if [ -z "$err" ]; then ok "-q silences it"; else not_ok "-q silences it"; diag "$err"; fi

# A stack deeper than the 512 bytes copied: unwinding stops inside it.
record deep.data --call-graph dwarf,512 -- "$T" 20000000 deep
run report -i deep.data --stdio
matches "dwarf,512: the copy too small" "$err" "^$P $SOME outgrew the --call-graph dwarf stack copy of 512 bytes: record with --call-graph dwarf,1024 or more"
no_health_on_stdout "dwarf,512"

# DWARF chains through a copy without unwind tables: the whole stack is
# copied (the recording asks for perf's most, 65528 bytes, far more than
# it holds; the 8192 default is sometimes less, ASLR moving the stack's
# start), and unwinding stops in the first frame.
objcopy --remove-section=.eh_frame --remove-section=.eh_frame_hdr --remove-section=.debug_frame "$T" nocfi
record nocfi.data --call-graph dwarf,65528 -- ./nocfi 20000000
run report -i nocfi.data --stdio
# (the loader may be named after it: a sample caught in ld.so's start, as
# one was in a CI run under ASan)
matches "no unwind tables: the chains cut" "$err" "^$P $SOME have --call-graph dwarf chains cut short, unwind tables missing in $tmp/nocfi(, [^:]+)?: build with -fasynchronous-unwind-tables and keep its .eh_frame$"
if printf '%s\n' "$err" | grep -q "outgrew"; then not_ok "no unwind tables: the copy's size not blamed"; diag "$err"; else ok "no unwind tables: the copy's size not blamed"; fi

# Frame-pointer chains through the unwinding target, built with
# -fomit-frame-pointer whatever the build's flags: each ends in its first
# frame.  (libc, without frame pointers too, is named when a sample lands
# in it.)
record fp.data -g -- "$T" 20000000
run report -i fp.data --stdio
matches "-g without frame pointers: the chains cut" "$err" "^$P $SOME have frame-pointer call chains cut short, frame pointers missing in (.*, )?$T(, .*)?: build with -fno-omit-frame-pointer or record with --call-graph dwarf$"
no_health_on_stdout "-g without frame pointers"

# A stripped copy: its addresses resolve to no symbol.
cp "$T" stripped && strip stripped
record st.data -- ./stripped 20000000
run report -i st.data --stdio
matches "stripped: no symbols, and the fix" "$err" "^$P $SOME have addresses in $tmp/stripped that resolve to no symbol: build with -g and do not strip it"

# Recorded (with -N), then the file replaced: another build-id.
cp "$T" changed
record mm.data -- ./changed 20000000
cp "$W" changed
run report -i mm.data --stdio
matches "replaced binary: the build-id mismatch" "$err" "^$P $SOME have addresses in $tmp/changed whose file has another build-id than the recording's"

done_testing
