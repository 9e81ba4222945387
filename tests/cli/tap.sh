# SPDX-License-Identifier: MIT
# tap.sh - a few lines of TAP for the CLI tests: check, JSON assertions in
# python3, and the plan at the end.  Sourced by test_*.sh; needs $PERFKIT.
set -u
: "${PERFKIT:?PERFKIT must name the perfkit binary}"
: "${PERFKIT_FIXTURES:=$(dirname "$0")/../fixtures}"
tap_n=0
tap_fail=0

# A description is one line of TAP: newlines (from a $(...) in it) become blanks.
ok() { tap_n=$((tap_n + 1)); echo "ok $tap_n - ${1//$'\n'/ }"; }
not_ok() { tap_n=$((tap_n + 1)); echo "not ok $tap_n - ${1//$'\n'/ }"; tap_fail=1; }
skip() { tap_n=$((tap_n + 1)); echo "ok $tap_n - ${1//$'\n'/ } # SKIP ${2//$'\n'/ }"; }
diag() { printf '%s\n' "$@" | sed 's/^/# /'; }

# check DESC CMD...: passes when CMD succeeds.
check() {
	local desc=$1
	shift
	if "$@"; then ok "$desc"; else not_ok "$desc"; fi
}

# run ARGS...: runs perfkit, leaving stdout in $out, stderr in $err, status in $rc.
run() {
	local o e
	o=$(mktemp) e=$(mktemp)
	"$PERFKIT" "$@" >"$o" 2>"$e"
	rc=$?
	out=$(cat "$o")
	err=$(cat "$e")
	rm -f "$o" "$e"
	# Under -fsanitize a memory error may still exit 1: catch its report.
	case $err in
	*Sanitizer* | *"runtime error:"*) not_ok "sanitizer report from perfkit $*"; diag "$err" ;;
	esac
}

# json_check DESC PYTHON: runs PYTHON with `d` bound to the JSON in $out;
# it passes when no assert fails.
json_check() {
	local desc=$1 msg
	if msg=$(printf '%s' "$out" | python3 -c "
import json, sys
d = json.load(sys.stdin)
$2
" 2>&1); then ok "$desc"; else not_ok "$desc"; diag "$msg"; fi
}

# expect_rc DESC WANT: the last run's status.
expect_rc() {
	if [ "$rc" -eq "$2" ]; then ok "$1"; else not_ok "$1"; diag "exit status $rc, want $2" "$err"; fi
}

# contains DESC HAYSTACK NEEDLE
contains() {
	case $2 in
	*"$3"*) ok "$1" ;;
	*) not_ok "$1"; diag "missing: $3" "in: $2" ;;
	esac
}

done_testing() {
	echo "1..$tap_n"
	exit $tap_fail
}
