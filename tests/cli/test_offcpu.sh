#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_offcpu.sh - off-CPU profiles without BPF: perfkit record --off-cpu
# -g on a program that sleeps 5 x 100 ms in waiter() and spins 200 ms of
# CPU time in spinner(); report --off-cpu=merge gives waiter's stack at
# least the 500 ms it slept, under an [off-cpu: S] frame, and spinner its
# on-CPU time; split gives an offcpu-time section; every export carries
# the off-CPU frames; so with -a; perf 6.1 reads the file; and the usage
# errors.
# The bounds are generous: a loaded machine only makes sleeps longer.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

if ! command -v cc >/dev/null; then
	skip "off-CPU profiles" "no C compiler for the workload"
	done_testing
	exit 0
fi
# Frame pointers everywhere; nap() sits between waiter() and libc, so the
# frame-pointer walk from clock_nanosleep (which keeps no frame) reaches
# waiter through nap's frame.
cat >work.c <<'C'
#include <time.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, 0);
}
__attribute__((noinline)) void waiter(void)
{
	for (int i = 0; i < 5; i++)
		nap(100);
}
__attribute__((noinline)) void spinner(long ms)
{
	struct timespec a, b;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 10000; i++)
			sink += i;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000 < ms);
}
int main(void)
{
	waiter();
	spinner(200);
	return 0;
}
C
cc -O0 -fno-omit-frame-pointer -o work work.c

run record --off-cpu -g -q -o o.data -- ./work
check "record --off-cpu -g succeeds" test "$rc" -eq 0

# sum_folded FILE AWK-CONDITION: the total weight of the folded lines that match.
sum_folded() {
	awk -v cond="$2" '{ w = $NF; $NF = ""; if ($0 ~ cond) s += w } END { printf "%d\n", s }' "$1"
}
# between N LO HI DESC
between() {
	if [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; then ok "$4 ($1)"; else not_ok "$4 ($1 not in $2..$3)"; fi
}

"$PERFKIT" report -i o.data --off-cpu=merge --format folded >merged.folded 2>merged.err
check "merged folded export succeeds" test -s merged.folded
waited=$(sum_folded merged.folded ';waiter;.*\[off-cpu: S\] $')
between "$waited" 450000000 20000000000 "waiter's stack waited at least 5 x 100 ms asleep (ns)"
spun=$(sum_folded merged.folded ';spinner( |;)')
spun_off=$(sum_folded merged.folded ';spinner;.*\[off-cpu')
between "$((spun - spun_off))" 100000000 2000000000 "spinner ran about 200 ms on CPU (ns)"

run report -i o.data --off-cpu=merge --sort sym -g none -q
check "merged table succeeds" test "$rc" -eq 0
run report -i o.data --off-cpu=merge --sort sym -g none
# (pppH where the kernel refused cycles with ENOENT, as here: perf then
# keeps exclude_guest; ppp where it said EINVAL and perf probed it away)
if printf '%s\n' "$out" | grep -Eq "of event 'cpu-clock:pppH?\+offcpu-time'" &&
   printf '%s\n' "$out" | grep -q '\[off-cpu: S\]' && printf '%s\n' "$out" | grep -q ' waiter$' &&
   ! printf '%s\n' "$out" | grep -q "sched:sched_switch"; then
	ok "merged table: one wall-clock section with the off-CPU rows and waiter"
else
	not_ok "merged table: one wall-clock section with the off-CPU rows and waiter"
	diag "$out"
fi

run report -i o.data --off-cpu=split --no-children --sort sym -g none
if printf '%s\n' "$out" | grep -q "of event 'offcpu-time'" && printf '%s\n' "$out" | grep -Eq "of event 'cpu-clock:pppH?'"; then
	ok "split table: cpu-clock and offcpu-time sections"
else
	not_ok "split table: cpu-clock and offcpu-time sections"
	diag "$out"
fi
"$PERFKIT" report -i o.data --off-cpu=split --format folded >split.folded 2>/dev/null
check "split and merged exports weigh the same" \
	test "$(sum_folded split.folded .)" -eq "$(sum_folded merged.folded .)"

# Without --off-cpu the switches are samples of their own, as perf counts them.
"$PERFKIT" report -i o.data --format folded >plain.folded 2>/dev/null
check "without --off-cpu no off-CPU frames" test "$(grep -c 'off-cpu' plain.folded)" -eq 0

for f in pprof speedscope flamegraph; do
	"$PERFKIT" report -i o.data --off-cpu=merge --format "$f" -o out.$f 2>/dev/null
	if [ "$f" = pprof ]; then txt=$(gzip -dc out.$f | tr -c '[:print:]' '\n'); else txt=$(cat out.$f); fi
	if printf '%s\n' "$txt" | grep -q '\[off-cpu: S\]'; then
		ok "$f export carries the off-CPU frames"
	else
		not_ok "$f export carries the off-CPU frames"
	fi
done

if ! command -v perf >/dev/null; then
	skip "perf reads the file" "perf is not installed"
else
	perf report -i o.data --stdio >perf.out 2>perf.err
	if [ $? -eq 0 ] && [ ! -s perf.err ] && grep -q "of event 'sched:sched_switch'" perf.out; then
		ok "perf report reads it, sched_switch samples and all"
	else
		not_ok "perf report reads it, sched_switch samples and all"
		diag "$(cat perf.err)"
	fi
	perf script -i o.data --show-switch-events >script.out 2>script.err
	if [ $? -eq 0 ] && [ ! -s script.err ] && grep -q 'PERF_RECORD_SWITCH' script.out &&
	   grep -A12 'sched:sched_switch' script.out | grep -q ' waiter+'; then
		ok "perf script reads it: switch records and waiter under sched_switch"
	else
		not_ok "perf script reads it: switch records and waiter under sched_switch"
		diag "$(cat script.err)"
	fi
fi

# Every CPU (SWITCH_CPU_WIDE records, every thread's switches): the
# workload's own waits are the same.
run record --off-cpu -g -a -q -o a.data -- ./work
check "record --off-cpu -g -a succeeds" test "$rc" -eq 0
"$PERFKIT" report -i a.data --off-cpu=merge --comms work --format folded >a.folded 2>/dev/null
between "$(sum_folded a.folded '^work;.*;waiter;.*\[off-cpu: S\] $')" 450000000 20000000000 \
	"-a: waiter's stack waited at least 5 x 100 ms asleep (ns)"

run record -q -o plain.data -e cpu-clock -- ./work
run report -i plain.data --off-cpu=merge
check "--off-cpu on a file without sched_switch: exit 1" test "$rc" -eq 1
check "... saying how to record one" grep -q -- "record --off-cpu" <<<"$err"
run report -i o.data --off-cpu=both
check "--off-cpu=both is a usage error" test "$rc" -eq 2
run record --off-cpu -F 99 -o f.data -- true
check "record --off-cpu -F: usage error" test "$rc" -eq 2
check "... leaving no file" test ! -e f.data
done_testing
