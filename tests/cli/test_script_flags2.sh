#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_flags2.sh - perfkit script's filters (--pid, --tid, -C,
# --comms, --dsos, -S with names and addresses, --time), -G, --reltime,
# --deltatime, --show-switch-events, --show-round-events,
# --per-event-dump, --switch-on/--switch-off, --stop-bt, --kallsyms,
# --full-source-path, the AUX-trace shorthands on files without AUX data
# and --dlfilter (a filter built here, loaded by both) against perf script
# 6.1 on the SAME files: the output must be byte for byte perf's, whatever
# samples the recording got.
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
perf record -q -e cpu-clock,task-clock -c 200000 -o two.data -- sh -c "$load" >/dev/null 2>&1
# The -C recording holds whatever else ran, such as another test's program
# that is gone by now and that perf names from its build-id cache
# (~/.debug): perfkit reads that cache too (this test records nothing).
unset PERFKIT_BUILDID_DIR

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
# The workload's (dd's) pid, and 0 with it: the idle task is pid 0 in a -C
# recording, and perf filters on it like any other id.
pid=$(perf script -i s.data --comms dd -F pid | awk '$1 != 0 {print $1; exit}')
check "s.data: dd's samples have a pid ($pid)" test -n "$pid"
same "--pid $pid" s.data --pid "$pid"
same "--tid $pid --reltime" s.data --tid "$pid" --reltime
same "--pid 0,$pid" s.data --pid "0,$pid"
check "report --pid 0 --tid 0: accepted (0 is the idle task)" \
	"$PERFKIT" report -i s.data --pid 0 --tid 0 -q
check "diff --pid 0: accepted" "$PERFKIT" diff s.data s.data --pid 0
# a symbol and an address of the workload's own samples: the -C recording
# also holds whatever else ran (a C++ name with blanks would split)
sym=$(perf script -i s.data --comms dd -F ip,sym | awk 'NF == 2 && $2 != "[unknown]" {print $2; exit}')
same "-S $sym" s.data -S "$sym"
ip=$(perf script -i s.data --comms dd -F ip | awk 'NR==1{print $1}')
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
# ... counting the samples printed, not those the filters dropped
for f in "--comms dd" "--switch-on task-clock"; do
	# shellcheck disable=SC2086
	perf script -i two.data --per-event-dump $f 2>/dev/null | sed 's/Wrote [0-9.]* MB/Wrote MB/' >perf.txt
	mv two.data.task-clock.dump perf.dump
	# shellcheck disable=SC2086
	"$PERFKIT" script -i two.data --per-event-dump $f 2>ours.err | sed 's/Wrote [0-9.]* MB/Wrote MB/' >ours.txt
	check "--per-event-dump $f: perf's Wrote lines and sample counts" cmp -s perf.txt ours.txt
	cmp -s perf.txt ours.txt || diag "$(diff perf.txt ours.txt)"
	check "--per-event-dump $f: the task-clock dump as perf's" cmp -s perf.dump two.data.task-clock.dump
	rm -f two.data.*.dump
done
# the two don't get along in perf either
"$PERFKIT" script -i s.data --reltime --deltatime >ours.txt 2>ours.err
check "--reltime with --deltatime: refused" test $? -eq 2

# --switch-on/--switch-off: perf's evswitch over the two events' samples
same "--switch-on task-clock" two.data --switch-on task-clock
same "--switch-off task-clock --show-on-off-events" two.data --switch-off task-clock --show-on-off-events
same "--switch-on cpu-clock --switch-off task-clock --show-on-off-events" two.data \
	--switch-on cpu-clock --switch-off task-clock --show-on-off-events
same "--switch-on task-clock --switch-off cpu-clock --time 0%-50%" two.data \
	--switch-on task-clock --switch-off cpu-clock --show-on-off-events --time 0%-50%
"$PERFKIT" script -i two.data --switch-on nope >ours.txt 2>ours.err
check "--switch-on of an event the file lacks: refused" test $? -ne 0 -a ! -s ours.txt
contains "--switch-on of an event the file lacks: perf's message" "$(cat ours.err)" \
	"ERROR: switch-on event not found (nope)"

# --stop-bt: the chains end at a function one of them goes through
stop=$(perf script -i g.data 2>/dev/null | awk '/^\t/ { n++; if (n == 2) { f2 = $2; sub(/\+0x[0-9a-f]+$/, "", f2) } }
	/^$/ { if (n >= 3 && f2 != "[unknown]") { print f2; exit } n = 0 }')
same "--stop-bt $stop" g.data --stop-bt "$stop,no_such_function"
check "--stop-bt $stop: fewer lines than without" \
	test "$(wc -l <perf.txt)" -lt "$(perf script -i g.data 2>/dev/null | wc -l)"

# --kallsyms: the kernel's symbols from a copy with the functions renamed
# (not _text and the like, which perf needs to place the kernel)
sed 's/ \([tT]\) \([a-z][^ ]*\)$/ \1 pk_\2/' /proc/kallsyms >ksyms
same "--kallsyms FILE" g.data --kallsyms ksyms
check "--kallsyms FILE: the kernel frames take its names" grep -q ' pk_[a-z_]' ours.txt
# --vmlinux: that file alone; one that is not the recorded kernel's gives
# no kernel symbols; --kallsyms wins over it
same "--vmlinux FILE (not a vmlinux)" g.data --vmlinux /bin/ls
check "--vmlinux FILE (not a vmlinux): the kernel frames unresolved" \
	grep -q '\[unknown\] (\[kernel.kallsyms\])' ours.txt
same "--vmlinux FILE --kallsyms FILE" g.data -k /bin/ls --kallsyms ksyms
"$PERFKIT" script -i g.data -k "$tmp/nonexistent" >ours.txt 2>ours.err
check "--vmlinux of no file: refused" test $? -ne 0 -a ! -s ours.txt
contains "--vmlinux of no file: perf's message" "$(cat ours.err)" "Invalid file: $tmp/nonexistent"

# without AUX data the trace shorthands are field edits; --graph-function
# finds no call (perf needs the branch flags), --xed pipes into xed
same "--insn-trace" two.data --insn-trace
same "--call-trace" g.data --call-trace
same "--call-ret-trace" g.data --call-ret-trace
same "--call-ret-trace -F +ip" two.data --call-ret-trace -F +ip
perf script -i g.data --graph-function main >perf.txt 2>perf.err
"$PERFKIT" script -i g.data --graph-function main >ours.txt 2>ours.err
check "--graph-function: no sample, as perf" test ! -s perf.txt -a ! -s ours.txt
perf script -i g.data --xed >perf.txt 2>perf.err
"$PERFKIT" script -i g.data --xed >ours.txt 2>ours.err
check "--xed: what xed prints (or sh's message without it), as perf" \
	test "$(cat perf.txt perf.err)" = "$(cat ours.txt ours.err)"

# --full-source-path: the srcline target's lines with the paths its DWARF names
S=${PERFKIT_SRCLINE_TARGET:-}
if [ -x "$S" ]; then
	perf record -q -e cpu-clock -c 100000 -o sl.data -- "$S" >/dev/null 2>&1
	same "-F ip,sym,srcline --full-source-path" sl.data -F ip,sym,srcline --full-source-path \
		--dsos "$(basename "$S")"
	check "--full-source-path: paths, not base names" grep -q '^  /.*\.[ch]:[0-9]' ours.txt
else
	skip "--full-source-path" "PERFKIT_SRCLINE_TARGET is not built"
fi

# --dlfilter: a filter built against perfkit's copy of perf's header; both
# tools load it, print the samples it keeps and let it count what it saw
src=$(cd "$(dirname "$0")/../.." && pwd)
if cc -shared -fPIC -O2 -I"$src/src/cli" -o dlf.so "$src/tests/cli/dlfilter-test.c" 2>cc.err; then
	for f in g.data two.data; do
		perf script -i "$f" --dlfilter dlf.so --dlarg kallsyms --dlarg perf.cnt >perf.txt 2>/dev/null
		"$PERFKIT" script -i "$f" --dlfilter dlf.so --dlarg kallsyms --dlarg ours.cnt >ours.txt 2>ours.err
		check "$f --dlfilter: the samples it keeps, as perf ($(grep -c . perf.txt) lines)" \
			test -s perf.txt -a "$(cksum <perf.txt)" = "$(cksum <ours.txt)"
		cmp -s perf.txt ours.txt || diag "$(diff perf.txt ours.txt | head -10)" "$(head -3 ours.err)"
		check "$f --dlfilter: it saw what it sees in perf: $(cat ours.cnt)" cmp -s perf.cnt ours.cnt
	done
	same "--dlfilter after --comms dd" two.data --comms dd --dlfilter ./dlf.so --dlarg '' --dlarg x.cnt
	# a filter_event that fails stops the run there, as perf's
	perf script -i two.data --dlfilter ./dlf.so --dlarg fail5 --dlarg x.cnt >perf.txt 2>/dev/null
	"$PERFKIT" script -i two.data --dlfilter ./dlf.so --dlarg fail5 --dlarg x.cnt >ours.txt 2>ours.err
	rc=$?
	check "--dlfilter failing on the fifth sample: exit 1 (got $rc)" test "$rc" -eq 1
	check "... after the four samples before it, as perf ($(grep -c . perf.txt) lines)" \
		test "$(grep -c . perf.txt)" -eq 4 -a "$(cksum <perf.txt)" = "$(cksum <ours.txt)"
	contains "... saying so" "$(cat ours.err)" "the dlfilter's filter_event failed (-1)"
	perf script -i two.data --dlfilter ./dlf.so >perf.txt 2>perf.err
	prc=$?
	"$PERFKIT" script -i two.data --dlfilter ./dlf.so >ours.txt 2>ours.err
	rc=$?
	check "--dlfilter whose start fails: refused (exit $rc; perf's $prc), nothing printed" \
		test "$rc" -eq 1 -a "$prc" -ne 0 -a ! -s ours.txt -a ! -s perf.txt
	contains "--dlfilter whose start fails: saying so" "$(cat ours.err)" "the dlfilter's start failed (-1)"
	perf script -v --list-dlfilters 2>/dev/null | grep -A1 '^  dlf.so' >perf.txt
	"$PERFKIT" script -v --list-dlfilters >ours.txt 2>ours.err
	check "--list-dlfilters -v: the filter here, as perf lists it" \
		test -s perf.txt -a "$(grep -A1 '^  dlf.so' ours.txt)" = "$(cat perf.txt)"
else
	skip "--dlfilter" "cc cannot build a shared object: $(head -1 cc.err)"
fi
done_testing
