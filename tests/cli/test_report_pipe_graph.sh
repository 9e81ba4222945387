#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_pipe_graph.sh - report on a pipe-mode file with call chains,
# against perf report 6.1 on the same file.  perf decides its columns
# before a pipe's attrs arrive, on sample type 0: no Children column (so
# no row for the chains' root, [unknown]), the Overhead column and call
# graphs in caller order, from standard input or from -i FILE alike.
# User-only samples of a fixed period, so no row depends on where the
# kernel was sampled; the tip line aside.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD
if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
	done_testing
	exit 0
fi

perf record -q -g -e cpu-clock:u -c 100000 -o - -- "$W" hot 200 >g.pipe 2>/dev/null
perf record -q -e cpu-clock:u -c 100000 -o - -- "$W" hot 100 >n.pipe 2>/dev/null

same() {	# file, then report's arguments
	local f=$1 theirs ours
	shift
	theirs=$(perf report -i - --stdio "$@" <"$f" 2>/dev/null | grep -v 'Tip:\|perf report --')
	ours=$("$PERFKIT" report -i - --stdio "$@" <"$f" 2>/dev/null | grep -v 'Tip:\|perfkit report --')
	if [ -n "$ours" ] && [ "$theirs" = "$ours" ]; then
		ok "report $* < $f equals perf's"
	else
		not_ok "report $* < $f equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)"
	fi
}

ours=$("$PERFKIT" report -i - --stdio <g.pipe 2>/dev/null)
check "a pipe with chains: the Overhead column, no Children" \
	grep -qE '^# Overhead +Command' <<<"$ours"
check "a pipe with chains: call graphs printed" grep -q -- '---' <<<"$ours"
check "a pipe with chains: no [unknown] row for the chains' root" \
	bash -c '! grep -qE "^ +[0-9.]+%.*\[unknown\]" <<<"$1"' _ "$ours"
check "-i FILE on a pipe file reads as from standard input" \
	test "$("$PERFKIT" report -i g.pipe --stdio 2>/dev/null)" = "$ours"
for args in '' --no-children --children -G '-g none' '-g caller' '-g callee' '--sort dso,sym'; do
	# shellcheck disable=SC2086 # the arguments split on purpose
	same g.pipe $args
done
same n.pipe
same n.pipe --children
done_testing
