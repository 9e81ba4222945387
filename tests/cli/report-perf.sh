# SPDX-License-Identifier: MIT
# report-perf.sh - the comparison the report tests share: sourced after
# tap.sh by test_report.sh and test_report_callgraph.sh, which set $tmp.
# same_as_perf FILE ARGS...: perfkit report prints what perf report prints,
# but for the tip line (perf picks one at random).
same_as_perf() {
	local file=$1 theirs ours
	shift
	# perf 6.1 sometimes prints "[...] (inlined)" for a call graph's
	# remainder line: it reads an uninitialised field of its own
	# (rem_sq_bracket in ui/stdio/hist.c), so the suffix is dropped there.
	theirs=$(perf report -i "$file" --stdio "$@" 2>/dev/null | grep -v '^# (' | sed 's/\[\.\.\.\] (inlined)$/[...]/')
	ours=$("$PERFKIT" report -i "$file" --stdio "$@" 2>"$tmp/err" | grep -v '^# (')
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
		ok "$file: report $* equals perf's"
	else
		not_ok "$file: report $* equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}
