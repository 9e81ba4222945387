#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report.sh - perfkit report against perf report 6.1 on the same
# files: recorded by perf (plain, -c, --no-inherit, a forking and a
# threaded workload, -a with two events) and by perfkit record, the same
# table byte for byte (rows, percentages, counts, widths, the '#' lines
# but perf's random tip) for each sort key, -n, --show-total-period,
# --percent-limit, -q and the filters; and bad input: a missing file,
# not a perf.data file, an unknown sort key, another user's file, a
# damaged data section.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

. "$(dirname "$0")/report-perf.sh"

# a file's first row's tid for --sort pid (perf's "TID:comm")
first_tid() { perf report -i "$1" --stdio -q --sort pid 2>/dev/null | awk 'NR == 1 { sub(/:.*/, "", $2); print $2 }'; }

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
else
	perf record -q -e cpu-clock -F 999 -o plain.data -- "$W" hot 200 >/dev/null 2>&1
	perf record -q -e cpu-clock -c 250000 -o count.data -- "$W" hot 150 >/dev/null 2>&1
	perf record -q -e task-clock -F 2000 --no-inherit -o noinherit.data -- "$W" children 20 >/dev/null 2>&1
	perf record -q -e cpu-clock -F 5000 -o fork.data -- "$W" children 30 >/dev/null 2>&1
	perf record -q -e cpu-clock -F 5000 -o threads.data -- "$W" threads 8 >/dev/null 2>&1
	"$PERFKIT" record -F 999 -o perfkit.data -- "$W" hot 200 >/dev/null 2>&1
	# fork.data, threads.data and noinherit.data need records in time
	# order: a thread's first samples may come before its FORK or COMM in
	# file order (they sit in another CPU's buffer).
	for f in plain.data count.data noinherit.data fork.data threads.data perfkit.data; do
		same_as_perf "$f" --sort comm,pid,dso,cpu
		same_as_perf "$f" -n --show-total-period --sort pid,comm
	done
	for key in comm pid dso cpu period; do
		same_as_perf plain.data --sort "$key" -n
	done
	# empty words in --sort are skipped, as perf's tokenizer skips them
	same_as_perf plain.data --sort ,comm,,dso,
	same_as_perf plain.data --sort comm,dso --percent-limit 5 --show-total-period
	same_as_perf perfkit.data --sort dso,comm --percent-limit 5
	same_as_perf fork.data -q --sort pid,dso
	same_as_perf fork.data --sort comm,pid --comms perfkit-workloa
	same_as_perf fork.data --sort cpu,pid --comms perfkit-workloa,nosuch
	same_as_perf fork.data --sort pid,dso --pid "$(first_tid fork.data)"
	same_as_perf fork.data --sort pid,dso --tid "$(first_tid fork.data)"
	same_as_perf perfkit.data --sort comm,dso --dsos perfkit-workload
	same_as_perf perfkit.data --sort dso --dsos '[kernel.kallsyms],perfkit-workload'
	# a column one name fills is named on its own line, under -q too
	same_as_perf perfkit.data -q --sort comm,dso --dsos perfkit-workload
	same_as_perf fork.data -q --sort comm,pid --comms perfkit-workloa
	same_as_perf perfkit.data -q --dsos nosuch
	run report -i perfkit.data --stdio --cpu 0
	expect_rc "--cpu on a file without CPU numbers: exit 1" 1
	contains "with perf's reason" "$err" "does not contain CPU events: remove --cpu to proceed"

	# -a with two events: one section each, every process of the machine.
	# The machine runs other people's programs meanwhile (execs, JITs):
	# the tables compared whole are those of the workload and of the
	# kernel, and those by comm and CPU.
	perf record -q -a -e cpu-clock,task-clock -F 999 -o all.data -- "$W" hot 150 >/dev/null 2>&1
	same_as_perf all.data --sort comm,pid,dso,cpu -n --show-total-period --comms perfkit-workloa
	same_as_perf all.data --sort comm,cpu --percent-limit 1
	same_as_perf all.data --sort cpu,comm --cpu 1
	same_as_perf all.data --sort cpu,dso,comm --dsos '[kernel.kallsyms]'
	# --cpu that leaves no sample: perf's first line only, and a word on stderr
	perf record -q -C 0 -e cpu-clock -F 999 -o cpu0.data -- "$W" hot 100 >/dev/null 2>&1
	same_as_perf cpu0.data --sort cpu,comm --cpu 1
	contains "cpu0.data: --cpu 1 says no sample is left" "$(cat "$tmp/err")" "has no samples (after the filters)"
	ours=$("$PERFKIT" report -i all.data --stdio --sort comm,dso | grep '^# Samples: .* of event ')
	theirs=$(perf report -i all.data --stdio --sort comm,dso 2>/dev/null | grep '^# Samples: .* of event ')
	check "all.data: one section per event with samples, as perf's" test -n "$ours" -a "$ours" = "$theirs"

	# tid, a key perf 6.1 lacks: the same threads and counts as its pid key.
	theirs=$(perf report -i threads.data --stdio -q -n --sort pid 2>/dev/null |
		awk 'NF { sub(/:.*/, "", $3); print $3, $2 }' | sort)
	ours=$("$PERFKIT" report -i threads.data --stdio -q -n --sort tid | awk 'NF { print $3, $2 }' | sort)
	check "--sort tid: each thread's samples as perf's pid key counts them" test -n "$ours" -a "$theirs" = "$ours"

	# sym: resolved as perf prints them ([.] main, [k] do_syscall_64),
	# unresolved addresses relative to their map.
	for f in plain.data fork.data threads.data perfkit.data; do
		same_as_perf "$f" --sort comm,dso,sym
		same_as_perf "$f" --sort sym -n
		same_as_perf "$f" --sort pid,comm,dso,sym
	done
	"$PERFKIT" report -i plain.data --stdio >default.txt
	check "perf's default keys: comm, dso, sym" grep -Eq '^# Overhead  Command +Shared Object +Symbol +$' default.txt

	# A data section damaged half-way: the record size of the middle record
	# becomes 3.  The rows before it, a warning naming its offset, exit 0.
	read -r off before < <(python3 - plain.data damaged.data <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
start, size = struct.unpack_from('<QQ', b, 40)
recs, p = [], start
while p < start + size:
    t, m, s = struct.unpack_from('<IHH', b, p)
    recs.append((p, t))
    p += s
mid = len(recs) // 2
struct.pack_into('<H', b, recs[mid][0] + 6, 3)
open(sys.argv[2], 'wb').write(b)
print(recs[mid][0], sum(1 for r in recs[:mid] if r[1] == 9))
EOF
)
	run report -i damaged.data --stdio --sort comm
	expect_rc "damaged data section: exit 0 with the rows before the damage" 0
	contains "damaged data section: the samples before it are counted ($before)" "$out" "# Samples: $before  of event"
	contains "damaged data section: the warning names the record's offset" "$err" "offset $off"
	contains "damaged data section: it is a warning" "$err" "warning:"

	# perf's ownership check: another user's file only with -f.
	if [ "$(id -u)" -eq 0 ] && cp plain.data other.data && chown nobody other.data; then
		run report -i other.data --stdio
		expect_rc "a file another user owns is refused" 1
		contains "with perf's message" "$err" "File other.data not owned by current user or root (use -f to override)"
		run report -i other.data --stdio -f
		expect_rc "-f reads it" 0
	else
		skip "the ownership check" "not root, or chown failed"
	fi

	# --format -o DEVICE: written into, never replaced by a regular file
	# (as root, -o /dev/null must leave the machine's /dev/null alone).
	if [ "$(id -u)" -eq 0 ] && mknod fakenull c 1 3; then
		for fmt in folded json pprof; do
			run report -i plain.data --format=$fmt -o fakenull
			check "--format=$fmt -o DEVICE: exit 0, still a character device, no partial file" \
				sh -c 'test "$1" -eq 0 -a -c fakenull && ! ls fakenull.* >/dev/null 2>&1' sh "$rc"
		done
		"$PERFKIT" diff plain.data plain.data --format=folded --output fakenull >/dev/null 2>&1
		check "diff --output DEVICE: exit 0, still a character device ($?)" test -c fakenull
		run report -i plain.data --format=folded -o plain.folded
		check "--format=folded -o FILE: a regular file with the stacks" \
			sh -c 'test -f plain.folded && grep -q "hot_a" plain.folded'
	else
		skip "--format -o DEVICE" "needs root for mknod"
	fi
fi

run report -i missing.data --stdio
expect_rc "a missing file: exit 1" 1
contains "it says so as perf does" "$err" "failed to open missing.data: No such file or directory"
run report --stdio
contains "no -i and no perf.data: perf's hint to record first" "$err" "failed to open perf.data: No such file or directory  (try 'perfkit record' first)"
printf 'this is not a perf.data file, only some text in one\n' >text.data
run report -i text.data --stdio
expect_rc "not a perf.data file: exit 1" 1
contains "it names the file" "$err" "text.data"
run report -i plain.data --stdio --sort comx,dso
expect_rc "an unknown sort key: exit 2" 2
contains "with the nearest key" "$err" "unknown --sort key 'comx': did you mean 'comm'?"
run report -i plain.data --stdio --percent-limit abc
expect_rc "--percent-limit abc: exit 2" 2

done_testing
