#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_comm.sh - perf's comm override in perfkit report: a thread
# sampled before anything named it is ":TID" while it is read, and its
# first COMM renames that ":TID" in place (perf's comm__override), so the
# report shows those samples under the name and merged with its rows,
# call graphs and groups included, while script, which prints as it reads,
# keeps ":TID" for them; diff's histograms likewise.  The files are crafted from real recordings
# (comm-craft.py: the naming COMMs before the exec dropped, the exec's COMM
# moved past half of the command's samples), compared with perf 6.1.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

. "$here/report-perf.sh"

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
	done_testing
	exit 0
fi
"$PERFKIT" record -q -F 2000 -g -o mine.data -- "$W" hot 300 >/dev/null 2>&1
perf record -q -F 2000 -g -o theirs.data -- "$W" hot 300 >/dev/null 2>&1
"$PERFKIT" record -q -e '{cpu-clock,task-clock}:S' -c 100000 -o group.data -- "$W" hot 300 >/dev/null 2>&1
"$PERFKIT" record -q -F 2000 -o flat.data -- "$W" hot 300 >/dev/null 2>&1
for f in mine theirs flat; do
	if out=$(python3 "$here/comm-craft.py" $f.data c-$f.data); then
		early=${out#* }
		[ "$f" = mine ] && pid=${out% *}
		check "c-$f.data: $early samples before the command's COMM" test "$early" -gt 0
	else
		not_ok "c-$f.data crafted"
		diag "$out"
	fi
done

# The report knows no ":PID" row: every sample is under the command's name.
rows=$("$PERFKIT" report -i c-mine.data --stdio --sort comm -q -g none 2>/dev/null)
check "no :$pid row, one row for the command" test "$(printf '%s\n' "$rows" | grep -c .)" = 1 \
	-a -z "$(printf '%s\n' "$rows" | grep ":$pid")"
[ -n "$(printf '%s\n' "$rows" | grep ":$pid")" ] && diag "$rows"
# script prints as it reads: ":PID" for the early samples, as perf's.
ours=$("$PERFKIT" script -i c-mine.data -F comm,tid 2>/dev/null | sort | uniq -c)
theirs=$(perf script -i c-mine.data -F comm,tid 2>/dev/null | sort | uniq -c)
check "script keeps :$pid for the early samples, as perf" test "$ours" = "$theirs" -a -n "$(printf '%s\n' "$ours" | grep ":$pid")"

for f in c-mine.data c-theirs.data; do
	same_as_perf "$f" --sort comm,dso
	same_as_perf "$f"
	same_as_perf "$f" --no-children --sort comm,sym
	same_as_perf "$f" --no-children -g caller,0.5,callee,function,percent
	same_as_perf "$f" --sort pid,comm -g none
	same_as_perf "$f" --sort comm -g folded
done
same_as_perf c-flat.data --sort comm,dso,sym
same_as_perf c-flat.data --sort comm -F overhead,sample,period,comm
same_as_perf c-flat.data --hierarchy --sort comm,dso
# perf diff collapses its histograms the same way.
for args in "--sort comm,dso" "--sort comm,sym -c ratio"; do
	# shellcheck disable=SC2086 # the flags are words
	theirs=$(perf diff $args c-mine.data c-theirs.data 2>/dev/null | grep -v '^# (')
	# shellcheck disable=SC2086
	ours=$("$PERFKIT" diff $args c-mine.data c-theirs.data 2>/dev/null | grep -v '^# (')
	check "diff $args equals perf's" test -n "$ours" -a "$ours" = "$theirs"
	[ "$ours" = "$theirs" ] || diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)"
done
if out=$(python3 "$here/comm-craft.py" group.data c-group.data); then
	same_as_perf c-group.data --group --sort comm,dso
	same_as_perf c-group.data --sort comm
else
	not_ok "c-group.data crafted"
	diag "$out"
fi
done_testing
