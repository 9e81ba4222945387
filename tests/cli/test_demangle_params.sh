#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_demangle_params.sh - C++ names with their parameter lists under
# -v, as perf 6.1 demangles them when verbose (DMGL_PARAMS in
# demangle_sym): a small C++ program compiled here (overloads, a method
# of a class in a namespace, a template), recorded by perf; perfkit
# report -v and script -v against perf's on the same file, and without
# -v the names alone, as before.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/report-perf.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export HOME=$tmp/home PERFKIT_BUILDID_DIR=$tmp/home/.debug
mkdir -p "$HOME"

if ! command -v g++ >/dev/null || ! command -v perf >/dev/null; then
	skip "C++ names against perf" "g++ or perf is not installed"
	done_testing
	exit 0
fi
cp "$(dirname "$0")/cxx-demangle.cc" cxx.cc
g++ -O1 -g -o cxx cxx.cc
perf record -q -e cpu-clock:u -F 999 -o cxx.data -- ./cxx 1500 >/dev/null 2>&1

same_as_perf cxx.data -v --sort sym
same_as_perf cxx.data --verbose --sort dso,sym -n --no-children
same_as_perf cxx.data --sort sym

# script: perf script -v's standard output (its debug lines go to stderr)
for args in "-v -F ip,sym,symoff" "--verbose -F comm,ip,sym,dso" "-F ip,sym"; do
	# shellcheck disable=SC2086
	theirs=$(perf script -i cxx.data $args 2>/dev/null)
	# shellcheck disable=SC2086
	ours=$("$PERFKIT" script -i cxx.data $args 2>"$tmp/err")
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
		ok "script $args equals perf's"
	else
		not_ok "script $args equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
done

# every C++ function of the program shows its parameters under -v, and
# none does without (the names perf prints by default)
verbose=$("$PERFKIT" script -i cxx.data -v -F ip,sym 2>/dev/null)
plain=$("$PERFKIT" script -i cxx.data -F ip,sym 2>/dev/null)
check "script -v names work(int), work(double, unsigned int), geo::Shape::area(int, char const*) or spin<long>(long)" \
	grep -qE 'work\(int\)|work\(double, unsigned int\)|geo::Shape::area\(int, char const\*\)|long spin<long>\(long\)' <<<"$verbose"
check "script without -v prints no parameter list" \
	bash -c '! grep -qE "work\(|area\(|spin<long>\(" <<<"$1"' _ "$plain"

done_testing
