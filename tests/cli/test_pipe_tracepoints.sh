#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_pipe_tracepoints.sh - tracepoints in a pipe-mode stream (perf record
# -o -) read with -i -: as perf 6.1 writes it (EVENT_DESC and EVENT_UPDATE
# names), without them (a perf that sends none: the names come from the
# tracing data once HEADER_TRACING_DATA has arrived), and with the
# HEADER_ATTRs after the tracing data (perf's "unknown tracepoint"); and
# report's default order for a stream of tracepoints only.
# perfkit script and report compared with perf on the same stream bytes.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
craft="$(dirname "$0")/pipe-craft.py"

perf record -q -a -e sched:sched_switch -e sched:sched_process_exit -o - \
	-- sh -c 'sleep 0.1; true' >named.pipe 2>/dev/null
python3 "$craft" noname <named.pipe >noname.pipe
python3 "$craft" late <named.pipe >late.pipe
check "perf's stream carries names the crafted one does not" \
	test "$(wc -c <noname.pipe)" -lt "$(wc -c <named.pipe)"

# same TOOL STREAM ARGS...: perfkit TOOL -i - prints what perf TOOL -i - prints.
same() {
	local tool=$1 file=$2 theirs ours
	shift 2
	theirs=$(perf "$tool" -i - "$@" <"$file" 2>/dev/null | grep -v '^# (')
	ours=$("$PERFKIT" "$tool" -i - "$@" <"$file" 2>"$tmp/err" | grep -v '^# (')
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
		ok "$file: $tool $* equals perf's ($(printf '%s\n' "$ours" | wc -l) lines)"
	else
		not_ok "$file: $tool $* equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}

for f in named noname; do
	same script $f.pipe
	same script $f.pipe -F event,trace
	same report $f.pipe --stdio
done
same report late.pipe --stdio
# Streams of tracepoints only (no -a, so no dummy event), perf's and
# perfkit's: perf sets its sorting up before a stream's attrs arrive, so
# the default order stays comm,dso,sym, where a file's is trace.
perf record -q -e sched:sched_switch -e sched:sched_process_exit -o - \
	-- sh -c 'sleep 0.1; true' >solo.pipe 2>/dev/null
"$PERFKIT" record -e sched:sched_switch -e sched:sched_process_exit -o - \
	-- sh -c 'sleep 0.1; true' >ksolo.pipe 2>/dev/null
same report solo.pipe --stdio
same report ksolo.pipe --stdio

# What a user sees whatever the samples: the tracepoints' own names.
run script -i - -F event <noname.pipe
contains "noname: the exit tracepoint is named from the tracing data" "$out" "sched:sched_process_exit:"
check "noname: no sample is an unknown tracepoint" test -z "$(printf '%s\n' "$out" | grep -F unknown)"
run report -i - --stdio <noname.pipe
contains "noname: report names the exit tracepoint" "$out" "of event 'sched:sched_process_exit'"
run report -i - --stdio <late.pipe
contains "late: an attr after the tracing data stays unnamed, as in perf" "$out" "of event 'unknown tracepoint'"

done_testing
