#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_stat_space.sh - perfkit stat --all-user and --all-kernel: the attrs
# perf 6.1 opens (exclude_kernel or exclude_user over every event, whatever
# its modifiers), the counts a user sees change accordingly, and the two
# refusing each other.
. "$(dirname "$0")/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# excl: the exclude_* lines of -v's attr blocks.
excl() { printf '%s\n' "$1" | grep -E '^  exclude_[a-z_]+ '; }
# Page faults that happen in user space: python3 touches 2000 fresh pages.
cat >"$tmp/touch.py" <<'PY'
import mmap
m = mmap.mmap(-1, 2000 * 4096)
for i in range(0, 2000 * 4096, 4096):
    m[i] = 1
PY
pf() { printf '%s\n' "$1" | awk -F, '$3 == "page-faults" { print $1 }'; }

run stat -x, --all-user -e page-faults -- python3 "$tmp/touch.py"
expect_rc "--all-user runs" 0
u=$(pf "$err")
run stat -x, --all-kernel -e page-faults -- python3 "$tmp/touch.py"
expect_rc "--all-kernel runs" 0
k=$(pf "$err")
check "--all-user counts the 2000 user-space page faults (got $u)" test "${u:-0}" -ge 2000
check "--all-kernel leaves them out ($k < $u / 2)" test "${k:-0}" -lt $((u / 2))
contains "names stay as written (no :u)" "$err" ",page-faults,"

run stat -v --all-user -e 'page-faults:k' -- true
check "--all-user overrides :k: exclude_kernel set, exclude_user clear" \
	sh -c 'printf "%s\n" "$1" | grep -q "^  exclude_kernel *1" && ! printf "%s\n" "$1" | grep -q "^  exclude_user "' sh "$err"
mine_u=$(excl "$err")
run stat -v --all-kernel -e page-faults,task-clock -- true
check "--all-kernel: exclude_user on every event" \
	test "$(printf '%s\n' "$err" | grep -c '^  exclude_user *1')" -eq 2
mine_k=$(excl "$err")

run stat --all-user --all-kernel -e page-faults -- true
expect_rc "--all-user with --all-kernel is a usage error" 2
contains "... saying so" "$err" "exclude each other"

if command -v perf >/dev/null; then
	check "--all-user's exclude bits are perf's" \
		test "$mine_u" = "$(excl "$(perf stat -vv --all-user -e 'page-faults:k' -- true 2>&1)")"
	check "--all-kernel's exclude bits are perf's" \
		test "$mine_k" = "$(excl "$(perf stat -vv --all-kernel -e page-faults,task-clock -- true 2>&1)")"
else
	skip "--all-user's exclude bits are perf's" "perf is not installed"
	skip "--all-kernel's exclude bits are perf's" "perf is not installed"
fi
done_testing
