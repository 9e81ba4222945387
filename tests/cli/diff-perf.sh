# SPDX-License-Identifier: MIT
# diff-perf.sh - the comparisons the diff tests share: sourced after
# tap.sh by test_diff.sh, test_diff_flags.sh, test_diff_branch.sh and
# test_diff_stream.sh, which set $tmp.

# same_as_perf ARGS...: perfkit diff's standard output is perf diff's.
# perf 6.1 itself dies on some pairs (`diff -s srcfile` frees a source
# file name twice when a sample is in ld.so, which a recording's start-up
# may or may not catch: abort or segfault); then there is nothing to
# compare with, and the comparison is skipped saying so.
same_as_perf() {
	local theirs ours rc
	theirs=$(perf diff "$@" 2>/dev/null)
	rc=$?
	ours=$("$PERFKIT" diff "$@" 2>"$tmp/err")
	if [ "$rc" -gt 128 ] && [ -n "$ours" ]; then
		skip "diff $* equals perf's" "perf diff died of signal $((rc - 128)) on these files"
	elif [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
		ok "diff $* equals perf's ($(printf '%s\n' "$ours" | wc -l) lines)"
	else
		not_ok "diff $* equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}

# same_stderr ARGS...: perfkit diff -v's build id and PMU lines on standard
# error are perf diff's (perf's other debug lines are its own).
same_stderr() {
	local theirs ours
	theirs=$(perf diff "$@" 2>&1 >/dev/null | grep -E '^build id event received for |pmu capabilities not available$')
	ours=$("$PERFKIT" diff "$@" 2>&1 >/dev/null)
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
		ok "diff $*: standard error equals perf's ($(printf '%s\n' "$ours" | wc -l) lines)"
	else
		not_ok "diff $*: standard error equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)"
	fi
}
