#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_flags4.sh - the last of perf report 6.1's flags in perfkit
# report, each against perf on the same file (fixed-period recordings, so
# that no comparison depends on where samples land): -w/--column-widths,
# --pretty raw, --group-sort-idx, --socket-filter, --hierarchy with call
# graphs, --no-demangle and --full-source-path; and what a user sees of
# each whatever the file holds.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export HOME=$tmp/home PERFKIT_BUILDID_DIR=$tmp/home/.debug
mkdir -p "$HOME"
W=$PERFKIT_WORKLOAD

. "$(dirname "$0")/report-perf.sh"

# ---- what holds for any file (perfkit's own recording) ----
"$PERFKIT" record -e cpu-clock -c 200000 -o mine.data -- "$W" hot 50 >/dev/null 2>&1
run report -i mine.data --stdio -q -w 5,3
# every row: the Overhead cell (padded to its header's 8), then a 3-wide Command cell
check "-w 5,3: the Command column cut to 3 characters" \
	awk 'NF { if (substr($0, 13, 3) != "per" || substr($0, 16, 2) != "  ") exit 1; n++ } END { exit !n }' <<<"$out"
run report -i mine.data --stdio -w 0,4
contains "-w 0,4: the Command header cut to 4 characters" "$out" "# Overhead  Comm  Shared Object"
run report -i mine.data --stdio --socket-filter 0
contains "--socket-filter 0: perf's line for it" "$out" "# Processor Socket: 0"
check "--socket-filter 0: no rows (perf reads no socket of a recorded file)" \
	test -z "$(printf '%s\n' "$out" | grep -v '^#' | grep .)"
run report -i mine.data --stdio --socket-filter -1 -q
check "--socket-filter -1: every row" test "$out" = "$("$PERFKIT" report -i mine.data --stdio -q 2>/dev/null)"
run report -i mine.data --stdio --group-sort-idx 1
expect_rc "--group-sort-idx on a file without groups: exit 2" 2
contains "with perf's words" "$err" "Sort the output by the event at the index n in group"
run report -i mine.data --stdio --group-sort-idx x
expect_rc "--group-sort-idx takes a number: exit 2" 2

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
	done_testing
	exit
fi

perf record -q -e cpu-clock -c 200000 -o plain.data -- "$W" hot 50 >/dev/null 2>&1
perf record -q -g -e cpu-clock -c 200000 -o graph.data -- "$W" hot 50 >/dev/null 2>&1
# several commands, objects and call chains.  Not a second program
# without symbols beside sh: one unresolved row of ls's and one of dash's
# came out in another order than perf's in a CI run (perf's order of two
# objects' unresolved rows is not their addresses'; not yet understood).
perf record -q -g -e cpu-clock -c 500000 -o mixed.data -- \
	sh -c "\"$W\" hot 20; \"$W\" hotb 20; \"$W\" pages 200" >/dev/null 2>&1
perf record -q --group -e cpu-clock,task-clock -c 200000 -o group.data -- \
	sh -c "\"$W\" hot 40; \"$W\" hotb 20" >/dev/null 2>&1
perf record -q -e cpu-clock,task-clock -c 500000 -o two.data -- "$W" hot 30 >/dev/null 2>&1
perf record -q -s -e task-clock,page-faults -c 100000 -o stat.data -- "$W" children 20 >/dev/null 2>&1

# -w: perf's widths, its cuts and its number cells.
for f in plain mine mixed; do
	for w in "5,3,4,10" "12,0,20,30 -n" "12,3,20,30,4 -n" "2,1,1,1" "20" "9,,9" \
		"3,3,3,3,3 -n --show-total-period" "5,10 --sort dso,sym" "8,12,10 --sort pid,sym"; do
		# shellcheck disable=SC2086 # the flags are words
		same_as_perf "$f.data" --no-children -w $w
	done
done
same_as_perf graph.data --no-children -g caller -w 6,6,7,7,7
same_as_perf graph.data -g none --no-children --column-widths=4,4,4
# coloured cells: perf pads by their length with the escapes
for w in "5,4" "12,4 -n" "9,4,4,3 --show-cpu-utilization"; do
	# shellcheck disable=SC2086
	same_as_perf mixed.data --no-children --stdio-color=always -w $w
done
same_as_perf mixed.data --no-children -w 9,4,4,3 --show-cpu-utilization
same_as_perf group.data --stdio-color=always -w 5,6,7
# a group's columns: each member's cell in the same width
for w in "5,6,7" "20,3,3,3 -n" "12 --group" "4,4,4,4,4 -n --show-total-period"; do
	# shellcheck disable=SC2086
	same_as_perf group.data -w $w
done

# --socket-filter: the header line, and no row for a socket from 0 where
# perf applies it (as it collapses entries: the comm key, --hierarchy).
for f in plain mixed; do
	for s in 0 1 -1 "0 -n" "1 --sort sym" "0 --sort dso,comm" "0 --sort pid" "0 --hierarchy" \
		"1 --hierarchy -g caller"; do
		# shellcheck disable=SC2086
		same_as_perf "$f.data" --no-children --socket-filter $s
	done
done

# --pretty raw: -T's rows in perf's raw style (none ended by a newline).
for p in "-T --pretty raw" "-T --pretty normal" "-T --pretty other" "--pretty raw" "-T -q --pretty=raw"; do
	# shellcheck disable=SC2086
	same_as_perf stat.data $p
done
run report -i stat.data --stdio -T --pretty raw
contains "--pretty raw: perf's raw header" "$out" "Name  Raw"

# --group-sort-idx: the rows by member N's period (N outside: the leader's).
for i in 1 2 -1 "1 -n" "1 --sort sym" "1 --sort dso" "5 --sort comm" "1 --percent-limit 1" "1 --no-group" \
	"1 -F overhead,sym" "1 -F +sample" "1 -F sample,overhead,dso" "3 -F overhead,period,comm"; do
	# shellcheck disable=SC2086
	same_as_perf group.data --group-sort-idx $i
done
same_as_perf two.data --group --group-sort-idx 1
same_as_perf two.data --no-group --group-sort-idx 1
run report -i group.data --stdio -q --group-sort-idx 1
check "--group-sort-idx 1: the second member's column never grows down the table" \
	awk '{ sub(/%/, "", $2); if (NR > 1 && $2 + 0 > last + 0) exit 1; last = $2 } END { exit !NR }' <<<"$out"
perf report -i two.data --stdio --group-sort-idx 1 >/dev/null 2>theirs.err
"$PERFKIT" report -i two.data --stdio --group-sort-idx 1 >/dev/null 2>ours.err
check "--group-sort-idx on events without groups: perf's lines on stderr" cmp -s theirs.err ours.err

# --hierarchy with call graphs: each leaf's graph under it, no Children.
for f in graph mixed; do
	for g in "-g" "-g caller" "-g callee --sort dso,sym" "-g flat" "-g folded" "-g fractal" "--children" \
		"-g caller,0.5,callee --percent-limit 2" "--sort sym -g address" "-n -g graph,1" \
		"--sort comm,pid,dso -g" "-G"; do
		# shellcheck disable=SC2086
		same_as_perf "$f.data" --hierarchy $g
	done
done
run report -i graph.data --stdio --hierarchy -g caller
check "--hierarchy -g: graphs under the leaves" grep -q -- '---' <<<"$out"
check "--hierarchy -g: no Children column" sh -c '! grep -q Children' <<<"$out"

# --full-source-path: the srcline keys with addr2line's whole path, in the
# table and in the graphs' srcline frames (inlined ones too).
if [ -n "${PERFKIT_INLINE_TARGET:-}" ]; then
	# Bound at startup: a lazily bound printf goes through printf@plt+6,
	# where a sample once landed (a stack page fault on its push), and
	# perf 6.1 names PLT addresses of this binary _init+N (its symbol
	# tree's walk, see test_symbols_oracle.c); perfkit names the entry.
	LD_BIND_NOW=1 perf record -q -g -e cpu-clock -c 500000 -o inl.data -- "$PERFKIT_INLINE_TARGET" 30 \
		>/dev/null 2>&1
	LD_BIND_NOW=1 perf record -q --call-graph dwarf -e cpu-clock -c 500000 -o inld.data -- \
		"$PERFKIT_INLINE_TARGET" 30 >/dev/null 2>&1
	# The workload's own rows: perf works out an entry's source line only
	# when it compares it with another entry on that key, so a row alone
	# in its DSO (a libc sample that landed in the dynamic linker's ifunc
	# once) sized no column and was cut to the others' width.
	own=(--dsos "$(basename "$PERFKIT_INLINE_TARGET")")
	for f in inl inld; do
		for k in "--sort srcline" "--sort srcfile" "--sort sym,srcline -g caller" \
			"--sort dso,srcfile,srcline" "--sort srcline -g caller,0.5,callee,srcline"; do
			# shellcheck disable=SC2086
			same_as_perf "$f.data" --no-children --full-source-path "${own[@]}" $k
		done
	done
	run report -i inl.data --stdio -q --no-children -g none --sort srcfile --full-source-path
	check "--full-source-path: the workload's source by its whole path" \
		grep -Eq '%  /.*/inline-target\.c$' <<<"$out"
else
	skip "--full-source-path against perf" "no PERFKIT_INLINE_TARGET"
fi

# --no-demangle: C++ names as the file spells them, in the rows and graphs.
if command -v g++ >/dev/null; then
	cp "$(dirname "$0")/cxx-demangle.cc" cxx.cc
	g++ -O1 -g -fno-omit-frame-pointer cxx.cc -o cxx
	perf record -q -g -e cpu-clock -c 500000 -o cxx.data -- ./cxx 200 >/dev/null 2>&1
	for a in "" "-v" "-g caller" "--sort sym" "--demangle" "--no-demangle --demangle" "--sort dso,sym -g callee"; do
		# shellcheck disable=SC2086
		same_as_perf cxx.data --no-children --no-demangle $a
	done
	run report -i cxx.data --stdio -q --no-children -g none --no-demangle --sort sym
	check "--no-demangle: the template as the file spells it" grep -q '\[\.\] _Z4spinIlET_S0_$' <<<"$out"
	run report -i cxx.data --stdio -q --no-children -g none --sort sym
	check "without it: the name demangled" grep -q '\[\.\] spin<long>$' <<<"$out"
else
	skip "--no-demangle against perf" "g++ is not installed"
fi

done_testing
