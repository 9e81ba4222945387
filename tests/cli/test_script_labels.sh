#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_labels.sh - data addresses on untyped labels: a static
# program written in assembly whose _start (in .text) and label_data (in
# .data) are NOTYPE symbols; a page fault's data address on each is named
# by that label in script -F addr,sym,dso, as perf 6.1 names it (its
# symbol table takes NOTYPE labels of text and data sections), line for
# line with perf on the same file.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

cat >nt.s <<'ASM'
	.text
	.globl _start
_start:
	lea label_data(%rip), %rax
	movq (%rax), %rbx
	mov $60, %eax
	xor %edi, %edi
	syscall
	.data
	.balign 4096
label_data:
	.quad 2
ASM
if ! "${CC:-cc}" -nostdlib -static -o nt nt.s 2>"$tmp/cc.err"; then
	skip "untyped labels" "no assembler: $(cat "$tmp/cc.err")"
	echo "1..$tap_n"
	exit 0
fi
perf record -q -d -e page-faults -c 1 -o nt.data ./nt >/dev/null 2>&1
theirs=$(perf script -i nt.data -F addr,sym,dso,ip 2>/dev/null)
run script -i nt.data -F addr,sym,dso,ip
if [ "$theirs" = "$out" ] && [ -n "$out" ]; then
	ok "nt.data: script -F addr,sym,dso,ip equals perf's"
else
	not_ok "nt.data: script -F addr,sym,dso,ip equals perf's"
	diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$out"))" "$err"
fi
# The exec's first instruction fetch faults on _start itself, the load on
# label_data: both named, whatever else the kernel faulted on.
check "nt.data: the fault on _start's page names _start (.text, NOTYPE)" \
	grep -Eq '^ *([0-9a-f]+) _start \([^)]*/nt\) +\1 _start ' <<<"$out"
check "nt.data: the load from label_data names label_data (.data, NOTYPE)" \
	grep -Eq '^ *[0-9a-f]+ label_data \([^)]*/nt\) +[0-9a-f]+ _start ' <<<"$out"

echo "1..$tap_n"
exit $tap_fail
