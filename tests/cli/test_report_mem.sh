#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_mem.sh - perfkit report --mem-mode against perf 6.1 on the
# same file: perf's page faults recorded with -d -W --phys-data
# --data-page-size (no PMU here for real memory samples), their data_src,
# weight, physical address and page size crafted by datasrc-craft.py
# --mem, every third data address moved into the workload's global
# `sink`.  The default order, every memory key alone, with -n and with
# -F; then what must hold whatever perf prints: sink's row, the total
# weight, and the refusals.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export HOME=$tmp/home PERFKIT_BUILDID_DIR=$tmp/home/.debug
mkdir -p "$HOME"
W=$PERFKIT_WORKLOAD

. "$(dirname "$0")/report-perf.sh"

if ! perf record -q -d -W --phys-data --data-page-size -e page-faults -c 1 -o pf.data -- "$W" hot 5 \
	>/dev/null 2>"$tmp/err"; then
	skip "perf record -d -W --phys-data --data-page-size" "$(head -1 "$tmp/err")"
	done_testing
	exit
fi
# sink's address in the run: the workload's load address (its map at
# file offset 0) plus the symbol's, 4 bytes in
base=$(perf script -i pf.data --show-mmap-events 2>/dev/null |
	awk '/PERF_RECORD_MMAP2/ && /perfkit-workload$/ && / @ 0 / { sub(/^\[/, "", $6); sub(/\(.*/, "", $6); print $6; exit }')
sink=$(nm "$W" | awk '$3 == "sink" { print $1 }')
if [ -z "$base" ] || [ -z "$sink" ]; then
	not_ok "the workload's load address ($base) and sink ($sink)"
	done_testing
	exit
fi
addr=$(printf '%x' $((base + 0x$sink + 4)))
if ! python3 "$(dirname "$0")/datasrc-craft.py" pf.data mem.data --mem "$addr" 2>"$tmp/err"; then
	not_ok "datasrc-craft.py --mem"; diag "$(cat "$tmp/err")"
	done_testing
	exit
fi

# ---- side by side with perf ----
same_as_perf mem.data --mem-mode
same_as_perf mem.data --mem-mode -n
same_as_perf mem.data --mem-mode -F overhead,sample,mem,symbol_daddr
same_as_perf mem.data --mem-mode -F +dcacheline,phys_daddr
for k in symbol_daddr symbol_iaddr dso_daddr locked tlb mem snoop dcacheline phys_daddr data_page_size blocked; do
	same_as_perf mem.data --mem-mode --sort "$k"
	same_as_perf mem.data --mem-mode -n --sort "$k,sym"
	same_as_perf mem.data --mem-mode -F "overhead,$k,sample"
done
# perf's prefixes, and its ipc_null after a --sort naming "symbol"
same_as_perf mem.data --mem-mode --sort dcache,dso_d,symbol_i
same_as_perf mem.data --mem-mode --sort locked,blocked --show-total-period

# call graphs: no Children totals in mem mode, the chains in caller order
# (perf's default set before --mem-mode turns Children off)
perf record -q -d -W -g -e page-faults -c 1 -o g.data -- "$W" hot 5 >/dev/null 2>&1
same_as_perf g.data --mem-mode
same_as_perf g.data --mem-mode --children
same_as_perf g.data --mem-mode -g callee

# a pipe-mode stream is not checked for data_src (perf decides before its
# attrs come): samples without the word show perf's all-N/A one
perf record -q -e cpu-clock -c 200000 -o - -- "$W" hot 5 2>/dev/null >plain.pipe
same_as_perf plain.pipe --mem-mode

# ---- what must hold ----
run report -i mem.data --stdio --mem-mode --sort symbol_daddr,dso_daddr
check "a data address in the workload's global: sink+0x4 in perfkit-workload" \
	grep -Eq '\[\.\] sink\+0x4 +perfkit-workload' <<<"$out"
# the samples' weights (0 counting 1) in the cycle the craft gave them
n=$("$PERFKIT" script -i mem.data -F ip | wc -l)
want=$(python3 -c "w = [0, 1, 7, 30, 30, 250, 1000]; print(sum(max(w[i % 7], 1) for i in range($n)))")
contains "the section's total is the samples' weight" "$out" "# Total weight : $want"
contains "perf's sort order line for the keys given" "$out" "# Sort order   : symbol_daddr,dso_daddr,ipc_null"

run report -i mem.data --mem-mode --format=json --sort symbol_daddr,dso_daddr,mem
json_check "--format=json: sink's row by the memory keys' names, the data_src word raw" '
rows = d["events"][0]["rows"]
assert any(r["keys"]["symbol_daddr"] == "sink" and r["keys"]["dso_daddr"] == "perfkit-workload" for r in rows)
assert all(isinstance(r["keys"]["mem"]["data_src"], int) for r in rows)'

perf record -q -e cpu-clock -c 200000 -o plain.data -- "$W" hot 5 >/dev/null 2>&1
run report -i plain.data --stdio --mem-mode
expect_rc "--mem-mode on samples without data_src: refused" 1
contains "with perf's words" "$err" "Selected --mem-mode but no mem data. Did you call perf record without -d?"
run report -i mem.data --stdio --sort mem
expect_rc "a memory key outside --mem-mode: refused" 2
contains "as perf's Invalid" "$err" "Invalid --sort key: \`mem'"
run report -i mem.data --stdio --mem-mode -b
expect_rc "-b with --mem-mode: refused" 2
contains "as perf says it" "$err" "branch and mem mode incompatible"
done_testing
