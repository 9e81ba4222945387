#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_fields.sh - perfkit script's group reads, optional fields and
# file offsets against perf script 6.1 on the same files, line for line:
# a {cpu-clock,task-clock}:S group (one line per counter, its growth as the
# period), -s and --group recordings; iregs/uregs (perf's and perfkit's
# --user-regs/--intr-regs recordings); misc; addr, phys_addr and the page
# sizes of page faults; brstack, brstacksym and brstackoff on files whose
# samples brstack-craft.py gave a branch stack (no LBR here); and a non-PIE
# executable's call chains, whose user frames perf prints as file offsets;
# tod on files recorded with -k, data_src of page faults and of a copy
# whose words datasrc-craft.py set, ipc, insn and insnlen.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
: "${PERFKIT_WORKLOAD_NOPIE:?PERFKIT_WORKLOAD_NOPIE must name the non-PIE workload}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD
CRAFT=$(dirname "$0")/brstack-craft.py

# same_as_perf FILE ARGS...: perfkit script prints what perf script prints
# (something) and exits as it does.
same_as_perf() {
	local file=$1 theirs ours rt ro
	shift
	theirs=$(set -o pipefail; perf script -i "$file" "$@" 2>/dev/null | sed -E "${norm:-}"); rt=$?
	ours=$(set -o pipefail; "$PERFKIT" script -i "$file" "$@" 2>"$tmp/err" | sed -E "${norm:-}"); ro=$?
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ] && [ "$rt" = "$ro" ]; then
		ok "$file: script $* equals perf's ($(printf '%s\n' "$ours" | wc -l) lines)"
	else
		not_ok "$file: script $* equals perf's (exit $ro, perf $rt)"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}

# refused FILE FIELDS WHAT: -F FIELDS is refused with perf's message.
refused() {
	local out rc
	out=$("$PERFKIT" script -i "$1" -F "$2" 2>&1 >"$tmp/stdout"); rc=$?
	if [ "$rc" = 1 ] && [ ! -s "$tmp/stdout" ] && [[ $out == *"do not have $3 attribute set"* ]]; then
		ok "$1: -F $2 is refused: no $3 in the samples"
	else
		not_ok "$1: -F $2 is refused: no $3 in the samples"; diag "exit $rc: $out"
	fi
}

if ! command -v perf >/dev/null; then
	skip "comparisons with perf script" "perf is not installed"
	done_testing
	exit 0
fi

# Group reads: one line per counter of the group.
perf record -q -e '{cpu-clock,task-clock}:S' -o group.data -- "$W" hot 100 >/dev/null 2>&1
same_as_perf group.data
same_as_perf group.data -F comm,tid,time,event,period
ours=$("$PERFKIT" script -i group.data -F event)
n_cpu=$(grep -c ' cpu-clock:' <<<"$ours"); n_task=$(grep -c 'task-clock:' <<<"$ours")
check "group.data: lines for both counters of the group ($n_cpu cpu-clock, $n_task task-clock)" \
	[ "$n_cpu" -gt 10 -a "$n_task" -gt 10 ]
perf record -q -s -e cpu-clock -o stat.data -- "$W" hot 50 >/dev/null 2>&1
same_as_perf stat.data
perf record -q --group -e cpu-clock,task-clock -o nols.data -- "$W" hot 50 >/dev/null 2>&1
same_as_perf nols.data
# misc on side-band records too: E for an exec's COMM, M for data maps
same_as_perf group.data --show-task-events -F +misc
same_as_perf group.data --show-mmap-events -F +misc,-period
# empty words in -F lists are skipped, as perf's strtok skips them
same_as_perf group.data -F comm,,tid,time
same_as_perf group.data -F +misc,,-period

# Registers and misc.
perf record -q -e cpu-clock --user-regs=ip,sp -I -o regs.data -- "$W" hot 50 >/dev/null 2>&1
"$PERFKIT" record -e cpu-clock --user-regs=ip,sp --intr-regs=ax,bx,r15 -o perfkit-regs.data -- "$W" hot 50 \
	>/dev/null 2>&1
for f in regs.data perfkit-regs.data; do
	same_as_perf "$f" -F +iregs,+uregs
	same_as_perf "$f" -F ip,uregs
	same_as_perf "$f" -F +misc,-period
done
ours=$("$PERFKIT" script -i perfkit-regs.data -F iregs | head -1)
check "perfkit-regs.data: iregs prints the ABI and the registers asked for" \
	grep -Eq '^ ABI:2 +AX:0x[0-9a-f]+ +BX:0x[0-9a-f]+ +R15:0x[0-9a-f]+ $' <<<"$ours"
# a DWARF call graph's samples carry the user registers it unwinds from
perf record -q --call-graph dwarf,4096 -e cpu-clock -o dwarf.data -- "$W" hot 30 >/dev/null 2>&1
same_as_perf dwarf.data -F comm,tid,uregs
refused group.data +iregs IREGS
refused group.data +uregs UREGS
refused group.data +weight WEIGHT
refused group.data +phys_addr PHYS_ADDR

# Page faults: the data address, its physical address, the page sizes.
F=comm,tid,time,event,ip,addr,phys_addr,data_page_size,code_page_size,misc
perf record -q -d --phys-data --data-page-size --code-page-size -e page-faults -c 1 -o pf.data \
	-- "$W" pages 50 >/dev/null 2>&1
same_as_perf pf.data -F $F
"$PERFKIT" record -d --data-page-size --code-page-size -e page-faults -c 1 -o perfkit-pf.data \
	-- "$W" pages 50 >/dev/null 2>&1
same_as_perf perfkit-pf.data -F ${F/phys_addr,/}

# Branch stacks, on recordings given one (this machine has no LBR).
perf record -q -e cpu-clock -o plain.data -- "$W" hot 100 >/dev/null 2>&1
"$PERFKIT" record -e cpu-clock -o perfkit-plain.data -- "$W" hot 100 >/dev/null 2>&1
for f in plain perfkit-plain; do
	if ! python3 "$CRAFT" "$f.data" "$f-br.data" 2>"$tmp/err"; then
		not_ok "brstack-craft.py gives $f.data a branch stack"; diag "$(cat "$tmp/err")"
		continue
	fi
	for fields in +brstack +brstacksym +brstackoff +brstack,-dso +brstacksym,-dso ip,brstackoff,dso \
		      +brstack,+brstacksym; do
		# brstackoff: perf prints a branch end in a user DSO as an offset
		# until a sample ip there (in time order) made it load the DSO's
		# symbols (dso->adjust_symbols); a branch end built from the
		# previous sample in the file, processed later after sorting,
		# shows it: compared address for address.
		same_as_perf "$f-br.data" -F $fields
	done
done
# (some line: a sample whose ips resolve to no symbol, as the first one can
# be on a loaded machine, prints [unknown] where this wants sym+off)
ours=$("$PERFKIT" script -i plain-br.data -F brstacksym)
check "plain-br.data: brstacksym prints sym+off/sym+off/P/-/-/7/COND ... [unknown]/.../A/0/FAULT_DATA" \
	grep -Eq '^[^/ ]+\+0x[0-9a-f]+/[^/ ]+\+0x[0-9a-f]+/P/-/-/7/COND .*/M/X/-/300/CALL \[unknown\]/[^/ ]+/-/-/A/0/FAULT_DATA $' \
	<<<"$ours"
same_as_perf plain.data -F +brstack

# A non-PIE executable: call-chain frames at file offsets.
perf record -q -g -e cpu-clock -o nopie.data -- "$PERFKIT_WORKLOAD_NOPIE" hot 100 >/dev/null 2>&1
# The chains through the dynamic loader are left out: perf 6.1 also names
# its untyped .text labels (_dl_start_user), which perfkit's symbol tables
# do not hold yet.
for fields in "" "-F ip,sym,dso"; do
	theirs=$(perf script -i nopie.data $fields 2>/dev/null | awk -v RS= -v ORS='\n\n' '!/ld-linux/')
	ours=$("$PERFKIT" script -i nopie.data $fields 2>&1 | awk -v RS= -v ORS='\n\n' '!/ld-linux/')
	if [ "$theirs" = "$ours" ] && grep -q "(${PERFKIT_WORKLOAD_NOPIE})" <<<"$ours"; then
		ok "nopie.data: script $fields equals perf's outside the loader ($(wc -l <<<"$ours") lines)"
	else
		not_ok "nopie.data: script $fields equals perf's outside the loader"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)"
	fi
done
ours=$("$PERFKIT" script -i nopie.data -F ip,dso | grep -F "($PERFKIT_WORKLOAD_NOPIE)" | head -1)
check "nopie.data: a frame in the executable is printed as a file offset, not 0x40xxxx ($ours)" \
	grep -Eq '^\s+[0-9a-f]{1,5} \(' <<<"$ours"

# tod: the wall-clock time from CLOCK_DATA, which record -k writes
# (perf's and perfkit's); perf's refusal on a file without it.
perf record -q -k mono -e cpu-clock -c 1000000 -o tod.data -- "$W" hot 20 >/dev/null 2>&1
"$PERFKIT" record -k monotonic -e cpu-clock -c 1000000 -o ktod.data -- "$W" hot 20 >/dev/null 2>&1
for f in tod.data ktod.data; do
	same_as_perf "$f" -F comm,tod,time,ip
	same_as_perf "$f" -F comm,tid,tod --ns
	same_as_perf "$f" -F +tod
done
check "tod.data: tod is a date and a time, to the microsecond" \
	grep -Eq '^ *perfkit-workloa [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6} $' \
	<<<"$("$PERFKIT" script -i tod.data -F comm,tod | head -1)"
run script -i plain.data -F comm,tod
expect_rc "tod on a file without clock data: refused" 1
contains "with perf's words" "$err" "Can't provide 'tod' time, missing clock data. Please record with -k/--clockid option."

# data_src: perf's page faults (-d) carry the kernel's N/A word; the
# crafted copy every decoding (levels, hops, snoop, TLB, lock, block) and
# lines long enough to be cut, each padded to the widest so far.
perf record -q -d -e page-faults -c 1 -o pf.data -- "$W" hot 5 >/dev/null 2>&1
same_as_perf pf.data -F comm,addr,data_src,ip
if python3 "$(dirname "$0")/datasrc-craft.py" pf.data ds.data 2>"$tmp/err"; then
	same_as_perf ds.data -F comm,addr,data_src,ip
	same_as_perf ds.data -F data_src
	same_as_perf ds.data
	contains "ds.data: perf's example line" "$("$PERFKIT" script -i ds.data -F data_src)" \
		"     10068100142 |OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A"
else
	not_ok "datasrc-craft.py gives pf.data other data_src words"; diag "$(cat "$tmp/err")"
fi
run script -i plain.data -F comm,data_src
expect_rc "data_src asked of samples without it: refused" 1
contains "as perf says it" "$err" "do not have DATA_SRC attribute set"
# ipc: perf prints it only for samples with cycle and instruction counts
# (Intel PT's), which no other file has: the line is as without it.
same_as_perf plain.data -F comm,ip,ipc

# insn and insnlen: the bytes at a user sample's ip from its file, as long
# as the instruction there (none for the kernel's), also after call chains.
same_as_perf plain.data -F comm,ip,insn,insnlen
same_as_perf perfkit-plain.data -F +insn
same_as_perf nopie.data -F ip,insnlen,insn
ours=$("$PERFKIT" script -i plain.data -F ip,sym,insnlen,insn)
check "plain.data: hot_a's instruction, its length and bytes" \
	grep -Eq ' hot_a ilen: ([1-9]) insn:( [0-9a-f]{2})+$' <<<"$ours"
# Touching fresh pages spends its time in the kernel's fault path: kernel
# samples for certain.
perf record -q -e cpu-clock -c 20000 -o kpf.data -- "$W" pages 3000 >/dev/null 2>&1
ours=$("$PERFKIT" script -i kpf.data -F ip,sym,insnlen,insn)
check "kpf.data: a kernel sample has no bytes (ilen: 0)" \
	grep -Eq '^ *ffffffff[0-9a-f]+ [^ ]+ ilen: 0$' <<<"$ours"

# ins_lat: WEIGHT_STRUCT's var2_w ("%16u"), after weight; refused without
# WEIGHT_STRUCT, perf checking the first event of each type.
perf record -q -W -e cpu-clock:u -c 1000000 -o w.data -- "$W" hot 20 >/dev/null 2>&1
if python3 "$(dirname "$0")/rawfield-craft.py" weight w.data wc.data >/dev/null 2>"$tmp/err"; then
	same_as_perf wc.data -F comm,ins_lat
	same_as_perf wc.data -F comm,weight,ins_lat,ip
	same_as_perf wc.data -F +ins_lat
	check "wc.data: ins_lat values other than 0" \
		grep -q '[1-9]' <<<"$("$PERFKIT" script -i wc.data -F ins_lat)"
else
	not_ok "rawfield-craft.py weight gives w.data other weights"; diag "$(cat "$tmp/err")"
fi
refused plain.data comm,ins_lat WEIGHT_STRUCT
# bpf-output: a BPF output event's raw data, dumped 8 bytes a line with
# "BPF string:" when it is one; flags: perf's empty flags column.  The
# workload's two processes wait on each other, so it switches every time:
# a busy loop may run its 20 ms with no switch, and leave nothing to read.
perf record -q -e sched:sched_switch -c 1 -o sw.data -- "$W" pingpong 8 >/dev/null 2>&1
if python3 "$(dirname "$0")/rawfield-craft.py" bpf sw.data bpf.data >/dev/null 2>"$tmp/err"; then
	same_as_perf bpf.data
	same_as_perf bpf.data -F comm,bpf-output
	same_as_perf bpf.data -F -bpf-output
	same_as_perf bpf.data -F sw:bpf-output,ip
	same_as_perf bpf.data -F comm,flags,event
	contains "bpf.data: the string of a printable payload" "$("$PERFKIT" script -i bpf.data)" \
		'      BPF string: "hello, world"'
else
	not_ok "rawfield-craft.py bpf makes a BPF output file"; diag "$(cat "$tmp/err")"
fi
same_as_perf plain.data -F +flags
run script -i plain.data -F hw:bpf-output
expect_rc "bpf-output for hardware events: refused" 2

"$PERFKIT" script -i plain.data -F brstack,nosuch >/dev/null 2>&1; rc=$?
check "an unknown field after a new one: exit 2" [ "$rc" = 2 ]
done_testing
