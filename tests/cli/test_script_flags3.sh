#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_flags3.sh - perfkit script's side-band record lines against
# perf script 6.1 on the SAME files: --show-namespace-events (recorded
# with --namespaces), --show-cgroup-events (--all-cgroups),
# --show-bpf-events (a BPF program loaded and run during the recording by
# tests/cli/bpf-busy), --show-lost-events (a one-page buffer at a high
# rate) and --show-text-poke-events (a TEXT_POKE crafted by poke-craft.py:
# only Intel PT recordings make the kernel write them).  Alone in meson: it
# loads a BPF program, which other tests' recordings would describe.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
B=${PERFKIT_BPF_BUSY:?PERFKIT_BPF_BUSY must name tests/cli/bpf-busy}
craft=$(dirname "$0")/poke-craft.py
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
if ! command -v perf >/dev/null; then
	skip "perfkit script's side-band lines against perf script" "perf is not installed"
	done_testing
	exit 0
fi

# same NAME FILE PATTERN ARGS...: both print the same lines, with at least
# one line matching PATTERN (the records the flag is about)
same() {
	local name=$1 file=$2 pat=$3 n
	shift 3
	perf script -i "$file" "$@" >perf.txt 2>/dev/null
	"$PERFKIT" script -i "$file" "$@" >ours.txt 2>ours.err
	n=$(grep -c -- "$pat" perf.txt)
	check "$name: as perf script prints it ($n $pat lines)" \
		test "$n" -gt 0 -a "$(cksum <perf.txt)" = "$(cksum <ours.txt)"
	cmp -s perf.txt ours.txt || diag "$(diff perf.txt ours.txt | head -10)" "$(head -3 ours.err)"
}

load='ls / >/dev/null; dd if=/dev/zero of=/dev/null bs=1k count=5000 2>/dev/null'
perf record -q -e cpu-clock -c 200000 --namespaces --all-cgroups -o ns.data -- sh -c "$load" >/dev/null 2>&1
same "--show-namespace-events" ns.data PERF_RECORD_NAMESPACES --show-namespace-events
same "--show-cgroup-events" ns.data PERF_RECORD_CGROUP --show-cgroup-events
same "--show-namespace-events --show-cgroup-events -G" ns.data PERF_RECORD_ \
	--show-namespace-events --show-cgroup-events -G
same "--show-namespace-events --reltime" ns.data PERF_RECORD_NAMESPACES --show-namespace-events --reltime

# bpf-busy loads a program and runs it: the KSYMBOL and BPF_EVENT records
# come from its own thread, so a per-task recording has them
if perf record -q -e cpu-clock -c 100000 -o bpf.data -- "$B" 100 >/dev/null 2>bpf.err; then
	same "--show-bpf-events" bpf.data 'PERF_RECORD_KSYMBOL .*_pk_busy$' --show-bpf-events
	same "--show-bpf-events (BPF_EVENT lines)" bpf.data PERF_RECORD_BPF_EVENT --show-bpf-events -G
else
	skip "--show-bpf-events" "bpf-busy could not run under perf record: $(tail -1 bpf.err)"
fi

# a one-page buffer at 50000 samples a second of call chains loses some
perf record -q -e cpu-clock -c 20000 -m 1 -g -o lost.data -- \
	dd if=/dev/zero of=/dev/null bs=1k count=100000 >/dev/null 2>&1
if perf script -i lost.data --show-lost-events 2>/dev/null | grep -q PERF_RECORD_LOST; then
	same "--show-lost-events" lost.data PERF_RECORD_LOST --show-lost-events
	same "--show-lost-events -G --deltatime" lost.data PERF_RECORD_LOST --show-lost-events -G --deltatime
else
	skip "--show-lost-events" "the recording lost no samples on this machine"
fi

# TEXT_POKE: perf shows the KSYMBOL records with them
perf record -q -e page-faults -c 1 -o pf.data -- "$PERFKIT_WORKLOAD" pages 20 >/dev/null 2>&1
ksym=$(awk '$2 == "T" && $3 == "schedule" { print $1; exit }' /proc/kallsyms)
python3 "$craft" pf.data poke1.data "${ksym:-0}" 5 5
python3 "$craft" pf.data poke2.data 1000 20 3
same "--show-text-poke-events (a poke in schedule)" poke1.data PERF_RECORD_TEXT_POKE --show-text-poke-events
same "--show-text-poke-events (at an address no map holds)" poke2.data PERF_RECORD_TEXT_POKE \
	--show-text-poke-events
if perf script -i bpf.data --show-text-poke-events 2>/dev/null | grep -q PERF_RECORD_KSYMBOL; then
	same "--show-text-poke-events (its KSYMBOL lines)" bpf.data PERF_RECORD_KSYMBOL --show-text-poke-events
fi
done_testing
