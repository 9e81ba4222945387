#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_record_pipe.sh - perfkit record -o -: perf's pipe format on stdout,
# read by perf 6.1 (perf report -i -, perf script -i -) with the same rows
# as a file recording of the same deterministic run; tracepoints with their
# fields, call chains and -z through the pipe; nothing but the stream on
# stdout; a terminal refused; a reader that goes away ends the recording
# with perf's exit status; and a stream cut by SIGKILL still reads.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
if ! command -v perf >/dev/null; then
	skip "perf reads perfkit's stream" "perf is not installed"
	done_testing
fi
W=$PERFKIT_WORKLOAD

# The samples column of the `touch` row of perf report -n (FILE or - for stdin).
touch_count() {
	perf report -i "$1" -n --stdio --sort sym 2>/dev/null | awk '/\] touch$/ { print $2 }'
}

# One page fault per sample: 3000 of them in the workload's touch(), the
# same in every run, so a file and a stream can be compared row for row.
# The command's own stdout must not end up in the stream.
"$PERFKIT" record -e page-faults -c 1 -o - -- sh -c "echo from-the-command; exec $W pages 3000" \
	>s.pipe 2>s.err
rc=$?
check "record -o - to a file exits 0 (got $rc)" test "$rc" -eq 0
check "the stream starts with the 16-byte pipe header" \
	test "$(head -c 16 s.pipe | od -An -tx1 | tr -d ' \n')" = "50455246494c45321000000000000000"
check "the command's stdout goes to stderr, not into the stream" grep -q '^from-the-command$' s.err
check "the stream holds no line of the command's output" sh -c '! grep -aq "^from-the-command" s.pipe'
ours=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' s.err)
n=$(perf script -i - <s.pipe 2>/dev/null | grep -c .)
check "perf script -i - prints every sample perfkit counted ($n of $ours)" test "$n" -eq "${ours:--1}"
"$PERFKIT" record -q -e page-faults -c 1 -o f.data -- "$W" pages 3000 2>/dev/null
pipe_rows=$(touch_count - <s.pipe) file_rows=$(touch_count f.data)
check "perf report -i - has the file's touch row: 3000 faults ($pipe_rows, file $file_rows)" \
	test "$pipe_rows" = 3000 -a "$file_rows" = 3000
pipe_ev=$(perf report -i - --stdio <s.pipe 2>/dev/null | grep '^# Samples:' | sed 's/.*of event//')
file_ev=$(perf report -i f.data --stdio 2>/dev/null | grep '^# Samples:' | sed 's/.*of event//')
check "the event is named as in the file ($pipe_ev)" test -n "$pipe_ev" -a "$pipe_ev" = "$file_ev"

# Through a real pipe, as a user types it.
rows=$("$PERFKIT" record -q -e page-faults -c 1 -o - -- "$W" pages 3000 2>/dev/null | touch_count -)
check "record -o - | perf report -i - gives the touch row ($rows)" test "$rows" = 3000
sc=$("$PERFKIT" record -q -e page-faults -c 1 -o - -- "$W" pages 3000 2>/dev/null | perf script -i - 2>&1 |
	grep -c 'perfkit-workloa.*page-faults')
check "record -o - | perf script -i - prints the workload's samples ($sc)" test "$sc" -ge 3000

tp=$("$PERFKIT" record -q -e sched:sched_switch -a -o - -- sleep 0.1 2>/dev/null | perf script -i - 2>&1)
contains "tracepoints through the pipe: perf script prints their fields" "$tp" "prev_comm="
contains "tracepoints through the pipe: the event is named" "$tp" "sched:sched_switch:"

cg=$("$PERFKIT" record -q -g -F 2000 -o - -- "$W" hot 300 2>/dev/null | perf script -i - 2>/dev/null |
	grep -cE '^[[:space:]]+[0-9a-f]+ hot_a')
check "-g through the pipe: perf script prints call chains through hot_a ($cg frames)" test "$cg" -ge 1
# Without -i, report and script read a pipe on standard input, as perf's do.
theirs=$(cat s.pipe | perf report --stdio 2>/dev/null | grep -v "^#")
ours=$(cat s.pipe | "$PERFKIT" report --stdio 2>/dev/null | grep -v '^#')
check "... | perfkit report (no -i) reads the pipe as perf report does" test -n "$ours" -a "$theirs" = "$ours"
theirs=$(cat s.pipe | perf script 2>/dev/null)
ours=$(cat s.pipe | "$PERFKIT" script 2>/dev/null)
check "... | perfkit script (no -i) reads the pipe as perf script does" test -n "$ours" -a "$theirs" = "$ours"
# The attrs perf writes to a pipe: PERF_SAMPLE_ID even for one event
# (a stream's reader tells events apart by it); and its sample-time
# feature, sent first, of zeros.
for args in "-e cpu-clock" "-g" "-e cpu-clock,task-clock" "--sample-identifier"; do
	# shellcheck disable=SC2086
	theirs=$(perf record -q $args -o - -- true 2>/dev/null | perf evlist -v -i - 2>/dev/null | grep -v '^#')
	# shellcheck disable=SC2086
	ours=$("$PERFKIT" record -q $args -o - -- true 2>/dev/null | perf evlist -v -i - 2>/dev/null | grep -v '^#')
	check "record $args -o -: the attrs perf writes to a pipe" test -n "$ours" -a "$theirs" = "$ours"
done
ours=$("$PERFKIT" record -q -e cpu-clock -o - -- true 2>/dev/null | perf report --header-only -i - 2>/dev/null |
	grep -c '^# time of first sample : 0.000000$')
check "record -o -: perf's header shows the pipe's zero sample times" test "$ours" = 1
z=$("$PERFKIT" record -q -z -e page-faults -c 1 -o - -- "$W" pages 3000 2>/dev/null | touch_count -)
check "-z through the pipe: perf decompresses the same touch row ($z)" test "$z" = 3000

# A terminal: refused, as writing binary to it helps nobody (perf writes it).
if command -v script >/dev/null; then
	tty_out=$(script -qec "$PERFKIT record -o - -- true" /dev/null 2>&1)
	contains "-o - to a terminal is refused" "$tty_out" "which is a terminal"
	check "and nothing is recorded" sh -c '! printf "%s" "$1" | grep -q PERFILE2' sh "$tty_out"
else
	skip "-o - to a terminal is refused" "script(1) is not installed"
fi

# The reader goes away after the first byte: perfkit stops at its next
# write, says so, and exits 141 (128 + SIGPIPE), the status perf's death
# by SIGPIPE gives.
"$PERFKIT" record -o - -- "$W" hot 1500 2>epipe.err | head -c 1 >/dev/null
rc=${PIPESTATUS[0]}
check "a reader that goes away: exit 141 (got $rc)" test "$rc" -eq 141
check "and a message on stderr" grep -q "reader of the stream went away" epipe.err

# SIGKILL mid-stream: the reader takes the first 40000 bytes (samples are
# past the first ~10 KiB), then the recorder is killed and the reader takes
# the rest.  perf reads every whole record of the cut stream.
{ "$PERFKIT" record -q -F 4000 -o - -- "$W" hot 8000 & echo $! >rec.pid; wait; } 2>/dev/null |
	{ head -c 40000 >cut.pipe; kill -9 "$(cat rec.pid)"; cat >>cut.pipe; } 2>/dev/null
cut=$(perf script -i - <cut.pipe 2>/dev/null | grep -c 'perfkit-workloa')
check "a stream cut by SIGKILL: perf script -i - reads its samples ($cut)" test "$cut" -ge 1
perf report -i - --stdio <cut.pipe >/dev/null 2>&1
rc=$?
check "and perf report -i - exits 0 on it (got $rc)" test "$rc" -eq 0
done_testing
