#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_dsos.sh - report --dsos matches a DSO by perf's short name
# or by its full path, with or without -v, as perf 6.1's machine__resolve
# does: the table compared with perf's on the same file, and the folded
# export keeping the same samples for either spelling.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
. "$(dirname "$0")/report-perf.sh"
W=$PERFKIT_WORKLOAD

perf record -q -e page-faults -c 1 -o pf.data -- "$W" pages 50 >/dev/null 2>&1
libc=$(perf report -i pf.data --stdio -v --sort dso 2>/dev/null | grep -o '/[^ ]*/libc\.so[^ ]*' | head -1)
same_as_perf pf.data --dsos "$W"
same_as_perf pf.data --dsos "$W,[kernel.kallsyms]"
same_as_perf pf.data --dsos "$W" --sort dso,sym
same_as_perf pf.data -v --dsos "$W"
same_as_perf pf.data --dsos perfkit-workload
if [ -n "$libc" ]; then
	same_as_perf pf.data --dsos "$libc"
else
	skip "pf.data: report --dsos LIBC-PATH equals perf's" "no libc sample in this recording"
fi

# Every fault of `pages` is in the workload's touch(): the full path keeps it.
run report -i pf.data --stdio --dsos "$W"
contains "pf.data: --dsos FULL-PATH keeps the workload's samples" "$out" "[.] touch"
run report -i pf.data --format folded --dsos perfkit-workload
short=$out
run report -i pf.data --format folded --dsos "$W"
check "pf.data: folded export, --dsos by full path = by short name" test -n "$out" -a "$out" = "$short"

echo "1..$tap_n"
exit $tap_fail
