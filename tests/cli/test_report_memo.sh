#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_memo.sh - report's memo of repeated samples (report-memo.c)
# gives what resolving every sample gives: perf's tables on a profile
# whose samples repeat a few chains (the memo on), on a copy of it whose
# workload is remapped to another file half way through (remap-craft.py:
# the same raw chains then resolve elsewhere, which the memo must see),
# and on a kernel-heavy profile whose chains seldom repeat (the memo
# turns itself off); and the totals and the stack-health lines equal
# those of a key that keeps the memo out (period), for the filters too.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

. "$here/report-perf.sh"

# The header's totals and the stack health, from the file's samples alone:
# with the period key the memo is not used.
same_totals() {
	local file=$1 with without
	shift
	with=$("$PERFKIT" report -i "$file" --stdio "$@" 2>"$tmp/health" | grep -E '^# (Samples|Event count)')
	with="$with
$(cat "$tmp/health")"
	without=$("$PERFKIT" report -i "$file" --stdio "$@" --sort sym,period 2>"$tmp/health" |
		grep -E '^# (Samples|Event count)')
	without="$without
$(cat "$tmp/health")"
	check "$file: report $* has the totals and stack health of one without the memo" \
		test -n "$with" -a "$with" = "$without"
	[ "$with" = "$without" ] || diag "$(diff <(printf '%s\n' "$without") <(printf '%s\n' "$with"))"
}

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
	done_testing
	exit 0
fi
perf record -q -e cpu-clock -F 4000 -g -o fp.data -- "$W" hot 400 >/dev/null 2>&1
check "perf recorded the workload" test -s fp.data
check "the workload's mapping is remapped half way through" \
	python3 "$here/../export/remap-craft.py" perfkit-workload fp.data remap.data
perf record -q -e cpu-clock -F 4000 -g -o kern.data -- \
	sh -c 'for i in 1 2 3; do find /usr/share -name "*.zz" >/dev/null 2>&1; done' >/dev/null 2>&1
check "perf recorded a kernel-heavy profile" test -s kern.data

# kern.data's rows under 1% and its Children are left out: the junk
# addresses a frame-pointer walk finds in find's stack (environment
# strings) make unresolved rows that perfkit orders, and entries whose
# Children it counts, unlike perf now and then, memo or not (differences
# noted in the issue).
for f in fp.data remap.data kern.data; do
	limit=0
	[ "$f" = kern.data ] && limit=1
	same_as_perf "$f" --no-children --sort comm,dso,sym --percent-limit $limit
	same_as_perf "$f" --no-children -g none -n --show-total-period --percent-limit $limit
	same_as_perf "$f" --no-children --sort cpu,sym -g flat --percent-limit $limit
	same_totals "$f" --no-children
	same_totals "$f" --children --comms perfkit-workloa,find
	[ "$f" = kern.data ] && continue
	same_as_perf "$f" --children --percent-limit 0
	same_as_perf "$f" --sort pid,comm,dso,sym -g caller,0.5,callee,function,count
	same_as_perf "$f" --children --sort dso,sym -g folded
done
# The remapped half shows under the new name.
check "remap.data: the remapped samples have their own row" \
	test -n "$("$PERFKIT" report -i remap.data --stdio --sort dso -q -g none 2>/dev/null | grep remapped)"
same_as_perf remap.data --no-children --dsos perfkit-workload -g none
same_as_perf fp.data -U --no-children --sort sym
same_as_perf fp.data --no-children --sort parent -p hot_a -x
done_testing
