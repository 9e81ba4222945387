#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_branch.sh - perf report 6.1's branch mode in perfkit report:
# -b on files whose samples brstack-craft.py gave a branch stack (no LBR
# here), and perf's own choice of it for a file with the BRANCH_STACK
# feature and no user stacks (not for one without the feature, nor for a
# --call-graph dwarf recording), each byte for byte against perf on the
# same file: rows of each branch, perf's default branch columns and
# widths, its sort order and its Branch Statistics block; perf's branch
# sort keys in --sort and -F, and its sample filters in branch mode.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD
CRAFT=$(dirname "$0")/brstack-craft.py

. "$(dirname "$0")/report-perf.sh"

"$PERFKIT" record -F 999 -o mine.data -- "$W" hotb 50 >/dev/null 2>&1
python3 "$CRAFT" --feature mine.data mine-br.data
python3 "$CRAFT" mine.data mine-nofeat.data

# What holds without perf: every branch a row's share, four per sample.
run report -i mine-br.data --stdio
expect_rc "a file with the BRANCH_STACK feature: branch mode, exit 0" 0
contains "perf's branch columns" "$out" "# Overhead  Command          Source Shared Object  Source Symbol"
contains "and its branch statistics" "$out" "# Branch Statistics:"
nr=$("$PERFKIT" report -i mine.data --stdio -n -q --sort comm | awk '{ s += $2 } END { print s }')
want="$((nr * 4))  of"	# perf's convert_unit past 1000: 1K and so on
[ $((nr * 4)) -gt 1000 ] && want="$((nr * 4 / 1000))K of"
check "Samples counts the branches: four per sample ($nr samples)" \
	grep -q "^# Samples: $want event" <<<"$out"
sum=$(printf '%s\n' "$out" | awk '/^ +[0-9.]+%/ { sub(/%/, "", $1); s += $1 } END { printf "%.0f", s }')
check "the rows add up to 100% ($sum)" [ "$sum" = 100 ]
run report -i mine-nofeat.data --stdio
check "without the feature: the usual table" [ "$(printf '%s\n' "$out" | grep -c 'Source Symbol')" = 0 ]
run report -i mine-br.data --stdio --no-branch-stack
check "--no-branch-stack: the usual table" [ "$(printf '%s\n' "$out" | grep -c 'Branch Statistics')" = 0 ]
run report -i mine-br.data --stdio --sort comm
expect_rc "--sort on a BRANCH_STACK file: branch mode still (perf 6.1's rule)" 0
contains "... its branch statistics" "$out" "# Branch Statistics:"
check "... a row per command, all of its branches" grep -Eq '^ +100\.00%  ' <<<"$out"
run report -i mine-br.data --stdio --sort mispredict,cycles -q
check "--sort mispredict,cycles: perf's flag and cycle texts" \
	grep -Eq '^ +[0-9.]+%  (Y|N|N/A) +(7|300|-) *$' <<<"$out"
run report -i mine-br.data --stdio -F dso_to,overhead -q
check "-F dso_to,overhead: the DSO first, then the share" grep -Eq '^  [^ ].* +[0-9.]+%$' <<<"$out"
run report -i mine-br.data --stdio --no-branch-stack --sort dso_from
expect_rc "a branch key outside branch mode: a usage error" 2
contains "with perf's words" "$err" "Invalid --sort key: \`dso_from'"
run report -i mine-br.data --stdio --sort comm,ipc_lbr
expect_rc "a branch key perfkit does not have: a usage error" 2
contains "naming it" "$err" "'ipc_lbr'"
run report -i mine.data --stdio --symbol-filter main
expect_rc "--symbol-filter outside branch mode: not yet, a usage error" 2
run report -i mine.data --stdio -b
expect_rc "-b on a file without branch stacks: exit 1" 1
contains "with perf's words" "$err" "no branch data. Did you call perf record without -b?"
check "in one line, nothing after it" [ "$(printf '%s\n' "$err" | wc -l)" = 1 ]
run report -i mine.data -D -b
expect_rc "-D -b on it: the same refusal, as perf's (before the dump)" 1
run report -i mine-br.data --stdio -b --sort nosuch
expect_rc "-b --sort with an unknown key: a usage error, as without -b" 2
contains "naming it" "$err" "'nosuch'"
run report -i mine-br.data --stdio -b -F overhead,nosuch
expect_rc "-b -F with an unknown key: a usage error too" 2

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report -b" "perf is not installed"
	done_testing
	exit 0
fi
perf record -q -e cpu-clock -F 999 -o perf.data -- "$W" hot 50 >/dev/null 2>&1
python3 "$CRAFT" --feature perf.data perf-br.data
# kernel ends: a program that spends its time in system calls
perf record -q -e cpu-clock -c 1000000 -o dd.data -- dd if=/dev/zero of=/dev/null bs=1k count=100000 \
	>/dev/null 2>&1
python3 "$CRAFT" --feature dd.data dd-br.data
perf record -q --call-graph dwarf -e cpu-clock -F 999 -o dwarf.data -- "$W" hot 30 >/dev/null 2>&1
python3 "$CRAFT" --feature dwarf.data dwarf-br.data
for f in mine-br.data mine-nofeat.data perf-br.data dd-br.data; do
	same_as_perf "$f"
	same_as_perf "$f" -b
done
same_as_perf mine-br.data -q
# perf 6.1's branch keys and the common ones beside them; perf's mispredict,
# in_tx and abort comparisons say only "equal or not", so which rows merge
# follows perf's trees (perf crashes when --sort names symbol_from or
# symbol_to, so those are compared in -F and the default order only).
for f in mine-br.data perf-br.data dd-br.data; do
	for keys in mispredict,in_tx,abort,cycles comm,dso,sym,addr_from,addr_to dso_to pid,mispredict \
		cycles,comm sym in_tx,overhead addr_to,abort mispredict,dso dso_from,dso_to,cycles; do
		same_as_perf "$f" --sort "$keys"
	done
	same_as_perf "$f" -F overhead,mispredict,symbol_from
	same_as_perf "$f" -F dso_to,overhead
	same_as_perf "$f" -F +dso_to,symbol_to
	same_as_perf "$f" -F dso_to --sort comm
	same_as_perf "$f" -n --show-total-period --sort dso_to
	same_as_perf "$f" -F sample,period,dso_to
	same_as_perf "$f" -F overhead,srcline_from,srcline_to
	same_as_perf "$f" --sort comm,srcline_from,mispredict
done
# -v: long DSO names, each symbol's address and symtab origin (not on
# dd-br.data: /usr/bin/dd is in perf's ~/.debug, so perf's origin is B,
# while the tests give perfkit its own PERFKIT_BUILDID_DIR without it)
for f in mine-br.data perf-br.data; do
	same_as_perf "$f" -v
	same_as_perf "$f" -v --sort sym,dso_to
	same_as_perf "$f" -v --sort addr_from,comm
done
# A symbol name longer than any fixed buffer (C++ names can be): printed
# whole in its cell as perf does, perf's own 1024-byte cut of a wide
# column's header included.
name=spin_$(printf 'x%.0s' $(seq 1500))
cat >long.c <<EOF
volatile unsigned long sink;
__attribute__((noinline)) void $name(unsigned long n) { for (unsigned long i = 0; i < n; i++) sink += i; }
int main(void) { $name(100000000UL); return 0; }
EOF
if cc -O1 -o long long.c 2>/dev/null; then
	perf record -q -e cpu-clock -c 1000000 -o long.data ./long >/dev/null 2>&1
	python3 "$CRAFT" --feature long.data long-br.data
	for args in "-b" "-b -t ," "-b --sort sym,addr_to" "-b -F overhead,symbol_from,symbol_to"; do
		# shellcheck disable=SC2086
		same_as_perf long-br.data $args
	done
else
	skip "a 1500-byte symbol name" "cc cannot build a test program here"
fi
# The sample's filters, as perf's machine__resolve sets them: a branch of a
# sample --comms, --dsos, --symbols, --pid or --tid leaves out still counts
# in the total (its entry keeps its first sample's state), a one-name
# filter's column gives way to perf's "# comm: NAME" line; --cpu drops the
# sample.
ddpid=$(perf script -i dd-br.data --comms dd -F pid 2>/dev/null | head -1 | tr -d ' ')
check "dd-br.data: dd's samples have a pid ($ddpid)" test -n "$ddpid"
for args in "--comms dd" "--comms dd -q" "--comms nosuch" "--dsos libc.so.6" "--dsos libc.so.6,dd" \
	"--symbols read" "--sort sym,comm --symbols read" "--sort dso,comm --dsos libc.so.6" \
	"--pid $ddpid" "--tid $ddpid --sort mispredict,pid"; do
	# shellcheck disable=SC2086
	same_as_perf dd-br.data $args
done
# --symbol-filter: perf's hists filter, applied while collapsing (so not
# without comm among the keys), on an entry's target symbol
for args in "--symbol-filter read" "--symbol-filter rea --comms dd" "--sort dso_to --symbol-filter read" \
	"--sort dso_to,comm --symbol-filter read" "--sort mispredict,comm --symbol-filter _"; do
	# shellcheck disable=SC2086
	same_as_perf dd-br.data $args
done
# -p/-x and the parent key on a -g recording given branch stacks: the
# sample's parent (first matching frame) per branch, perf's [other]
perf record -q -g -e cpu-clock -c 100000 -o g.data -- "$W" hot 30 >/dev/null 2>&1
python3 "$CRAFT" --feature g.data g-br.data
for args in "-p main" "-p main -x" "--sort parent,comm" "-p main --sort comm" "-p hot --sort mispredict,parent" \
	"-x --sort parent,comm" "--sort comm,addr_from,parent" "-F parent,dso_to"; do
	# shellcheck disable=SC2086
	same_as_perf g-br.data $args
done
# --percent-limit hides rows (the widths stay those of all rows);
# --stdio-color colours the Overhead cells as perf does
for args in "--percent-limit 5" "--percent-limit 20 --sort dso_to" "--percent-limit 2 --sort mispredict,comm" \
	"--stdio-color=always" "--stdio-color=always --sort dso_to,cycles"; do
	# shellcheck disable=SC2086
	same_as_perf dd-br.data $args
done
# -t: perf's header line alone, its separator between the cells (made '.'
# inside them), numbers padded but in the last column
for f in dd-br.data g-br.data; do
	same_as_perf "$f" -t ,
	same_as_perf "$f" -t , --sort dso_to,mispredict,pid
	same_as_perf "$f" -t : -n --sort dso,comm
	same_as_perf "$f" -t ' ' --sort comm,sym
	same_as_perf "$f" -t , -F dso_to,overhead
done
# --time: the samples of the slice, and perf's note after the event name
n=$(perf script -i dd-br.data -F time 2>/dev/null | wc -l)
t=$(perf script -i dd-br.data -F time 2>/dev/null | sed -n "$((n / 2))p" | tr -d ' :')
check "dd-br.data: the middle sample's time ($t, $n samples)" test -n "$t"
same_as_perf dd-br.data --time "0,$t"
same_as_perf dd-br.data --time "$t," --sort dso_to
same_as_perf dd-br.data --time 10%/2
perf record -q --sample-cpu -e cpu-clock -c 100000 -o cpu.data -- "$W" hot 30 >/dev/null 2>&1
python3 "$CRAFT" --feature cpu.data cpu-br.data
same_as_perf cpu-br.data --cpu 0
same_as_perf cpu-br.data --cpu 1 --sort abort,cycles
same_as_perf cpu-br.data --sort cpu,comm,mispredict
same_as_perf cpu-br.data -F cpu,overhead
same_as_perf dd-br.data --sort cpu,cycles
same_as_perf perf-br.data --no-branch-stack
# a user stack: perf's default is no branch mode, -b turns it on
same_as_perf dwarf-br.data --no-children
same_as_perf dwarf-br.data -b
done_testing
