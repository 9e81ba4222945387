#!/bin/sh
# SPDX-License-Identifier: MIT
# fuzz-all.sh - build the clang libFuzzer build (ASan+UBSan, the library
# instrumented for coverage) and run every fuzz target for a set time, two
# at a time (the VM has two CPUs), each from its committed corpus into a
# scratch corpus, then print one row per target: executions, executions a
# second, coverage (the last "cov:" of libFuzzer's output: edges reached)
# and findings (crash-, leak-, timeout- and oom- files written).  Not CI:
# the replay tests (suite unit) are what CI runs.  Findings are left in
# $FUZZ_OUT/<target>/ with each run's log; minimise one with
# `<binary> -minimize_crash=1 <file>`, commit it to the target's corpus and
# add the regression test.  UBSan findings stop the run (halt_on_error).
# usage: bench/fuzz-all.sh [SECONDS-PER-TARGET] [TARGET...]
#        (default 60 and every target; FUZZ_BUILD, default build-fuzz, is
#        the build directory; FUZZ_OUT, default a new temporary directory,
#        keeps the logs and findings; FUZZ_JOBS, default 2, runs at once)
set -eu
SECS=${1:-60}
[ $# -gt 0 ] && shift
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${FUZZ_BUILD:-$SRC/build-fuzz}
OUT=${FUZZ_OUT:-$(mktemp -d "${TMPDIR:-/tmp}/fuzz-all.XXXXXX")}
JOBS=${FUZZ_JOBS:-2}
TARGETS=${*:-events tracefs tracing host elf num record ring lists pmu writer reader reader_dir unwind symbols srcline features cli metric_expr btf branch}

command -v clang >/dev/null || { echo "needs clang (apt-get install clang)" >&2; exit 1; }
if [ ! -f "$BUILD/build.ninja" ]; then
	CC=clang meson setup "$BUILD" "$SRC" -Db_sanitize=address,undefined \
		-Db_lundef=false -Dc_args=-fsanitize=fuzzer-no-link >"$OUT/setup.log" 2>&1 ||
		{ cat "$OUT/setup.log" >&2; exit 1; }
fi
# binary, corpus directory and -max_len of a target
binary() {
	case $1 in
	record) echo "$BUILD/tests/unit/record/fuzz_record" ;;
	*) echo "$BUILD/fuzz/fuzz_$1" ;;
	esac
}
corpus() {
	case $1 in
	record) echo "$SRC/tests/fixtures/records" ;;
	*) echo "$SRC/fuzz/corpus/$1" ;;
	esac
}
maxlen() {
	case $1 in
	events) echo 512 ;; num) echo 64 ;; elf) echo 16384 ;; lists) echo 256 ;; unwind) echo 8192 ;;
	symbols) echo 32768 ;; srcline) echo 32768 ;; tracing) echo 16384 ;; cli) echo 1024 ;; reader_dir) echo 16384 ;; branch) echo 8192 ;;
	*) echo 4096 ;;
	esac
}

# Only the fuzz binaries: the rest of the tree is built and tested by make check.
bins=
for t in $TARGETS; do bins="$bins $(binary "$t" | sed "s|^$BUILD/||")"; done
ninja -C "$BUILD" $bins >"$OUT/build.log" 2>&1 || { tail -30 "$OUT/build.log" >&2; exit 1; }

# run TARGET: fuzz it for SECS seconds in $OUT/TARGET.
run() {
	t=$1 dir=$OUT/$1
	mkdir -p "$dir/corpus"
	(cd "$dir" && PERFKIT_SRCDIR=$SRC PERFKIT_FIXTURES=$SRC/tests/fixtures \
		LSAN_OPTIONS=suppressions=$SRC/fuzz/lsan-libtraceevent.supp \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
		"$(binary "$t")" -max_len="$(maxlen "$t")" -timeout=10 -rss_limit_mb=2048 \
		-max_total_time="$SECS" -print_final_stats=1 -artifact_prefix="$dir/" \
		corpus "$(corpus "$t")" >"$dir/log" 2>&1) || true
}

set -- $TARGETS
while [ $# -gt 0 ]; do
	pids=
	n=0
	while [ $# -gt 0 ] && [ $n -lt "$JOBS" ]; do
		run "$1" &
		pids="$pids $!"
		n=$((n + 1))
		shift
	done
	for p in $pids; do wait "$p"; done
done

printf '%-8s %12s %9s %7s %8s\n' target execs execs/s cov findings
for t in $TARGETS; do
	log=$OUT/$t/log
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	found=$(find "$OUT/$t" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o \
		-name 'timeout-*' -o -name 'oom-*' \) | wc -l)
	# a run stopped by a finding prints no final stats: count the runs
	[ -n "$execs" ] || execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
	printf '%-8s %12s %9s %7s %8s\n' "$t" "${execs:-?}" "${rate:-?}" "${cov:-?}" "$found"
done
echo "logs and findings: $OUT"
