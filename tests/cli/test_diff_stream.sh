#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_diff_stream.sh - perf diff 6.1's --stream against perf, byte for
# byte on the same files, beyond plain branch stacks (test_diff_branch):
# branch stacks with call chains (-g; perf puts the branches first, then
# the call chain past the entries the branches overlap), LBR call stacks
# (the call chain's kernel part, then the stack), DWARF recordings (no
# user stack unwound, as perf's diff), and the samples --time and --cpu
# keep.  The branch stacks are brstack-craft.py's (no LBR
# here).  The recordings are of page faults: most samples are in the
# kernel, whose call chains are deep, and each entry has a sample or two,
# so ties of hits decide which five streams are kept.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/diff-perf.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD
CRAFT=$(dirname "$0")/brstack-craft.py

if ! command -v perf >/dev/null; then
	skip "comparisons with perf diff --stream" "perf is not installed"
	done_testing
	exit 0
fi
for f in old new; do
	perf record -q -g -e cpu-clock -F 999 -o $f.data -- "$W" pages 20000 >/dev/null 2>&1
	python3 "$CRAFT" --feature $f.data $f-br.data
	python3 "$CRAFT" --feature --overlap 2 $f.data $f-ov.data
	python3 "$CRAFT" --feature --callstack $f.data $f-cs.data
	python3 "$CRAFT" --feature --callstack --no-user 3 $f.data $f-nu.data
done
"$PERFKIT" record -g -F 999 -o pk.data -- "$W" pages 20000 >/dev/null 2>&1
python3 "$CRAFT" --feature --overlap 3 pk.data pk-ov.data
# perf record put the workload in perf's build-id cache: perfkit reads that one too
unset PERFKIT_BUILDID_DIR

# -g and branch stacks: four entries each (the call chain mostly cut off
# by perf's arithmetic), or two that overlap the chain's first addresses
# (perf skips those and goes on with the chain, the kernel part in user
# space's cpumode, as perf does).
for args in "old-br.data new-br.data" "new-br.data old-br.data" "old-ov.data new-ov.data" \
	"new-ov.data old-ov.data" "old-ov.data old-ov.data" "pk-ov.data new-ov.data"; do
	# shellcheck disable=SC2086
	same_as_perf --stream $args
done
# Whether one of the five hot streams reaches the kernel depends on where
# the samples landed: asserted when perf's own streams of the file do.
run diff --stream old-ov.data new-ov.data
if perf diff --stream old-ov.data new-ov.data 2>/dev/null | grep -qE '^ +0xffffffff[0-9a-f]+$'; then
	check "-g: chains go on past the branches (a kernel address no user map holds)" \
		grep -qE '^ +0xffffffff[0-9a-f]+$' <<<"$out"
else
	skip "-g: chains go on past the branches" "no hot stream of this recording reaches the kernel"
fi

# LBR call stacks: the kernel part of the call chain, then the stack; a
# sample without a user part goes the branch-stack way.
for args in "old-cs.data new-cs.data" "new-cs.data old-cs.data" "old-nu.data new-nu.data"; do
	# shellcheck disable=SC2086
	same_as_perf --stream $args
done

# --time: shares of each file's span, slices, ranges, one string per file
# with ':', and absolute times.
for t in 50% 10%/2 0%-30%,60%-90% 50%:20%; do
	same_as_perf --stream --time "$t" old-ov.data new-ov.data
done
first=$(perf script -i old.data -F time 2>/dev/null | head -1 | tr -d ' :')
last=$(perf script -i old.data -F time 2>/dev/null | tail -1 | tr -d ' :')
mid=$(python3 -c "print('%.6f' % (($first + $last) / 2))")
same_as_perf --stream --time "$first,$mid" old-ov.data old-ov.data
run diff --stream --time "$mid,$last" old-ov.data old-ov.data
check "--time: another half, other streams than the first half's" \
	[ "$out" != "$("$PERFKIT" diff --stream --time "$first,$mid" old-ov.data old-ov.data 2>/dev/null)" ]
run diff --stream --time 50% old.data new.data
check "--time: without branch stacks still nothing printed" [ -z "$out" ]

# --cpu: each file recorded on one CPU, so the other CPU's leaves it no stream.
if [ "$(nproc)" -ge 2 ] && command -v taskset >/dev/null; then
	for c in 0 1; do
		taskset -c $c perf record -q --sample-cpu -g -e cpu-clock -F 999 -o c$c.data -- \
			"$W" pages 20000 >/dev/null 2>&1
		python3 "$CRAFT" --feature --overlap 2 c$c.data c$c-ov.data
	done
	for c in 0 1 0-1; do
		same_as_perf --stream --cpu $c c0-ov.data c1-ov.data
	done
	same_as_perf --stream --cpu 0 --time 50% c0-ov.data c1-ov.data
	run diff --stream --cpu 0 c0-ov.data c1-ov.data
	check "--cpu 0: no stream of the file recorded on CPU 1" \
		[ "$(sed -n '/new perf data only/,$p' <<<"$out" | grep -c '^hot chain')" = 0 ]
	check "but the other file's" [ "$(grep -c '^hot chain' <<<"$out")" -gt 0 ]
else
	skip "--cpu on two CPUs" "needs two CPUs and taskset"
fi
run diff --stream --cpu 0 old-ov.data new-ov.data
expect_rc "--cpu on files without sample CPUs: refused" 1
contains "saying so" "$err" "does not contain CPU events"

# --call-graph dwarf with branch stacks: perf diff 6.1 unwinds no user
# stack (it never sets dwarf_callchain_users, so libunwind adds nothing):
# its chains are the branches and the recorded call chain, as for any
# file.  User-mode samples only (cpu-clock:u), so no kernel object's
# place in perf's heap breaks a tie of hits.
for f in d1:hot d2:hotb; do
	"$PERFKIT" record -e cpu-clock:u -F 999 --call-graph dwarf,4096 -o ${f%%:*}.data -- "$W" ${f#*:} 100 \
		>/dev/null 2>&1
	python3 "$CRAFT" --feature ${f%%:*}.data ${f%%:*}-br.data
done
contains "the recording has user stacks and branch stacks" "$(perf evlist -v -i d1-br.data 2>/dev/null)" \
	"BRANCH_STACK|REGS_USER|STACK_USER"
for args in "d1-br.data d2-br.data" "d2-br.data d1-br.data" "d1-br.data d1-br.data"; do
	# shellcheck disable=SC2086
	same_as_perf --stream $args
done
done_testing
