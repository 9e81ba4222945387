#!/bin/bash
# SPDX-License-Identifier: MIT
# Bad input: one clear message on stderr, exit 2 for usage and 1 for
# events, a caret under the offending column, never a crash, and JSON that
# stays valid whatever bytes the event string holds.
. "$(dirname "$0")/tap.sh"

run lsit
expect_rc "unknown command exits 2" 2
contains "unknown command: did you mean" "$err" "did you mean 'perfkit list'"
run list --bogus
expect_rc "unknown list option exits 2" 2
contains "unknown option is named" "$err" "perfkit list: unknown option '--bogus'"
run info
expect_rc "info without events exits 2" 2
contains "info without events says so" "$err" "no event given"
run info --os=kernel task-clock
expect_rc "bad --os exits 2" 2
run list --source=gpu
expect_rc "bad --source exits 2" 2
contains "bad --source names the known ones" "$err" "tracepoint"
run
expect_rc "no command exits 2" 2

run --version
expect_rc "--version exits 0" 0
check "--version prints the version" grep -Eq '^perfkit [0-9]+\.[0-9]+\.[0-9]+$' <<<"$out"
run help
contains "help lists the commands" "$out" "info"
run info --help
expect_rc "info --help exits 0" 0
contains "info --help shows the usage" "$out" "usage: perfkit info"

run info task-clok
expect_rc "unknown event exits 1" 1
contains "unknown event: near-miss hint" "$err" "task-clock"
check "unknown event: one message, starts with the command" grep -q '^perfkit info: ' <<<"$err"

run info task-clock:q
expect_rc "bad modifier exits 1" 1
check "caret under the q of task-clock:q" python3 -c '
import sys
lines = sys.argv[1].split("\n")
i = [k for k, l in enumerate(lines) if l.strip() == "task-clock:q"][0]
assert lines[i + 1].index("^") == lines[i].index("q"), lines' "$err"

# Never a crash (status >= 128) and never silence on failure.
for spec in '' ',' '{' '}' '{task-clock' 'task-clock/' ':::' 'mem:' 'uprobe:' \
	'{cs,{cs}}' 'cpu/event=/' "$(printf 'x%.0s' {1..5000})" 'task-clock:uuuuuuuuuuuuuuuuuuuu' \
	'sched:' ':sched_switch' 'r' 'rxyz' 'msr/tsc/x' 'skl::' '//' 'task-clock,,cs'; do
	run info "$spec"
	if [ "$rc" -lt 2 ] && { [ "$rc" -eq 0 ] || [[ $err == "perfkit info: "* ]]; }; then
		ok "info '${spec:0:40}' exits $rc"
	else
		not_ok "info '${spec:0:40}' exits $rc"
		diag "$err"
	fi
done

# JSON stays valid for any bytes and round-trips the event string.
for spec in $'task\x01clock' $'tab\there' 'qu"ote\back' 'tâsk-clöck' $'\x7f'; do
	run info --json "$spec"
	want=$spec json_check "JSON round-trips $(printf '%q' "$spec")" '
import os
assert d[0]["event"] == os.environ["want"], d[0]["event"]
assert d[0]["opens"] is False and d[0]["error"]["why"]'
done

done_testing
