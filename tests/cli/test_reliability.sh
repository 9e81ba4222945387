#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_reliability.sh - issue 9's smaller cases that no other test asserted
# (found by its audit): record's -z takes a level attached (-zN,
# --compression-level=N) and the file says that level to perf and to
# perfkit; record --control fd:N refuses a descriptor that is not open before
# anything runs; a stream to a full device (-o - >/dev/full) fails with one
# message naming the cause, never a stray "Invalid argument".
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
W=$PERFKIT_WORKLOAD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
have_perf=1
command -v perf >/dev/null || have_perf=0

# ---- -z with a level --------------------------------------------------------
# The workload runs at a fixed period so that there are samples to
# decompress whatever the machine's load; the count is perfkit's own summary.
for form in -z7 --compression-level=7; do
	f="$tmp/z${form//[^a-z0-9]/}.data"
	run record -e cpu-clock -c 100000 "$form" -o "$f" -- "$W" hot 100
	check "record $form exits 0 (got $rc)" test "$rc" -eq 0
	said=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' <<<"$err")
	run report -i "$f" --header-only
	contains "record $form: perfkit's header says level 7" "$out" "# compressed : Zstd, level = 7,"
	if [ "$have_perf" -eq 1 ]; then
		hdr=$(perf report -i "$f" --header-only 2>/dev/null | grep '^# compressed')
		contains "record $form: perf's header says level 7" "$hdr" "# compressed : Zstd, level = 7,"
		n=$(perf script -i "$f" 2>/dev/null | grep -c 'cpu-clock:')
		check "record $form: perf decompresses every sample perfkit wrote ($n of ${said:-?})" \
			test "$n" -gt 0 -a "$n" = "${said:-x}"
	fi
done

# ---- --control fd:N on record -----------------------------------------------
run record -q -e cpu-clock -o "$tmp/c.data" --control fd:999 -- touch "$tmp/ran"
check "record --control fd:999: a usage error, exit 2 (got $rc)" test "$rc" -eq 2
contains "and says the descriptor is not open" "$err" "--control fd:999: file descriptor 999 is not open"
check "before recording: the command never ran, no file" \
	sh -c 'test ! -e "$1/ran" && ! ls "$1"/c.data* >/dev/null 2>&1' sh "$tmp"

# ---- a stream to a full device ------------------------------------------------
"$PERFKIT" record -q -e cpu-clock -o - -- "$W" hot 50 >/dev/full 2>"$tmp/full.err"
rc=$?
err=$(cat "$tmp/full.err")
check "record -o - >/dev/full fails (exit $rc)" test "$rc" -ne 0
contains "and says the device is full" "$err" "writing - stopped: No space left on device"
check "with that one cause, no stray 'Invalid argument'" test "${err/Invalid argument/}" = "$err"
[ "${err/Invalid argument/}" = "$err" ] || diag "$err"
done_testing
