#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_callgraph.sh - perfkit report's call graphs against perf
# report 6.1 on the same files, line for line with symbols resolved:
# recordings with frame-pointer call chains by perf record -g and by
# perfkit record -g, in the default table (Children and Self, a graph in
# caller order under each row), --no-children, -g flat, folded, fractal,
# caller and callee, none, --max-stack 3, -G, --sort sym, the address
# and srcline keys, the graphs'
# percentages coloured with --stdio-color=always; and -g on a file
# without call chains refused.  The graphs are cut at 5% (a -g threshold,
# or --percent-limit 5, which is the graphs' threshold too): perf orders
# branches of equal period by the addresses of its DSO objects in memory,
# and the kernel's interrupt frames make such ties among the small ones.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

. "$(dirname "$0")/report-perf.sh"

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
else
	perf record -q -g -e cpu-clock -F 999 -o g.data -- "$W" hot 150 >/dev/null 2>&1
	"$PERFKIT" record -g -F 999 -o kg.data -- "$W" hot 150 >/dev/null 2>&1
	for f in g.data kg.data; do
		same_as_perf "$f" --percent-limit 5
		same_as_perf "$f" --no-children --percent-limit 5
		same_as_perf "$f" -g flat --percent-limit 5
		same_as_perf "$f" -g folded --percent-limit 5
		same_as_perf "$f" -g caller --no-children --percent-limit 5
		same_as_perf "$f" -g callee --percent-limit 5
		same_as_perf "$f" --max-stack 3 --percent-limit 5
		same_as_perf "$f" -G --no-children --percent-limit 5
	done
	# --call-graph dwarf with kernel frames: in caller order --max-stack
	# keeps the outermost addresses of the kernel's chain and the
	# innermost unwound user frames, as perf's two walks do.
	perf record -q --call-graph dwarf -e cpu-clock -F 999 -o dw.data -- "$W" pages 300 >/dev/null 2>&1
	for n in 2 5; do
		same_as_perf dw.data --max-stack $n --percent-limit 5
		same_as_perf dw.data -g caller --no-children --max-stack $n --percent-limit 5
	done
	# Every row, graphs cut at 5%: equal Children of one thread put the
	# caller above the callee as perf does (the sort keys decide the rest).
	for f in g.data kg.data; do
		same_as_perf "$f" -g graph,5
		same_as_perf "$f" --sort comm,dso -g graph,5
		# -g before another option takes its defaults, as at the end
		same_as_perf "$f" -g --sort comm,dso --percent-limit 5
		same_as_perf "$f" --no-children --call-graph --percent-limit 5
		same_as_perf "$f" --sort pid,sym -g callee,5
		same_as_perf "$f" --no-children -g folded,5
	done
	# --stdio-color=always: perf colours the graphs' percentages as the
	# table's (red from 5%, green above 0.5%), in every mode.
	for f in g.data kg.data; do
		same_as_perf "$f" --stdio-color=always --percent-limit 5
		same_as_perf "$f" --stdio-color=always -g fractal --percent-limit 5
		same_as_perf "$f" --stdio-color=always --no-children -g flat --percent-limit 5
		same_as_perf "$f" --stdio-color=always --no-children -g folded --percent-limit 5
	done
	out=$("$PERFKIT" report -i g.data --stdio --stdio-color=always --no-children -g folded -q 2>/dev/null)
	if printf '%s\n' "$out" | grep -q $'^\033\[31m[0-9.]*%\033\[m [^ ]'; then
		ok "--stdio-color=always: a folded line's percentage in red"
	else
		not_ok "--stdio-color=always: a folded line's percentage in red"
		diag "$out"
	fi
	same_as_perf g.data -g none
	same_as_perf g.data -g fractal --percent-limit 5
	same_as_perf g.data --call-graph=graph,0.5,callee --no-children --percent-limit 5
	same_as_perf g.data --sort sym --percent-limit 5
	same_as_perf g.data --sort dso,sym -g folded --percent-limit 5

	# The folded chains end in the workload's two hot functions.
	out=$("$PERFKIT" report -i g.data --stdio --no-children -g folded,caller -q 2>/dev/null)
	if printf '%s\n' "$out" | grep -q ';hot_a$' && printf '%s\n' "$out" | grep -q ';hot_b$'; then
		ok "folded chains end in hot_a and hot_b"
	else
		not_ok "folded chains end in hot_a and hot_b"
		diag "$out"
	fi

	perf record -q -e cpu-clock -F 999 -o plain.data -- "$W" hot 50 >/dev/null 2>&1
	"$PERFKIT" report -i plain.data --stdio -g graph >/dev/null 2>err
	rc=$?
	# perf 6.1's error lines, no table, and its status 0 (test_report_flags3.sh)
	if [ "$rc" = 0 ] && grep -q '^Selected -g or --branch-history.$' err; then
		ok "-g on a file without call chains is refused"
	else
		not_ok "-g on a file without call chains is refused"
		diag "exit $rc" "$(cat err)"
	fi
	same_as_perf plain.data --sort comm,dso

	# -g's key: address (a node per address, "sym file.c:LINE" or "sym
	# +OFFSET") and srcline, in every print type and both orders.
	for f in g.data kg.data; do
		same_as_perf "$f" -g address --percent-limit 5
		same_as_perf "$f" --no-children -g caller,0.5,address --percent-limit 5
		same_as_perf "$f" --no-children -g folded,address,5
		same_as_perf "$f" -g fractal,addr --percent-limit 5
		same_as_perf "$f" -g srcline --percent-limit 5
		same_as_perf "$f" --no-children -g flat,srcline --percent-limit 5
	done
	# The workload has line tables: under -g address each of its frames
	# names its line, and -g function does not.
	out=$("$PERFKIT" report -i g.data --stdio --no-children -g address -q 2>/dev/null)
	if printf '%s\n' "$out" | grep -Eq -- '--hot_a workload\.c:[0-9]+$' &&
	   ! printf '%s\n' "$out" | grep -Eq -- '--hot_a$'; then
		ok "-g address: hot_a's frames carry their source line"
	else
		not_ok "-g address: hot_a's frames carry their source line"
		diag "$out"
	fi
fi
done_testing
