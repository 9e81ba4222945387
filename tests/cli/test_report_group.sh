#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_group.sh - perfkit report's event groups against perf report
# 6.1 on the same files, byte for byte but perf's random tip: a leader-
# sampled group ('{a,b}:S', PERF_SAMPLE_READ: every member's samples come
# from the leader's readings), a group sampled by each member, two events
# without a group (--group makes them one), perfkit record's groups; each
# as perf's default (a column per member), --group and --no-group (a
# section per event), with -n, --show-total-period, --percent-limit, -q,
# call graphs and a three-member group; --sort period (a column per
# member); -t's cells; --symbols; -F; --sort parent
# with -p and -x; -T's table of the counts
# each thread's PERF_RECORD_READ gave (perf record -s).  On a terminal
# (a pty from script(1)): perf's pager (PERF_PAGER, LESS=FRSX, none when
# stdout is not a terminal or with perfkit --no-pager), --stdio-color's
# colours as perf's, and a progress line for a file slow to read.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

. "$(dirname "$0")/report-perf.sh"

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
	done_testing
fi

perf record -q -e cpu-clock -F 999 -o plain.data -- "$W" hot 200 >/dev/null 2>&1
perf record -q -e '{cpu-clock,task-clock}:S' -F 999 -o leader.data -- "$W" hot 200 >/dev/null 2>&1
perf record -q --group -e cpu-clock,task-clock -F 999 -o group.data -- "$W" hot 200 >/dev/null 2>&1
perf record -q -e cpu-clock,task-clock -F 999 -o two.data -- "$W" hot 200 >/dev/null 2>&1
perf record -q -s -e task-clock -c 100000 -o stat.data -- "$W" children 50 >/dev/null 2>&1
perf record -q -g -e '{cpu-clock,task-clock,page-faults}:S' -F 999 -o three.data -- "$W" hot 200 >/dev/null 2>&1
"$PERFKIT" record -e '{cpu-clock,task-clock}:S' -F 999 -o pk-leader.data -- "$W" hot 200 >/dev/null 2>&1
"$PERFKIT" record -e '{cpu-clock,task-clock}' -F 999 -o pk-group.data -- "$W" hot 200 >/dev/null 2>&1

for f in leader.data group.data two.data pk-leader.data pk-group.data; do
	same_as_perf "$f"
	same_as_perf "$f" --group
	same_as_perf "$f" --no-group
	same_as_perf "$f" --group -n --show-total-period --sort comm,dso
done
# An unnamed group is "{anon_group}" in GROUP_DESC, as perf writes it: perf
# then calls perfkit's group what it calls its own.
check "perf names perfkit's unnamed group as its own" \
	grep -q "of events 'anon group { cpu-clock, task-clock }'" <(perf report -i pk-group.data --stdio --group 2>/dev/null)
same_as_perf leader.data --group --percent-limit 0.2 --sort sym
same_as_perf two.data --group -q --sort pid,sym
same_as_perf three.data
same_as_perf three.data --no-children --sort dso,sym
same_as_perf three.data -g none --no-group
# perf's period in --sort is its Period output field: a value per member,
# as --show-total-period's; a hierarchy level holding one entry (the
# field has no order) with the members' sums.
for f in leader.data pk-leader.data three.data; do
	same_as_perf "$f" --group --sort period
	same_as_perf "$f" --group --sort comm,period
	same_as_perf "$f" --group --sort period -n
	same_as_perf "$f" --group --sort comm,period,dso --hierarchy
done
same_as_perf leader.data --no-group --sort comm,period,dso --hierarchy
same_as_perf pk-leader.data --no-group --sort comm,period,dso --hierarchy
# -t: a group's number cells each member's value after a space (the
# period level's of a hierarchy too), as the leader's; the last column
# unpadded, a group's or not.
for f in leader.data pk-leader.data three.data; do
	same_as_perf "$f" --group --sort period,comm -t ,
	same_as_perf "$f" --group --sort comm,period,dso --hierarchy -t ,
	same_as_perf "$f" --group -n --show-total-period -t ,
done
same_as_perf plain.data -F overhead,period -t ,
same_as_perf plain.data --sort period -t ,

# --symbols (-S): the table's filter by function name, a frame's entry
# hidden or shown with its sample (perf's --children entries).
perf record -q -g -e cpu-clock -F 2999 -o cg.data -- "$W" children 30 >/dev/null 2>&1
same_as_perf plain.data --symbols hot_a
same_as_perf plain.data -S hot_a,hot_b --sort dso
same_as_perf plain.data -S hot_a --sort sym
same_as_perf plain.data -S nosuch
same_as_perf three.data --symbols hot_a
same_as_perf three.data -S hot_b --sort comm,sym,dso
same_as_perf cg.data -S main
same_as_perf cg.data --dsos libc.so.6
same_as_perf cg.data -S main,hot_a --no-children
run report -i plain.data --stdio -S hot_a --sort comm,dso,sym
contains "-S with one name: the symbol in the header" "$out" "# symbol: hot_a"
check "and only its row" test "$(printf '%s\n' "$out" | grep -c '^ *[0-9.]*%')" = 1

# -F: perf's output fields and its rules for the order of the rows.
for fields in overhead,comm comm,overhead overhead,sample,period,dso +period overhead_sys,overhead_us,sym \
	sample overhead_children,overhead,sym; do
	same_as_perf plain.data -F "$fields"
done
same_as_perf plain.data -F comm --sort dso
same_as_perf plain.data -F overhead,comm --sort comm,dso
same_as_perf plain.data -F +sample,overhead_sys --sort dso
same_as_perf plain.data -F dso,overhead_us --percent-limit 5
same_as_perf leader.data -F overhead_us,sample,period,comm,dso
same_as_perf leader.data -F overhead_children,sample,sym
same_as_perf three.data -F overhead_sys,dso -q
same_as_perf three.data -F overhead_children,overhead,sym
same_as_perf three.data -F sym,overhead --sort dso
run report -i plain.data --stdio -F overhead,nosuch
expect_rc "-F with an unknown field: usage error" 2
contains "naming it" "$err" "unknown -F field 'nosuch'"

# --sort parent, -p REGEX (adds the key), -x: a sample's parent is the
# first frame of its chain (in the print order) the regex matches.
for args in "--sort parent" "--sort parent,sym --no-children" "-p hot --no-children" \
	"-p main -x --no-children" "-p _fault -G --no-children" "-p ^do_ --no-children --sort parent,dso" \
	"-F parent,overhead -p fault --no-children"; do
	# shellcheck disable=SC2086
	same_as_perf three.data $args
done
run report -i plain.data --stdio --sort parent
expect_rc "--sort parent on a file without call chains: exit 1" 1
contains "saying why" "$err" "needs call chains"
run report -i three.data --stdio -p '('
expect_rc "-p with a bad regex: usage error" 2

same_as_perf stat.data -T
same_as_perf stat.data -T -q --sort pid
same_as_perf leader.data -T

# What a user sees, not only that it matches: one section with a column
# per member, and the member's own share (not the leader's) in it.
run report -i leader.data --stdio --sort dso
contains "a leader-sampled group is one section" "$out" "of events 'anon group { cpu-clock, task-clock }'"
check "with two Overhead cells per row" bash -c "printf '%s\n' \"\$1\" | grep -Eq '^ +[0-9.]+% +[0-9.]+%  perfkit-workload'" _ "$out"
printf '%s\n' "$out" | grep -Eq '^ +[0-9.]+% +[0-9.]+%  perfkit-workload' || diag "the table:" "$out" "stderr:" "$err"
run report -i leader.data --stdio --no-group --sort dso
contains "--no-group: the member has its own section" "$out" "of event 'task-clock'"
run report -i two.data --stdio --group --sort dso
contains "--group on a file without groups: perf's forced group" "$out" "of events 'cpu-clock, task-clock'"
run report -i stat.data --stdio -T -q
printf '%s\n' "$out" >threads.txt
check "-T: a row per thread that exited, each with a task-clock count" \
	awk '/^# +PID +TID +task-clock$/ { h = 1; next } h && $3 > 0 { n++ } END { exit !(h && n >= 2) }' threads.txt

# ---- on a terminal ------------------------------------------------------------
if ! command -v script >/dev/null; then
	skip "pager, colour and progress on a terminal" "script(1) is not installed"
	done_testing
fi
cat >pager.sh <<'PAGER'
#!/bin/sh
echo "LESS=${LESS-unset}"
sed 's/^/P| /'
PAGER
chmod +x pager.sh
# in_pty CMD: CMD's output with stdout and stderr on a terminal, the tip
# line left out (perf picks it at random).
in_pty() { script -qec "$1" /dev/null </dev/null | grep -av 'Tip\|perfkit report --sort comm'; }
theirs=$(PERF_PAGER=$PWD/pager.sh in_pty "perf report -i plain.data --stdio --sort dso,sym")
ours=$(PERF_PAGER=$PWD/pager.sh in_pty "$PERFKIT report -i plain.data --stdio --sort dso,sym")
check "on a terminal: through PERF_PAGER in colour, as perf" test "$theirs" = "$ours"
contains "the pager gets LESS=FRSX" "$ours" "LESS=FRSX"
contains "every line goes through it" "$ours" "P| # Overhead  Shared Object"
contains "percentages from 5% in red" "$ours" $'P|   \e[31m'
ours=$(LESS=-R PERF_PAGER=$PWD/pager.sh in_pty "$PERFKIT report -i plain.data --stdio")
contains "a LESS of the user's is kept" "$ours" "LESS=-R"
ours=$(PERF_PAGER=$PWD/pager.sh "$PERFKIT" report -i plain.data --stdio | cat)
check "stdout not a terminal: no pager, no colour" bash -c '! printf "%s" "$1" | grep -aq "P| \|LESS=\|"$'"'"'\e'"'"'' _ "$ours"
theirs=$(PERF_PAGER=$PWD/pager.sh in_pty "perf --no-pager report -i plain.data --stdio")
ours=$(PERF_PAGER=$PWD/pager.sh in_pty "$PERFKIT --no-pager report -i plain.data --stdio")
check "perfkit --no-pager: no pager, as perf --no-pager" test "$theirs" = "$ours"
contains "and still in colour on the terminal" "$ours" $'\e[31m'
theirs=$(PERF_PAGER=cat in_pty "perf report -i leader.data --stdio --stdio-color=never -n")
ours=$(PERF_PAGER=cat in_pty "$PERFKIT report -i leader.data --stdio --stdio-color=never -n")
check "--stdio-color=never on a terminal: as perf, no colour" test "$theirs" = "$ours"
check "(no escape at all)" bash -c '! printf "%s" "$1" | grep -aq $'"'"'\e'"'"'' _ "$ours"

# A file slow to arrive: a FIFO fed in two halves.  The feeder hands
# over the first half, waits until perfkit has read all of it and sleeps
# in read(2) on the FIFO (so it is past its open and its progress clock
# runs: a handshake, whatever the machine's load), then holds the rest
# back 1.5 s: the read takes longer than the progress line's first
# second however fast or slow perfkit is.
perf record -q -e cpu-clock -F 999 -o - -- "$W" hot 300 >stream.data 2>/dev/null
size=$(stat -c %s stream.data)
# The first half must reach past the header records, or perfkit could sleep
# in its open: the file is cut halfway between its first data record and
# its end (a calibration cut short on a loaded machine makes fewer samples
# than asked, so the middle of the file is not enough).
first=$("$PERFKIT" report -D -i stream.data 2>/dev/null |
	awk '/\]: PERF_RECORD_(MMAP|MMAP2|COMM|FORK|SAMPLE|KSYMBOL|BPF_EVENT|CGROUP)/ {
		for (i = 1; i < NF; i++) if ($(i + 1) ~ /^\[0x/) { sub(/^0x/, "", $i); print $i; exit } }')
half=$(((16#${first:-0} + size) / 2))
check "the stream has data records past its header records ($first, $size bytes)" \
	test -n "$first" -a "$((16#${first:-0} + 512))" -lt "$size"
# feed FIFO PIDFILE: the FIFO's writer; PIDFILE names its reader once it runs.
feed() {
	mkfifo "$1"
	{
		head -c "$half" stream.data
		until [ -s "$2" ] && pid=$(cat "$2") && case $(cat "/proc/$pid/wchan" 2>/dev/null) in *pipe_read) true ;; *) false ;; esac; do
			[ -s "$2" ] && ! kill -0 "$pid" 2>/dev/null && break	# gone: nothing to wait for
			sleep 0.05
		done
		sleep 1.5
		tail -c +$((half + 1)) stream.data
	} >"$1" &
}
# slow_report FIFO PIDFILE STDERR: perfkit report of FIFO in a pty, its pid in PIDFILE.
slow_report() {
	PERF_PAGER=cat script -qec "echo \$\$ >$2; exec $PERFKIT report -i $1 --stdio ${3-}" /dev/null </dev/null
}
feed slow1 slow1.pid
ours=$(slow_report slow1 slow1.pid)
wait
contains "a slow file on a terminal: a progress line on stderr" "$ours" $'\rProcessing events...'
contains "erased before the table" "$ours" $'\r\e[K# To display the perf.data header info'
feed slow2 slow2.pid
slow_report slow2 slow2.pid "2>progress.err" >/dev/null
wait
check "stderr not a terminal: no progress line" test ! -s progress.err
done_testing
