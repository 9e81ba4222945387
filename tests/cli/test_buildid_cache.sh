#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_buildid_cache.sh - perfkit record fills the build-id cache the way
# perf does, so perf finds perfkit's entries (buildid-list ids are there,
# buildid-cache -l lists them) and perf report still names the functions
# of a binary that was rebuilt since; -N writes nothing; the directory
# comes from PERFKIT_BUILDID_DIR, PERF_BUILDID_DIR, perf's buildid.dir or
# HOME; a cache that cannot be written, or that holds a link leading out,
# costs a warning and never the recording or anything outside the cache.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
unset PERFKIT_BUILDID_DIR PERF_BUILDID_DIR PERF_CONFIG
export PERF_CONFIG_NOSYSTEM=1	# /etc/perfconfig is this machine's, not the test's
command -v perf >/dev/null || { echo "1..0 # SKIP perf is not installed"; exit 0; }
command -v cc >/dev/null || { echo "1..0 # SKIP no C compiler"; exit 0; }

# prog FUNC N: ./prog spends its time in a function named FUNC; N changes
# the code too (ld's build-id hashes the loaded sections, not the names).
prog() {
	cat >prog.c <<EOF
volatile unsigned long sink;
__attribute__((noinline)) void $1(void)
{
	for (unsigned long i = 0; i < 300000000UL; i++)
		sink += i ^ $2;
}
int main(void) { $1(); return 0; }
EOF
	cc -O1 -Wl,--build-id -o prog prog.c
}
# record HOME ARGS...: perfkit record of ./prog with HOME as given.
record() {
	local home=$1
	shift
	mkdir -p "$home"
	HOME=$home run record -e cpu-clock -F 2000 "$@" -- ./prog
}

prog old_spin 1
old_id=$(perf buildid-list -i prog 2>/dev/null | head -1)
check "the workload has a build-id" test -n "$old_id"

record "$tmp/h1" -o old.data
check "record with the default cache exits 0 (got $rc)" test "$rc" -eq 0
missing=0 ids=0
while read -r id name; do
	ids=$((ids + 1))
	[ -e "$tmp/h1/.debug/.build-id/${id:0:2}/${id:2}" ] || { missing=$((missing + 1)); diag "no entry: $id $name"; }
done < <(perf buildid-list -i old.data 2>/dev/null)
check "every id perf buildid-list reads from the file is in HOME/.debug ($ids ids)" \
	test "$ids" -ge 1 -a "$missing" -eq 0
check "the workload's own binary is among them" test -f "$tmp/h1/.debug$PWD/prog/$old_id/elf"
listed=$(HOME=$tmp/h1 perf buildid-cache -l 2>/dev/null)
contains "perf buildid-cache -l lists the workload" "$listed" "$old_id $PWD/prog"

# Rebuilt: another build-id, the old function gone from the file.
record "$tmp/h2" -N -o nocache.data
prog new_spin 2
check "the rebuilt workload has another build-id" \
	test "$(perf buildid-list -i prog 2>/dev/null | head -1)" != "$old_id"
report=$(HOME=$tmp/h1 perf report -i old.data --stdio --sort dso,sym 2>/dev/null)
contains "perf report still finds old_spin, from the cache" "$report" "old_spin"
report=$(HOME=$tmp/h2 perf report -i nocache.data --stdio --sort dso,sym 2>/dev/null)
check "without the cache (-N) it cannot: the control" sh -c '! printf "%s" "$1" | grep -q old_spin' sh "$report"
check "-N wrote no cache at all" test ! -e "$tmp/h2/.debug"

# Where the cache is.
mkdir -p pk pf
PERFKIT_BUILDID_DIR=$tmp/pk PERF_BUILDID_DIR=$tmp/pf record "$tmp/h3" -o a.data
check "PERFKIT_BUILDID_DIR comes first" test -d "$tmp/pk/.build-id" -a ! -e "$tmp/pf/.build-id" -a ! -e "$tmp/h3/.debug"
PERF_BUILDID_DIR=$tmp/pf record "$tmp/h3" -o a.data
check "then PERF_BUILDID_DIR" test -d "$tmp/pf/.build-id" -a ! -e "$tmp/h3/.debug"
mkdir -p "$tmp/h4"
printf '[buildid]\n\tdir = "%s/cfg" # perf config syntax\n' "$tmp" >"$tmp/h4/.perfconfig"
record "$tmp/h4" -o a.data
check "then perf's buildid.dir in ~/.perfconfig" test -d "$tmp/cfg/.build-id" -a ! -e "$tmp/h4/.debug"
HOME=$tmp/h4 perf buildid-cache -l 2>/dev/null | grep -q "$PWD/prog"
check "perf reads the same setting and finds the entries there" test $? -eq 0

# A cache that cannot be written: a warning, the file whole.
: >plainfile
PERFKIT_BUILDID_DIR=$tmp/plainfile/cache record "$tmp/h5" -o b.data
check "an unwritable cache does not fail the recording (got $rc)" test "$rc" -eq 0
contains "it says so in a warning" "$err" "could not be put into the build-id cache"
check "the file is whole: perf reads it" sh -c 'perf script -i b.data >/dev/null 2>&1'

# A link planted in the cache leads nowhere outside it.
mkdir -p trap/cache outside
first=${PWD#/}
first=${first%%/*}
ln -s "$tmp/outside" "trap/cache/$first"
PERFKIT_BUILDID_DIR=$tmp/trap/cache record "$tmp/h6" -o c.data
check "a link in the cache does not fail the recording (got $rc)" test "$rc" -eq 0
contains "the warning names the link" "$err" "symbolic link"
check "nothing was written through it" test -z "$(ls -A outside)"

echo "1..$tap_n"
exit "$tap_fail"
