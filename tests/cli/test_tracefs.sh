#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_tracefs.sh - tracepoints when tracefs is not mounted.  In a private
# mount namespace with /sys/kernel/tracing unmounted, perfkit as root mounts
# tracefs itself and resolves the tracepoint; with no way to mount it, the
# message says how.  With debugfs mounted (in a namespace of its own),
# libpfm4 sees its tracepoints and matches names without case: a
# tracepoint spelled in another case is still refused, as perf 6.1
# refuses it, with the exact name.  Nothing leaks out of the namespace.
. "$(dirname "$0")/tap.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null; then
	skip "tracefs auto-mount" "needs root and unshare(1) to unmount tracefs privately"
	done_testing
fi
# A namespace where neither tracefs nor debugfs' tracing is mounted.
in_ns() {
	unshare -m --propagation private sh -c '
		umount -l /sys/kernel/tracing 2>/dev/null
		umount -l /sys/kernel/debug 2>/dev/null
		if [ -d /sys/kernel/tracing/events ]; then echo STILL-MOUNTED; exit 3; fi
		"$@"' sh "$@"
}

out=$(in_ns "$PERFKIT" info --json sched:sched_switch 2>&1)
rc=$?
if [ "$rc" -eq 3 ] && [ "$out" = STILL-MOUNTED ]; then
	skip "tracefs auto-mount" "tracefs could not be unmounted in a private namespace here"
	done_testing
fi
id=$(cat /sys/kernel/tracing/events/sched/sched_switch/id 2>/dev/null ||
	{ mount -t tracefs nodev /sys/kernel/tracing && cat /sys/kernel/tracing/events/sched/sched_switch/id; })
check "root with tracefs unmounted: sched:sched_switch resolves (exit $rc)" test "$rc" -eq 0
json_check "the attr carries the tracepoint's id ($id) after perfkit mounted tracefs" "
a = d[0]['attrs'][0]
assert a['type'] == 2, a
assert a['config'] == $id, (a['config'], $id)
"
# A tracefs directory that does not exist: the error says where it looked
# and how to mount it (perfkit does not mount over a path it was given).
out=$(in_ns sh -c 'mount -t tmpfs none /sys/kernel && "$0" info sched:sched_switch' "$PERFKIT" 2>&1)
rc=$?
check "no tracefs and nowhere to mount it: exit status 1 (got $rc)" test "$rc" -eq 1
check "the message names tracefs and the mount command" \
	sh -c 'case "$1" in *tracefs*mount*|*mount*tracefs*) exit 0;; *) exit 1;; esac' sh "$out"
diag "$out"

# debugfs mounted: libpfm4's perf:: PMU then lists debugfs's tracepoints.
for e in SCHED:sched_switch Sched:sched_switch; do
	out=$(unshare -m --propagation private sh -c '
		mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug || exit 3
		"$0" stat -e "$1" -- true' "$PERFKIT" "$e" 2>&1)
	rc=$?
	if [ "$rc" -eq 3 ]; then
		skip "$e with debugfs mounted" "debugfs could not be mounted in a namespace"
		continue
	fi
	case $out in
	*"libpfm4 knows no event"*)	# a libpfm4 that lists no debugfs tracepoints
		check "$e is refused (exit $rc)" test "$rc" -eq 1
		skip "$e: libpfm4's match of it" "this libpfm4 does not read debugfs's tracepoints"
		continue ;;
	esac
	check "debugfs mounted: $e is refused (exit $rc)" test "$rc" -eq 1
	check "the message says names are matched exactly and names the tracepoint" \
		sh -c 'case "$1" in *"matched exactly"*"sched:sched_switch"*) exit 0;; *) exit 1;; esac' sh "$out"
	diag "$out"
done
done_testing
