#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_kpath.sh - perfkit script --show-kernel-path against perf
# script 6.1 on the SAME files: a kernel recording made to hold a kernel
# module (this machine may have none: kmod-craft.py adds a module's MMAP
# and moves every other kernel sample into it), printed with the module's
# .ko path where perf prints it and [name] without the flag; the kernel's
# vmlinux under --symfs and -k as perf names it (a vmlinux made from this
# kernel's kallsyms, vmlinux-craft.py); and a dlfilter's al->dso, which
# is the long name too.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
cd "$tmp" || exit 1
if ! command -v perf >/dev/null; then
	skip "--show-kernel-path against perf script" "perf is not installed"
	done_testing
	exit 0
fi
ko=/lib/modules/$(uname -r)/kernel/drivers/misc/pk-fake.ko
# dd's kernel samples alone (fixed period): nothing of what else runs here
perf record -q -e cpu-clock:k -c 100000 -o k.data -- \
	dd if=/dev/zero of=/dev/null bs=4k count=20000 >/dev/null 2>&1
moved=$(python3 "$here/kmod-craft.py" k.data m.data "$ko" ffffffffc0000000 10000 2>craft.err)
if [ "${moved:-0}" -lt 1 ]; then
	skip "--show-kernel-path" "no kernel sample to move into a module: $(head -c 200 craft.err)"
	done_testing
	exit 0
fi

# same NAME ARGS...: both print the same lines (and at least one)
same() {
	local name=$1
	shift
	perf script "$@" >perf.txt 2>/dev/null
	"$PERFKIT" script "$@" >ours.txt 2>ours.err
	check "$name: as perf script prints it ($(grep -c . perf.txt) lines)" \
		test -s perf.txt -a "$(cksum <perf.txt)" = "$(cksum <ours.txt)"
	cmp -s perf.txt ours.txt || diag "$(diff perf.txt ours.txt | head -6)" "$(head -3 ours.err)"
}

F=comm,tid,ip,sym,dso
same "a module's samples, no flag" -i m.data -F $F
check "... named [pk_fake]" grep -q '(\[pk_fake\])$' ours.txt
same "--show-kernel-path" -i m.data -F $F --show-kernel-path
check "... the module's samples show its file ($moved moved)" grep -q "($ko)\$" ours.txt
check "... and the kernel's [kernel.kallsyms]" grep -q '(\[kernel.kallsyms\])$' ours.txt
mkdir good
if python3 "$here/vmlinux-craft.py" good/vmlinux 2>vm.err; then
	same "--show-kernel-path --symfs" -i m.data -F $F --show-kernel-path --symfs good
	check "... the kernel is perf's \"vmlinux\"" grep -q ' (vmlinux)$' ours.txt
	same "--show-kernel-path -k" -i m.data -F $F --show-kernel-path -k good/vmlinux
	check "... the kernel is the vmlinux named" grep -q ' (good/vmlinux)$' ours.txt
	same "-k, no flag" -i m.data -F $F -k good/vmlinux
else
	skip "--show-kernel-path with a vmlinux" "$(tail -1 vm.err)"
fi
# a dlfilter keeping the samples whose al->dso names the .ko file
if cc -shared -fPIC -O2 -I"$here/../../src/cli" -o dlf.so "$here/dlfilter-test.c" 2>cc.err; then
	same "--dlfilter on al->dso, --show-kernel-path" -i m.data --show-kernel-path \
		--dlfilter ./dlf.so --dlarg pk-fake.ko --dlarg x.cnt -F $F
	check "... keeps the module's samples" grep -q "($ko)\$" ours.txt
else
	skip "--dlfilter with --show-kernel-path" "no C compiler: $(head -c 200 cc.err)"
fi
done_testing
