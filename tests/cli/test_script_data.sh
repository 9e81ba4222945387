#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_data.sh - the data address of a page fault (record -d) named
# as perf script 6.1 names it, line for line on perf's and perfkit's files:
# the object symbol holding it (_DYNAMIC, __TMC_END__, a loader's static)
# with its offset and DSO, or the anonymous map ([stack], //anon), also for
# faults the kernel takes on user pages (execve copying the arguments);
# and perfkit record -d asking for DATA_SRC as perf's -d does, so
# script -F data_src reads its files.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

# same_as_perf FILE ARGS...: perfkit script prints what perf script prints
# (something) and exits as it does.
same_as_perf() {
	local file=$1 theirs ours rt ro
	shift
	theirs=$(set -o pipefail; perf script -i "$file" "$@" 2>/dev/null); rt=$?
	ours=$(set -o pipefail; "$PERFKIT" script -i "$file" "$@" 2>"$tmp/err"); ro=$?
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ] && [ "$rt" = "$ro" ]; then
		ok "$file: script $* equals perf's ($(printf '%s\n' "$ours" | wc -l) lines)"
	else
		not_ok "$file: script $* equals perf's (exit $ro, perf $rt)"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}

perf record -q -d -e page-faults -c 1 -o pf.data -- "$W" pages 50 >/dev/null 2>&1
"$PERFKIT" record -d -e page-faults -c 1 -o perfkit-pf.data -- "$W" pages 50 >/dev/null 2>&1
for f in pf perfkit-pf; do
	for fields in comm,ip,addr,sym,dso ip,addr,sym,symoff,dso addr,sym addr,dso comm,addr,data_src,ip; do
		same_as_perf $f.data -F $fields
	done
	ours=$("$PERFKIT" script -i $f.data -F addr,sym,dso)
	# Both sides named: a user stack page, and an object of the loader.
	contains "$f.data: a fault on the stack names [stack]" "$ours" " [unknown] ([stack])"
	check "$f.data: data addresses name object symbols of their DSO" \
		grep -Eq '^ *[0-9a-f]+ [A-Za-z_][^ ]* \(/[^)]*ld-linux[^)]*\)$' <<<"$ours"
	# Faults the kernel takes on user pages (execve's new stack, the
	# loader's .bss): each names its user map.  Whether the recording
	# caught one depends on when the events were enabled against the exec.
	ours=$("$PERFKIT" script -i $f.data -F addr,sym,dso,ip | grep -F '([kernel.kallsyms])' |
		grep -Ev '^ *ffff[0-9a-f]{12} ')
	if [ -z "$ours" ]; then
		skip "$f.data: a kernel-mode fault on a user page names the user map" \
			"no kernel-mode fault on a user page in this recording"
	else
		check "$f.data: a kernel-mode fault on a user page names the user map ($(grep -c . <<<"$ours"))" \
			test -z "$(grep -E '^ *[0-9a-f]+ +\[unknown\] \(\[unknown\]\)' <<<"$ours")"
	fi
done

# perf record -d sets ADDR and DATA_SRC (and data mmaps); so does perfkit's.
attr=$(perf evlist -v -i perfkit-pf.data 2>&1)
check "perfkit-pf.data: record -d samples ADDR and DATA_SRC, with data mmaps" \
	grep -Eq 'sample_type: [A-Z_|]*\|ADDR\|[A-Z_|]*DATA_SRC.*mmap_data: 1' <<<"$attr"
ours=$("$PERFKIT" script -i perfkit-pf.data -F data_src | head -1)
check "perfkit-pf.data: data_src of a software event is the kernel's N/A word" \
	grep -Eq '^ +[0-9a-f]+ \|OP N/A\|LVL N/A' <<<"$ours"
done_testing
