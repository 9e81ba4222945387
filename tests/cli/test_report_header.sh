#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_header.sh - perfkit report --header-only [-I], --header and
# --stats, and perfkit script --header[-only], against perf 6.1 on the
# same files, line for line: recorded by perf (-a, a tracepoint, -g, a
# group, -z, a pipe-mode stream; --stats also leader-sampled groups) and by
# perfkit record (the same).
#
# Which lines may differ: none, on these files.  Every line perf prints is
# the file's content or a fact of the file: "captured on" is the file's
# modification time (both programs stat the same file), "perf version" is
# the recorder's version stored in the file (perfkit record stores perf's
# form of its own), and the times, topology, caches and memory nodes are
# the recording machine's as the feature sections hold them.  Not compared:
# --stats on perfkit's pipe-mode stream, where perf names the event from its
# attr ("task-clock:HG") because perfkit's pipe writer sends no
# EVENT_UPDATE name record, while both agree on every count.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

# same_as_perf CMD FILE ARGS...: perfkit CMD prints what perf CMD prints
# on FILE ("-" reads FILE from standard input) and exits as it does.
same_as_perf() {
	local cmd=$1 file=$2 theirs ours rt ro
	shift 2
	if [ "$file" = - ]; then
		local in=$1
		shift
		theirs=$(perf "$cmd" -i - "$@" <"$in" 2>/dev/null); rt=$?
		ours=$("$PERFKIT" "$cmd" -i - "$@" <"$in" 2>"$tmp/err"); ro=$?
		file="- <$in"
	else
		theirs=$(perf "$cmd" -i "$file" "$@" 2>/dev/null); rt=$?
		ours=$("$PERFKIT" "$cmd" -i "$file" "$@" 2>"$tmp/err"); ro=$?
	fi
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ] && [ "$rt" = "$ro" ]; then
		ok "$file: $cmd $* equals perf's ($(printf '%s\n' "$ours" | wc -l) lines)"
	else
		not_ok "$file: $cmd $* equals perf's (exit $ro, perf $rt)"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report --header-only and --stats" "perf is not installed"
	echo "1..$tap_n"
	exit 0
fi

perf record -q -a -o p-all.data -- "$W" children 4 >/dev/null 2>&1
perf record -q -e sched:sched_switch -a -o p-tp.data -- "$W" children 4 >/dev/null 2>&1
perf record -q -g -e task-clock -o p-g.data -- "$W" hot 50 >/dev/null 2>&1
perf record -q -e '{task-clock,page-faults}' -o p-grp.data -- "$W" hot 50 >/dev/null 2>&1
perf record -q -z -e task-clock -o p-z.data -- "$W" hot 50 >/dev/null 2>&1
perf record -q -e task-clock -o - -- "$W" hot 50 2>/dev/null >p-pipe.data
"$PERFKIT" record -q -a -o k-all.data -- "$W" children 4 >/dev/null 2>&1
"$PERFKIT" record -q -e sched:sched_switch -a -o k-tp.data -- "$W" children 4 >/dev/null 2>&1
"$PERFKIT" record -q -g -e task-clock -o k-g.data -- "$W" hot 50 >/dev/null 2>&1
"$PERFKIT" record -q -e '{task-clock,page-faults}' -o k-grp.data -- "$W" hot 50 >/dev/null 2>&1
"$PERFKIT" record -q -z -e task-clock -o k-z.data -- "$W" hot 50 >/dev/null 2>&1
"$PERFKIT" record -q -e task-clock -o - -- "$W" hot 50 2>/dev/null >k-pipe.data

for f in p-all p-tp p-g p-grp p-z p-pipe k-all k-tp k-g k-grp k-z k-pipe; do
	same_as_perf report "$f.data" --header-only
	same_as_perf report "$f.data" --header-only -I
	[ "$f" = k-pipe ] || same_as_perf report "$f.data" --stats
done
# Leader-sampled groups (PERF_SAMPLE_READ): perf delivers each sample to
# every member whose count grew since its last sample, so --stats counts
# SAMPLEs per member, page-faults only where its count moved.
for spec in lead:'{cpu-clock,task-clock}:S' leadpf:'{task-clock,page-faults}:S'; do
	perf record -q -e "${spec#*:}" -o "p-${spec%%:*}.data" -- "$W" hot 50 >/dev/null 2>&1
	"$PERFKIT" record -q -e "${spec#*:}" -o "k-${spec%%:*}.data" -- "$W" hot 50 >/dev/null 2>&1
done
for f in p-lead p-leadpf k-lead k-leadpf; do
	same_as_perf report "$f.data" --stats
done
run report -i p-leadpf.data --stats
pf=$(printf '%s\n' "$out" | awk '/^page-faults stats:/ {getline; print $3}')
tc=$(printf '%s\n' "$out" | awk '/^task-clock stats:/ {getline; print $3}')
check "p-leadpf.data: page-faults counts fewer samples than task-clock (${pf:-none}, $tc)" \
	test -n "$pf" -a -n "$tc" -a "${pf:-0}" -lt "${tc:-0}"
# A stream on standard input: perf prints its features after the block.
same_as_perf report - p-pipe.data --header-only
same_as_perf report - p-pipe.data --stats
for f in p-tp k-tp k-grp; do
	same_as_perf script "$f.data" --header-only
	same_as_perf script "$f.data" --header-only -I
done
same_as_perf script p-tp.data --header

# The block's facts, read off the file rather than perf: the group line,
# the -I expansion, the offsets perf's header holds.
run report -i p-grp.data --header-only
contains "the group is named by its events" "$out" "# group: {task-clock,page-faults}"
contains "the CPU topology waits for -I" "$out" "# CPU_TOPOLOGY info available, use -I to display"
size=$(stat -c %s p-grp.data)
feat=$(printf '%s\n' "$out" | sed -n 's/^# feat offset *: //p')
check "the feature table lies inside the file ($feat < $size)" test "$feat" -lt "$size"
run report -i p-grp.data --header-only -I
contains "-I prints the CPU topology" "$out" "# sibling threads : "
contains "-I prints the caches" "$out" "# CPU cache info:"

# --header: the block, then the table without perf's hint to use --header.
run report -i p-all.data --header
hdr_ours=$out
run report -i p-all.data --header-only
only=$out
run report -i p-all.data
table=$(printf '%s\n' "$out" | sed '1,2d')
check "report --header is the block then the table" test "$hdr_ours" = "$(printf '%s\n%s' "$only" "$table")"
case $hdr_ours in
*"# To display the perf.data header info"*) not_ok "report --header leaves out perf's hint to use it" ;;
*) ok "report --header leaves out perf's hint to use it" ;;
esac
theirs=$(perf report -i p-all.data --header --stdio 2>/dev/null | head -n "$(printf '%s\n' "$only" | wc -l)")
check "perf report --header begins with the same block" test "$theirs" = "$only"

# --stats counts every record: on a file cut inside its data section,
# the counts so far, then the damage named and exit status 1.
head -c "$(($(stat -c %s k-all.data) / 2))" k-all.data >cut.data
run report -i cut.data --stats
contains "a cut file's counts are printed" "$out" "TOTAL events:"
expect_rc "a cut file's --stats exits 1" 1

echo "1..$tap_n"
[ "$tap_fail" = 0 ]
