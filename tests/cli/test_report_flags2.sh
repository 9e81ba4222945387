#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_flags2.sh - perf report 6.1's everyday flags in perfkit
# report: --time (perf's time strings: ranges, percentage slices; the
# slices named in each header), -U (no sample or frame without a symbol),
# --tasks and --mmaps (perf's task tree, with the maps), --switch-on/
# --switch-off/--show-on-off-events, each the same as perf's on the same
# file; and what holds without perf: two halves of a file add up to it,
# a forked child sits under its parent, the errors.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

. "$(dirname "$0")/report-perf.sh"

# same_text ARGS...: perfkit report ARGS prints what perf report prints,
# stdout and stderr (for --tasks and --mmaps, which have no tip line).
same_text() {
	local theirs ours
	theirs=$(perf report "$@" 2>&1)
	ours=$("$PERFKIT" report "$@" 2>&1)
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
		ok "report $* equals perf's"
	else
		not_ok "report $* equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)"
	fi
}

# samples FILE ARGS...: the "# Samples: N" of the table's one section.
samples() {
	local file=$1
	shift
	"$PERFKIT" report -i "$file" --stdio "$@" 2>/dev/null | sed -n 's/^# Samples: \([0-9]*\) .*/\1/p'
}

"$PERFKIT" record -F 999 -o mine.data -- "$W" hot 100 >/dev/null 2>&1
"$PERFKIT" record -F 999 -o kids.data -- "$W" children 3 >/dev/null 2>&1

# Percentage slices split the file's span without a gap or an overlap.
all=$(samples mine.data) first=$(samples mine.data --time 0%-50%) second=$(samples mine.data --time 50%-100%)
check "--time 0%-50% and 50%-100% add up to the whole file ($first + $second = $all)" \
	test -n "$all" -a "$all" -gt 0 -a "$((first + second))" = "$all"
run report -i mine.data --stdio --time 10%/2
contains "each section's header names the time slices" "$out" "' (time slices: 10%/2)"
run report -i mine.data --stdio --time abc
expect_rc "a malformed --time: exit 2" 2
contains "naming the string" "$err" "invalid --time string 'abc'"

# -U: every row has a symbol.
run report -i mine.data --stdio -U -q
check "-U leaves no row without a symbol" test -n "$out" -a -z "$(printf '%s\n' "$out" | grep -E '\[[.k]\] 0x')"

# --tasks: each forked child under its parent, as perf's tree prints it.
run report -i kids.data --tasks
parent=$(printf '%s\n' "$out" | awk '$3 == -1 && $1 != 0 { print $2; exit }')
kids=$(printf '%s\n' "$out" | awk -v p="$parent" '$3 == p && $4 == "|" { n++ } END { print n + 0 }')
check "--tasks: the three children under their parent $parent" test "$kids" = 3
contains "--tasks: the idle thread first" "$(printf '%s\n' "$out" | sed -n 2p)" "        0        0       -1 |swapper"
run report -i kids.data --mmaps
contains "--mmaps: the workload's executable map" "$out" " r-xp "

# -t: no padding but the numbers', the separator in a name turned into '.'.
run report -i mine.data --stdio -q -t _
contains "-t _: hot_a shows as hot.a" "$out" "_[.] hot.a"
contains "-t _: a percentage then its padding" "$(printf '%s\n' "$out" | head -1)" "% _"

run report -i mine.data --stdio --prefix-strip 2
expect_rc "--prefix-strip without --prefix: exit 2" 2
contains "with perf's words" "$err" "--prefix-strip requires --prefix"
run report -i mine.data --stdio --percent-type local
expect_rc "a --percent-type perf does not take: exit 2" 2

# --percentage relative: the shares of what the filter leaves, which the header counts.
run report -i mine.data --stdio --sort sym --symbols hot_a --percentage relative
contains "--percentage relative: the one symbol left is all of it" "$out" "   100.00%  [.] hot_a"
check "--percentage relative: the header counts its samples alone" \
	test "$(printf '%s\n' "$out" | sed -n 's/^# Samples: \([0-9]*\) .*/\1/p')" -lt "$all"
run report -i mine.data --stdio --percentage rel
expect_rc "--percentage takes perf's words only: exit 2" 2

run report -i mine.data --stdio --ignore-callees '('
expect_rc "a malformed --ignore-callees regex: exit 2" 2
contains "with perf's words" "$err" "Invalid --ignore-callees regex"

run report -i mine.data --stdio --kallsyms no-such-file
expect_rc "--kallsyms of a file that is not there: exit 1" 1
contains "with perf's words" "$err" "Invalid file: no-such-file"
# --disable-order: perf 6.1 reads in time order all the same (it takes
# the flag for -D only), so the table is the time-ordered one even where
# the file holds samples before their thread's COMM and MMAP (written from
# another CPU's ring); -D then dumps the records in the file's order.
same_as_perf mine.data --disable-order -q
# dump_same FILE ARGS...: perfkit report -D ARGS prints what perf's does.
dump_same() {
	local file=$1 theirs ours
	shift
	theirs=$(perf report -D -i "$file" "$@" 2>/dev/null | md5sum)
	ours=$("$PERFKIT" report -D -i "$file" "$@" 2>/dev/null | md5sum)
	check "$file: report -D $* equals perf's" test "$theirs" = "$ours"
}
dump_same mine.data --disable-order

run report -i mine.data --stdio --switch-on no-such-event
expect_rc "--switch-on of an event the file lacks: exit 1" 1
contains "with perf's words" "$err" "ERROR: switch-on event not found (no-such-event)"

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
	done_testing
	exit
fi

perf record -q -e cpu-clock -F 999 -o plain.data -- "$W" hot 100 >/dev/null 2>&1
perf record -q -g -e cpu-clock -F 999 -o graph.data -- "$W" hot 100 >/dev/null 2>&1
perf record -q -e cpu-clock -F 999 -o threads.data -- "$W" threads 3 >/dev/null 2>&1
perf record -q -e cpu-clock -F 999 -o children.data -- "$W" children 3 >/dev/null 2>&1

# Absolute ranges from the file's own sample times, picked at a tenth,
# two fifths and seven tenths of its samples (a loaded machine or ASan
# can leave far fewer than the hundred that 100 ms at 999 Hz would take;
# a fixed line number past the end made an empty, invalid string).
perf script -i plain.data -F time 2>/dev/null | tr -d ' :' >times
n=$(wc -l <times)
t1=$(sed -n "$((n / 10 + 1))p" times)
t2=$(sed -n "$((n * 4 / 10 + 1))p" times)
t3=$(sed -n "$((n * 7 / 10 + 1))p" times)
for t in 10%/2 0%-10%,30%-40% 50% "$t1,$t2" "$t1," ",$t2" "$t1,$t2 $t3,"; do
	same_as_perf plain.data --time "$t"
	same_as_perf mine.data --time "$t"
done
same_as_perf graph.data --time 25%/2
for extra in "" --no-children "-g none" "-g caller"; do
	same_as_perf graph.data -U $extra
done
same_as_perf plain.data -U
same_as_perf mine.data -U -n
for f in mine kids plain threads children; do
	same_text -i "$f.data" --tasks
	same_text -i "$f.data" --mmaps
done
same_as_perf plain.data --samples 5
for extra in "" "-n --show-total-period" "--sort dso,sym" -q; do
	# shellcheck disable=SC2086 # the flags are words
	same_as_perf graph.data -t ';' $extra
	same_as_perf mine.data -t ':' $extra
done

for extra in --show-cpu-utilization "--show-cpu-utilization -n -t ;" --tui --skip-empty \
	"--source --asm-raw -M intel --objdump /bin/true --prefix /x --prefix-strip 2 --percent-type hits-global"; do
	# shellcheck disable=SC2086 # the flags are words
	same_as_perf graph.data $extra
	# shellcheck disable=SC2086
	same_as_perf mine.data $extra
done
for extra in "--comms perfkit-workloa" "--sort sym --symbols hot_a" "--sort sym --symbols hot_a --no-children" \
	"--sort sym --symbols hot_a --percent-limit 2" "--sort sym --symbols hot_b -n -t ;"; do
	for pc in relative absolute; do
		# shellcheck disable=SC2086 # the flags are words
		same_as_perf graph.data --percentage $pc $extra
		# shellcheck disable=SC2086
		same_as_perf mine.data --percentage $pc $extra
	done
done
# --ignore-callees: the last match of perf's walk of the chain becomes the entry.
for extra in "" --no-children "-g caller --no-children" "-g callee" "-U --no-children"; do
	for re in hot_a '^sched|irq' schedule; do
		# shellcheck disable=SC2086 # the flags are words
		same_as_perf graph.data --ignore-callees "$re" $extra
	done
done
# --kallsyms: the kernel's symbols from the file given (one renamed in a copy).
sed 's/ \(finish_task_switch[.a-z0-9]*\)$/ pk_renamed_\1/' /proc/kallsyms >ks.txt
same_as_perf graph.data --kallsyms ks.txt
same_as_perf graph.data --kallsyms ks.txt --no-children --sort sym
# --disable-order on perf's own two-CPU recording (see mine.data above).
for extra in "" --no-children; do
	# shellcheck disable=SC2086 # the flags are words
	same_as_perf graph.data --disable-order $extra
done
dump_same graph.data --disable-order
# A file whose samples certainly come before the exec's COMM and MMAP in
# its order: the records of one CPU's ring moved to the front.
python3 - mine.data early.data <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', b, 40)
recs, pos = [], off
while pos < off + size:
    t, m, n = struct.unpack_from('<IHH', b, pos)
    recs.append((t, b[pos:pos + n]))
    pos += n
data = b''.join(r for t, r in recs if t == 9) + b''.join(r for t, r in recs if t != 9)
open(sys.argv[2], 'wb').write(b[:off] + data + b[off + size:])
PY
check "early.data: samples before the COMM in file order" \
	test "$("$PERFKIT" report -D -i early.data --disable-order 2>/dev/null | grep -m1 -o 'PERF_RECORD_\(SAMPLE\|COMM exec\)')" = PERF_RECORD_SAMPLE
same_as_perf early.data --disable-order -q
dump_same early.data --disable-order
# --show-ref-call-graph: the header of an event recorded with call-graph=no says so.
perf record -q -g -e cpu-clock/call-graph=no/ -e task-clock -F 999 -o ref.data -- "$W" hot 50 >/dev/null 2>&1
theirs=$(perf report -i ref.data --stdio --show-ref-call-graph 2>/dev/null | grep '^# Samples')
ours=$("$PERFKIT" report -i ref.data --stdio --show-ref-call-graph 2>/dev/null | grep '^# Samples')
check "--show-ref-call-graph: each section's header as perf's" test -n "$ours" -a "$ours" = "$theirs"

if perf record -q -e cpu-clock -e sched:sched_switch -F 999 -o switch.data -- "$W" pingpong 2000 >/dev/null 2>&1; then
	for args in "--switch-on sched:sched_switch" "--switch-off sched:sched_switch" \
		"--switch-on sched:sched_switch --switch-off cpu-clock" \
		"--switch-on cpu-clock --switch-off sched:sched_switch --show-on-off-events" \
		"--time 20%/3 --switch-off cpu-clock --show-on-off-events"; do
		# shellcheck disable=SC2086 # the flags are words
		same_as_perf switch.data $args
	done
else
	skip "--switch-on/--switch-off against perf" "no sched:sched_switch here"
fi

done_testing
