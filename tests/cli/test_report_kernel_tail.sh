#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_kernel_tail.sh - the kernel's map reaches past its MMAP's
# end (_etext) to the end of the last kallsyms symbol perf keeps, as perf
# 6.1 sizes it once kallsyms loads: a system-wide recording's idle chains
# through init text (start_kernel, x86_64_start_kernel), and a copy of a
# page-faulting workload's recording whose kernel frames kip-craft.py set
# to addresses around that end (the gap after _etext, init text, the last
# symbol's page, the next page, below _text), give perf's report and
# script; before, they were [unknown].
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
. "$(dirname "$0")/report-perf.sh"

if ! command -v perf >/dev/null || ! head -1 /proc/kallsyms | grep -qv '^0000000000000000'; then
	skip "the kernel map's end against perf" "perf is not installed, or kallsyms hides addresses"
	done_testing
	exit 0
fi

# same_script FILE ARGS...: perfkit script prints what perf script prints.
same_script() {
	local f=$1 theirs ours
	shift
	theirs=$(perf script -i "$f" "$@" 2>/dev/null)
	ours=$("$PERFKIT" script -i "$f" "$@" 2>"$tmp/err")
	if [ -n "$ours" ] && [ "$theirs" = "$ours" ]; then
		ok "$f: script $* equals perf's ($(wc -l <<<"$ours") lines)"
	else
		not_ok "$f: script $* equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}

# The idle task's samples only: what else runs meanwhile (other tests)
# may leave stacks of freed binaries and garbage frames, whose ties are
# another question, as is the children table's order of ties under a
# --comm filter.  A machine kept busy may give the idle task no sample.
perf record -q -a -g -o a.data -- sleep 0.3 >/dev/null 2>&1
if perf script -i a.data --comms swapper 2>/dev/null | grep -q ' start_kernel'; then
	same_as_perf a.data --no-children --comm swapper
	same_as_perf a.data --no-children --comm swapper --sort dso,sym -g caller
	same_as_perf a.data -g none --comm swapper --sort dso
	same_script a.data --comms swapper
	run script -i a.data --comms swapper -F ip,sym,dso
	check "a.data: the idle chains pass init text (start_kernel)" grep -q ' start_kernel (' <<<"$out"
else
	skip "a system-wide recording's idle chains" "no idle sample through start_kernel (a busy machine)"
fi

# A workload faulting pages in: kernel samples, their chains through the
# fault handler (each of those crafted below).
perf record -q -g -e cpu-clock -F 4000 -o k.data -- "$PERFKIT_WORKLOAD" pages 20000 >/dev/null 2>&1
# The addresses: perf keeps kallsyms' T, W, D and B symbols; the last of
# the kernel's (before the modules) ends at the page after its own.
k() { awk -v s="$1" '$3 == s { print $1; exit }' /proc/kallsyms; }
last=$(awk '$2 ~ /^[TtWwDdBb]$/ && NF == 3 && $1 > m { m = $1 } END { print m }' /proc/kallsyms)
# (python: bash's arithmetic is signed, and these addresses are past 2^63)
# shellcheck disable=SC2046
set -- $(python3 -c '
import sys
etext, sinit, text, last = (int(a, 16) for a in sys.argv[1:])
end = (last + 4095) // 4096 * 4096 + 4096
print(" ".join("%x" % a for a in (etext + 0x40, sinit + 0x10, end - 1, end, end + 0x10000, text - 0x10000)))
' "$(k _etext)" "$(k _sinittext)" "$(k _text)" "$last")
n=$(python3 "$(dirname "$0")/kip-craft.py" k.data c.data "$@")
check "kip-craft.py set $n of $# frames" test "$n" = $#
same_script c.data -F ip,sym,dso
same_script c.data
same_as_perf c.data --no-children
# the children table has an entry for each frame: the last page's lies in
# a data symbol, shown as perf shows an object, "name+0xOFFSET"
same_as_perf c.data
same_as_perf c.data -g none --sort dso,sym
run report -i c.data --stdio -g none --sort sym
check "c.data: the data symbol's entry, with its offset" grep -q '\[k\] [A-Za-z_0-9.]*+0x[0-9a-f]*' <<<"$out"
run script -i c.data -F ip,sym,dso
check "c.data: an init-text frame has a kernel symbol" \
	grep -q "^[[:space:]]*$2 [^[].*(\[kernel.kallsyms\])" <<<"$out"
check "c.data: the last symbol's page is the kernel's" \
	grep -q "^[[:space:]]*$3 [^[].*(\[kernel.kallsyms\])" <<<"$out"
check "c.data: past the last symbol's page, [unknown]" \
	grep -q "^[[:space:]]*$4 \[unknown\] (\[unknown\])" <<<"$out"
done_testing
