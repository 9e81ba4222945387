# SPDX-License-Identifier: MIT
# tap.sh - TAP for the export tests: `ok STATUS DESC [DIAG]` passes when
# STATUS is 0 (printing DIAG as comments when it fails), `done_testing`
# prints the plan and sets the exit status.
set -u
tap_n=0
tap_fail=0
ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_fail=1
		[ $# -gt 2 ] && printf '%s\n' "$3" | sed 's/^/# /'
	fi
	return 0
}
done_testing() {
	echo "1..$tap_n"
	exit $tap_fail
}
