#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_record.sh - perfkit record end to end: perf 6.1 reads the file it
# writes (perf script sees every sample perfkit counted, under the
# command's name), the file is whole however the run ends (command exit,
# Ctrl-C, --duration), an existing file is kept as .old, and bad input gets
# one message and leaves no file behind.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
have_perf=1
command -v perf >/dev/null || have_perf=0
# whole FILE: FILE is there and no partial file of it is left.
whole() { test -f "$1" && ! ls "$1".partial.* >/dev/null 2>&1; }
# nothing FILE: neither FILE nor a partial file of it.
nothing() { test ! -e "$1" && ! ls "$1".partial.* >/dev/null 2>&1; }


run record -F 2000 -- "$PERFKIT_WORKLOAD" pages 20000
check "record of a workload exits 0 (got $rc)" test "$rc" -eq 0
check "it writes perf.data and no partial file" whole perf.data
ours=$(printf '%s\n' "$err" | sed -n 's/.*(\([0-9]*\) samples).*/\1/p')
contains "the summary says what was written" "$err" "Captured and wrote"
if [ "$have_perf" -eq 1 ]; then
	script=$(perf script -i perf.data 2>/dev/null)
	n=$(printf '%s\n' "$script" | grep -c .)
	check "perf script reads every sample perfkit counted ($n of $ours)" test "$n" -eq "${ours:--1}"
	check "samples carry the command's name" sh -c 'printf "%s\n" "$1" | grep -q "^ *perfkit-workloa"' sh "$script"
	report_err=$(perf report -i perf.data --stdio 2>&1 >/dev/null | grep -v -i "kptr_restrict\|kallsyms\|kernel address\|kernel samples\|^$\|Check /proc\|As no suitable\|can.t be resolved\|^Warning:$")
	check "perf report reads it without complaint" test -z "$report_err"
	[ -n "$report_err" ] && diag "$report_err"
	# The page-touching run above spends its time in the kernel's fault
	# path (under load no sample may land in touch itself): a spinning run
	# for the symbols.
	"$PERFKIT" record -q -F 2000 -o hot.data -- "$PERFKIT_WORKLOAD" hot 100 >/dev/null 2>&1
	sym=$(perf report -i hot.data --stdio --sort sym 2>/dev/null | grep -c '\] hot_a')
	check "perf report resolves the workload's own function (hot_a)" test "$sym" -ge 1
	# The command's child named before its exec, as perf names its own:
	# a sample in the exec before the command's COMM belongs to it.
	tasks() { perf script -i "$1" --show-task-events 2>/dev/null | grep -E 'PERF_RECORD_COMM' |
		sed -E 's/[0-9]+/N/g; s/ +/ /g'; }
	perf record -q -F 2000 -o phot.data -- "$PERFKIT_WORKLOAD" hot 1 >/dev/null 2>&1
	"$PERFKIT" record -q -F 2000 -o khot.data -- "$PERFKIT_WORKLOAD" hot 1 >/dev/null 2>&1
	mine=$(tasks khot.data) theirs=$(tasks phot.data)
	check "the command's COMM records are perf's, perf-exec first" \
		test "$mine" = "$theirs" -a "${mine%%$'\n'*}" = " perf-exec N N.N: PERF_RECORD_COMM: perf-exec:N/N"
	[ "$mine" = "$theirs" ] || diag "perfkit:" "$mine" "perf:" "$theirs"
else
	skip "perf reads perfkit's perf.data" "perf is not installed"
fi

run record -o perf.data -- true
check "an existing perf.data is kept as perf.data.old" test -f perf.data.old

# Ctrl-C (SIGINT) or SIGTERM to perfkit while the command runs: the command
# says it started through a FIFO (a handshake, not a sleep), so the signal
# comes while it runs; it ignores the signal and would write "finished"
# after 30 s, so perfkit must end it as perf does, say why, and finalize
# the file.  Ctrl-C exits 0 as perf's does; SIGTERM 143 as perf's.
mkfifo "$tmp/ready"
for sig in INT TERM; do
	"$PERFKIT" record -o "$tmp/$sig.data" -- sh -c 'trap "" INT TERM; echo >"$1"; sleep 30; echo finished >>"$2"' \
		sh "$tmp/ready" "$tmp/$sig.log" >/dev/null 2>"$tmp/$sig.err" &
	bg=$!
	read -r _ <"$tmp/ready"
	kill -"$sig" "$bg"
	wait "$bg"
	rc=$?
	want=0
	[ "$sig" = TERM ] && want=143
	check "SIG$sig while the command runs: perfkit exits $want (got $rc)" test "$rc" -eq "$want"
	contains "and says it stopped by SIG$sig" "$(cat "$tmp/$sig.err")" "stopped by SIG$sig; $tmp/$sig.data keeps everything"
	check "the command was ended, not left to finish" test ! -e "$tmp/$sig.log"
	check "and the file is finalized" whole "$tmp/$sig.data"
	if [ "$have_perf" -eq 1 ]; then
		check "and perf reads it" sh -c 'perf report -i "$1" --header-only >/dev/null 2>&1' sh "$tmp/$sig.data"
	fi
done
# The command killed from outside: the file holds what was recorded.
"$PERFKIT" record -o "$tmp/killed.data" -- "$PERFKIT_WORKLOAD" hot 30000 >/dev/null 2>"$tmp/killed.err" &
bg=$!
# Kill it once it has run for a while: its child is the workload (exec'ed,
# not perfkit still holding it) with 20 ticks of CPU time, so there are
# samples to keep whatever the load (a fixed sleep lost the race under load).
wl=$(readlink -f "$PERFKIT_WORKLOAD")
for _ in $(seq 600); do
	pid=$(pgrep -P "$bg" | head -1)
	if [ -n "$pid" ] && [ "$(readlink -f "/proc/$pid/exe" 2>/dev/null)" = "$wl" ] &&
		[ "$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || echo 0)" -ge 20 ]; then
		break
	fi
	sleep 0.05
done
pkill -KILL -P "$bg"
wait "$bg"
rc=$?
check "a command killed by SIGKILL: perfkit exits 137 (got $rc)" test "$rc" -eq 137
contains "and says what happened" "$(cat "$tmp/killed.err")" "the command was killed by SIGKILL"
if [ "$have_perf" -eq 1 ]; then
	n=$(perf script -i "$tmp/killed.data" 2>/dev/null | grep -c .)
	said=$(sed -n 's/.*(\([0-9]*\) samples).*/\1/p' "$tmp/killed.err")
	check "and perf reads every sample recorded until then ($n of ${said:-?})" test "$n" -gt 0 -a "$n" = "${said:-x}"
fi

run record --duration 0.3 -o "$tmp/dur.data" -- sleep 5
check "--duration stops the command and the recording, exit 0 (got $rc)" test "$rc" -eq 0 -a -f "$tmp/dur.data"
check "and does not call the command killed" sh -c 'case "$1" in *killed*) exit 1;; esac' sh "$err"

run record -e task-clok -o "$tmp/bad.data" -- true
check "a bad event exits 1 (got $rc)" test "$rc" -eq 1
contains "with a near miss" "$err" "did you mean task-clock?"
check "and leaves no file" nothing "$tmp/bad.data"

run record -o /nonexistent-dir/x.data -- true
check "an unwritable -o exits 1 (got $rc)" test "$rc" -eq 1
contains "and names the file" "$err" "/nonexistent-dir/x.data"

run record -- sh -c 'exit 3'
check "the command's exit status is perfkit's (3, got $rc)" test "$rc" -eq 3

run record -m 3 -o "$tmp/m3.data" -- true
check "-m 3 is rounded up to 4 pages (exit 0, got $rc)" test "$rc" -eq 0
contains "and says so" "$err" "rounding the ring size up to 4 pages (16 KiB)"
run record -q -m 512K -o "$tmp/m512k.data" -- true
check "-m takes a size: 512K (exit 0, got $rc)" test "$rc" -eq 0
run record -m 12Q -- true
check "-m with an unknown unit is a usage error (exit 2, got $rc)" test "$rc" -eq 2
contains "that names it" "$err" "not '12Q'"
# Rings larger than an unprivileged user may lock: one message, before any
# mapping, with the -m that fits (checked as nobody; root has CAP_IPC_LOCK).
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
mlock_kb=$(cat /proc/sys/kernel/perf_event_mlock_kb)
if [ "$(id -u)" -eq 0 ] && [ "$paranoid" -le 2 ] && [ "$mlock_kb" -le 4096 ] && command -v su >/dev/null; then
	chmod 777 "$tmp"
	lim_out=$(su -s /bin/sh nobody -c "ulimit -l 8192; cd $tmp && '$PERFKIT' record -q -m 1G -o big.data -- true; echo rc=\$?" 2>&1)
	contains "too big a ring for the user's locked memory exits 1" "$lim_out" "rc=1"
	contains "and says what the rings need and what the user may lock" "$lim_out" "of locked memory; this user may lock"
	contains "with the -m that fits" "$lim_out" "data pages each (-m "
	check "and leaves no file" nothing "$tmp/big.data"
else
	skip "locked-memory check" "needs root, su and kernel.perf_event_paranoid <= 2 (it is $paranoid)"
fi
run record
check "no command and no target is a usage error (exit 2, got $rc)" test "$rc" -eq 2
# Kernel samples get symbols (the synthesized kernel map), and -p gets the
# process's name and libraries from the synthesized COMM and MMAP2 records.
if [ "$have_perf" -eq 1 ] && [ "$(cat /proc/sys/kernel/kptr_restrict)" = 0 ]; then
	run record -q -o "$tmp/k.data" -- "$PERFKIT_WORKLOAD" pages 20000
	kern=$(perf report -i "$tmp/k.data" --stdio --sort dso 2>/dev/null | grep -c 'kernel.kallsyms')
	check "kernel samples resolve to [kernel.kallsyms]" test "$kern" -ge 1
else
	skip "kernel samples resolve" "perf missing or kernel.kptr_restrict hides addresses"
fi
"$PERFKIT_WORKLOAD" pingpong 300000 &
wpid=$!
sleep 0.2
run record -q -p "$wpid" -o "$tmp/p.data" --duration 0.5
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
check "-p records an existing process (exit 0, got $rc)" test "$rc" -eq 0
if [ "$have_perf" -eq 1 ]; then
	comms=$(perf report -i "$tmp/p.data" --stdio --sort comm 2>/dev/null | grep -c 'perfkit-workloa')
	check "-p: samples carry the process's name from the synthesized COMM" test "$comms" -ge 1
fi
# Several processes with -p, one thread with -t, and a command that only
# times the recording when a target is given (-p/-a -- sleep), as in perf.
sh -c 'while :; do :; done' &
b1=$!
sh -c 'while :; do :; done' &
b2=$!
sleep 0.1
run record -q -p "$b1,$b2" -o "$tmp/pp.data" --duration 0.4
check "-p with two processes records (exit 0, got $rc)" test "$rc" -eq 0
run record -q -t "$b2" -o "$tmp/t.data" --duration 0.3
check "-t records a thread (exit 0, got $rc)" test "$rc" -eq 0
run record -q -p "$b1" -o "$tmp/pcmd.data" -- sleep 0.3
check "-p with a command records until the command ends (exit 0, got $rc)" test "$rc" -eq 0
run record -q -a -o "$tmp/acmd.data" -- sleep 0.3
check "-a with a command records (exit 0, got $rc)" test "$rc" -eq 0
if [ "$have_perf" -eq 1 ]; then
	# -a: a FORK for each thread that already ran, as perf synthesizes them.
	forks=$(perf script -i "$tmp/acmd.data" --show-task-events 2>/dev/null | grep -c "PERF_RECORD_FORK($b1:$b1)")
	check "-a: the running loop gets a synthesized FORK ($forks)" test "$forks" -eq 1
	# --namespaces: the existing process's namespaces, as the kernel gives them.
	run record -q --namespaces -p "$b1" -o "$tmp/ns.data" -- sleep 0.2
	ns=$(perf script -i "$tmp/ns.data" --show-namespace-events 2>/dev/null | grep "NAMESPACES $b1/$b1 - nr_namespaces: 7")
	check "--namespaces -p: a NAMESPACES record for the process" test -n "$ns"
	link=$(stat -L -c '%i' "/proc/$b1/ns/mnt")
	inode=$(perf report -D -i "$tmp/ns.data" 2>/dev/null | grep -A2 "NAMESPACES $b1/$b1" | grep -o 'mnt: [0-9]*/0x[0-9a-f]*' | sed 's/.*0x//')
	check "with the mnt namespace's inode ($inode, /proc says $link)" test -n "$inode" -a "$((0x${inode:-0}))" = "$link"
fi
kill "$b1" "$b2" 2>/dev/null
wait "$b1" "$b2" 2>/dev/null
if [ "$have_perf" -eq 1 ]; then
	pids=$(perf script -i "$tmp/pp.data" -F pid 2>/dev/null | sort -u | tr -d ' ' | tr '\n' ' ')
	check "-p $b1,$b2: samples of both processes and no other ($pids)" test "$pids" = "$b1 $b2 "
	pids=$(perf script -i "$tmp/t.data" -F tid 2>/dev/null | sort -u | tr -d ' ' | tr '\n' ' ')
	check "-t $b2: samples of that thread only ($pids)" test "$pids" = "$b2 "
	pids=$(perf script -i "$tmp/pcmd.data" -F pid 2>/dev/null | sort -u | tr -d ' ' | tr '\n' ' ')
	n=$(perf script -i "$tmp/pcmd.data" 2>/dev/null | grep -c .)
	check "-p PID -- sleep 0.3: the process's samples, not the command's ($pids)" test "$pids" = "$b1 "
	# The samples span the 0.3 s the command ran, however much CPU the busy
	# loop got while sharing two CPUs with everything else (at most 1200).
	span=$(perf script -i "$tmp/pcmd.data" -F time 2>/dev/null | tr -d ' :' | sed -n '1p;$p' | paste -sd' ')
	check "for about the 0.3 s the command ran ($n samples at 4000 Hz, from/to: $span)" \
		awk -v a="${span% *}" -v b="${span#* }" -v n="$n" 'BEGIN { exit !(b - a > 0.2 && b - a < 0.6 && n > 0 && n <= 1800) }'
	n=$(perf script -i "$tmp/acmd.data" -F pid 2>/dev/null | grep -c -w -e "$b1" -e "$b2")
	check "-a -- sleep 0.3: other processes' samples too ($n of the busy loops)" test "$n" -ge 200
fi
run record -t 12x --duration 0.1
check "a malformed -t list is a usage error (exit 2, got $rc)" test "$rc" -eq 2
contains "that names the list" "$err" "'12x' is not a list of process or thread ids"
run record -p 1 -t 1 --duration 0.1
check "-p and -t together are a usage error (exit 2, got $rc)" test "$rc" -eq 2
# Sampling flags: perf reads each file and sees what was asked for.
if [ "$have_perf" -eq 1 ]; then
	for f in "-g:CALLCHAIN" "-d:ADDR" "-R:RAW" "--user-regs=AX,BX,IP:REGS_USER" "--intr-regs=AX:REGS_INTR" \
		 "--call-graph=dwarf,4096:STACK_USER"; do
		flag=${f%:*} field=${f##*:}
		run record -q "$flag" -o "$tmp/f.data" -- "$PERFKIT_WORKLOAD" pages 3000
		st=$(perf report -i "$tmp/f.data" --header-only 2>&1 | grep '# event' | grep -o 'sample_type = [A-Z_|]*')
		check "record $flag: exit 0 and sample_type has $field ($st)" \
			sh -c '[ "$1" -eq 0 ] && case "$2" in *"$3"*) exit 0;; *) exit 1;; esac' sh "$rc" "$st" "$field"
	done
	# DWARF call chains unwind through the workload's main, as perf's do.  An
	# empty environment keeps main's stack (which ends with the environment
	# strings) under the 8192 bytes sampled, so each sample has bytes to cut.
	# The kernel also starts the stack up to 8 KiB lower at random (ASLR),
	# which setarch -R turns off, or one run in a few has nothing to cut.
	env -i PATH="$PATH" setarch -R "$PERFKIT" record -q --call-graph dwarf -o "$tmp/dw.data" -- "$PERFKIT_WORKLOAD" children 20
	frames=$(perf script -i "$tmp/dw.data" 2>/dev/null | grep -c 'main+0x')
	check "--call-graph dwarf: perf unwinds user stacks through main ($frames frames)" test "$frames" -ge 1
	# Each sample's stack is cut to the bytes the kernel could copy (dyn_size):
	# perf sees stacks smaller than the 8192 asked for, and still unwinds them.
	# A stack of size 0 is what the kernel writes when it could copy nothing
	# (a sample taken in the kernel just after clone, about one run in ten):
	# those are counted apart, and the cut is judged on the others.
	sizes=$(perf report -D -i "$tmp/dw.data" 2>/dev/null | awk '/ustack: size/ { s = $4 + 0; n++; if (!s) { z++; next } if (s > max) max = s; if (!m || s < min) min = s; m++ } END { print n + 0, m + 0, min + 0, max + 0, z + 0 }')
	check "--call-graph dwarf: stacks are cut to what was valid (samples, with a stack, smallest, largest, empty: $sizes)" \
		sh -c 'set -- $1; [ "$2" -gt 0 ] && [ "$5" -le $(($1 / 4)) ] && [ "$3" -lt 8192 ] && [ "$4" -le 8192 ]' sh "$sizes"
	run record -q -g -o "$tmp/fp.data" -- "$PERFKIT_WORKLOAD" pages 3000
	depth=$(perf script -i "$tmp/fp.data" 2>/dev/null | awk '/^ *perfkit/ { n = 0; next } NF { if (++n > m) m = n } END { print m + 0 }')
	check "-g: samples carry call chains (deepest $depth frames)" test "$depth" -ge 3
fi
# Every option perf 6.1 reads back: the file of each gives perf script and
# perf report nothing to warn about, and perf counts the samples perfkit
# said it wrote.  A line ending "# TEXT" also wants TEXT in perf script's
# output: a tracepoint's fields, which perf prints only from the file's
# tracing data (the event format files).  A line "OPTS @ MODE N" runs the
# workload as MODE N instead of hot 100.  hot spins for 100 ms of its own
# CPU time, however loaded the machine: the sampling events count that
# time, so each case takes about 400 samples at the default 4000 Hz (300
# at -F 3000), where children 20, a millisecond of CPU, gave -F 3000 3
# samples, -B 6, --no-inherit 9 and -z none on a loaded machine.  DWARF
# stacks spin half as long: 200 samples of 8 KiB still fit in its ring
# should the recorder not run until the end.  The tracepoint cases keep
# children 20: their samples are the forks, exits, waits and switches
# those 20 children make, whatever the load.
if [ "$have_perf" -eq 1 ]; then
	while IFS= read -r opts; do
		work="hot 100" want=
		case "$opts" in
		*' # '*) want=${opts##* # } opts=${opts%% # *} ;;
		esac
		case "$opts" in
		*' @ '*) work=${opts#* @ } opts=${opts%% @ *} ;;
		esac
		eval "set -- $opts"
		# shellcheck disable=SC2086
		run record "$@" -o "$tmp/o.data" -- "$PERFKIT_WORKLOAD" $work
		said=$(printf '%s\n' "$err" | sed -n 's/.*(\([0-9]*\) samples).*/\1/p')
		got=$(perf report -i "$tmp/o.data" --stats 2>/dev/null | awk '/SAMPLE events:/ { print $3; exit }')
		warn=$( { perf script -i "$tmp/o.data" 2>&1 >/dev/null; perf report -i "$tmp/o.data" --stdio 2>&1 >/dev/null; } |
			grep -v -i "kptr_restrict\|kallsyms\|kernel address\|kernel samples\|^$\|Check /proc\|As no suitable\|can.t be resolved\|^Warning:$")
		check "record $opts: exit 0, perf reads the ${said:-?} samples perfkit wrote (${got:-?}) without warnings" \
			test "$rc" -eq 0 -a -n "$said" -a "${got:-x}" = "$said" -a -z "$warn"
		[ -n "$warn" ] && diag "$warn"
		[ -z "$said" ] && diag "perfkit said: $err"
		if [ -n "$want" ]; then
			n=$(perf script -i "$tmp/o.data" 2>/dev/null | grep -c -F -- "$want")
			check "record $opts: perf script prints the tracepoint fields ($n lines with $want)" \
				test "$n" -ge 1
		fi
	done <<-'EOF'
	-c 20000
	-F 3000
	-g
	--call-graph fp
	--call-graph dwarf @ hot 50
	-e task-clock,page-faults
	-e '{cpu-clock,page-faults}'
	-d
	-T
	--sample-cpu
	-R
	--user-regs=AX,BX,IP
	--intr-regs=AX
	--switch-events
	--namespaces
	--no-inherit
	-a
	-C 0
	-z
	-k monotonic
	-B
	-m 16
	-e sched:sched_switch -a @ children 20 # prev_comm=
	-e sched:sched_switch -a -R @ children 20 # prev_comm=
	-e sched:sched_switch -a -g @ children 20 # prev_comm=
	-e 'syscalls:sys_enter_exit*' -e syscalls:sys_exit_wait4 @ children 20 # error_code:
	-e sched:sched_process_fork -e 'syscalls:sys_enter_exit*' -a @ children 20 # child_pid=
	EOF
else
	skip "perf reads the file of every option" "perf is not installed"
fi
run record --call-graph lbr -o "$tmp/lbr.data" -- true
check "--call-graph lbr where no PMU records call stacks exits 1 (got $rc)" test "$rc" -eq 1
contains "and names the other ways to take call chains" "$err" "--call-graph fp or --call-graph dwarf"
run record --user-regs AX,ZZ -- true
check "an unknown register is a usage error (exit 2, got $rc)" test "$rc" -eq 2
contains "naming it with a caret" "$err" "'ZZ' is not an x86-64 register"
run record -j foo -- true
check "an unknown branch filter is a usage error (exit 2, got $rc)" test "$rc" -eq 2
run record --call-graph dwarf,100 -- true
check "a dwarf stack size not a multiple of 8 is a usage error (exit 2, got $rc)" test "$rc" -eq 2
if [ ! -d /sys/bus/event_source/devices/cpu ]; then
	run record -b -o "$tmp/b.data" -- true
	check "-b where no PMU records branches exits 1 (got $rc)" test "$rc" -eq 1
	contains "and says what would" "$err" "branch stack sampling needs"
fi
# --overwrite keeps only the newest samples; SIGUSR2 writes a snapshot too.
# The loop is pinned to CPU 0: each CPU has its own ring, 4 pages = 409
# samples of 40 bytes (the sideband shares the ring, as in perf).
loop='i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done'
run record --overwrite -m 4 -F 5000 -o "$tmp/ow.data" -- taskset -c 0 sh -c "$loop"
check "--overwrite records (exit 0, got $rc)" test "$rc" -eq 0
full=$(printf '%s\n' "$err" | sed -n 's/.*(\([0-9]*\) samples).*/\1/p')
check "only a ring's worth of the newest samples is kept (${full:-?}: 409 a ring, plus a few taken before taskset pinned it)" \
	test "${full:-0}" -gt 50 -a "${full:-0}" -le 430
"$PERFKIT" record -q --overwrite -m 4 -F 5000 -o "$tmp/ow2.data" -- taskset -c 0 sh -c "$loop" &
bg=$!
# The snapshot is asked for once the loop has run 50 ms of CPU (5 ticks in
# /proc/PID/stat), so the rings hold samples from well before the end:
# perfkit's handlers are in place before its command starts.
for _ in $(seq 1000); do
	child=$(pgrep -P "$bg" | head -n 1)
	[ -n "$child" ] && [ "$(awk '{ print $14 + $15 }' "/proc/$child/stat" 2>/dev/null || echo 0)" -ge 5 ] && break
	sleep 0.01
done
kill -USR2 "$bg"
wait "$bg"
if [ "$have_perf" -eq 1 ]; then
	# The end snapshot covers the last ~70 ms; samples from well before that
	# can only come from the SIGUSR2 snapshot.
	span=$(perf script -i "$tmp/ow2.data" -F time 2>/dev/null | tr -d ' :' | sed -n '1p;$p' | paste -sd' ')
	check "SIGUSR2 wrote a snapshot from mid-run (samples span: $span)" \
		awk -v a="${span% *}" -v b="${span#* }" 'BEGIN { exit !(b - a > 0.15) }'
	warn=$(perf report -i "$tmp/ow2.data" --stdio 2>&1 >/dev/null | grep -ci 'out of order\|warning: .*time')
	check "perf sorts the snapshots without complaint" test "$warn" -eq 0
fi
# -z: zstd-compressed records that perf decompresses to every sample.
run record -z -F 20000 -g -o "$tmp/z.data" -- "$PERFKIT_WORKLOAD" children 40
zs=$(printf '%s\n' "$err" | sed -n 's/.*(\([0-9]*\) samples).*/\1/p')
check "record -z exits 0 (got $rc)" test "$rc" -eq 0
if [ "$have_perf" -eq 1 ]; then
	hdr=$(perf report -i "$tmp/z.data" --header-only 2>&1 | grep -i '# compressed')
	contains "perf sees the COMPRESSED feature" "$hdr" "Zstd, level = 1"
	n=$(perf script -i "$tmp/z.data" 2>/dev/null | grep -c 'cpu-clock:')
	check "perf decompresses every sample perfkit wrote ($n of ${zs:-?})" test "$n" -eq "${zs:--1}"
fi
run record --compression-level=23 -- true
check "a zstd level above 22 is a usage error (exit 2, got $rc)" test "$rc" -eq 2
# The profile itself: the shares of the hot functions in perfkit's file are
# those of perf's own recording of the same workload, within sampling noise
# (about 6000 samples each: a share's standard error is under 1 point).
if [ "$have_perf" -eq 1 ]; then
	run record -q -o "$tmp/hot.data" -- "$PERFKIT_WORKLOAD" hot 1500
	perf record -q -o "$tmp/perf-hot.data" -- "$PERFKIT_WORKLOAD" hot 1500 >/dev/null 2>&1
	share() { perf report -i "$1" --stdio --sort sym 2>/dev/null | awk -v f="$2" '$NF == f { sub("%", "", $1); print $1 }'; }
	for f in hot_a hot_b; do
		ours=$(share "$tmp/hot.data" $f)
		theirs=$(share "$tmp/perf-hot.data" $f)
		check "$f: perfkit's share ${ours:-?}% is perf's ${theirs:-?}% within 5 points" \
			awk -v a="${ours:-0}" -v b="${theirs:-100}" 'BEGIN { d = a - b; exit !(d <= 5 && d >= -5 && a > 0) }'
	done
fi
# -v: each attr as opened, in perf -vv's layout, and the ring size.
run record -v -g -o "$tmp/v.data" -- true
st=$(printf '%s\n' "$err" | sed -n 's/^  sample_type  *//p')
check "-v prints the attr with sample_type spelled as perf does, its one event without an id ($st)" \
	test "$st" = "IP|TID|TIME|CALLCHAIN|PERIOD"
contains "with the bits set at open (enable_on_exec)" "$err" "enable_on_exec                   1"
contains "and the ring size" "$err" "mmap size 528384B"
# -k: sample times on another clock, with CLOCKID and CLOCK_DATA for perf.
run record -q -k realtime -o "$tmp/clk.data" -- "$PERFKIT_WORKLOAD" pages 2000
check "-k realtime records (exit 0, got $rc)" test "$rc" -eq 0
if [ "$have_perf" -eq 1 ]; then
	hdr=$(perf report --header-only -i "$tmp/clk.data" 2>&1)
	contains "perf reads the clock from CLOCK_DATA" "$hdr" "# clockid: realtime (0)"
	contains "and its resolution from CLOCKID" "$hdr" "# clockid frequency:"
	t=$(perf script -i "$tmp/clk.data" -F time 2>/dev/null | head -1 | cut -d. -f1 | tr -d ' ')
	now=$(date +%s)
	check "sample times are wall-clock seconds ($t, now $now)" test "${t:-0}" -gt $((now - 120)) -a "${t:-0}" -le "$now"
fi
run record -k bogus -- true
check "an unknown clock is a usage error (exit 2, got $rc)" test "$rc" -eq 2
contains "that lists the clocks" "$err" "use monotonic, monotonic_raw, realtime"
# BUILD_ID: the DSOs samples landed in, with the build-ids readelf sees;
# the same table perf record writes for the same command.
run record -F 5000 -o "$tmp/bid.data" -- "$PERFKIT_WORKLOAD" pages 20000
want=$(readelf -n "$PERFKIT_WORKLOAD" | sed -n 's/.*Build ID: //p')
if [ "$have_perf" -eq 1 ]; then
	ids=$(perf buildid-list -i "$tmp/bid.data" 2>&1)
	contains "the workload's build-id is in the BUILD_ID table" "$ids" "$want $PERFKIT_WORKLOAD"
	contains "so is the kernel's, as perf buildid-list -k reads it" "$ids" "$(perf buildid-list -k) [kernel.kallsyms]"
	perf record -q -F 5000 -o "$tmp/perf-bid.data" -- "$PERFKIT_WORKLOAD" pages 20000 >/dev/null 2>&1
	theirs=$(perf buildid-list -i "$tmp/perf-bid.data" 2>&1 | grep -c "$want $PERFKIT_WORKLOAD")
	check "perf's own recording lists the workload the same way ($theirs)" test "$theirs" -eq 1
	run record -B -o "$tmp/nobid.data" -- "$PERFKIT_WORKLOAD" pages 2000
	hdr=$(perf report --header-only -i "$tmp/nobid.data" 2>&1 | grep "missing features")
	contains "-B writes no BUILD_ID table" "$hdr" "BUILD_ID"
else
	skip "perf buildid-list reads the BUILD_ID table" "perf is not installed"
fi
# A binary without a build-id is still recorded; it is just not listed.
if objcopy --remove-section .note.gnu.build-id "$PERFKIT_WORKLOAD" "$tmp/nobid-workload" 2>/dev/null; then
	run record -o "$tmp/nobid2.data" -- "$tmp/nobid-workload" pages 20000
	check "a workload with no build-id records fine (exit 0, got $rc)" test "$rc" -eq 0
	if [ "$have_perf" -eq 1 ]; then
		n=$(perf buildid-list -i "$tmp/nobid2.data" 2>&1 | grep -c "nobid-workload")
		check "and has no entry in the table ($n)" test "$n" -eq 0
	fi
fi
# A disk that fills up: recording stops, and the file is still whole.
if [ "$(id -u)" -eq 0 ] && mkdir "$tmp/small" && mount -t tmpfs -o size=1m tmpfs "$tmp/small" 2>/dev/null; then
	# A spinning workload with 1 KiB stacks fills it whatever the rate:
	# when the kernel has lowered kernel.perf_event_max_sample_rate (to
	# 1000 on a loaded machine once), -F 50000 samples at that, and -g
	# chains of a workload that mostly waits wrote 67 samples, 0.3 MB.
	run record -F 50000 --call-graph dwarf,1024 -o "$tmp/small/full.data" -- "$PERFKIT_WORKLOAD" hot 3000
	check "a full disk ends the recording with exit 1 (got $rc)" test "$rc" -eq 1
	contains "and says the disk is full" "$err" "No space left on device"
	check "the file is finalized anyway" whole "$tmp/small/full.data"
	contains "the summary says what fit" "$err" "that fit in"
	if [ "$have_perf" -eq 1 ]; then
		n=$(perf script -i "$tmp/small/full.data" 2>/dev/null | grep -c 'cpu-clock:')
		check "and perf reads the samples recorded before the disk filled ($n)" test "$n" -gt 100
	fi
	# the recorder's last holder of the file may still be closing it
	for _ in 1 2 3 4 5 6 7 8 9 10; do umount "$tmp/small" 2>/dev/null && break; sleep 0.2; done
	mountpoint -q "$tmp/small" && umount -l "$tmp/small"
else
	skip "full disk" "needs root to mount a small tmpfs"
fi
done_testing
