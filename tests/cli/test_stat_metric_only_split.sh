#!/bin/bash
# SPDX-License-Identifier: MIT
# perfkit stat --metric-only split per core, die, socket, node (--per-*)
# and per CPU (-A), in perf 6.1's table, -x and -j layouts: the headings'
# indent and CSV names, a line per aggregate or CPU with perf's prefix, an
# empty column for an event that did not count there.  Checked on what
# every run must show, and side by side with perf on the same command
# where perf runs it (software events: their figures are rates and CPU
# utilisation, which --metric-only leaves out, so the layout is all there
# is to compare; cycles too where this machine cannot count it).  The
# figures per aggregate are tests/unit/cli/test_stat_metric_only.c's.
. "$(dirname "$0")/tap.sh"

# nosec TEXT: TEXT without the "seconds time elapsed" line, which differs.
nosec() { printf '%s\n' "$1" | grep -v 'seconds time elapsed'; }
ncpus=$(getconf _NPROCESSORS_ONLN)
nsockets=$(cat /sys/devices/system/cpu/cpu*/topology/physical_package_id 2>/dev/null | sort -u | wc -l)

run stat --metric-only --per-socket -a -x, -e task-clock,page-faults -- true
expect_rc "--metric-only --per-socket runs" 0
check "-x: perf's 'socket,cpus' heading (no comma after it: perf's)" \
	test "$(printf '%s\n' "$err" | head -1)" = "socket,cpus"
check "a line per socket, 'S<n>,<cpus>,' and no figure (rates are left out)" \
	test "$(printf '%s\n' "$err" | sed 1d | grep -cE '^S[0-9]+,[0-9]+,$')" = "$nsockets"
check "... the sockets' CPUs add up to the online CPUs" \
	test "$(printf '%s\n' "$err" | sed 1d | awk -F, '{ n += $2 } END { print n }')" = "$ncpus"

run stat --metric-only --per-core -a -e task-clock -- true
hline=$(printf '%s\n' "$err" | sed -n 4p)
check "table: the headings indented by perf's 24 columns" test "$hline" = "$(printf '%24s' '')"
check "a line per core, 'S<s>-D<d>-C<c>' and its CPUs in perf's widths" \
	test "$(printf '%s\n' "$err" | grep -cE '^S[0-9]+-D[0-9]+-C[0-9 ]{8} [ 0-9]{3}[0-9] $')" -ge 1

run stat --metric-only -A -a -j -e task-clock,page-faults -- true
first=$(printf '%s\n' "$err" | head -1)
check "-A -j: every event headed, rates and CPU utilisation too (perf's -j headings)" \
	test "$first" = '{      "unit" : "CPUs utilized", "unit" : "/sec"}'
check "-A -j: a line per CPU, each opened with its cpu" \
	test "$(printf '%s\n' "$err" | grep -cE '^\{"cpu" : "[0-9]+", $')" = "$ncpus"

# An event that cannot count: the fixture Skylake's topdown events do not
# exist on this machine (nor on any, as the fixture spells them).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$PERFKIT_FIXTURES/sysfs/intel/bus" "$tmp/"
mkdir -p "$tmp/devices/system/cpu"
cp /sys/devices/system/cpu/online "$tmp/devices/system/cpu/"
for c in $(seq 0 $((ncpus - 1))); do	# one socket, one core: SMT siblings
	mkdir -p "$tmp/devices/system/cpu/cpu$c/topology"
	echo 0 >"$tmp/devices/system/cpu/cpu$c/topology/physical_package_id"
	echo 0 >"$tmp/devices/system/cpu/cpu$c/topology/core_id"
	echo 0 >"$tmp/devices/system/cpu/cpu$c/topology/die_id"
done
PERFKIT_SYSFS_ROOT=$tmp run stat --metric-only --per-core -a -x, \
	-e task-clock,topdown-total-slots -- true
expect_rc "a fixture event that cannot count here, per core" 0
check "one core of all the CPUs (the fixture's topology), its empty column" \
	test "$err" = "$(printf 'core,cpus,\nS0-D0-C0,%s,,' "$ncpus")"
PERFKIT_SYSFS_ROOT=$tmp run stat --metric-only -A -a -x, -e task-clock,topdown-total-slots -- true
check "-A -x: perf's 'cpu,' heading, an empty column on every CPU" \
	test "$(printf '%s\n' "$err" | grep -cE '^CPU[0-9]+,,$')" = "$ncpus"

if ! command -v perf >/dev/null; then
	skip "side by side with perf" "perf is not installed"
else
	evs=task-clock,page-faults
	# cycles counts where there is a PMU: only where it cannot, its empty
	# column is in the comparison.
	perf stat -x, -e cycles -- true 2>&1 | grep -q 'not supported' && evs=task-clock,cycles,page-faults
	if [ "$evs" != task-clock,page-faults ]; then
		mine=$("$PERFKIT" stat --metric-only --per-core -a -x, -e cycles -- true 2>&1)
		theirs=$(perf stat --metric-only --per-core -a -x, -e cycles -- true 2>&1)
		check "an aggregate of events none of which counted still names its CPUs, as perf" \
			test "$mine" = "$theirs"
	fi
	for split in --per-core --per-die --per-socket --per-node -A; do
		for fmt in '' -x, -j; do
			mine=$("$PERFKIT" stat --metric-only $split -a $fmt -e $evs -- true 2>&1)
			theirs=$(perf stat --metric-only $split -a $fmt -e $evs -- true 2>&1)
			check "stat --metric-only $split -a $fmt -e $evs: perf's lines" \
				test "$(nosec "$mine")" = "$(nosec "$theirs")"
		done
	done
	# -I: perf's first line per split, each line stamped (the stamps differ).
	stamp() { printf '%s\n' "$1" | sed -E 's/[0-9]+\.[0-9]{9}/T/'; }
	for split in --per-core -A; do
		for fmt in '' -x, -j; do
			mine=$("$PERFKIT" stat -I 100 --interval-count 2 --metric-only $split -a $fmt -e $evs 2>&1)
			theirs=$(perf stat -I 100 --interval-count 2 --metric-only $split -a $fmt -e $evs 2>&1)
			check "stat -I 100 --metric-only $split -a $fmt: perf's lines" \
				test "$(stamp "$mine")" = "$(stamp "$theirs")"
		done
	done
fi
done_testing
