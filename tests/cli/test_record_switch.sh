#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_record_switch.sh - perf record's several-file flags in perfkit
# record: --switch-output on SIGUSR2 (driven by FIFO handshakes, never by
# sleeping), by size and by time, each file named FILE.<timestamp> as perf
# names it and read alone by perf report, perf script and perfkit report,
# the samples of the files adding up to what the command did;
# --switch-max-files deleting only the files this run made;
# --timestamp-filename; --max-size stopping with the file whole; and
# --mmap-flush as perf clamps it, losing nothing.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
have_perf=1
command -v perf >/dev/null || have_perf=0
W=$PERFKIT_WORKLOAD
stamp='[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]'

# workload_samples FILE: perf script's samples of the workload's own comm.
wcomm=$(basename "$W" | cut -c1-15)
workload_samples() { perf script -i "$1" -F comm,event 2>/dev/null | grep -c "^ *$wcomm *page-faults"; }

# 1. SIGUSR2: the command says it is ready through one FIFO, we signal,
# read perfkit's messages until the first file is dumped, then let the
# command go on through another.  Two files, each whole.
# After the switch the shell spins in its own loop: cpu-clock samples of a
# process that began before the second file did.
mkfifo ready go msgs
"$PERFKIT" record -e 'page-faults/period=1/,cpu-clock' -o sw.data --switch-output -- \
	sh -c "$W pages 3000; echo > ready; read x < go; i=0; while [ \$i -lt 100000 ]; do i=\$((i+1)); done; $W pages 3000" 2>msgs &
pid=$!
exec 3<msgs
read -r _ <ready
kill -USR2 "$pid"
log=""
while IFS= read -r line <&3; do
	log="$log$line"$'\n'
	case $line in *"Dump sw.data."*) break ;; esac
done
echo >go
while IFS= read -r line <&3; do log="$log$line"$'\n'; done
exec 3<&-
wait "$pid"
rc=$?
check "record --switch-output exits 0 (got $rc)" test "$rc" -eq 0
files=$(ls sw.data.$stamp 2>/dev/null)
n=$(printf '%s\n' "$files" | grep -c .)
check "SIGUSR2 made two files named sw.data.<YYYYmmddHHMMSScc> ($n)" test "$n" -eq 2
check "nothing else is left: no sw.data, no partial file" \
	test "$(ls | grep -c '^sw\.data')" -eq 2
contains "the switch is announced as perf does" "$log" "[ perfkit record: dump data: Woken up"
first=$(printf '%s\n' "$files" | head -1)
last=$(printf '%s\n' "$files" | tail -1)
contains "each file is announced by its name" "$log" "[ perfkit record: Dump $first ]"
contains "the last one too" "$log" "[ perfkit record: Dump $last ]"
contains "the summary names FILE.<timestamp>" "$log" "sw.data.<timestamp>"
if [ "$have_perf" -eq 1 ]; then
	a=$(workload_samples "$first") b=$(workload_samples "$last")
	check "perf script reads the first file: the first command's 3000 faults ($a)" test "$a" -ge 3000
	check "and the second file: the second command's 3000 faults ($b)" test "$b" -ge 3000
	# The shell lives across the switch: the second file names it only
	# because its process was synthesized again.
	unknown=$(perf script -i "$last" -F comm,pid 2>/dev/null | grep -c '^ *:[0-9]')
	check "the second file reads alone: no sample of an unnamed thread ($unknown)" test "$unknown" -eq 0
	shs=$(perf script -i "$last" -F comm 2>/dev/null | grep -c '^ *sh *$')
	check "and the shell's samples there carry its name ($shs)" test "$shs" -ge 1
	for f in $first $last; do
		out=$(perf report -i "$f" --stdio 2>&1)
		contains "perf report reads $f" "$out" "of event 'page-faults"
		want=$(printf '%s\n' "$out" | grep '^# Samples:')
		run report -i "$f" --stdio
		got=$(printf '%s\n' "$out" | grep '^# Samples:')
		check "perfkit report reads $f as perf does ($got)" test -n "$want" -a "$got" = "$want"
	done
	tail_n=$(printf '%s' "$log" | sed -n 's/.*Captured and wrote .* (\([0-9]*\) samples).*/\1/p')
	total=$(perf script -i "$last" 2>/dev/null | grep -c .)
	check "the summary counts the last file's samples ($tail_n, perf: $total)" test "$tail_n" = "$total"
else
	skip "the files read in perf" "no perf"
fi

# 1a. The next file cannot be begun: after one switch, a directory takes
# the name the next file's set-up checks (a read-only directory would not
# stop root).  The second SIGUSR2 fails: perfkit says why, stops, exits 1,
# and the two files written so far are whole, counted, and read by perf.
rm -f ready go msgs
mkfifo ready go msgs
"$PERFKIT" record -e 'page-faults/period=1/' -o ab.data --switch-output -- \
	sh -c "$W pages 3000; echo > ready; read x < go; $W pages 3000; echo > ready; read x < go; $W pages 3000" 2>msgs &
pid=$!
exec 3<msgs
# upto TEXT: read perfkit's messages into log until a line has TEXT.
upto() { while IFS= read -r line <&3; do log="$log$line"$'\n'; case $line in *"$1"*) return 0 ;; esac; done; return 1; }
log=""
read -r _ <ready
kill -USR2 "$pid"
upto "Dump ab.data."
echo >go
read -r _ <ready
mkdir ab.data
kill -USR2 "$pid"
upto "could not go on"
# The command may be gone already: open the FIFO read-write, never blocking.
exec 4<>go
echo >&4
while IFS= read -r line <&3; do log="$log$line"$'\n'; done
exec 3<&- 4<&-
wait "$pid"
rc=$?
check "a --switch-output whose next file cannot be begun exits 1 (got $rc)" test "$rc" -eq 1
contains "naming what is in the way" "$log" "ab.data is a directory"
contains "and saying the recording stopped with its files whole" "$log" \
	"--switch-output could not go on to the next file: recording stopped; the files written so far are whole"
files=$(ls ab.data.$stamp 2>/dev/null)
n=$(printf '%s\n' "$files" | grep -c .)
check "the file before the failed switch and the one it kept, nothing partial ($n; $(ls | grep -c partial) partial)" \
	test "$n" -eq 2 -a "$(ls | grep -c partial)" -eq 0
if [ "$have_perf" -eq 1 ]; then
	first=$(printf '%s\n' "$files" | head -1)
	last=$(printf '%s\n' "$files" | tail -1)
	a=$(workload_samples "$first") b=$(workload_samples "$last")
	check "perf reads the first file: the first command's 3000 faults ($a)" test "$a" -ge 3000
	check "and the kept one: the second command's 3000 faults ($b)" test "$b" -ge 3000
	said=$(printf '%s' "$log" | sed -n 's/.*Captured and wrote .* (\([0-9]*\) samples).*/\1/p')
	total=$(perf script -i "$last" 2>/dev/null | grep -c .)
	check "the summary counts the kept file's samples ($said, perf: $total)" test "$said" = "$total"
else
	skip "the files of a failed switch read in perf" "no perf"
fi
rm -rf ab.data ab.data.*

# 1b. --switch-output-event: the command's mkdir (a syscall tracepoint,
# counted, not recorded) switches the file; the command waits for the
# dump through a FIFO before its second burst of faults.
if [ -d /sys/kernel/tracing/events/syscalls/sys_enter_mkdir ] ||
   [ -d /sys/kernel/debug/tracing/events/syscalls/sys_enter_mkdir ]; then
	mkfifo go2 msgs2
	"$PERFKIT" record -e 'page-faults/period=1/' --switch-output-event syscalls:sys_enter_mkdir \
		-o se.data -- sh -c "$W pages 3000; mkdir d1; read x < go2; $W pages 3000" 2>msgs2 &
	pid=$!
	exec 3<msgs2
	log=""
	while IFS= read -r line <&3; do
		log="$log$line"$'\n'
		case $line in *"Dump se.data."*) break ;; esac
	done
	echo >go2
	while IFS= read -r line <&3; do log="$log$line"$'\n'; done
	exec 3<&-
	wait "$pid"
	rc=$?
	check "record --switch-output-event exits 0 (got $rc)" test "$rc" -eq 0
	files=$(ls se.data.$stamp 2>/dev/null)
	n=$(printf '%s\n' "$files" | grep -c .)
	check "the one mkdir made two files, named as --switch-output's ($n)" test "$n" -eq 2
	contains "the switch is announced as a SIGUSR2 one" "$log" "[ perfkit record: dump data: Woken up"
	if [ "$have_perf" -eq 1 ]; then
		first=$(printf '%s\n' "$files" | head -1) last=$(printf '%s\n' "$files" | tail -1)
		a=$(workload_samples "$first") b=$(workload_samples "$last")
		check "the first file has the faults before the mkdir ($a)" test "$a" -ge 3000 -a "$a" -lt 6000
		check "the second the faults after it ($b)" test "$b" -ge 3000 -a "$b" -lt 6000
		m=$(perf script -i "$first" -F comm 2>/dev/null | grep -c '^ *mkdir')
		check "the mkdir ran before the switch: its faults are in the first file ($m)" test "$m" -gt 0
	fi
else
	skip "--switch-output-event" "no syscalls:sys_enter_mkdir tracepoint"
fi
run record --switch-output-event no-such-event -o x.data -- true
check "an unknown --switch-output-event fails (rc $rc)" test "$rc" -ne 0
contains "naming it" "$err" "no-such-event"

# 2. By size, with --switch-max-files: every file ends past the size, only
# the newest N are kept, and a file of that form this run did not make is
# never deleted.
touch sz.data.2000010100000000
run record -F 1000 -o sz.data --switch-output=16K --switch-max-files=2 -- "$W" hot 2500
expect_rc "record --switch-output=16K exits 0" 0
dumps=$(printf '%s\n' "$err" | grep -c 'Dump sz.data.')
kept=$(ls sz.data.$stamp* | grep -vc '^sz.data.2000010100000000$')
check "a 16K switch size makes several files ($dumps dumps)" test "$dumps" -ge 3
check "--switch-max-files=2 keeps the newest two ($kept)" test "$kept" -eq 2
check "and leaves a file it did not make alone" test -e sz.data.2000010100000000
newest=$(printf '%s\n' "$err" | sed -n 's/.*Dump \(sz\.data\.[0-9.]*\) ]/\1/p' | tail -2)
for f in $newest; do
	check "the kept file is one of the two newest ($f)" test -s "$f"
done
if [ "$have_perf" -eq 1 ]; then
	# The last file holds what came after the last switch: under load that
	# can be the command's exit alone, with no sample of it; the one before
	# it was cut at 16K of the run's samples.
	total=0
	for f in $newest; do
		perf script -i "$f" >sw.txt 2>/dev/null; prc=$?
		n=$(grep -c "$wcomm" sw.txt)
		check "perf script reads $f (exit $prc, $n of the command's samples)" test "$prc" -eq 0
		total=$((total + n))
	done
	check "the kept files hold the command's samples ($total)" test "$total" -gt 0
fi

# 3. By time: 1s switches over about 2.5 s of CPU: at least two files.
run record -F 200 -o tm.data --switch-output=1s -- "$W" hot 2500
expect_rc "record --switch-output=1s exits 0" 0
n=$(ls tm.data.$stamp* | grep -c .)
check "time switching makes a file per second or so ($n)" test "$n" -ge 2

# 4. --timestamp-filename: one file, named when it ends; an existing
# FILE is left alone (no .old).
echo keep >ts.data
run record -e page-faults -o ts.data --timestamp-filename -- "$W" pages 100
expect_rc "record --timestamp-filename exits 0" 0
n=$(ls ts.data.$stamp | grep -c .)
check "one file named ts.data.<timestamp> ($n)" test "$n" -eq 1
check "the ts.data already there is untouched" test "$(cat ts.data)" = keep
check "and no ts.data.old is made" test ! -e ts.data.old
contains "the name is announced" "$err" "[ perfkit record: Dump ts.data."
if [ "$have_perf" -eq 1 ]; then
	n=$(perf script -i ts.data.$stamp 2>/dev/null | grep -c .)
	check "perf reads it ($n samples)" test "$n" -gt 0
fi

# 5. Not to a stream or a device: perf would rename the device itself.
run record -o - --switch-output -- true
check "--switch-output with -o - is refused (rc $rc)" test "$rc" -ne 0
contains "saying why" "$err" "does not go with -o -"
run record -o /dev/null --timestamp-filename -- true
check "--timestamp-filename with a device is refused (rc $rc)" test "$rc" -ne 0
contains "saying the device is never renamed" "$err" "never renamed"
check "/dev/null is still a character device" test -c /dev/null
run record --switch-output=10X -- true
check "a malformed --switch-output is a usage error (rc $rc)" test "$rc" -ne 0

# 6. --max-size: stops cleanly past the size, the file whole.
run record -e page-faults -c 1 -o max.data --max-size=32K -- "$W" pages 200000
expect_rc "record --max-size stops with status 0, as perf" 0
contains "with perf's message" "$err" "size limit reached ("
contains "stopping the session" "$err" "stopping session ]"
if [ "$have_perf" -eq 1 ]; then
	n=$(perf script -i max.data 2>/dev/null | grep -c .)
	check "perf reads the file whole ($n samples, fewer than the 200000 faults)" \
		test "$n" -gt 0 -a "$n" -lt 200000
fi

# 7. --mmap-flush: clamped to a quarter of the ring as perf clamps it, and
# nothing is lost: the last drain takes what is below the flush size.
run record -v -m 64 -e page-faults -c 1 -o fl.data --mmap-flush=1M -- "$W" pages 3000
expect_rc "record --mmap-flush exits 0" 0
contains "a 64-page ring flushes at most a quarter of it" "$err" "mmap flush: 65536"
if [ "$have_perf" -eq 1 ]; then
	n=$(workload_samples fl.data)
	check "every fault is in the file ($n)" test "$n" -ge 3000
fi
run record -v -e page-faults -o fl.data --mmap-flush=4K -- true
contains "a flush size below the limit is used as given" "$err" "mmap flush: 4096"
run record --mmap-flush=lots -- true
check "a malformed --mmap-flush is a usage error (rc $rc)" test "$rc" -ne 0

echo "1..$tap_n"
exit $tap_fail
