#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_sort3.sh - perf 6.1's last common report --sort keys
# (report-sort3.c, hist-keys2.c): dso_size (the sample's map's size; the
# kernel's, read from kallsyms, its symbols' span as perf's loaded map),
# cgroup_id (the thread's cgroup namespace from --namespaces records,
# "dev/0xino"), transaction (tx-craft.py's words: no PMU here records
# any), code_page_size ("4K", "2M"; recorded with --code-page-size) and
# addr (the address as sampled; perf's call-chain frames unmapped twice),
# with perf's children-mode counting for them; in --sort and in -F.  And
# perf's output fields given to --sort (overhead and its sys/us/guest
# forms, overhead_children, sample): columns, and the rows' order, but no
# grouping.
# Compared with perf report on the same files (fixed periods; the tables
# cannot depend on where the samples land, only on the file both read).
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD
CRAFT=$(dirname "$0")/tx-craft.py

. "$(dirname "$0")/report-perf.sh"

"$PERFKIT" record -e cpu-clock:u -c 1000000 --code-page-size --namespaces -o k.data -- "$W" hot 40 >/dev/null 2>&1
"$PERFKIT" record -e cpu-clock:u -c 1000000 --transaction -o t.data -- "$W" hot 40 >/dev/null 2>&1
python3 "$CRAFT" t.data tc.data

# What holds without perf.
for key in dso_size cgroup_id transaction code_page_size addr; do
	run report -i k.data --stdio --sort "$key"
	expect_rc "--sort $key: exit 0" 0
done
run report -i k.data --stdio --sort code_page_size,dso_size,addr
check "the headers" grep -q '^# Overhead  Code Page Size  DSO size  Address  *$' <<<"$out"
check "the workload's code in 4K pages" grep -Eq '^ +[0-9.]+%  4K  ' <<<"$out"
check "addresses as sampled" grep -Eq '0x[0-9a-f]{9,}' <<<"$out"
run report -i k.data --stdio --sort cgroup_id
check "a cgroup namespace's dev/inode" grep -Eq '^ +100\.00%  [0-9]+/0x[0-9a-f]+$' <<<"$out"
run report -i tc.data --stdio --sort transaction
check "perf's transaction names and abort code" grep -q 'CON CAP-WRITE CAP-READ NEITHER :1234' <<<"$out"
check "a sample without a transaction: blank" grep -Eq '^ +[0-9.]+%  +$' <<<"$out"
run report -i k.data --stdio --sort dso,sample
expect_rc "--sort with perf's output field sample: exit 0" 0
check "a Samples column after the key" grep -q '^# Overhead  Shared Object  *Samples$' <<<"$out"

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
	done_testing
	exit 0
fi
perf record -q -e cpu-clock:u -c 1000000 --code-page-size --namespaces -o u.data -- "$W" hot 40 >/dev/null 2>&1
perf record -q -e cpu-clock -c 1000000 -g --code-page-size --namespaces -o g.data -- "$W" hot 30 >/dev/null 2>&1
# a corrupt user stack: every sample's chain is 127 frames of address 0
perf record -q -e cpu-clock -c 1000000 -g --code-page-size --namespaces -o z.data -- "$W" selfframe 100 >/dev/null 2>&1
perf record -q -e cpu-clock:u -c 1000000 --transaction -o pt.data -- "$W" hot 40 >/dev/null 2>&1
python3 "$CRAFT" pt.data ptc.data
for f in k.data u.data g.data; do
	for key in dso_size cgroup_id code_page_size addr transaction; do
		same_as_perf "$f" --sort "$key"
	done
	same_as_perf "$f" --sort addr,sym,dso_size
	same_as_perf "$f" --sort comm,cgroup_id,code_page_size
done
# a file without transactions: the hierarchy's column is the header's width
same_as_perf k.data --hierarchy --sort comm,transaction
for f in tc.data ptc.data; do
	same_as_perf "$f" --sort transaction
	same_as_perf "$f" --sort sym,transaction -n
	same_as_perf "$f" --hierarchy --sort transaction,dso
	same_as_perf "$f" --hierarchy --sort sym,transaction -n
done
# children mode: perf counts a frame again when one of these keys is not 0
same_as_perf g.data --children --sort cgroup_id,comm
same_as_perf g.data --children --sort code_page_size,dso
same_as_perf g.data --children --sort addr,sym -g caller
same_as_perf g.data --no-children --sort dso_size,dso,sym
# each of z.data's frames counted again: children past 1000% (perf's
# " %6.2f%%" keeps its space) and graphs 127 levels deep (perf's int mask
# of pipes repeats every 32 levels)
same_as_perf z.data --children --sort cgroup_id
same_as_perf z.data --children --sort code_page_size,dso
same_as_perf z.data --children --sort comm,cgroup_id -g caller,0.5,callee
for s in sample,comm comm,overhead overhead_sys,comm dso,overhead_us,sample overhead_children,comm \
	 dso,sample,sym overhead_guest_sys,dso; do
	same_as_perf u.data --sort "$s"
done
same_as_perf u.data --no-children --sort overhead_children,comm
same_as_perf u.data --sort sample,comm -n --show-total-period
for s in dso,sample overhead_children,sym sym,overhead; do
	same_as_perf g.data --sort "$s"
	same_as_perf g.data --no-children --sort "$s" -n
done
same_as_perf u.data -F overhead,dso_size,addr,code_page_size
same_as_perf u.data -F +cgroup_id,transaction
done_testing
