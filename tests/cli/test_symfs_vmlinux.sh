#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_symfs_vmlinux.sh - --symfs=DIR holding a vmlinux: perf 6.1 looks for
# DIR/vmlinux (its vmlinux_path's "vmlinux" joined to the root) and reads
# the kernel's symbols there, when its build-id is the recorded kernel's;
# -v names the kernel "vmlinux" with origin 'v'.  The vmlinux is made from
# this kernel's kallsyms (tests/cli/vmlinux-craft.py); report and script
# compared with perf on the same file with the same --symfs, and with a
# vmlinux of another build-id, which both refuse (no kernel symbols).
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export HOME=$tmp/home PERFKIT_BUILDID_DIR=$tmp/home/.debug
mkdir -p "$HOME" good other

if ! python3 "$(dirname "$0")/vmlinux-craft.py" good/vmlinux 2>craft.err ||
	! python3 "$(dirname "$0")/vmlinux-craft.py" other/vmlinux other 2>>craft.err; then
	skip "a vmlinux under --symfs" "vmlinux-craft.py: $(cat craft.err)"
	done_testing
	exit 0
fi
# Kernel samples: page faults on fresh pages.
perf record -q -e cpu-clock -c 50000 -o perf.data -- "$PERFKIT_WORKLOAD" pages 1000 >/dev/null 2>&1
run record -q -e cpu-clock -c 50000 -o pk.data -- "$PERFKIT_WORKLOAD" pages 1000
check "perfkit record: exit 0 (got $rc)" test "$rc" -eq 0

# same TOOL FILE ARGS...: perfkit TOOL prints what perf TOOL prints.
same() {
	local tool=$1 file=$2 theirs ours
	shift 2
	theirs=$(perf "$tool" -i "$file" "$@" 2>/dev/null | grep -v '^# (')
	ours=$("$PERFKIT" "$tool" -i "$file" "$@" 2>"$tmp/err" | grep -v '^# (')
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
		ok "$file: $tool $* equals perf's ($(printf '%s\n' "$ours" | wc -l) lines)"
	else
		not_ok "$file: $tool $* equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}
for f in perf.data pk.data; do
	for d in good other; do
		same report $f --stdio --symfs $d
		same report $f --stdio --symfs $d -v --sort dso,sym
		same script $f --symfs $d -F ip,sym,dso
	done
	same report $f --stdio --symfs "$tmp/good" -v
done

# What a user sees whatever the samples: kernel rows named from the vmlinux.
run report -i perf.data --stdio --symfs good --sort dso,sym
check "good: kernel samples resolve to symbols" \
	test -n "$(printf '%s\n' "$out" | grep -E '\[k\] [A-Za-z_]')"
run report -i perf.data --stdio --symfs good -v --sort dso,sym
check "good -v: the kernel is vmlinux, its symbols' origin 'v'" \
	test -n "$(printf '%s\n' "$out" | grep -E '% +vmlinux +0xffff[0-9a-f]+ +v \[k\] ')"
run report -i perf.data --stdio --symfs other --sort dso,sym
check "other: another build-id's vmlinux names no kernel symbol" \
	test -z "$(printf '%s\n' "$out" | grep -E '\[k\] [A-Za-z_]')"
done_testing
