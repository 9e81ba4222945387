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
# Options: one table per command, one set of messages for every command.
# Each row: the message the user must see, then the arguments; every row
# exits 2, says it in one line and points at that command's --help.
bad_option() {
	local needle=$1 cmd=$2
	shift
	run "$@"
	if [ "$rc" -eq 2 ] && [[ $err == *"perfkit $cmd: $needle"* ]] &&
		[[ $err == *"'perfkit $cmd --help' shows the usage"* ]] && [ "$(grep -c . <<<"$err")" -eq 2 ]; then
		ok "$* -> 2, '$needle'"
	else
		not_ok "$* -> 2, '$needle'"
		diag "exit status $rc" "$err"
	fi
}
bad_option "unknown option '--frq': did you mean '--freq'?" record --frq 99 -- true
bad_option "unknown option '--jsno': did you mean '--json'?" list --jsno
bad_option "unknown option '--os-layer'" info --os-layer=pmu task-clock
bad_option "unknown option '--bogus'" stat --bogus -- true
bad_option "unknown option '-Z'" stat -qZ -- true
bad_option "unknown option '-Z'" record -Z -- true
bad_option "option '-e' needs a value" stat -e
bad_option "option '--event' needs a value" record --event
bad_option "option '--os' needs a value" info --os
bad_option "option '--per' is ambiguous" stat -a --per
bad_option "option '--json' takes no value" list --json=yes
bad_option "option '--quiet' takes no value" stat --quiet=1 -- true
# --help of each command comes from its table: every option is listed.
for cmd in list info stat record; do
	run "$cmd" --help
	if [ "$rc" -eq 0 ] && [[ $out == "usage: perfkit $cmd"* ]] && [[ $out == *"-h, --help"* ]] &&
		! grep -q '.\{80\}' <<<"$out"; then
		ok "$cmd --help: usage first, --help listed, no line past 79 columns"
	else
		not_ok "$cmd --help: usage first, --help listed, no line past 79 columns"
		diag "$out"
	fi
done
run stat --help
contains "stat --help lists the long-only options" "$out" "--interval-count N"
contains "stat --help joins the --per-* options in one row" "$out" "--per-core, --per-die, --per-socket, --per-node"
run record --help
contains "record --help shows an optional value" "$out" "-z[N], --compression-level[=N]"
run help record
contains "'perfkit help record' is record --help" "$out" "usage: perfkit record"

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

# Numbers: every numeric flag goes through one checked parser.  Each row:
# the exit status, words the message must hold (the flag, the value and the
# allowed range), then the arguments.  A bad number never starts a run.
numtmp=$(mktemp -d)
trap 'rm -rf "$numtmp"' EXIT
bad_number() {
	local want_rc=$1 needle=$2 lines=2
	shift 2
	run "$@"
	[ "$1" = info ] && lines=3	# the message, the string, the caret
	if [ "$rc" -eq "$want_rc" ] && [[ $err == *"$needle"* ]] && [ "$(grep -c . <<<"$err")" -le $lines ]; then
		ok "$* -> $want_rc, '$needle'"
	else
		not_ok "$* -> $want_rc, '$needle'"
		diag "exit status $rc" "$err"
	fi
}
rec=(record -q -o "$numtmp/p.data" -e cpu-clock)
bad_number 2 "-F: '4294967297' is out of range: give a number from 1 to 4294967295" "${rec[@]}" -F 4294967297 -- true
bad_number 2 "-F: '-1' is negative" "${rec[@]}" -F -1 -- true
bad_number 2 "-F: '0' is out of range" "${rec[@]}" -F 0 -- true
bad_number 2 "-F: '99x' is not a number" "${rec[@]}" -F 99x -- true
bad_number 2 "-F: an empty string is not a number" "${rec[@]}" -F '' -- true
bad_number 2 "-c: '-1' is negative: give a number from 1 to 9223372036854775807" "${rec[@]}" -c -1 -- true
bad_number 2 "-c: '18446744073709551616' is out of range" "${rec[@]}" -c 18446744073709551616 -- true
bad_number 2 "--duration: 'nan' is not a duration" "${rec[@]}" --duration nan -- true
bad_number 2 "--duration: 'inf' is not a duration" "${rec[@]}" --duration inf -- true
bad_number 2 "--duration: '0x1p3' is not a duration" "${rec[@]}" --duration 0x1p3 -- true
bad_number 2 "--duration: '-1' is negative" "${rec[@]}" --duration -1 -- true
bad_number 2 "--duration: '1e9' is not a duration" "${rec[@]}" --duration 1e9 -- true
bad_number 2 "--duration: '99999999999' is out of range: give seconds from 0.001 to 31536000" "${rec[@]}" --duration 99999999999 -- true
bad_number 2 "-z: '99' is out of range: give a number from 1 to 22" "${rec[@]}" -z99 -- true
bad_number 2 "-z: '0' is out of range" "${rec[@]}" --compression-level=0 -- true
bad_number 2 "-m: '0' is out of range" "${rec[@]}" -m 0 -- true
bad_number 2 "-m: '-1' is negative" "${rec[@]}" -m -1 -- true
bad_number 2 "a ring takes at most 262144 pages" "${rec[@]}" -m 99999999999 -- true
bad_number 2 "-m: '99999999999999999999' is out of range" "${rec[@]}" -m 99999999999999999999 -- true
bad_number 2 "-m 2G is larger than a ring can be" "${rec[@]}" -m 2G -- true
bad_number 2 "--call-graph dwarf,SIZE: '70000' is out of range: give a number from 8 to 65528" "${rec[@]}" --call-graph dwarf,70000 -- true
bad_number 2 "-k: '99' is out of range: give a number from 0 to 63" "${rec[@]}" -k 99 -- true
bad_number 2 "-r: '0' is out of range: give a number from 1 to 100000" stat -r 0 -- true
bad_number 2 "-r: '-3' is negative" stat -r -3 -- true
bad_number 2 "-I: '5' is out of range: give a number from 10 to 100000000" stat -I 5 -- true
bad_number 2 "-I: '10ms' is not a number" stat -I 10ms -- true
bad_number 2 "--interval-count: '0' is out of range" stat -I 100 --interval-count 0 -- true
bad_number 2 "--interval-count: '4294967296' is out of range" stat -I 100 --interval-count 4294967296 -- true
bad_number 2 "-D: '-2' is out of range: give a number from -1 to 100000000" stat -D -2 -- true
bad_number 2 "-D: 'nan' is not a number" stat -D nan -- true
bad_number 2 "-x needs a separator" stat -x '' -- true
bad_number 2 "'0' is out of range: give a number from 1 to 2147483647" stat -p 0 -e task-clock
bad_number 2 "'99999999999' is out of range" stat -p 1,99999999999 -e task-clock
bad_number 2 "' 12' is not a number" record -q -o "$numtmp/p.data" -p ' 12' -e cpu-clock
check "no file was left by a refused number" test -z "$(ls -A "$numtmp")"
# -z takes its level attached (perf 6.1's optional argument): "-z 3" is -z
# with the command 3, so the message is about running 3, not the level.
run "${rec[@]}" -z 3
check "-z 3 runs '3' as the command, as perf does" grep -q "cannot run '3'" <<<"$err"
rm -f "$numtmp"/*

# Event terms and breakpoint lengths: the term, the value and the range.
bad_number 1 "term 'period': '-1' is negative" info 'task-clock/period=-1/'
bad_number 1 "term 'freq': '4294967296' is out of range" info 'task-clock/freq=4294967296/'
bad_number 1 "breakpoint length '99999999999' is not 1, 2, 4 or 8 bytes" info 'mem:0x1000/99999999999'

# Output that cannot be written is a failure with one message.
for args in "list" "info task-clock" "info --json task-clock" "list --source=sw" "--version" "help"; do
	# shellcheck disable=SC2086
	"$PERFKIT" $args >/dev/full 2>"$numtmp/err"
	rc=$?
	e=$(cat "$numtmp/err")
	if [ "$rc" -ne 0 ] && [ "$(grep -c . <<<"$e")" -eq 1 ] && [[ $e == *"cannot write the output: No space left on device"* ]]; then
		ok "$args >/dev/full exits $rc with one message"
	else
		not_ok "$args >/dev/full exits $rc with one message"
		diag "$e"
	fi
done
"$PERFKIT" stat -e task-clock -- true 2>/dev/full
rc=$?
check "stat's table to a full stderr exits non-zero (got $rc)" test "$rc" -ne 0
"$PERFKIT" stat -x, -e task-clock -- true 2>/dev/full
rc=$?
check "stat's CSV to a full stderr exits non-zero (got $rc)" test "$rc" -ne 0
run stat -e task-clock -o /dev/full -- true
check "stat -o /dev/full exits non-zero (got $rc)" test "$rc" -ne 0
contains "stat -o /dev/full says why" "$err" "cannot write /dev/full: No space left on device"
run stat -e task-clock -- true
expect_rc "stat to a working stderr still exits with the command's status" 0

# Bytes from the user never reach the terminal raw.
run info $'task\x1b[2Jclock\xc2\x9b'
check "an escape byte in an event string is shown, not sent" test "${err//$'\x1b'/}" = "$err"
contains "escape and C1 CSI bytes are shown as \\xNN" "$err" 'task\x1b[2Jclock\xc2\x9b'
run info $'task-clock/name=\x1b/:q'
check "the caret moves past an escaped byte" python3 -c '
import sys
lines = sys.argv[1].split("\n")
i = [k for k, l in enumerate(lines) if l.strip().startswith("task-clock/")][0]
assert lines[i].endswith("\\x1b/:q") and lines[i + 1].index("^") == len(lines[i]) - 1, lines' "$err"
run list $'zz\x1b[31mzz'
check "a glob that matches nothing is echoed escaped" test "${err//$'\x1b'/}" = "$err"
contains "with the escape byte shown" "$err" "no event matches 'zz\x1b[31mzz'"
run record -q -o "$numtmp/p.data" -F $'1\x1b]0;x\x07' -- true
check "a bad number with escape bytes is shown escaped" test "${err//$'\x1b'/}" = "$err"
contains "the number's bytes are shown, not sent" "$err" "'1?]0;x?'"

# Smaller messages.  A directory given as the command is named as one.
run stat -e task-clock -- /tmp
expect_rc "a directory as the command exits 1" 1
contains "a directory as the command is called one" "$err" "cannot run '/tmp': it is a directory"
check "and gets no chmod +x hint" test "${err/chmod/}" = "$err"
mkdir -p "$numtmp/path/dirprog"
PATH="$numtmp/path:$PATH" run stat -e task-clock -- dirprog
contains "a directory found on PATH is called one too" "$err" "cannot run 'dirprog': it is a directory"
run record -q -o "$numtmp/p.data" -e cpu-clock -- /tmp
contains "record says the same" "$err" "cannot run '/tmp': it is a directory"
rm -rf "$numtmp"/*
# --control fd:N must name open descriptors (perf ignores one that is not).
bad_number 2 "--control fd:999: file descriptor 999 is not open" stat --control fd:999 -e task-clock -- true
bad_number 2 "--control fd:0,999: file descriptor 999 is not open" stat --control fd:0,999 -e task-clock -- true
bad_number 2 "--control fd:N: '3x' is not a number" stat --control fd:3x -e task-clock -- true
run stat --control fd:0 -x, -e task-clock -- true </dev/null
expect_rc "--control fd:0 on an open descriptor still counts" 0

# A sysfs root with no PMUs, or PMUs with a bad type file, is said so.
PERFKIT_SYSFS_ROOT=$numtmp/nothing run list --source=pmu
expect_rc "list with a missing sysfs root still lists (exit 0)" 0
contains "and warns that the PMU directory does not exist" "$err" \
	"warning: scan PMUs in $numtmp/nothing/bus/event_source/devices: the directory does not exist"
contains "naming PERFKIT_SYSFS_ROOT" "$err" "PERFKIT_SYSFS_ROOT is '$numtmp/nothing'"
mkdir -p "$numtmp/empty/bus/event_source/devices"
PERFKIT_SYSFS_ROOT=$numtmp/empty run list
contains "an empty PMU directory: 'no PMUs in' it" "$err" "warning: no PMUs in $numtmp/empty/bus/event_source/devices"
cp -r "$PERFKIT_FIXTURES/sysfs/intel" "$numtmp/bad"
devs=$numtmp/bad/bus/event_source/devices
echo abc >"$devs/msr/type"
: >"$devs/power/type"
rm "$devs/intel_cqm/type"
PERFKIT_SYSFS_ROOT=$numtmp/bad run list --source=pmu
check "list with good PMUs gives no PMU warning" test -z "$err"
contains "a non-numeric type: listed as unusable with the reason" "$out" \
	"(unusable: its type file holds 'abc', not a number from 0 to 4294967295)"
contains "an empty type: listed as unusable" "$out" "(unusable: its type file is empty)"
contains "a missing type: listed as unusable" "$out" "(unusable: its type file cannot be read: No such file or directory)"
check "the unusable PMUs are listed by name" grep -Eq '^  msr +\[Kernel PMU\]' <<<"$out"
PERFKIT_SYSFS_ROOT=$numtmp/bad run list --json --source=pmu
json_check "list --json gives an unusable PMU with its reason" '
m = [e for e in d if e["name"] == "msr"]
assert len(m) == 1 and m[0]["opens"] is False and "holds" in m[0]["reason"], m'
PERFKIT_SYSFS_ROOT=$numtmp/bad run info msr/tsc/
expect_rc "info on an unusable PMU exits 1" 1
contains "info says why the PMU cannot be used" "$err" "PMU 'msr' cannot be used: its type file holds 'abc'"
chmod 000 "$devs/uncore_imc_0/type"
if [ "$(id -u)" -ne 0 ]; then
	PERFKIT_SYSFS_ROOT=$numtmp/bad run list --source=pmu
	contains "an unreadable type: listed as unusable" "$out" "uncore_imc_0"
else
	skip "an unreadable type file" "root reads a mode-0 file"
fi
rm -rf "$numtmp"/*

# JSON stays valid for any bytes and round-trips the event string.
for spec in $'task\x01clock' $'tab\there' 'qu"ote\back' 'tâsk-clöck' $'\x7f'; do
	run info --json "$spec"
	want=$spec json_check "JSON round-trips $(printf '%q' "$spec")" '
import os
assert d[0]["event"] == os.environ["want"], d[0]["event"]
assert d[0]["opens"] is False and d[0]["error"]["why"]'
done

# Bytes that are not UTF-8 cannot be in JSON: each becomes U+FFFD.
for spec in $'task\xffclock' $'t\xc3' $'\xed\xa0\x80x' $'\xc0\xafx'; do
	run info --json "$spec"
	want=$spec json_check "non-UTF-8 $(printf '%q' "$spec") becomes U+FFFD" '
import os
want = os.environb[b"want"].decode("utf-8", "replace")
got = d[0]["event"]
assert "\ufffd" in got and got.replace("\ufffd", "") == want.replace("\ufffd", ""), (got, want)'
done

done_testing
