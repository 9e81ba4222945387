#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_diff.sh - perfkit diff against perf diff 6.1 on the same files: two
# recordings of the workload whose hot function moves (hot: hot_a twice
# for each hot_b; hotb: the other way round), recorded by perf and by
# perfkit record, compared line for line for the default delta-abs, -c
# delta, ratio and wdiff, -p, -F, -b, -o 0, -q, other sort keys and the
# filters (-C, -d, -S, --pid, --tid, --cpu, --percentage), two
# events per file, the default file names, three and four files (-o N),
# -t and --time; --format folded (each
# column's total is its file's event count, as perf report gives it;
# with -c, samples x period) and flamegraph (an SVG of both profiles);
# and bad usage.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/diff-perf.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

if ! command -v perf >/dev/null; then
	skip "comparisons with perf diff" "perf is not installed"
else
	perf record -q -e cpu-clock -F 999 -o old.data -- "$W" hot 200 >/dev/null 2>&1
	perf record -q -e cpu-clock -F 999 -o new.data -- "$W" hotb 200 >/dev/null 2>&1
	"$PERFKIT" record -F 999 -o pk-old.data -- "$W" hot 200 >/dev/null 2>&1
	"$PERFKIT" record -F 999 -o pk-new.data -- "$W" hotb 200 >/dev/null 2>&1
	perf record -q -e cpu-clock,task-clock -F 999 -o two-old.data -- "$W" hot 150 >/dev/null 2>&1
	perf record -q -e task-clock,cpu-clock -F 999 -o two-new.data -- "$W" hotb 150 >/dev/null 2>&1

	# The workload's hot function moved: with -c delta the one that grew
	# most is on the first row, the one that shrank most on the last of
	# the pairs.
	run diff -c delta old.data new.data
	rows=$(printf '%s\n' "$out" | grep -v '^#')
	first=$(printf '%s\n' "$rows" | head -1)
	shrank=$(printf '%s\n' "$rows" | grep 'hot_a$')
	contains "hot_b grew most and leads -c delta's order" "$first" "[.] hot_b"
	case $first in *" +"[1-9]*) ok "by a positive delta" ;; *) not_ok "by a positive delta"; diag "$first" ;; esac
	case $shrank in *" -"[1-9]*) ok "hot_a shrank" ;; *) not_ok "hot_a shrank"; diag "$shrank" ;; esac

	for args in "" "-c delta" "-c ratio" "-c wdiff:1,2" "-c wdiff:3,-2" "-p" "-F" "-c ratio -p -F" \
		"-c delta -F" "-b" "-b -F" "-o 0" "-q" "-s sym" "-s comm,dso" "-s dso" "-s cpu,sym" \
		"-s pid,sym" "--percentage relative"; do
		# shellcheck disable=SC2086
		same_as_perf $args old.data new.data
	done
	# perf's filters: hidden rows still count in the totals (absolute) or
	# not (relative); a filter of one name leaves its key column out.
	wl=$(basename "$W")
	for args in "-S hot_a,hot_b" "-S hot_a" "-S hot_b,hot_a --percentage relative" "-d $wl" \
		"-d $wl -p -F" "-d $wl,[kernel.kallsyms] --percentage relative -F" "-C $wl" \
		"-C $wl -s comm,sym" "-C nosuch" "-S hot_a -c ratio -F --percentage relative"; do
		# shellcheck disable=SC2086
		same_as_perf $args old.data new.data
	done
	pid=$(perf script -i new.data -F pid 2>/dev/null | head -1 | tr -d ' ')
	same_as_perf --pid "$pid" -s pid,sym old.data new.data
	same_as_perf --tid "$pid" --percentage relative -s pid,sym old.data new.data
	same_as_perf pk-old.data pk-new.data
	same_as_perf -c ratio -F pk-old.data pk-new.data
	same_as_perf old.data pk-new.data
	same_as_perf -c delta pk-new.data new.data
	same_as_perf two-old.data two-new.data
	same_as_perf -c ratio -p two-new.data two-old.data
	same_as_perf new.data new.data

	# Three and four files: a "# Data files:" block, "/N" headers, -o N
	# ordering by file N's column; and -t's unpadded cells.
	perf record -q -e cpu-clock -F 999 -o third.data -- "$W" hot 100 >/dev/null 2>&1
	for args in "" "-c delta" "-c ratio" "-c wdiff:1,2" "-p" "-F" "-c ratio -p -F" "-c delta -F -p" \
		"-o 2" "-o 0" "-o 2 -c ratio" "-o 3 -c wdiff:2,3" "-b" "-q" "-s comm,sym" "-t ;" "-t , -p -F" \
		"-t | -c ratio -s comm,sym" "-t ; -c wdiff:2,3 -o 2" "-t : -q -c delta"; do
		# shellcheck disable=SC2086
		same_as_perf $args old.data new.data third.data pk-new.data
		# shellcheck disable=SC2086
		case $args in *3*) ;; *) same_as_perf $args old.data new.data third.data ;; esac
	done
	for args in "-t ;" "-t , -p -F -c ratio" "-t @ -c wdiff:1,2" "-t ; -s pid,sym"; do
		# shellcheck disable=SC2086
		same_as_perf $args old.data new.data
	done
	same_as_perf -t ';' two-old.data two-new.data
	run diff -o 3 old.data new.data third.data
	expect_rc "-o beyond three files: exit 2" 2
	run diff -t . old.data new.data
	expect_rc "-t .: exit 2, as perf refuses it" 2

	# --time: perf's shares of each file's span and its absolute ranges
	# (several separated by spaces; A:B one for each file).
	t0=$(perf script -i old.data -F time 2>/dev/null | head -1 | tr -d ' :')
	t1=$(perf script -i new.data -F time 2>/dev/null | head -1 | tr -d ' :')
	at() { awk -v t="$1" -v d="$2" 'BEGIN { printf "%.6f", t + d }'; }
	for t in "10%/2" "25%/4" "50%" "0%-10%,30%-40%" "20%/1,20%/3" "$(at "$t0" 0.5),$(at "$t0" 1.5)" \
		"$(at "$t0" 0.2)," ",$(at "$t0" 0.3)" "$(at "$t0" 0.1),$(at "$t0" 0.4) $(at "$t0" 0.6),$(at "$t0" 1)" \
		"$(at "$t0" 0.5),$(at "$t0" 1.5):$(at "$t1" 0.5),$(at "$t1" 1.5)" "10%/2:50%"; do
		same_as_perf --time "$t" -p old.data new.data
	done
	same_as_perf --time 10%/3 pk-old.data pk-new.data
	same_as_perf --time 0%-40% -c ratio old.data new.data third.data
	for t in 10%/0 5 "2,1" "50%,60%" "10%x"; do
		run diff --time "$t" old.data new.data
		expect_rc "--time '$t', which perf refuses: exit 2" 2
	done
	run diff --time "1,2:3,4" old.data new.data third.data
	expect_rc "--time A:B for three files (perf crashes): exit 2" 2

	# --cpu drops other CPUs' samples; a file without CPUs is refused as perf refuses it.
	perf record -q -a -e cpu-clock -F 999 -o a-old.data -- "$W" hot 150 >/dev/null 2>&1
	perf record -q -a -e cpu-clock -F 999 -o a-new.data -- "$W" hotb 150 >/dev/null 2>&1
	same_as_perf --cpu 0 -S hot_a,hot_b a-old.data a-new.data
	same_as_perf --cpu 0-1 -s comm,dso a-old.data a-new.data
	run diff --cpu 0 old.data new.data
	expect_rc "--cpu on a file without CPUs: exit 1" 1
	contains "saying so" "$err" "does not contain CPU events"

	# -c cycles on files without branch stacks: perf prints nothing.
	theirs=$(perf diff -c cycles old.data new.data 2>/dev/null)
	run diff -c cycles old.data new.data
	expect_rc "-c cycles without branch stacks: exit 1" 1
	check "and prints nothing, as perf" [ -z "$out$theirs" ]
	contains "saying why" "$err" "has no branch stacks"

	# --format folded: each stack with the old and the new weight; the
	# columns add up to each file's event count.
	perf record -q -g -e cpu-clock -c 1000000 -o g-old.data -- "$W" hot 200 >/dev/null 2>&1
	"$PERFKIT" record -g -e cpu-clock -c 1000000 -o g-new.data -- "$W" hotb 200 >/dev/null 2>&1
	for pair in "old.data new.data" "g-old.data g-new.data"; do
		set -- $pair
		run diff --format folded "$1" "$2"
		sums=$(printf '%s\n' "$out" | awk '{ a += $(NF - 1); b += $NF } END { print a + 0, b + 0 }')
		want=$(for f in "$1" "$2"; do perf report -i "$f" --stdio 2>/dev/null |
			awk '/^# Event count/ { print $NF }'; done | paste -sd' ')
		check "folded $pair: the columns add up to the event counts ($want)" [ "$sums" = "$want" ]
	done
	nsamples() { perf script -i "$1" -F tid 2>/dev/null | grep -c .; }
	check "folded g-*.data: with -c 1000000, samples x period" \
		[ "$sums" = "$(($(nsamples g-old.data) * 1000000)) $(($(nsamples g-new.data) * 1000000))" ]
	contains "a stack of hot_b in both columns" "$out" ";hot_b "
	bad=$(printf '%s\n' "$out" | awk 'NF < 2 || $(NF - 1) !~ /^[0-9]+$/ || $NF !~ /^[0-9]+$/')
	check "every folded line ends in two counts" [ -z "$bad" ]

	# --format flamegraph: the new profile's SVG with the old totals.
	run diff --format flamegraph --output diff.svg g-old.data g-new.data
	expect_rc "--format flamegraph --output: exit 0" 0
	check "the SVG is written" grep -q '<svg' diff.svg
	check "with the old profile's total" grep -q "oldTotal:$(echo "$sums" | cut -d' ' -f1)}" diff.svg
	check "and no temporary file left" [ -z "$(ls diff.svg.partial.* 2>/dev/null)" ]

	# No file named: perf.data.old against perf.data; one: perf.data.old against it.
	cp old.data perf.data.old
	cp new.data perf.data
	same_as_perf
	same_as_perf pk-new.data
	rm -f perf.data.old perf.data
fi

run diff -c nosuch a b
expect_rc "an unknown -c: exit 2" 2
contains "names the computations" "$err" "is not a computation"
run diff -c wdiff:1,0 a b
expect_rc "a zero wdiff weight: exit 2" 2
run diff --kallsyms=/proc/kallsyms a b
expect_rc "perf's --kallsyms is refused: exit 2" 2
contains "by name" "$err" "--kallsyms is not implemented"
run diff -o 2 a b
expect_rc "-o beyond two files: exit 2" 2
run diff --format folded a b c
expect_rc "--format with three files: exit 2" 2
run diff --sort nosuch a b
expect_rc "an unknown sort key: exit 2" 2
run diff --format pprof a b
expect_rc "a --format diff cannot write: exit 2" 2
run diff nosuch.data nosuch2.data
expect_rc "a missing file: exit 1" 1
contains "named" "$err" "nosuch.data"
done_testing
