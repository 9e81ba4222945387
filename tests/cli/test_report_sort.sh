#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_sort.sh - the words of report's --sort and -F and of diff's
# --sort read as perf 6.1 reads them: split on commas, spaces (and braces,
# for --sort), each the first of perf's keys it begins, case ignored ("s"
# is symbol, "p" pid, "C" comm); the same tables as perf's on the same
# files, --sort +KEYS after the default order, a key named twice taken
# once; and the errors: a branch or memory key outside its mode (perf's
# "Invalid --sort key"), a key of perf's perfkit lacks, an unknown word.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

. "$(dirname "$0")/report-perf.sh"

# same_diff ARGS...: perfkit diff prints what perf diff prints.
same_diff() {
	local theirs ours
	theirs=$(perf diff "$@" 2>/dev/null)
	ours=$("$PERFKIT" diff "$@" 2>"$tmp/err")
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
		ok "diff $* equals perf's"
	else
		not_ok "diff $* equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}

"$PERFKIT" record -F 999 -o plain.data -- "$W" hot 100 >/dev/null 2>&1
if ! command -v perf >/dev/null; then
	skip "comparisons with perf report and perf diff" "perf is not installed"
else
	perf record -q -e cpu-clock -F 999 -o old.data -- "$W" hot 100 >/dev/null 2>&1
	perf record -q -e cpu-clock -F 999 -o new.data -- "$W" hotb 100 >/dev/null 2>&1
	for keys in c,d 'C D' Sym p,s 'co {dso sym}' SYM,DSO 'd, s' cp,c; do
		same_as_perf plain.data --sort "$keys"
	done
	# +KEYS after the default order (perf's setup_sort_order); a key
	# named twice taken once (perf's sort dimension's `taken`)
	for keys in +pid +pid,cpu +sym 'd,d' 'sym symbol' +comm,pid; do
		same_as_perf plain.data --sort "$keys"
	done
	same_as_perf plain.data -F o,s,d
	same_as_perf plain.data -F 'Ov sa d' --sort s
	same_as_perf plain.data -F +sa,per
	same_diff --sort s,d old.data new.data
	same_diff --sort 'C Sym' old.data new.data
fi

# The prefix takes perf's first key, in perf's table order, even where a
# later key is what was meant ("s" is symbol, not srcline or socket).
ours=$("$PERFKIT" report -i plain.data --stdio -q --sort s | head -1)
full=$("$PERFKIT" report -i plain.data --stdio -q --sort sym | head -1)
check "--sort s is --sort sym" test -n "$ours" -a "$ours" = "$full"

run report -i plain.data --stdio --sort +
expect_rc "--sort + alone: exit 2" 2
contains "with perf's words" "$err" "Invalid --sort key: \`+'"
long=$(python3 -c 'print("+" + ",".join(["pid"] * 300))')
run report -i plain.data --stdio --sort "$long"
expect_rc "--sort +KEYS past its room: exit 2" 2
contains "how long, and what to do" "$err" "--sort +KEYS is too long: 1199 characters after the default keys, at most 1010 (name fewer keys)"
run report -i plain.data --stdio --sort dso_from
expect_rc "a branch key without -b: exit 2" 2
contains "with perf's words" "$err" "Invalid --sort key: \`dso_from'"
run report -i plain.data --stdio --sort mem
expect_rc "a memory key without --mem-mode: exit 2" 2
contains "with perf's words" "$err" "Invalid --sort key: \`mem'"
run report -i plain.data --stdio --sort ipc_n
expect_rc "a key of perf's perfkit lacks: exit 2" 2
contains "naming perf's key" "$err" "--sort key 'ipc_n' is perf's 'ipc_null', which perfkit does not support"
run report -i plain.data --stdio --sort symbolx
expect_rc "a word longer than every key: exit 2" 2
contains "unknown" "$err" "unknown --sort key 'symbolx'"
run report -i plain.data --stdio -F ovx
expect_rc "an unknown -F word: exit 2" 2
contains "unknown" "$err" "unknown -F field 'ovx'"
run diff --sort ipc_n plain.data plain.data
expect_rc "diff: a key of perf's perfkit lacks: exit 2" 2
contains "naming perf's key" "$err" "is perf's 'ipc_null'"
done_testing
