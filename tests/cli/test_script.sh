#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script.sh - perfkit script against perf script 6.1 on the same
# files, line for line: recorded by perf (plain, -g, --no-inherit, a
# forking and a threaded workload, -a with sched:sched_switch) and by
# perfkit record (plain, and the tracepoint with its tracing data), in the
# default layout, with --ns and with -F lists (set, +/-, type:); and perf's
# refusal of a field the samples lack; --show-task-events and
# --show-mmap-events; --call-graph dwarf recordings (perf's
# and perfkit's) of the unwinding target, whose user frames are unwound;
# --max-stack on both kinds of call chain.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

# same_as_perf FILE ARGS...: perfkit script prints what perf script prints
# and exits as it does.
same_as_perf() {
	local file=$1 theirs ours rt ro
	shift
	theirs=$(perf script -i "$file" "$@" 2>/dev/null); rt=$?
	ours=$("$PERFKIT" script -i "$file" "$@" 2>"$tmp/err"); ro=$?
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ] && [ "$rt" = "$ro" ]; then
		ok "$file: script $* equals perf's ($(printf '%s\n' "$ours" | wc -l) lines)"
	else
		not_ok "$file: script $* equals perf's (exit $ro, perf $rt)"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}

if ! command -v perf >/dev/null; then
	skip "comparisons with perf script" "perf is not installed"
else
	perf record -q -e cpu-clock -F 999 -o plain.data -- "$W" hot 100 >/dev/null 2>&1
	perf record -q -g -e cpu-clock -F 999 -o g.data -- "$W" hot 100 >/dev/null 2>&1
	perf record -q -e task-clock -F 2000 --no-inherit -o noinherit.data -- "$W" children 10 >/dev/null 2>&1
	perf record -q -e cpu-clock -F 5000 -o fork.data -- "$W" children 10 >/dev/null 2>&1
	perf record -q -e cpu-clock -F 5000 -o threads.data -- "$W" threads 4 >/dev/null 2>&1
	perf record -q -e sched:sched_switch -a -o tp.data -- "$W" children 10 >/dev/null 2>&1
	"$PERFKIT" record -F 999 -o perfkit.data -- "$W" hot 100 >/dev/null 2>&1
	"$PERFKIT" record -e sched:sched_switch -a -o perfkit-tp.data -- "$W" children 10 >/dev/null 2>&1
	for f in plain.data noinherit.data fork.data threads.data tp.data perfkit.data perfkit-tp.data; do
		same_as_perf "$f"
	done
	same_as_perf g.data
	# --max-stack: the first N frames; 0 prints an empty chain (and a
	# DWARF sample on one line, below)
	for n in 0 1 3; do
		same_as_perf g.data --max-stack "$n"
	done
	same_as_perf plain.data --ns
	# the side-band records (perf's synthesized ones take the first event's fields)
	for f in fork.data tp.data perfkit.data perfkit-tp.data; do
		same_as_perf "$f" --show-task-events
		same_as_perf "$f" --show-mmap-events
	done
	same_as_perf fork.data --show-task-events --show-mmap-events -F comm,pid,tid,time
	# A format file whose print fmt names a field it no longer has (found by
	# fuzz_tracing): libtraceevent 1.7.1 follows a NULL pointer on it (perf
	# script crashes), perfkit says what is damaged and reads on.
	python3 - perfkit-tp.data damaged-fmt.data <<'PY'
import sys
d = open(sys.argv[1], 'rb').read()
old = b'field:long prev_state;'
assert old in d
open(sys.argv[2], 'wb').write(d.replace(old, b'field:long prevSTA_PR;', 1))
PY
	"$PERFKIT" script -i damaged-fmt.data >/dev/null 2>damaged.err; rc=$?
	check "a damaged print fmt: no crash (exit $rc)" [ "$rc" -lt 128 ]
	check "it names the field the print fmt wants" grep -q "prints REC->prev_state, which is not a field" damaged.err
	"$PERFKIT" report --stdio -i damaged-fmt.data >damaged.out 2>&1; rc=$?
	check "report reads the samples all the same" [ "$rc" = 0 ]
	check "with the table" grep -q "of event 'sched:sched_switch'" damaged.out
	# --call-graph dwarf: the user frames come from unwinding the stack
	# copy.  Both without inline frames (--no-inline; test_srcline.sh
	# compares them).
	U=${PERFKIT_UNWIND_TARGET:?PERFKIT_UNWIND_TARGET must name the unwinding target}
	perf record -q --call-graph dwarf -e task-clock -c 1000000 -o dwarf.data -- "$U" 20000000 >/dev/null 2>&1
	"$PERFKIT" record --call-graph dwarf -e task-clock -c 1000000 -o perfkit-dwarf.data -- "$U" 20000000 \
		>/dev/null 2>&1
	for f in dwarf.data perfkit-dwarf.data; do
		theirs=$(perf script -i "$f" --no-inline 2>/dev/null)
		ours=$("$PERFKIT" script -i "$f" --no-inline 2>&1)
		if [ "$theirs" = "$ours" ] &&
		   grep -Pzq 'inner\+0x[0-9a-f]+ \(\S+\)\n\t\s+[0-9a-f]+ middle\+0x[0-9a-f]+ \(\S+\)\n\t\s+[0-9a-f]+ outer\+' <<<"$ours"; then
			ok "$f: the unwound chains (inner, middle, outer, ...) equal perf's ($(wc -l <<<"$ours") lines)"
		else
			not_ok "$f: the unwound chains equal perf's"
			diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)"
		fi
	done
	for n in 0 2; do
		same_as_perf dwarf.data --no-inline --max-stack "$n"
	done
	same_as_perf tp.data --ns
	same_as_perf plain.data -F comm,tid,time,period
	same_as_perf plain.data -F -period,+pid
	same_as_perf fork.data -F pid,tid,event,ip,sym,dso
	same_as_perf threads.data -F sw:comm,tid,ip,sym,symoff
	same_as_perf tp.data -F trace:comm,cpu,trace
	same_as_perf tp.data -F comm,tid,cpu
	# perf's refusal of a field asked for by name that the samples lack
	# (perf exits 255, perfkit 1); nothing on stdout
	out=$("$PERFKIT" script -i plain.data -F comm,cpu 2>&1 >"$tmp/stdout"); rc=$?
	if [ "$rc" = 1 ] && [ ! -s "$tmp/stdout" ] &&
	   [[ $out == *"Samples for 'cpu-clock' event do not have CPU attribute set. Cannot print 'cpu' field."* ]]; then
		ok "a field the samples lack is refused with perf's message"
	else
		not_ok "a field the samples lack is refused with perf's message"; diag "exit $rc: $out"
	fi
fi

out=$("$PERFKIT" script -i nosuch.data 2>&1); rc=$?
check "a missing file: exit 1 and its name" [ "$rc" = 1 -a -n "$(grep -F nosuch.data <<<"$out")" ]
"$PERFKIT" script -F nosuch >/dev/null 2>&1; rc=$?
check "an unknown -F field: exit 2" [ "$rc" = 2 ]
"$PERFKIT" script -F comm,+pid >/dev/null 2>&1; rc=$?
check "mixing set and +field: exit 2" [ "$rc" = 2 ]
done_testing
