#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_event_update_name.sh - an event named twice by EVENT_UPDATE records
# in a pipe-mode stream: perf 6.1 takes the last name, over EVENT_DESC's and
# the first EVENT_UPDATE's.  A perf stream with a second name record crafted
# after perf's own (event-update-craft.py), perfkit script and report
# compared with perf on the same stream bytes.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
craft="$(dirname "$0")/event-update-craft.py"

perf record -q -e task-clock -c 100000 -o - -- sh -c 'i=0; while [ $i -lt 3000 ]; do i=$((i+1)); done' \
	>perf.pipe 2>/dev/null
python3 "$craft" renamed-clock <perf.pipe >renamed.pipe
check "the crafted stream is longer by the name records" \
	test "$(wc -c <renamed.pipe)" -gt "$(wc -c <perf.pipe)"

# same TOOL ARGS...: perfkit TOOL -i - prints what perf TOOL -i - prints.
same() {
	local tool=$1 theirs ours
	shift
	theirs=$(perf "$tool" -i - "$@" <renamed.pipe 2>/dev/null | grep -v '^# (')
	ours=$("$PERFKIT" "$tool" -i - "$@" <renamed.pipe 2>"$tmp/err" | grep -v '^# (')
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
		ok "$tool $* equals perf's ($(printf '%s\n' "$ours" | wc -l) lines)"
	else
		not_ok "$tool $* equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}
same script -F event,period
same report --stdio

# What a user sees whatever the samples: the last name, never the first.
run script -i - -F event <renamed.pipe
check "script: every sample under the last name" \
	test "$(printf '%s\n' "$out" | grep -c '^renamed-clock:')" -eq "$(printf '%s\n' "$out" | wc -l)"
run report -i - --stdio <renamed.pipe
contains "report: the last name heads the table" "$out" "of event 'renamed-clock'"
check "report: the first name is gone" test -z "$(printf '%s\n' "$out" | grep -F "'task-clock'")"
run report -i - --stdio <perf.pipe
contains "perf's own stream keeps its one name" "$out" "of event 'task-clock'"
done_testing
