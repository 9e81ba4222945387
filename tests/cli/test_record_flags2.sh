#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_record_flags2.sh - what a user sees of the rest of perf record's
# flags: -u (a user's processes sampled, no one else's), -r (perfkit runs
# at SCHED_FIFO while the command runs), --transaction (the samples carry
# the field: perf reads them at perf's size), --all-cgroups (the existing
# cgroups as perf synthesizes them; samples named by cgroup as in perf's
# file), --buildid-all (the build-id list perf shows for perf's own file)
# and --buildid-mmap (build-ids in the map records, synthesized ones too), --synth (the records of a -p process perf writes
# for each value), and the flags perf refuses here (-S, --aux-sample,
# --kcore without /proc/kcore, --vmlinux of no file, a bad user or
# --synth).  The attrs are compared with perf's in test_record_attrs.sh.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
busy=
sleeper=
cleanup() {
	[ -n "$busy" ] && kill "$busy" 2>/dev/null
	[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
cd "$tmp" || exit 1
have_perf=$(command -v perf)

# Refusals, each with perf's message, and no file.
run record -S -o s.data -- true
check "-S: refused (status $rc)" test "$rc" -ne 0 -a ! -e s.data
contains "-S: perf's message" "$err" "No AUX area tracing to snapshot"
run record --aux-sample -o s.data -- true
check "--aux-sample: refused (status $rc)" test "$rc" -ne 0 -a ! -e s.data
contains "--aux-sample: perf's message" "$err" "No AUX area event to sample"
if [ ! -r /proc/kcore ]; then
	run record --kcore -o s.data -- true
	check "--kcore without /proc/kcore: refused (status $rc)" test "$rc" -ne 0 -a ! -e s.data
	contains "--kcore: perf's message" "$err" "kcore is not readable"
fi
run record --vmlinux "$tmp/no-such-vmlinux" -o s.data -- true
expect_rc "--vmlinux of no file: a usage error" 2
contains "--vmlinux: perf's message" "$err" "Invalid file: $tmp/no-such-vmlinux"
run record -u no-such-user-here -o s.data -- true
expect_rc "-u of no user: a usage error" 2
contains "-u: perf's message" "$err" "Invalid User: no-such-user-here"
run record --synth bogus -o s.data -- true
expect_rc "--synth bogus: a usage error" 2
run record -r 100 -o s.data -- true
expect_rc "-r 100: out of SCHED_FIFO's range" 2
check "no file from any refusal" test ! -e s.data

# -r: the command, let run after the priority is set, sees perfkit (its
# parent) at SCHED_FIFO.
if command -v chrt >/dev/null; then
	run record -q -r 3 -e cpu-clock -o r.data -- sh -c 'chrt -p $PPID'
	expect_rc "-r 3 records" 0
	contains "-r 3: perfkit runs at SCHED_FIFO" "$out" "SCHED_FIFO"
	contains "-r 3: at priority 3" "$out" "priority: 3"
	run record -q -e cpu-clock -o r.data -- sh -c 'chrt -p $PPID'
	check "without -r: perfkit is not at SCHED_FIFO" test "${out#*SCHED_FIFO}" = "$out"
fi

# -u: a busy loop of nobody's is sampled; the command (root's) is not.
if id nobody >/dev/null 2>&1 && command -v setpriv >/dev/null; then
	setpriv --reuid=nobody --regid=nogroup --clear-groups sh -c 'while :; do :; done' &
	# wait until the background process is nobody's (setpriv switches
	# after the fork): a bounded poll of its owner, not a fixed sleep
	for _ in $(seq 200); do
		[ "$(ps -o user= -p "$!" 2>/dev/null | tr -d ' ')" = nobody ] && break
		sleep 0.05
	done
	busy=$!
	run record -q -u nobody -e cpu-clock -o u.data -- sleep 1
	expect_rc "-u nobody records" 0
	if [ -n "$have_perf" ]; then
		pids=$(perf script -i u.data -F pid 2>/dev/null | sort -u | tr -d ' ')
		check "-u nobody: the busy loop is sampled" grep -qx "$busy" <<<"$pids"
		others=$(for p in $pids; do [ "$(stat -c %U "/proc/$p" 2>/dev/null || echo nobody)" = nobody ] ||
			echo "$p"; done)
		check "-u nobody: no sample of another user's process" test -z "$others"
		[ -z "$others" ] || diag "samples of: $others"
	fi
	kill "$busy"
	wait "$busy" 2>/dev/null
	busy=
fi

if [ -z "$have_perf" ]; then
	skip "the files against perf's" "perf is not installed"
	done_testing
	exit 0
fi

# --transaction: every sample carries the field, so it is perf's size.
sizes() { perf report -D -i "$1" 2>/dev/null | sed -n 's/.*\[\(0x[0-9a-f]*\)\]: PERF_RECORD_SAMPLE.*/\1/p' | sort -u; }
run record -q --transaction -e cpu-clock -o t.data -- true
perf record -q --transaction -e cpu-clock -o pt.data -- true >/dev/null 2>&1
mine=$(sizes t.data)
theirs=$(sizes pt.data)
check "--transaction: the samples are perf's size ($theirs)" test -n "$mine" -a "$mine" = "$theirs"
check "--transaction: perf script reads the file" sh -c "perf script -i t.data >/dev/null"

# --all-cgroups: the cgroups perf synthesizes, and samples by cgroup.
cgroups() { perf report -D -i "$1" 2>/dev/null | grep -o 'PERF_RECORD_CGROUP.*' | sort; }
run record -q --all-cgroups -e cpu-clock -o c.data -- true
perf record -q --all-cgroups -e cpu-clock -o pc.data -- true >/dev/null 2>&1
mine=$(cgroups c.data)
theirs=$(cgroups pc.data)
check "--all-cgroups: the cgroup records perf writes" test -n "$theirs" -a "$mine" = "$theirs"
[ "$mine" = "$theirs" ] || diag "perfkit:" "$mine" "perf:" "$theirs"
by_cgroup() { perf report -i "$1" --stdio --sort cgroup 2>/dev/null | grep -v '^#' | awk 'NF { print $2 }' | sort -u; }
check "--all-cgroups: perf report --sort cgroup names the samples' cgroup as in perf's file" \
	test -n "$(by_cgroup c.data)" -a "$(by_cgroup c.data)" = "$(by_cgroup pc.data)"
check "--all-cgroups: no sample of an unknown cgroup" test -z "$(by_cgroup c.data | grep -x unknown)"
run record -q --all-cgroups --synth task -e cpu-clock -o c.data -- true
check "--all-cgroups --synth task: no cgroup records, as perf" test -z "$(cgroups c.data)"

# --buildid-all: every binary mapped, as perf lists them; --buildid-mmap:
# the build-ids are in the map records (no table, as perf).
run record -q --buildid-all -e cpu-clock -o b.data -- true
perf record -q --buildid-all -e cpu-clock -o pb.data -- true >/dev/null 2>&1
mine=$(perf buildid-list -i b.data 2>/dev/null | sort)
theirs=$(perf buildid-list -i pb.data 2>/dev/null | sort)
check "--buildid-all: perf's list of binaries" test -n "$theirs" -a "$mine" = "$theirs"
[ "$mine" = "$theirs" ] || diag "perfkit:" "$mine" "perf:" "$theirs"
contains "--buildid-all: the command's own binary too" "$mine" "$(readlink -f "$(type -P true)")"
run record -q --buildid-mmap -e cpu-clock -o m.data -- true
maps=$(perf report -D -i m.data 2>/dev/null | grep 'PERF_RECORD_MMAP2 [0-9].*r-xp /')
check "--buildid-mmap: the command's map records carry build-ids" \
	test -n "$maps" -a -z "$(grep -v ' <[0-9a-f]*>\]' <<<"$maps")"
[ -n "$maps" ] || diag "no map record of the command"
kmap() { perf report -D -i "$1" 2>/dev/null | grep -o 'PERF_RECORD_MMAP2\? -1/0: .*'; }
perf record -q --buildid-mmap -e cpu-clock -o pm.data -- true >/dev/null 2>&1
mine=$(kmap m.data)
theirs=$(kmap pm.data)
check "--buildid-mmap: the kernel's map as perf writes it (an MMAP2 with its build-id)" \
	test -n "$theirs" -a "$mine" = "$theirs"
[ "$mine" = "$theirs" ] || diag "perfkit: $mine" "perf: $theirs"
mkdir cache
PERFKIT_BUILDID_DIR=$tmp/cache run record -q --buildid-mmap -e cpu-clock -o m.data -- true
check "--buildid-mmap: nothing put into the build-id cache (as -N)" test -z "$(ls -A cache)"

# --synth: the records of a -p process, for each value, as perf writes them.
sleep 600 &
sleeper=$!
told() { perf report -D -i "$1" 2>/dev/null | grep -E 'PERF_RECORD_(COMM|MMAP2?|FORK)[ :(]' |
	grep -Ec "[: ]$sleeper/"; }
for s in no task mmap all task,cgroup; do
	run record -q --synth "$s" -e cpu-clock -p "$sleeper" -o y.data -- sleep 0.1
	perf record -q --synth "$s" -e cpu-clock -p "$sleeper" -o py.data -- sleep 0.1 >/dev/null 2>&1
	mine=$(told y.data)
	theirs=$(told py.data)
	check "--synth $s: the process's records perf writes ($theirs)" test "$mine" = "$theirs"
done

# --buildid-mmap on -p: the process's maps synthesized with their
# build-ids in place of device and inode, as perf writes them.
maps2() { perf report -D -i "$1" 2>/dev/null | grep "PERF_RECORD_MMAP2 $sleeper/" | sed 's/^[0-9]* 0x[0-9a-f]* //'; }
run record -q --buildid-mmap -e cpu-clock -p "$sleeper" -o y.data -- sleep 0.1
perf record -q --buildid-mmap -e cpu-clock -p "$sleeper" -o py.data -- sleep 0.1 >/dev/null 2>&1
mine=$(maps2 y.data)
theirs=$(maps2 py.data)
check "--buildid-mmap -p: the maps perf synthesizes, build-ids and all" \
	test -n "$theirs" -a "$mine" = "$theirs"
[ "$mine" = "$theirs" ] || diag "perfkit:" "$mine" "perf:" "$theirs"
check "--buildid-mmap -p: sleep's own map has its build-id" grep -q ' <[0-9a-f]\{40\}>\]: r-xp .*/sleep$' <<<"$mine"
done_testing
