#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_flags2.sh - perfkit script's filters (--pid, --tid, -C,
# --comms, --dsos, -S with names and addresses, --time), -G, --reltime,
# --deltatime, --show-switch-events, --show-round-events and
# --per-event-dump against perf script 6.1 on the SAME files: the output
# must be byte for byte perf's, whatever samples the recording got.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
if ! command -v perf >/dev/null; then
	skip "perfkit script flags against perf script" "perf is not installed"
	done_testing
	exit 0
fi
load='ls / >/dev/null; dd if=/dev/zero of=/dev/null bs=1k count=20000 2>/dev/null'
perf record -q -e cpu-clock -c 200000 -g -o g.data -- sh -c "$load" >/dev/null 2>&1
perf record -q -e cpu-clock -c 200000 -C 0,1 --switch-events -o s.data -- sh -c "$load" >/dev/null 2>&1

# same NAME FILE ARGS...: both print the same lines (and at least one)
same() {
	local name=$1 file=$2
	shift 2
	perf script -i "$file" "$@" >perf.txt 2>/dev/null
	"$PERFKIT" script -i "$file" "$@" >ours.txt 2>ours.err
	check "$name: as perf script prints it ($(grep -c . perf.txt) lines)" \
		test -s perf.txt -a "$(cksum <perf.txt)" = "$(cksum <ours.txt)"
	cmp -s perf.txt ours.txt || diag "$(diff perf.txt ours.txt | head -10)"
}
same "-G" g.data -G
same "--reltime" g.data --reltime
same "--deltatime" s.data --deltatime
same "--comms dd" g.data --comms dd
same "--dsos [kernel.kallsyms]" g.data --dsos '[kernel.kallsyms]'
same "-C 1 --show-switch-events --deltatime" s.data -C 1 --show-switch-events --deltatime
same "--show-switch-events" s.data --show-switch-events
same "--show-round-events" s.data --show-round-events
same "--time 20%-40%,60%-70%" s.data --time 20%-40%,60%-70%
pid=$(perf script -i s.data -F pid | awk 'NR==1{print $1}')
same "--pid $pid" s.data --pid "$pid"
same "--tid $pid --reltime" s.data --tid "$pid" --reltime
sym=$(perf script -i s.data -F ip,sym | awk '$2 != "" && $2 != "[unknown]" {print $2; exit}')
same "-S $sym" s.data -S "$sym"
ip=$(perf script -i s.data -F ip | awk 'NR==1{print $1}')
same "-S $ip (an address)" s.data -S "$ip"
base=$(printf '%x' $((0x$ip - 4)))
same "-S $base --addr-range 8" s.data -S "$base" --addr-range 8
# a file whose samples carry no CPU: -C is refused, as perf refuses it
"$PERFKIT" script -i g.data -C 0 >ours.txt 2>ours.err
check "-C on a file without CPUs: refused" test $? -ne 0 -a ! -s ours.txt
contains "-C on a file without CPUs: perf's message" "$(cat ours.err)" "File does not contain CPU events"
# --per-event-dump: the file's lines as perf's, and the samples counted
perf script -i s.data --per-event-dump >perf.txt 2>/dev/null
mv s.data.cpu-clock.dump perf.dump
"$PERFKIT" script -i s.data --per-event-dump >ours.txt 2>ours.err
check "--per-event-dump: the dump file as perf's" cmp -s perf.dump s.data.cpu-clock.dump
check "--per-event-dump: perf's Wrote line with its sample count" \
	test "$(sed 's/Wrote [0-9.]* MB/Wrote MB/' perf.txt)" = "$(sed 's/Wrote [0-9.]* MB/Wrote MB/' ours.txt)"
rm -f s.data.*.dump
# the two don't get along in perf either
"$PERFKIT" script -i s.data --reltime --deltatime >ours.txt 2>ours.err
check "--reltime with --deltatime: refused" test $? -eq 2
done_testing
