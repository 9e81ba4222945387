#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_srccode.sh - perfkit script -F srccode against perf script
# 6.1 on the same file: a small program built with line tables in this
# directory and one built from ../src, read from another directory (the
# file named after the unit's comp_dir, as addr2line and perf name it),
# recorded with -g; after each sample its source line as
# "|LINE     text", not again while a thread stays on that line, nothing
# once the source is gone; srccode or srcline without ip refused as perf
# refuses them.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

cat >sc.c <<'C'
volatile unsigned long sink;
__attribute__((noinline)) void leaf(int n) { for (int i = 0; i < n; i++) sink += i; }
__attribute__((noinline)) void mid(int n)
{
	leaf(n);
	leaf(n / 2);
}
int main(void)
{
	for (int k = 0; k < 2000; k++)
		mid(20000);
	return 0;
}
C
if ! "${CC:-cc}" -O1 -g -fno-omit-frame-pointer -o sc sc.c 2>cc.err; then
	skip "-F srccode" "no compiler: $(cat cc.err)"
	echo "1..$tap_n"
	exit 0
fi

# same DESC ARGS...: perfkit script ARGS prints what perf script prints.
same() {
	local desc=$1 theirs
	shift
	theirs=$(perf script "$@" 2>/dev/null)
	run script "$@"
	if [ -n "$out" ] && [ "$theirs" = "$out" ]; then
		ok "$desc"
	else
		not_ok "$desc"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$out") | head -20)" "$err"
	fi
}

if ! command -v perf >/dev/null; then
	skip "comparisons with perf script" "perf is not installed"
else
	perf record -q -g -e cpu-clock -F 999 -o sc.data -- ./sc >/dev/null 2>&1
	perf record -q -e cpu-clock -F 999 -o plain.data -- ./sc >/dev/null 2>&1
	same "-F comm,tid,ip,sym,srccode equals perf's" -i sc.data -F comm,tid,ip,sym,srccode
	same "-F ip,sym,srcline,srccode equals perf's" -i sc.data -F ip,sym,srcline,srccode
	same "-F +srccode (the default fields, call chains) equals perf's" -i sc.data -F +srccode
	same "-F tid,ip,srccode (no call chains) equals perf's" -i plain.data -F tid,ip,srccode
	run script -i plain.data -F tid,ip,srccode
	check "a sample in leaf prints its loop's line" grep -q '^|2        __attribute__((noinline)) void leaf' <<<"$out"
	lines=$(grep -c '^|' <<<"$out")
	samples=$(grep -vc '^|' <<<"$out")
	check "a thread's repeated line is printed once ($lines lines, $samples samples)" \
		test "$lines" -ge 1 -a "$lines" -lt "$samples"
	# Built from another directory (a relative directory entry, as meson's
	# "../src"): addr2line joins it with the unit's DW_AT_comp_dir, so the
	# source is found from any directory, as perf finds it.
	mkdir -p rel/src rel/obj away
	cp sc.c rel/src/sc.c
	if (cd rel/obj && "${CC:-cc}" -O1 -g -fno-omit-frame-pointer -o sc ../src/sc.c) 2>/dev/null; then
		perf record -q -e cpu-clock -F 999 -o rel.data -- rel/obj/sc >/dev/null 2>&1
		cd away || exit 1
		same "built with ../src, read from elsewhere: -F tid,ip,srccode equals perf's" \
			-i ../rel.data -F tid,ip,srccode
		run script -i ../rel.data -F tid,ip,srccode
		check "and prints the source lines" grep -q '^|2        __attribute__((noinline)) void leaf' <<<"$out"
		same "--full-source-path names the file as perf" -i ../rel.data -F ip,srcline --full-source-path
		cd .. || exit 1
	else
		skip "a program built with ../src" "the compiler failed"
	fi
	mv sc.c gone.c
	same "the source gone: no srccode lines, as perf" -i plain.data -F tid,ip,srccode
	run script -i plain.data -F tid,ip,srccode
	check "the source gone: no srccode lines" test -z "$(grep '^|' <<<"$out")"
fi

"$PERFKIT" record -q -F 999 -o k.data -- ./sc >/dev/null 2>&1
run script -i k.data -F comm,srccode
expect_rc "srccode without ip refused" 1
contains "... with perf's message" "$err" "Display of source line number requested but sample IP is not"
run script -i k.data -F comm,srcline
expect_rc "srcline without ip refused" 1

echo "1..$tap_n"
exit $tap_fail
