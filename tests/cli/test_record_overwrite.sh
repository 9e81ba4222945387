#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_record_overwrite.sh - what a user of perfkit record --overwrite (the
# flight recorder) finds in the file, read by perf 6.1: the newest samples
# before the stop and none from long before, with the side band sharing the
# overwrite rings; for -a, the processes named by the synthesis at the end
# (nothing is synthesized at the start); perf report reads it as perfkit
# report does; --switch-output's files, --tail-synthesize.  Also
# --no-bpf-event, -n, --running-time's times in every sample's read value,
# and S on one event of a group (which perf 6.1 cannot open) recording.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/report-perf.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! command -v perf >/dev/null || [ -z "${PERFKIT_WORKLOAD:-}" ] || ! command -v taskset >/dev/null; then
	skip "record --overwrite read by perf" "needs perf, taskset and PERFKIT_WORKLOAD"
	done_testing
	exit 0
fi

# Two phases on CPU 0, one page fault a sample: 20000 faults, then 2000 in
# a second process.  A 1-page ring holds about a hundred samples, so the
# first phase's are all overwritten by the second's; the counts do not
# depend on timing.
run record -q --overwrite -m 1 -e page-faults -c 1 -o "$tmp/ow.data" -- taskset -c 0 sh -c \
	"$PERFKIT_WORKLOAD pages 20000 & echo \$! > $tmp/first; wait; $PERFKIT_WORKLOAD pages 2000 & echo \$! > $tmp/second; wait"
expect_rc "record --overwrite of a command exits 0" 0
first=$(cat "$tmp/first") second=$(cat "$tmp/second")
pids=$(perf script -i "$tmp/ow.data" -F pid 2>"$tmp/perr" | sort | uniq -c)
n_first=$(perf script -i "$tmp/ow.data" -F pid 2>/dev/null | awk -v p="$first" '$1 == p' | wc -l)
n_second=$(perf script -i "$tmp/ow.data" -F pid 2>/dev/null | awk -v p="$second" '$1 == p' | wc -l)
check "the newest samples are kept: the second process's ($n_second)" test "$n_second" -gt 20
check "and a ring's worth, not all 2000 ($n_second)" test "$n_second" -lt 1000
check "none of the first process's 20000, overwritten ($n_first)" test "$n_first" -eq 0
[ "$n_first" -eq 0 ] && [ "$n_second" -gt 20 ] || diag "first $first, second $second:" "$pids"
check "perf script reads the file without a warning" test ! -s "$tmp/perr"
same_as_perf "$tmp/ow.data"
same_as_perf "$tmp/ow.data" --sort pid

# -a: a process running before the recording is named and its binary
# found, from the synthesis at the end alone (the rings are large enough
# to keep the whole recording).
"$PERFKIT_WORKLOAD" hot 100000 &
hot=$!
run record -q -a --overwrite -m 64 -o "$tmp/a.data" -- "$PERFKIT_WORKLOAD" pages 20000
expect_rc "record -a --overwrite exits 0" 0
mine=$(perf script -i "$tmp/a.data" -F comm,pid,ip,dso 2>/dev/null | awk -v p="$hot" '$2 == p')
kill "$hot"
wait "$hot" 2>/dev/null
check "the running process was sampled" test -n "$mine"
unnamed=$(printf '%s\n' "$mine" | grep -v '^ *perfkit-workloa ' | head -3)
check "every one of its samples has its name, synthesized at the end" test -n "$mine" -a -z "$unnamed"
[ -z "$unnamed" ] || diag "$unnamed"
bin=$(printf '%s\n' "$mine" | grep -c '(.*/perfkit-workload)')
check "and its binary, for its user samples ($bin)" test "$bin" -gt 0
tail=$(perf script -i "$tmp/a.data" --show-task-events 2>/dev/null | grep -c "PERF_RECORD_COMM: perfkit-workloa:$hot/")
check "its COMM is written once, at the end ($tail)" test "$tail" -eq 1
# Its rows in perf report are perfkit report's, and so is the whole
# report: where a process's FORK was overwritten, its samples before its
# first COMM are renamed after the fact in both (perf's comm override).
rows() { "$@" report -i "$tmp/a.data" --stdio --sort pid,dso 2>/dev/null | grep -E "^ +[0-9.]+% +$hot:"; }
theirs=$(rows perf) ours=$(rows "$PERFKIT")
check "perf report's rows of that process are perfkit's" test -n "$theirs" -a "$theirs" = "$ours"
[ "$theirs" = "$ours" ] || diag "perf:" "$theirs" "perfkit:" "$ours"
same_as_perf "$tmp/a.data" --sort pid,dso
same_as_perf "$tmp/a.data" --sort comm,dso

# -a --overwrite --switch-output: SIGUSR2 (sent by the command itself, so
# it comes after the first phase) ends a file with what the rings hold
# then (large enough rings: the first phase is still there); the next file
# holds only what came after it.  (The second phase may start before the
# snapshot is taken: perfkit looks for the signal after each poll.)
rm -f "$tmp"/sw.data*
run record -q -a --overwrite --switch-output -m 64 -o "$tmp/sw.data" -- sh -c \
	"$PERFKIT_WORKLOAD hot 200 & echo \$! > $tmp/first; wait; kill -USR2 \$PPID; $PERFKIT_WORKLOAD hot 200 & echo \$! > $tmp/second; wait"
expect_rc "record -a --overwrite --switch-output exits 0" 0
set -- "$tmp"/sw.data.*
check "SIGUSR2 and the end wrote two files ($#)" test "$#" -eq 2
first=$(cat "$tmp/first") second=$(cat "$tmp/second")
count() { perf script -i "$1" -F pid 2>/dev/null | awk -v p="$2" '$1 == p' | wc -l; }
if [ "$#" -eq 2 ]; then
	a1=$(count "$1" "$first") a2=$(count "$2" "$first") b2=$(count "$2" "$second")
	check "the first file has the first phase ($a1 samples)" test "$a1" -gt 0
	check "the second file has the second phase ($b2), nothing of the first read twice ($a2)" \
		test "$b2" -gt 0 -a "$a2" -eq 0
fi

# --tail-synthesize: the kernel's map is written after the samples (and
# without it, before them), in file order as perf report -D reads it.
where() {	# where FILE: the file offsets of the kernel map and the first sample
	perf report -D -i "$1" 2>/dev/null | grep -oE '0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_(SAMPLE|MMAP -1/0)' |
		awk '/SAMPLE/ && !s { s = $1 } /MMAP/ && !m { m = $1 } END { printf "%d %d", m, s }'
}
for t in "" --tail-synthesize; do
	run record -q -a $t -o "$tmp/ts.data" -- "$PERFKIT_WORKLOAD" hot 50
	expect_rc "record -a $t exits 0" 0
	at=$(where "$tmp/ts.data")
	if [ -n "$t" ]; then
		check "$t: the kernel map comes after the first sample (offsets $at)" test "${at% *}" -gt "${at#* }" -a "${at#* }" -gt 0
	else
		check "without it: the kernel map comes first (offsets $at)" test "${at% *}" -lt "${at#* }" -a "${at% *}" -gt 0
	fi
done

# --no-bpf-event: where this machine has BPF programs loaded (their
# records are synthesized by default), the file has none of them.
bpf() { perf report -D -i "$1" 2>/dev/null | grep -c 'PERF_RECORD_BPF_EVENT\|PERF_RECORD_KSYMBOL'; }
run record -q -o "$tmp/bpf.data" -- true
with=$(bpf "$tmp/bpf.data")
run record -q --no-bpf-event -o "$tmp/nobpf.data" -- true
expect_rc "record --no-bpf-event exits 0" 0
if [ "$with" -gt 0 ]; then
	check "--no-bpf-event: no BPF records ($(bpf "$tmp/nobpf.data"), $with without it)" test "$(bpf "$tmp/nobpf.data")" -eq 0
else
	skip "--no-bpf-event: no BPF records" "no BPF program is loaded here"
fi

# -n: no samples, the command's side band all the same.
run record -n -o "$tmp/n.data" -- "$PERFKIT_WORKLOAD" hot 50
expect_rc "record -n exits 0" 0
contains "record -n says it captured no samples" "$err" "(0 samples)"
nsamp=$(perf script -i "$tmp/n.data" 2>/dev/null | wc -l)
ncomm=$(perf script -i "$tmp/n.data" --show-task-events 2>/dev/null | grep -c 'PERF_RECORD_COMM exec: perfkit-workloa')
check "-n: perf script finds no sample ($nsamp) but the command's exec ($ncomm)" test "$nsamp" -eq 0 -a "$ncomm" -eq 1

# --running-time: each sample's read value carries the enabled and running
# times, running never more than enabled.
run record -q --running-time -e '{cpu-clock,task-clock}:S' -o "$tmp/rt.data" -- "$PERFKIT_WORKLOAD" hot 100
expect_rc "record --running-time exits 0" 0
perf report -D -i "$tmp/rt.data" 2>/dev/null >"$tmp/rt.dump"
samples=$(grep -c 'PERF_RECORD_SAMPLE' "$tmp/rt.dump")
times=$(python3 -c '
import sys
n = bad = e = 0
for line in open(sys.argv[1]):
    w = line.split()
    if line.startswith("...... time enabled"):
        e = int(w[3], 16)
    elif line.startswith("...... time running"):
        n += 1
        bad += int(w[3], 16) > e or e == 0
print(n, bad)' "$tmp/rt.dump")
check "every sample's read has both times (samples $samples, times ${times% *})" \
	test "$samples" -gt 0 -a "${times% *}" -eq "$samples"
check "running never exceeds enabled (${times#* } bad)" test "${times#* }" -eq 0

# S on one event of a group: perf 6.1 stops with EINVAL (inherit cleared
# on that event alone); perfkit opens the group without inherit and the
# S event's samples read the group.
for e in '{cpu-clock:S,task-clock}' '{cpu-clock,task-clock:S}'; do
	s_ev=$(printf '%s' "$e" | sed 's/.*[{,]\([a-z-]*:S\).*/\1/')
	run record -q -e "$e" -o "$tmp/g.data" -- "$PERFKIT_WORKLOAD" hot 100
	expect_rc "record -e $e exits 0" 0
	inh=$(perf evlist -v -i "$tmp/g.data" 2>/dev/null | grep -c 'inherit: 1')
	check "$e: no event of the group inherits ($inh)" test "$inh" -eq 0
	n=$(perf script -i "$tmp/g.data" -F event 2>/dev/null | grep -c "$s_ev:")
	check "$e: perf script shows the $s_ev samples ($n)" test "$n" -gt 0
	grp=$(perf report -D -i "$tmp/g.data" 2>/dev/null | grep -c 'group nr 2')
	check "$e: they read both events ($grp)" test "$grp" -gt 0
done
done_testing
