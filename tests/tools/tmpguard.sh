#!/bin/sh
# SPDX-License-Identifier: MIT
# tmpguard.sh - meson's default wrapper around every test (tests/meson.build,
# test setup 'tmpguard'): runs the test with TMPDIR set to a fresh, empty
# directory of its own under $PERFKIT_TEST_TMP (the build tree's tests-tmp/),
# and fails the test, naming what it left and then removing it, when that
# directory is not empty afterwards.  The tests make every temporary file
# and tree under $TMPDIR, so a test that passes but litters fails here.
base=${PERFKIT_TEST_TMP:?PERFKIT_TEST_TMP must name the tests\' scratch directory}
mkdir -p "$base" || exit 1
dir=$(mktemp -d "$base/test-XXXXXX") || exit 1
# Like /tmp: tests that drop to another user (nobody) still work in it.
chmod 1777 "$dir" || exit 1
TMPDIR=$dir "$@"
rc=$?
left=$(cd "$dir" && ls -A)
if [ -n "$left" ]; then
	echo "tmpguard: $* left in its TMPDIR:" $left >&2
	[ "$rc" -eq 0 ] && rc=1
fi
rm -rf "$dir"
exit "$rc"
