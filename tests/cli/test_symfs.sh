#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_symfs.sh - --symfs=DIR in report, script and diff, side by side
# with perf on the same files: a symfs holding copies of the workload and
# its libc (same build-ids), one missing the workload, and one that does
# not exist.  Under any symfs the kernel stays unresolved (perf 6.1 reads
# no kallsyms then); the workload resolves only from its copy.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$(readlink -f "$PERFKIT_WORKLOAD")

if ! command -v perf >/dev/null; then
	skip "--symfs against perf" "perf is not installed"
	done_testing
	exit 0
fi
. "$(dirname "$0")/report-perf.sh"

perf record -q -e cpu-clock -F 999 -g -o g.data -- "$W" hot 100 >/dev/null 2>&1
# Faulting pages in: kernel samples, and libc frames in the call chains.
perf record -q -e cpu-clock -F 999 -g -o k.data -- "$W" pages 20000 >/dev/null 2>&1
libs=$(perf script -i k.data --show-mmap-events 2>/dev/null | sed -n 's/.*MMAP2.* \(\/[^ ]*\.so[^ ]*\)$/\1/p' | sort -u)
for d in full miss; do
	for l in $libs; do
		mkdir -p "$d$(dirname "$l")" && cp "$l" "$d$l"
	done
done
mkdir -p "full$(dirname "$W")" && cp "$W" "full$W"

for s in full miss /nonexistent; do
	for f in g.data k.data; do
		same_as_perf "$f" --symfs="$s" --no-children -g none --sort dso
		same_as_perf "$f" --symfs="$s" --no-children -g none --sort dso,sym
		theirs=$(perf script -i "$f" --symfs="$s" 2>/dev/null)
		ours=$("$PERFKIT" script -i "$f" --symfs="$s" 2>/dev/null)
		check "script --symfs=$s on $f equals perf's" test -n "$ours" -a "$theirs" = "$ours"
	done
done

# What a user sees: the workload's functions only from its copy, and no
# kernel symbol under any symfs.
out=$("$PERFKIT" report -i g.data --symfs=full --stdio --no-children -g none --sort sym 2>/dev/null)
check "the copy names the workload's hot_a" grep -q 'hot_a' <<<"$out"
out=$("$PERFKIT" report -i g.data --symfs=miss --stdio --no-children -g none --sort sym 2>/dev/null)
check "without its copy, no hot_a" test -z "$(grep hot_a <<<"$out")" -a -n "$out"
out=$("$PERFKIT" report -i k.data --symfs=full --stdio --no-children -g none --sort sym 2>/dev/null)
check "no kernel symbol under a symfs" test -z "$(grep '\[k\] [^0]' <<<"$out")" -a -n "$(grep '\[k\] 0x' <<<"$out")"
out=$("$PERFKIT" script -i k.data --symfs=miss 2>/dev/null)
check "libc resolves from its copy" grep -q ' [a-z_]*+0x[0-9a-f]* (.*libc\.so' <<<"$out"
# The exports read under the symfs too.
out=$("$PERFKIT" report -i g.data --symfs=full --format=folded 2>/dev/null)
check "--format=folded: the copy names hot_a" grep -q 'hot_a' <<<"$out"
out=$("$PERFKIT" report -i g.data --symfs=miss --format=folded 2>/dev/null)
check "--format=folded: without its copy, no hot_a" test -z "$(grep hot_a <<<"$out")" -a -n "$out"
out=$("$PERFKIT" report -i g.data --symfs=/ --stdio --no-children -g none --sort sym 2>/dev/null)
check "--symfs=/ is no symfs" grep -q 'hot_a' <<<"$out"

mkdir d && cp g.data d/perf.data.old && cp k.data d/perf.data && cd d || exit 1
for s in ../full /nonexistent; do
	theirs=$(perf diff --symfs="$s" 2>/dev/null | grep -v '^# (')
	ours=$("$PERFKIT" diff --symfs="$s" 2>/dev/null | grep -v '^# (')
	check "diff --symfs=$s equals perf's" test -n "$ours" -a "$theirs" = "$ours"
done
done_testing
