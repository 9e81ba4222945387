#!/bin/bash
# SPDX-License-Identifier: MIT
# test_report_hier.sh - report --hierarchy with perf's filters (--comms,
# --dsos, --symbols, --pid, --tid) and --percentage relative, against perf
# report 6.1 on the same fixed-period files: the levels above a filtered
# entry keep its period, an entry shows when one below it passes, a filter
# no level's key is of hides all, and relative shares are of the shown top
# entries' sum (the header's event count too); the parent, period, time,
# symbol_size, socket, dso_size, code_page_size, addr, cgroup_id, cgroup and
# (perf's, for a --sort naming "symbol") ipc_null keys as levels;
# --show-cpu-utilization, -v, -t and event groups (with --percentage
# relative too).
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export HOME=$tmp/home PERFKIT_BUILDID_DIR=$tmp/home/.debug
mkdir -p "$HOME"
W=$PERFKIT_WORKLOAD

. "$(dirname "$0")/report-perf.sh"

# several commands, processes and objects: the shell, three workloads
perf record -q -g -e cpu-clock -c 500000 -o mixed.data -- \
	sh -c "\"$W\" hot 20; \"$W\" hotb 20; \"$W\" pages 200" >/dev/null 2>&1
# the processes by perf's own table of this file (the comparison is with
# perf on the same file, whichever they are)
pids=$(perf report -i mixed.data --stdio -q --no-children -g none --sort pid 2>/dev/null)
shpid=$(awk '$2 ~ /:sh$/ { split($2, a, ":"); print a[1]; exit }' <<<"$pids")
wpid=$(awk '$2 ~ /:perfkit-workloa$/ { split($2, a, ":"); print a[1]; exit }' <<<"$pids")
check "the recording has the shell's and a workload's samples" test -n "$shpid" -a -n "$wpid"

for a in "--dsos [kernel.kallsyms]" "--dsos [kernel.kallsyms] --percentage relative" \
	"--dsos ld-linux-x86-64.so.2 --percentage relative -n --show-total-period" \
	"--dsos [kernel.kallsyms] --sort comm,sym,dso -n" "--dsos perfkit-workload,[kernel.kallsyms] --sort sym,dso" \
	"--dsos [kernel.kallsyms] --percent-limit 2" "--dsos [kernel.kallsyms] --percent-limit 2 --percentage relative" \
	"--comms sh --sort dso,comm,sym" "--comms sh --percentage relative --sort dso,comm,sym" \
	"--comms perfkit-workload --sort dso,sym" "--comms perfkit-workload --sort cpu,comm" \
	"--comms perfkit-workload --percentage relative --sort sym" \
	"--symbols hot_a,hot_b --sort dso,sym -g caller" "--symbols hot_a --sort comm,dso" \
	"--symbols hot_a,hot_b --sort sym,comm --percentage relative" \
	"--comms perfkit-workload --dsos perfkit-workload --sort comm,dso,sym" \
	"--pid $shpid" "--pid $shpid,$wpid --sort comm,pid,dso --percentage relative" \
	"--tid $wpid --sort dso,sym" "--tid $wpid --sort pid,dso -g caller --percentage relative"; do
	# shellcheck disable=SC2086 # the flags are words
	same_as_perf mixed.data --no-children --hierarchy $a
done

# --pid and --tid with every process, under the comm level (which does not
# decide them: perf's marks follow its collapse order) and others
# shellcheck disable=SC2013 # the pids are words
for p in $(awk '{ split($2, a, ":"); print a[1] }' <<<"$pids" | sort -u); do
	for s in "" "--sort pid,dso" "--sort dso,comm,sym"; do
		# shellcheck disable=SC2086 # the flags are words
		same_as_perf mixed.data --no-children --hierarchy -g none --pid "$p" $s
	done
	same_as_perf mixed.data --no-children --hierarchy -g none --tid "$p"
done

# the parent and period keys as levels (the period's cell the entry's sum)
for a in "--sort parent,sym" "--sort dso,parent -p hot_a" "--sort period,comm -n" "--sort comm,period" \
	"--sort parent,comm,period --show-total-period" "--sort period,sym --show-total-period -n" \
	"--sort dso,parent,sym -p hot_a,hot_b" "--sort parent,dso -g caller -p hot_b" "--sort parent -p hot_a -x -n" \
	"--sort parent,comm --percentage relative --comms sh" "--sort period,dso --dsos perfkit-workload"; do
	# shellcheck disable=SC2086 # the flags are words
	same_as_perf mixed.data --no-children --hierarchy $a
done

# the later keys as levels, their cells the flat table's trimmed; a
# --sort naming "symbol" gets perf's IPC level
for a in "--sort symbol_size,sym" "--sort dso,dso_size" "--sort socket,comm" "--sort time,comm --time-quantum 100ms" \
	"--sort comm,time --time-quantum 200ms" "--sort dso_size,sym -n" "--sort code_page_size,comm" \
	"--sort addr,dso" "--sort cgroup_id,pid" "--sort time,dso,symbol_size --time-quantum 50ms --ns" \
	"--sort comm,symbol" "--sort symbol,comm -n --percent-limit 5" \
	"--sort dso,symbol -g caller" "--sort time,comm --time-quantum 100ms --dsos [kernel.kallsyms]" \
	"--sort comm,dso_size --percentage relative --comms sh"; do
	# shellcheck disable=SC2086 # the flags are words
	same_as_perf mixed.data --no-children --hierarchy $a
done

# --show-cpu-utilization: each level's sys and usr shares
for a in "" "-n --show-total-period" "--percentage relative --dsos [kernel.kallsyms]" \
	"--stdio-color=always --sort dso,sym" "--percent-limit 5 -g caller" "--sort period,comm --show-total-period"; do
	# shellcheck disable=SC2086 # the flags are words
	same_as_perf mixed.data --no-children --hierarchy --sort comm,dso --show-cpu-utilization $a
done

# the cgroup key, of a recording with --all-cgroups
perf record -q --all-cgroups -e cpu-clock -c 500000 -o cg.data -- "$W" hot 20 >/dev/null 2>&1
for a in "--sort cgroup,comm" "--sort comm,cgroup -n" "--sort cgroup,dso,sym -t ,"; do
	# shellcheck disable=SC2086 # the flags are words
	same_as_perf cg.data --no-children --hierarchy $a
done

# -v: the objects' paths, each symbol's address and origin before it
for a in "--sort comm,dso" "--sort dso,sym" "--sort sym" "--sort comm,sym -n" "--sort sym,comm" \
	"--sort dso,sym --dsos perfkit-workload" "--sort pid,symbol" "--sort dso,sym -g caller" \
	"--sort comm,dso --show-cpu-utilization" "--sort sym,dso --percentage relative --comms sh"; do
	# shellcheck disable=SC2086 # the flags are words
	same_as_perf mixed.data --no-children --hierarchy -v $a
done

# -t SEP: the number cells after a space, padded, joined by SEP
for a in "--sort comm,dso,sym -t ," "--sort comm -t , -n --show-total-period" \
	"--sort comm,dso -t | --show-cpu-utilization -n" "--sort dso,sym -t , -g caller" \
	"--sort comm,dso,sym --percent-limit 1 -t , -n" "--sort comm,dso -t , -v" \
	"--sort dso,sym -t , --stdio-color=always" "--sort comm,dso -t , --percentage relative --dsos [kernel.kallsyms]" \
	"--sort pid,cpu,period -t ," "--sort dso,sym -t ; --show-cpu-utilization -q"; do
	# shellcheck disable=SC2086 # the flags are words
	same_as_perf mixed.data --no-children --hierarchy $a
done

# event groups: a column per member, on a group and with --group
perf record -q --group -e cpu-clock,task-clock -c 200000 -o group.data -- "$W" hot 30 >/dev/null 2>&1
perf record -q -e cpu-clock,task-clock -c 200000 -o two.data -- "$W" hot 30 >/dev/null 2>&1
for a in "" "-n" "-n --show-total-period --show-cpu-utilization" "--sort dso,sym" "--sort sym -q" \
	"--no-group" "--percent-limit 2 --sort comm,dso,sym" "--stdio-color=always" "--sort dso,sym -g caller" \
	"--comms perfkit-workload" "-v" "-t ," "-t , -n --show-total-period --show-cpu-utilization"; do
	for f in group two; do
		# shellcheck disable=SC2086 # the flags are words
		same_as_perf "$f.data" --no-children --hierarchy --group --sort comm,dso $a
	done
done
same_as_perf group.data --no-children --hierarchy
# --percentage relative in a group: the header sums every member's shown
# samples, and each member's shares are of its own (in the flat table:
# its unfiltered entries'; in the hierarchy: its shown top entries').
perf record -q --group -e cpu-clock,task-clock -c 200000 -o gmixed.data -- \
	sh -c "\"$W\" hot 20; \"$W\" pages 200" >/dev/null 2>&1
for a in "--comms perfkit-workloa" "--dsos perfkit-workload --sort sym" \
	"--dsos perfkit-workload --sort sym -n --show-total-period" "--comms sh --sort comm,dso -F overhead,overhead_us,comm,dso"; do
	# shellcheck disable=SC2086 # the flags are words
	same_as_perf gmixed.data --no-children --percentage relative $a
done
for a in "--comms perfkit-workloa --sort comm,dso" "--dsos perfkit-workload --sort comm,dso,sym" \
	"--symbols hot_a --sort comm,dso,sym -n"; do
	# shellcheck disable=SC2086
	same_as_perf gmixed.data --no-children --hierarchy --percentage relative $a
done

# what a user sees: the parent's share holds its filtered children's too
run report -i mixed.data --stdio -q --no-children -g none --hierarchy --sort comm,dso --dsos '[kernel.kallsyms]' \
	--percentage relative
# a top line is indented 5 at most, an object's 6 at least
check "--hierarchy --dsos --percentage relative: the shown commands add up to 100%" \
	awk 'NF { match($0, /^ */) } NF && RLENGTH <= 5 { sub("%", "", $1); s += $1 }
	     END { exit !(s > 99.9 && s < 100.1) }' <<<"$out"
check "... and only the kernel under them" \
	awk 'NF { match($0, /^ */) } NF && RLENGTH >= 6 { if ($2 != "[kernel.kallsyms]") exit 1; n++ }
	     END { exit !n }' <<<"$out"
run report -i mixed.data --stdio -q --no-children --hierarchy --sort comm,dso --symbols hot_a
expect_rc "--symbols without a sym level: taken" 0
check "--symbols without a sym level: no entry, as perf" test -z "$(tr -d '\n' <<<"$out")"

# An object column of short names: perf widens it to an address's 16
# digits only for an entry whose symbol did not resolve, which it knows
# whatever the keys (a static program named "w", user samples only: every
# object shown is "w", every symbol resolved; perf's column stays at its
# header's 13).
printf 'volatile unsigned long n;\nint main(void) { for (unsigned long i = 0; i < 300000000ul; i++) n += i; return 0; }\n' >w.c
if gcc -O1 -static -o w w.c 2>/dev/null &&
	perf record -q -e cpu-clock:u -c 1000000 -o w.data -- ./w >/dev/null 2>&1; then
	same_as_perf w.data --no-children --hierarchy -g none --sort pid,dso
	same_as_perf w.data --no-children --hierarchy -g none --sort dso
else
	skip "a static program's recording" "gcc -static or perf record failed"
fi
