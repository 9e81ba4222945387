#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_record_flags.sh - perf record's everyday flags in perfkit record,
# side by side with perf 6.1 where it runs here: an explicit -e cycles
# falling back to cpu-clock as perf's does, --filter on the tracepoints of
# the -e before it (and a bad filter explained), -D and --control (enable,
# stop, the acks) driven through FIFOs, and the attr flags (-W,
# --data-page-size, --code-page-size, --all-user, --all-kernel,
# --user-callchains, --kernel-callchains, -F max, --per-thread, -G) as
# perf opens them, in files perf reads.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
have_perf=1
command -v perf >/dev/null || have_perf=0
W=$PERFKIT_WORKLOAD
# attr_line FIELD TEXT: the value of FIELD in a -v / -vv attr dump.
attr_line() { printf '%s\n' "$2" | sed -n "s/^  $1  *//p" | head -1; }

# 1. -e cycles: where perf falls back to cpu-clock, so does perfkit, and
# says so; the file names the event as perf's does.
if [ "$have_perf" -eq 1 ]; then
	perf record -e cycles:u -o perf-cycles.data -- true >/dev/null 2>&1
	perf_name=$(perf evlist -i perf-cycles.data 2>/dev/null)
else
	perf_name=""
fi
run record -e cycles:u -o cycles.data -- "$W" hot 50
# perf fell back when its file names the event cpu-clock (it says so on
# some kernels only with -v): "cpu-clock:u", or "cpu-clock:uH" where the
# kernel refused cycles with ENOENT and perf kept exclude_guest
case $perf_name in
cpu-clock*)
	expect_rc "-e cycles:u where cycles cannot be sampled records anyway, as perf" 0
	contains "and says it samples cpu-clock instead" "$err" "sampling cpu-clock instead"
	name=$(perf evlist -i cycles.data 2>/dev/null)
	check "the file names it as perf's does ($name; perf: $perf_name)" \
		test "$name" = "$perf_name" -a "${name%H}" = cpu-clock:u
	n=$(perf script -i cycles.data 2>/dev/null | grep -c .)
	check "perf reads its samples ($n)" test "$n" -gt 0
	;;
*) skip "the cycles fallback" "cycles can be sampled here (or no perf)" ;;
esac

# 2. --filter: attached to the events of the -e just before it.
run record -e sched:sched_process_exec,sched:sched_process_exit --filter 'common_pid < 0' \
	-e sched:sched_process_fork -o filter.data -- sh -c '/bin/true; /bin/true'
expect_rc "--filter on tracepoints records (got $rc)" 0
if [ "$have_perf" -eq 1 ]; then
	events=$(perf script -i filter.data -F event 2>/dev/null | sort | uniq -c)
	check "the filtered -e's events are all filtered out" \
		sh -c '! printf "%s\n" "$1" | grep -q "sched_process_e"' sh "$events"
	check "the next -e's event is not filtered (two forks)" \
		sh -c 'printf "%s\n" "$1" | grep -q "2 sched:sched_process_fork"' sh "$events"
	[ -n "$events" ] && diag "$events"
	run record -e sched:sched_process_exec --filter 'common_pid > 0' --filter 'common_pid != 0' \
		-o filter2.data -- /bin/true
	n=$(perf script -i filter2.data 2>/dev/null | grep -c sched_process_exec)
	check "two --filters on one -e join with && as perf's ($n exec)" test "$n" -eq 1
fi
run record -e sched:sched_switch --filter 'prev_pidd == 1' -o bad.data -- true
expect_rc "a filter the kernel refuses exits 1" 1
contains "and the message shows the filter and the event" "$err" \
	'the kernel refused the filter "prev_pidd == 1" on sched:sched_switch'
check "and leaves no file" test ! -e bad.data
run record --filter 'common_pid > 0' -o nofilter.data -- true
expect_rc "--filter before any -e is a usage error" 2
contains "that says so" "$err" "follows no -e"
run record -e cpu-clock --filter 'common_pid > 0' -o nofilter.data -- true
expect_rc "--filter on a non-tracepoint exits 1" 1
contains "and says it is not a tracepoint" "$err" "'cpu-clock' is not a tracepoint"

# 3. -D -1 with --control: nothing is sampled until "enable" comes; the
# command waits on a FIFO until the ack says the events are enabled.
mkfifo ctl ack go
"$PERFKIT" record -D -1 --control fifo:ctl,ack -e cpu-clock -o ctl.data -- \
	sh -c 'read -r _ <go; exec "$1" hot 100' sh "$W" >/dev/null 2>ctl.err &
bg=$!
echo enable >ctl
read -r answer <ack
echo go >go
wait "$bg"
rc=$?
check "--control enable: perfkit exits 0 (got $rc)" test "$rc" -eq 0
check "and acknowledges the command with 'ack' ($answer)" test "$answer" = ack
contains "it says the events start disabled, then enabled" "$(cat ctl.err)" "Events disabled"
contains "and enabled" "$(cat ctl.err)" "Events enabled"
ours=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' ctl.err)
check "samples come once enabled (${ours:-none})" test "${ours:-0}" -gt 0
"$PERFKIT" record -D -1 --control fifo:ctl -e cpu-clock -o off.data -- "$W" hot 100 >/dev/null 2>off.err
ours=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' off.err)
check "-D -1 with no enable samples nothing (${ours:-?} samples)" test "${ours:-x}" = 0
# "stop" ends a -a recording that has no command, with a whole file.
"$PERFKIT" record -a --control fifo:ctl,ack -e cpu-clock -o stop.data >/dev/null 2>stop.err &
bg=$!
echo stop >ctl
read -r answer <ack
wait "$bg"
rc=$?
check "--control stop ends a -a recording: exit 0 (got $rc)" test "$rc" -eq 0
if [ "$have_perf" -eq 1 ]; then
	check "and perf reads the file" sh -c 'perf report -i stop.data --header-only >/dev/null 2>&1'
fi
# "stop" with a command that would run 30 s: the command is ended (as
# --duration ends it) and the recording finishes at once, exit 0.
"$PERFKIT" record --control fifo:ctl,ack -e cpu-clock -o stopcmd.data -- sh -c 'sleep 30; echo finished >"$1"' \
	sh "$tmp/stopcmd.log" >/dev/null 2>stopcmd.err &
bg=$!
echo stop >ctl
read -r answer <ack
wait "$bg"
rc=$?
check "--control stop ends a recording of a command: exit 0 (got $rc)" test "$rc" -eq 0
check "the command was ended, not left to finish" test ! -e "$tmp/stopcmd.log"
if [ "$have_perf" -eq 1 ]; then
	check "and perf reads the file" sh -c 'perf report -i stopcmd.data --header-only >/dev/null 2>&1'
fi
run record -D -1 -o x.data -- true
expect_rc "-D -1 without --control is a usage error" 2
run record --control fifo:/nonexistent/ctl -o x.data -- true
expect_rc "--control on a FIFO that is not there is a usage error" 2
contains "naming it" "$err" "cannot open /nonexistent/ctl"
# The command runs well past the delay (600 ms against 50), so the events
# are enabled before it ends even on a slow, sanitized, loaded run.
run record -D 50 -e cpu-clock -o delay.data -- "$W" hot 600
expect_rc "-D 50 records (got $rc)" 0
contains "and says when the events are enabled" "$err" "Events enabled"

# 4. The attr flags, as perf 6.1 opens them.
sample_flags="-W --data-page-size --code-page-size"
run record -v $sample_flags -e cpu-clock -o w.data -- "$W" hot 50
st=$(attr_line sample_type "$err")
for f in WEIGHT_STRUCT DATA_PAGE_SIZE CODE_PAGE_SIZE; do
	contains "$sample_flags: sample_type has $f" "$st" "$f"
done
if [ "$have_perf" -eq 1 ]; then
	pst=$(attr_line sample_type "$(perf record -vv $sample_flags -e cpu-clock -o pw.data -- true 2>&1)")
	check "perf opens the same sample_type bits ($pst)" \
		test "$st" = "$pst"
	n=$(perf script -i w.data -F ip,weight 2>/dev/null | grep -c .)
	check "perf script reads the weights ($n samples)" test "$n" -gt 0
fi
for flags in --all-user --all-kernel "-g --user-callchains" "-g --kernel-callchains"; do
	run record -v $flags -e cpu-clock -o a.data -- true
	ours=$(printf '%s\n' "$err" | grep -E '^  exclude_(user|kernel|callchain_user|callchain_kernel) ' | sed 's/  */ /g')
	if [ "$have_perf" -eq 1 ]; then
		theirs=$(perf record -vv $flags -e cpu-clock -o pa.data -- true 2>&1 |
			grep -E '^  exclude_(user|kernel|callchain_user|callchain_kernel) ' | sort -u | sed 's/  */ /g')
		check "$flags: the exclude bits perf opens (${theirs//$'\n'/, })" test "$ours" = "$theirs"
	else
		check "$flags sets an exclude bit" test -n "$ours"
	fi
done
run record --all-user --all-kernel -o x.data -- true
expect_rc "--all-user with --all-kernel is a usage error" 2
max=$(cat /proc/sys/kernel/perf_event_max_sample_rate)
run record -v -F max -e cpu-clock -o max.data -- true
check "-F max samples at kernel.perf_event_max_sample_rate ($max)" \
	test "$(attr_line '{ sample_period, sample_freq }' "$err")" = "$max"
contains "and says so as perf does" "$err" "info: Using a maximum frequency rate of $max Hz"
run record -v --per-thread -e cpu-clock -o pt.data -- "$W" hot 50
check "--per-thread: no inherit, one ring for the command's one thread" \
	sh -c '! printf "%s\n" "$1" | grep -q "^  inherit " && printf "%s\n" "$1" | grep -q ", 1 rings"' sh "$err"
if [ "$have_perf" -eq 1 ]; then
	n=$(perf script -i pt.data 2>/dev/null | grep -c perfkit-workloa)
	check "and perf reads its samples ($n)" test "$n" -gt 0
fi
run record --per-thread -a -o x.data -- true
expect_rc "--per-thread with -a is a usage error" 2
run record -G / -o x.data -- true
expect_rc "-G without -a or -C is a usage error" 2
run record -a -G / -e cpu-clock -o cg.data -- "$W" hot 50
expect_rc "-a -G / records the root cgroup (got $rc)" 0
if [ "$have_perf" -eq 1 ]; then
	n=$(perf script -i cg.data 2>/dev/null | grep -c perfkit-workloa)
	check "with the command's samples in it ($n)" test "$n" -gt 0
fi
run record -a -G no/such/cgroup -o x.data -- true
check "-G with a cgroup that is not there fails (got $rc)" test "$rc" -ne 0

# Per-event call-graph terms, as perf 6.1 applies them (they replace -g for
# that event): the attr fields perf record -vv shows, and samples perf reads.
# cg_fields TEXT: the call-graph fields of the first attr in a dump.
cg_fields() {
	printf '%s\n' "$1" | sed -n '/^perf_event_attr:/,/^---/p' | sed -n '1,/^---/p' |
		grep -E '^  (sample_type|mmap_data|exclude_callchain_user|sample_regs_user|sample_stack_user|sample_max_stack) '
}
run record -v -e 'cpu-clock/call-graph=dwarf,stack-size=4096/' -o t1.data -- true
check "call-graph=dwarf,stack-size=4096: a 4096-byte user stack" \
	test "$(attr_line sample_stack_user "$err")" = 4096
contains "with the registers and perf's ADDR and DATA_SRC" "$err" "ADDR|CALLCHAIN|PERIOD|REGS_USER|STACK_USER|"
run record -v -g -e 'cpu-clock/stack-size=100/' -o t2.data -- true
check "stack-size alone turns -g off for the event, as in perf" \
	sh -c '! printf "%s\n" "$1" | grep -q "^  sample_type .*CALLCHAIN"' sh "$err"
run record -v --call-graph=dwarf -e 'cpu-clock/call-graph=fp/' -o t4.data -- true
check "call-graph=fp over --call-graph=dwarf: a call chain, no user stack copy" \
	sh -c 'printf "%s\n" "$1" | grep -q "^  sample_type .*CALLCHAIN" &&
		! printf "%s\n" "$1" | grep -q "^  sample_type .*STACK_USER"' sh "$err"
run record -v -e 'cpu-clock/max-stack=5/' -o t3.data -- true
check "max-stack=5 alone: frame pointers, sample_max_stack 5" \
	test "$(attr_line sample_max_stack "$err")" = 5
if [ "$have_perf" -eq 1 ]; then
	for e in 'cpu-clock/call-graph=dwarf,stack-size=4096/' 'cpu-clock/call-graph=fp/' \
		 'cpu-clock/max-stack=5/' 'cpu-clock/stack-size=100/' 'cpu-clock/call-graph=no/'; do
		# (Over --call-graph=dwarf perf leaves the cleared mode's stack size
		# and registers in the attr without their sample bits; perfkit
		# does not, hence only "" and -g here.)
		for g in "" -g; do
			pf=$(cg_fields "$(perf record $g -vv -e "$e" -o pf.data -- true 2>&1)")
			# shellcheck disable=SC2086
			run record $g -v -e "$e" -o pk.data -- true
			check "record $g -e $e: the call-graph attr fields perf -vv shows" \
				test "$(cg_fields "$err")" = "$pf"
		done
	done
	# Two events, two call graphs: DWARF-unwound chains for one, at most
	# three frames for the other.
	run record -e 'cpu-clock/call-graph=dwarf/,task-clock/max-stack=3/' -o mixed.data -- "$W" hot 50
	expect_rc "two events with their own call graphs record" 0
	deep=$(perf script -i mixed.data 2>/dev/null | awk '/cpu-clock/ { n = 0; on = 1; next } /task-clock/ { on = 0 }
		on && NF { n++; if (n > m) m = n } END { print m + 0 }')
	short=$(perf script -i mixed.data 2>/dev/null | awk '/task-clock/ { n = 0; on = 1; next } /cpu-clock/ { on = 0 }
		on && NF { n++; if (n > m) m = n } END { print m + 0 }')
	check "perf unwinds the DWARF event's chains through main ($deep frames)" test "$deep" -ge 5
	check "and the max-stack=3 event's chains stop at 3 frames ($short)" test "$short" -ge 1 -a "$short" -le 3
	n=$(perf report -i mixed.data --stdio 2>/dev/null | grep -c -- '--hot_a')
	check "perf report shows the call graph down to hot_a" test "$n" -ge 1
else
	skip "per-event call-graph terms against perf" "perf is not installed"
fi

# Several cgroups (-G A,B, or -G A -G B), paired with the events as perf
# pairs them: the workload runs in A, so only A's event has its samples.
cgroot=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
A=perfkit-rcgA-$$ B=perfkit-rcgB-$$
run record -a -G a,b -e cpu-clock -o x.data -- true
expect_rc "-G with more cgroups than events is a usage error" 2
contains "which says how perf pairs them" "$err" "-G gives 2 cgroups for 1 events"
if [ "$(id -u)" -ne 0 ] || [ -z "$cgroot" ] || ! mkdir "$cgroot/$A" "$cgroot/$B" 2>/dev/null; then
	skip "-G with several cgroups, live" "needs root and a writable cgroup2 mount"
elif [ "$have_perf" -eq 0 ]; then
	skip "-G with several cgroups, live" "perf reads the files"
	rmdir "$cgroot/$A" "$cgroot/$B"
else
	into="echo \$\$ > $cgroot/$A/cgroup.procs && exec $W hot 100"
	# by_event FILE: each "EVENT:COMMAND" with samples, once (the shell
	# that moves itself into A may be sampled there before its exec).
	by_event() { perf script -i "$1" -F comm,event 2>/dev/null | awk '{ n[$2 $1]++ } END { for (k in n) print k }' | sort; }
	# events FILE: the events with samples.
	events() { by_event "$1" | cut -d: -f1 | sort -u; }
	run record -a -e cpu-clock,task-clock -G "$A,$B" -o cg2.data -- sh -c "$into"
	expect_rc "-G A,B records" 0
	check "cpu-clock (in A) has the workload's samples, task-clock (in B) none" \
		sh -c 'printf "%s\n" "$1" | grep -qx "cpu-clock:perfkit-workloa" && [ "$2" = cpu-clock ]' \
		sh "$(by_event cg2.data)" "$(events cg2.data)"
	run record -a -e task-clock,cpu-clock -G "$B" -G "$A" -o cg3.data -- sh -c "$into"
	check "-G B -G A: the same pairing from two -G" \
		sh -c 'printf "%s\n" "$1" | grep -qx "cpu-clock:perfkit-workloa" && [ "$2" = cpu-clock ]' \
		sh "$(by_event cg3.data)" "$(events cg3.data)"
	perf record -a -e cpu-clock,task-clock -G "$A,$B" -o pcg.data -- sh -c "$into" >/dev/null 2>&1
	check "as perf record -G A,B: the same events with samples" \
		test "$(events pcg.data)" = "$(events cg2.data)"
	run record -a -e cpu-clock,task-clock -G "$B," -o cg4.data -- sh -c "$into"
	check "-G B,: the second event samples every task, the workload too" \
		sh -c 'printf "%s\n" "$1" | grep -qx "task-clock:perfkit-workloa" &&
			! printf "%s\n" "$1" | grep -q "^cpu-clock"' sh "$(by_event cg4.data)"
	rmdir "$cgroot/$A" "$cgroot/$B"
fi

done_testing
