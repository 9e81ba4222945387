#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_record_sample_read.sh - perfkit record honours the S modifier (leader
# sampling) as perf 6.1 does: the attrs it opens match perf's for the same
# -e (PERF_SAMPLE_READ, a group read, members that do not sample, no
# inherit), every leader sample carries every member's count, and perf
# script / perf report --group read the file as they read perf's own.
# And -s (--stat): each exiting child's counts, as perf report -T shows.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
W=$(realpath "$PERFKIT_WORKLOAD")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
if ! command -v perf >/dev/null; then
	skip "the S modifier against perf" "perf is not installed"
	done_testing
	exit 0
fi

# shape FILE: per event, the attr fields leader sampling decides, from
# perf evlist -v: the name, sample_type (its id bit too), whether
# read_format has GROUP, and whether it
# samples (a period or frequency), inherits and has freq set.
shape() {
	perf evlist -v -i "$1" 2>/dev/null | python3 -c '
import re, sys
for line in sys.stdin:
    name, _, rest = line.partition(": ")
    f = dict(re.findall(r"(\{ sample_period, sample_freq \}|\w+): ([^,]+)", rest))
    st = f.get("sample_type", "").split("|")
    print(name, "|".join(sorted(st)), "GROUP" in f.get("read_format", "").split("|"),
          f.get("{ sample_period, sample_freq }", "0"), f.get("inherit", "0"), f.get("freq", "0"))'
}

for spec in '{cpu-clock,task-clock}:S' 'cpu-clock:S' '{cpu-clock,task-clock/period=100000/}:S' \
	'{cpu-clock,page-faults}'; do
	perf record -e "$spec" -o perf.data -- "$W" hot 20 >/dev/null 2>&1
	run record -e "$spec" -o pk.data -- "$W" hot 20
	expect_rc "perfkit record -e '$spec' (got $rc)" 0
	theirs=$(shape perf.data) ours=$(shape pk.data)
	check "-e '$spec': the attrs perf 6.1 opens (${theirs//$'\n'/; })" test "$ours" = "$theirs"
	[ "$ours" = "$theirs" ] || diag "perfkit: $ours"
done

# Every leader sample carries the group: perf script shows each sample
# once per member, at the same time and ip, and the member's count moves.
run record -e '{cpu-clock,task-clock}:S' -o s.data -- "$W" hot 200
expect_rc "perfkit record -e '{cpu-clock,task-clock}:S' of hot 200 (got $rc)" 0
perf script -i s.data -F time,event,ip >s.txt 2>/dev/null
nl=$(grep -c 'cpu-clock:' s.txt) nm=$(grep -c 'task-clock:' s.txt)
check "perf script: one task-clock read per cpu-clock sample ($nl, $nm)" test "$nl" -gt 10 -a "$nl" -eq "$nm"
paired=$(awk '{k = $1 " " $3} NR % 2 == 1 {prev = k; ev = $2} NR % 2 == 0 && (k != prev || ev != "cpu-clock:" || $2 != "task-clock:") {bad++} END {print bad + 0}' s.txt)
check "each task-clock read follows its cpu-clock sample, same time and ip ($paired apart)" \
	test "$nl" -gt 0 -a "$paired" -eq 0
moved=$(perf script -i s.data -F event,period 2>/dev/null | awk '$2 == "task-clock:" && $1 > 0 {n++} END {print n + 0}')
check "the task-clock reads carry counts ($moved of $nm nonzero)" test "$moved" -gt $((nm / 2))
# perfkit script prints the group reads as perf script does.
perf script -i s.data >perf-script.txt 2>/dev/null
run script -i s.data
check "perfkit script prints the file as perf script does ($(grep -c . perf-script.txt) lines)" \
	test -s perf-script.txt -a "$out" = "$(cat perf-script.txt)"
# perf report --group: two columns per line, from one kind of file as the other.
perf report -i s.data --group --stdio --sort dso 2>/dev/null >rep.txt
cols=$(awk '/%.*%/ {print NF; exit}' rep.txt)
check "perf report --group shows both members' columns ($cols fields a line)" test "$cols" = 3
contains "and names the group as its own (perf's {anon_group})" "$(cat rep.txt)" "of events 'anon group { cpu-clock, task-clock }'"
perf record -e '{cpu-clock,task-clock}:S' -o perf-s.data -- "$W" hot 20 >/dev/null 2>&1
# (the columns, not their widths: those follow the longest DSO name each
# file's samples happen to hit, ld.so's or the kernel's or neither)
hdr_theirs=$(perf report -i perf-s.data --group --stdio --sort dso 2>/dev/null | grep '^# *Overhead' | tr -s ' ')
hdr_ours=$(grep '^# *Overhead' rep.txt | tr -s ' ')
check "with the header perf's own file gets ($hdr_theirs)" test -n "$hdr_theirs" -a "$hdr_ours" = "$hdr_theirs"

# -s: inherit_stat, and the kernel's READ record for each exiting child.
perf record -q -s -e cpu-clock -o perf-stat.data -- "$W" children 4 >/dev/null 2>&1
run record -q -s -e cpu-clock -o stat.data -- "$W" children 4
expect_rc "perfkit record -s (got $rc)" 0
st=$(perf evlist -v -i stat.data 2>/dev/null)
contains "-s sets inherit_stat as perf does" "$st" "inherit_stat: 1"
contains "with the times and id in read_format" "$st" "read_format: TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID"
reads() { perf report -i "$1" --stats 2>/dev/null | awk '$1 == "READ" {print $3}'; }
r_ours=$(reads stat.data) r_theirs=$(reads perf-stat.data)
check "as many READ records as perf's file has ($r_ours, perf: $r_theirs)" \
	test -n "$r_ours" -a "$r_ours" = "$r_theirs"
counted() { perf report -i "$1" -T --stdio 2>/dev/null | awk '/^# +PID +TID/ {on = 1; next} on && $3 > 0 {n++} END {print n + 0}'; }
t_ours=$(counted stat.data) t_theirs=$(counted perf-stat.data)
check "perf report -T lists as many threads with counts as for perf's file ($t_ours, perf: $t_theirs)" \
	test "$t_ours" -gt 1 -a "$t_ours" = "$t_theirs"

done_testing
