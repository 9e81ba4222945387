# SPDX-License-Identifier: MIT
# tap.sh - TAP for the export tests: `ok STATUS DESC [DIAG]` passes when
# STATUS is 0 (printing DIAG as comments when it fails), `done_testing`
# prints the plan and sets the exit status; `need_pprof` sets $pprof to
# Google's pprof, built once into the build tree from Debian's source.
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
need_pprof() {
	pprof="$PERFKIT_TOOLS_DIR/pprof"
	[ -x "$pprof" ] && return 0
	if [ ! -d /usr/share/gocode/src/github.com/google/pprof ] || ! command -v go >/dev/null; then
		ok 1 "pprof can be built" "golang-go and golang-github-google-pprof-dev are missing: run scripts/deps.sh"
		return 1
	fi
	mkdir -p "$PERFKIT_TOOLS_DIR"
	# offline, from Debian's GOPATH layout; renamed into place, so two
	# tests building it at once never run a half-written binary
	new=$(mktemp "$PERFKIT_TOOLS_DIR/pprof.XXXXXX")
	if ! GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE="$PERFKIT_TOOLS_DIR/gocache" GOFLAGS= \
		HOME="$PERFKIT_TOOLS_DIR" go build -o "$new" github.com/google/pprof; then
		rm -f "$new"
		ok 1 "pprof can be built from /usr/share/gocode"
		return 1
	fi
	mv "$new" "$pprof"
}
