#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_stat_thread.sh - perfkit script on `perf stat record
# --per-thread -p PID` files (the per-thread form perf 6.1 writes whole):
# a process of three threads, every thread's counts at each STAT_ROUND,
# once at the end and every 100 ms (-I, where perf prints each round's
# growth scaled by enabled/running), and -t TID; byte for byte against
# perf script on the same file.  perf 6.1 refuses `--per-thread -- CMD`
# and writes no usable file for `-a --per-thread` (docs/CLI.md).
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
target=
trap '[ -n "$target" ] && kill "$target" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# Three threads that spin until stdin closes; "ready" once both are running.
mkfifo ready hold
python3 -c '
import sys, threading
stop = threading.Event()
def spin():
    while not stop.is_set():
        pass
ts = [threading.Thread(target=spin) for _ in range(2)]
for t in ts:
    t.start()
with open(sys.argv[1], "w") as f:
    f.write("ready\n")
sys.stdin.read()
stop.set()
' ready <hold &
target=$!
exec 3>hold
read -r line <ready
check "the three-thread target is running" test "$line" = ready
tid=$(ls /proc/"$target"/task | grep -v "^$target\$" | head -1)

perf stat record --per-thread -e task-clock,page-faults -p "$target" -o end.data -- sleep 0.3 >/dev/null 2>&1
perf stat record --per-thread -I 100 -e task-clock,page-faults -p "$target" -o rounds.data -- sleep 0.35 \
	>/dev/null 2>&1
perf stat record -e task-clock -t "$tid" -o tid.data -- sleep 0.2 >/dev/null 2>&1
exec 3>&-
wait "$target"
target=

same_as_perf() {
	local file=$1 theirs ours rt ro
	theirs=$(set -o pipefail; perf script -i "$file" 2>/dev/null); rt=$?
	ours=$(set -o pipefail; "$PERFKIT" script -i "$file" 2>"$tmp/err"); ro=$?
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ] && [ "$rt" = "$ro" ]; then
		ok "$file: script equals perf's ($(printf '%s\n' "$ours" | wc -l) lines)"
	else
		not_ok "$file: script equals perf's (exit $ro, perf $rt)"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}
for f in end rounds tid; do
	same_as_perf $f.data
done

# What a user sees whatever the counts: a task-clock line for each thread.
run script -i end.data
check "end.data: a task-clock line for each of the three threads" \
	test "$(printf '%s\n' "$out" | grep -c ' task-clock$')" -eq 3
contains "end.data: the main thread by its tid" "$out" " $target "
contains "end.data: a spinning thread by its tid" "$out" " $tid "
done_testing
