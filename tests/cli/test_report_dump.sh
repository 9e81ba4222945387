#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_dump.sh - perfkit report -D against perf report -D 6.1 on
# the same files, whole outputs compared byte for byte: files recorded by
# perf (-c, -F with call chains, -z, a tracepoint system-wide with two
# events, a forking workload, --threads' directory format) and by
# perfkit record (with call chains); report's table on the directory too;
# perfkit script -D against perf script -D on the same files; samples in
# the vDSO (with and without its build-id in the file); the records and
# sample fields -D decodes past the header line (namespaces, cgroups,
# registers, user stack, weight, data source, page sizes, perf stat
# record's STAT records, record -s's READ records, leader-sampled
# groups' samples delivered to each member).  No difference is accepted but perf's random
# temp-file suffix.  Then AUX area tracing, which this machine
# cannot record: an AUXTRACE record with 4 KiB of trace data (shaped like
# samples) spliced into a perfkit file is skipped, trace data and all, so
# report prints the same table as on the file without it, warns, and -D
# prints the same records.  A file cut inside its feature sections reads
# whole but for them, with a warning.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

# perf names a vDSO the file's BUILD_ID feature does not list (perf
# record -z writes none) by the copy of its own vDSO it makes with
# mkstemp("/tmp/perf-vdso.so-XXXXXX"); perfkit reads the running image in
# place and prints mkstemp's template.  Only the random six characters
# are normalised: the rest of the name must match.
vdso_tmp() { sed 's|^\( \.\.\.\.\.\. dso: /tmp/perf-vdso\.so-\)[A-Za-z0-9]\{6\}$|\1XXXXXX|'; }

# same_dump FILE: perfkit report -D prints what perf report -D prints.
same_dump() {
	perf report -D -i "$1" 2>/dev/null | vdso_tmp >theirs.txt
	"$PERFKIT" report -D -i "$1" >ours.txt 2>err.txt
	if [ -s ours.txt ] && cmp -s theirs.txt ours.txt; then
		ok "$1: report -D equals perf's ($(grep -c '^0x' ours.txt) records)"
	else
		not_ok "$1: report -D equals perf's"
		diag "$(diff theirs.txt ours.txt | head -20)" "$(cat err.txt)"
	fi
}

# same_script_dump FILE: perfkit script -D prints what perf script -D
# prints, script's frame lines (tab-indented) left out (see below).
same_script_dump() {
	perf script -D -i "$1" 2>/dev/null | grep -v "^$(printf '\t')" | vdso_tmp >theirs.txt
	"$PERFKIT" script -D -i "$1" 2>err.txt | grep -v "^$(printf '\t')" >ours.txt
	if [ -s ours.txt ] && cmp -s theirs.txt ours.txt; then ok "$1: script -D equals perf's"
	else not_ok "$1: script -D equals perf's"; diag "$(diff theirs.txt ours.txt | head -20)" "$(cat err.txt)"; fi
}

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report -D" "perf is not installed"
else
	perf record -q -e task-clock -c 100000 -o count.data -- "$W" hot 50 >/dev/null 2>&1
	perf record -q -e cpu-clock -F 999 -g -o graph.data -- "$W" hot 50 >/dev/null 2>&1
	perf record -q -z -e task-clock -c 100000 -o zstd.data -- "$W" hot 50 >/dev/null 2>&1
	perf record -q -e cpu-clock -F 2000 -o fork.data -- "$W" children 5 >/dev/null 2>&1
	perf record -q -a -e sched:sched_switch -o trace.data -- sleep 0.1 >/dev/null 2>&1
	"$PERFKIT" record -q -e task-clock -c 100000 -g -o perfkit.data -- "$W" hot 50 >/dev/null 2>&1
	for f in count.data graph.data zstd.data fork.data trace.data perfkit.data; do
		same_dump "$f"
	done
	# perf's directory format (perf record --threads): DIR/data and
	# DIR/data.N, read as one recording
	perf record -q --threads -e cpu-clock -F 2000 -g -o dir.data -- "$W" threads 50 >/dev/null 2>&1
	if [ -s dir.data/data.0 ] || [ -s dir.data/data.1 ]; then
		same_dump dir.data
		# the table without call graphs: the graphs' own differences
		# ([k]/[.] of [unknown] parents, _dl_start_user) are the
		# resolver's and show on plain files too
		theirs=$(perf report -i dir.data --stdio --no-children -g none 2>/dev/null | grep -v '^# (')
		run report -i dir.data --stdio --no-children -g none
		ours=$(printf '%s\n' "$out" | grep -v '^# (')
		if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then ok "dir.data: report equals perf's"
		else not_ok "dir.data: report equals perf's"; diag "$(diff <(echo "$theirs") <(echo "$ours") | head)"; fi
	else
		skip "perf's directory format" "perf record --threads wrote no data.N files"
	fi
	# script -D: the same dump with script's own lines after each record.
	# Accepted difference: on files with call chains, script's frame lines
	# (tab-indented) are left out of the comparison: plain perfkit script
	# differs from perf script there too (symbols perf finds in
	# ld-linux's _start/_dl_start_user, non-PIE addresses), which is the
	# resolver's, not the dump's.
	for f in count.data zstd.data fork.data trace.data graph.data perfkit.data dir.data; do
		[ -e "$f" ] || continue
		perf script -D -i "$f" 2>/dev/null | grep -v "^$(printf '\t')" | vdso_tmp >theirs.txt
		"$PERFKIT" script -D -i "$f" 2>err.txt | grep -v "^$(printf '\t')" >ours.txt
		if [ -s ours.txt ] && cmp -s theirs.txt ours.txt; then ok "$f: script -D equals perf's"
		else not_ok "$f: script -D equals perf's"; diag "$(diff theirs.txt ours.txt | head -20)" "$(cat err.txt)"; fi
	done
	# samples in the vDSO, with and without its build-id in the file:
	# script -D resolves their symbols from the running vDSO as perf does
	perf record -q -z -e task-clock -c 100000 -o vdso-z.data -- "$W" clock 300 >/dev/null 2>&1
	perf record -q -e task-clock -c 100000 -o vdso.data -- "$W" clock 300 >/dev/null 2>&1
	for f in vdso-z.data vdso.data; do
		same_dump "$f"
		perf script -D -i "$f" 2>/dev/null | vdso_tmp >theirs.txt
		"$PERFKIT" script -D -i "$f" >ours.txt 2>err.txt
		if [ -s ours.txt ] && cmp -s theirs.txt ours.txt; then ok "$f: script -D equals perf's"
		else not_ok "$f: script -D equals perf's"; diag "$(diff theirs.txt ours.txt | head -20)" "$(cat err.txt)"; fi
		check "$f: samples in the vDSO resolve to __vdso_clock_gettime" \
			grep -q ' __vdso_clock_gettime+0x[0-9a-f]* (\[vdso\])$' ours.txt
		[ "$f" = vdso.data ] && want='[vdso]' || want=/tmp/perf-vdso.so-XXXXXX
		check "$f: the vDSO is named $want, as perf names it" grep -qxF " ...... dso: $want" ours.txt
	done
	# the records and sample fields -D decodes beyond a header line:
	# NAMESPACES, CGROUP, a sample's user and interrupt registers, user
	# stack, weight, data source, physical address, page sizes and
	# transaction; perf stat record's STAT_CONFIG, STAT and STAT_ROUND
	# NAMESPACES and CGROUP records come for the workload alone too: not
	# -a, whose samples of other programs (a JIT's labels inside its
	# functions) would test symbol choice, not -D.
	extra=()
	perf record -q --namespaces -e cpu-clock -F 500 -o ns.data -- "$W" hot 100 >/dev/null 2>&1 && extra+=(ns.data)
	perf record -q --all-cgroups -e cpu-clock -F 500 -o cgroup.data -- "$W" hot 100 >/dev/null 2>&1 &&
		extra+=(cgroup.data)
	perf record -q -W --phys-data --data-page-size --code-page-size --transaction -d --intr-regs=ax,bx \
		--user-regs=ax,sp,ip,r15 -e cpu-clock -F 500 -o fields.data -- "$W" hot 20 >/dev/null 2>&1 &&
		extra+=(fields.data)
	perf record -q --call-graph dwarf,1024 -e cpu-clock -F 500 -o dwarf.data -- "$W" hot 20 >/dev/null 2>&1 &&
		extra+=(dwarf.data)
	for f in "${extra[@]}"; do
		same_dump "$f"
		perf script -D -i "$f" 2>/dev/null | grep -v "^$(printf '\t')" | vdso_tmp >theirs.txt
		"$PERFKIT" script -D -i "$f" 2>err.txt | grep -v "^$(printf '\t')" >ours.txt
		if [ -s ours.txt ] && cmp -s theirs.txt ours.txt; then ok "$f: script -D equals perf's"
		else not_ok "$f: script -D equals perf's"; diag "$(diff theirs.txt ours.txt | head -20)" "$(cat err.txt)"; fi
	done
	while IFS='|' read -r f re; do
		case " ${extra[*]} " in *" $f "*) ;; *) skip "$f: -D decodes /$re/" "perf could not record it"; continue;; esac
		"$PERFKIT" report -D -i "$f" >ours.txt 2>/dev/null
		check "$f: -D decodes /$re/" grep -q "$re" ours.txt
	done <<'EOF2'
ns.data|PERF_RECORD_NAMESPACES [0-9]*/[0-9]* - nr_namespaces: [0-9]
cgroup.data|PERF_RECORD_CGROUP cgroup: [0-9]* /
fields.data|^\.\.\. intr regs: mask 0x3 ABI 64-bit$
fields.data|^\.\.\.\. R15   0x[0-9a-f]\{16\}$
fields.data|^ \.\. code page size: 4K$
dwarf.data|^\.\.\. ustack: size [0-9]*, offset 0x
EOF2
	# PERF_RECORD_READ (record -s: a thread's counts when it exits), with
	# the lines its read_format gives; perf diff's stub after it too
	perf record -q -s -e cpu-clock -o read.data -- "$W" threads 100 >/dev/null 2>&1
	"$PERFKIT" record -q -s -e cpu-clock -o read-pk.data -- "$W" threads 100 >/dev/null 2>&1
	for f in read.data read-pk.data; do
		same_dump "$f"
		check "$f: -D prints the READ records' time running" grep -q '^\.\.\. time running : [0-9]' ours.txt
		same_script_dump "$f"
		perf diff -D "$f" "$f" 2>/dev/null >theirs.txt
		"$PERFKIT" diff -D "$f" "$f" >ours.txt 2>err.txt
		if [ -s ours.txt ] && cmp -s theirs.txt ours.txt; then ok "$f: diff -D equals perf's"
		else not_ok "$f: diff -D equals perf's"; diag "$(diff theirs.txt ours.txt | head -20)" "$(cat err.txt)"; fi
	done
	# events of different sample_types: where the record's own event has
	# no CPU (or no TIME) but another's has, perf prints (u32)-1 (or
	# (u64)-1), the value its sample starts with, for samples and
	# sample_id_all trailers alike
	perf record -q -e cpu-clock -e sched:sched_switch -o mixed.data -- "$W" pingpong 200 >/dev/null 2>&1
	perf record -q -e cpu-clock/time=0/ -e task-clock -o notime.data -- "$W" hot 50 >/dev/null 2>&1
	while read -r f re; do
		same_dump "$f"
		check "$f: some records show /$re/" grep -q "$re" ours.txt
		same_script_dump "$f"
	done <<'EOF2'
mixed.data ^4294967295 [0-9]* 0x
notime.data ^18446744073709551615 0x
EOF2
	# pipe-mode streams (perf record -o -, perfkit's, and one perf inject
	# -b gave HEADER_BUILD_IDs), read by name and from standard input:
	# their header records dumped and counted, offsets from after the
	# 16-byte pipe header, "@pipe"
	perf record -q -o - -g -e cpu-clock -- "$W" threads 200 2>/dev/null >pipe.data
	perf record -q -o - -e cpu-clock -e sched:sched_switch -- "$W" pingpong 50 2>/dev/null >pipe-tp.data
	perf record -q -o - -e cpu-clock -- "$W" hot 20 2>/dev/null | perf inject -b 2>/dev/null >pipe-bid.data
	"$PERFKIT" record -q -o - -e cpu-clock -e sched:sched_switch -- "$W" pingpong 50 2>/dev/null >pipe-pk.data
	for f in pipe.data pipe-tp.data pipe-bid.data pipe-pk.data; do
		same_dump "$f"
		same_script_dump "$f"
		perf report -D -i - <"$f" 2>/dev/null | vdso_tmp >theirs.txt
		"$PERFKIT" report -D -i - <"$f" >ours.txt 2>err.txt
		if [ -s ours.txt ] && cmp -s theirs.txt ours.txt; then ok "$f: report -D -i - equals perf's"
		else not_ok "$f: report -D -i - equals perf's"; diag "$(diff theirs.txt ours.txt | head -20)" "$(cat err.txt)"; fi
		check "$f: -D dumps and counts the stream's HEADER_FEATURE records" \
			grep -q '^ *FEATURE events: *[1-9]' ours.txt
	done
	# leader-sampled groups (PERF_SAMPLE_READ): perf delivers a sample to
	# each member whose count grew, each delivery with its thread and DSO
	# lines (script's line after each), and counts it for that member
	perf record -q -e '{cpu-clock,task-clock}:S' -o lead.data -- "$W" hot 50 >/dev/null 2>&1
	perf record -q -e '{task-clock,page-faults}:S' -o leadpf.data -- "$W" hot 50 >/dev/null 2>&1
	"$PERFKIT" record -q -e '{cpu-clock,task-clock}:S' -o lead-pk.data -- "$W" hot 50 >/dev/null 2>&1
	for f in lead.data leadpf.data lead-pk.data; do
		same_dump "$f"
		same_script_dump "$f"
	done
	"$PERFKIT" report -D -i lead.data >ours.txt 2>/dev/null
	n=$(grep -c '^ \.\.\. thread: ' ours.txt) m=$(grep -c 'PERF_RECORD_SAMPLE(' ours.txt)
	check "lead.data: -D prints the thread lines once per member ($n for $m samples)" test "$m" -gt 0 -a "$n" -gt "$m"
	# perf stat record: no sample_id_all, so read in file order, as perf says
	if perf stat record -o stat.data -e task-clock,page-faults -- "$W" hot 20 >/dev/null 2>&1; then
		same_dump stat.data
		check "stat.data: -D decodes the STAT records" grep -q '^\.\.\. value [0-9]*, enabled' ours.txt
	else
		skip "stat.data: report -D equals perf's" "perf stat record failed"
	fi
	# perf prints records in time order with their file offsets: the
	# offsets are not sorted where rounds reorder records
	"$PERFKIT" report -D -i fork.data | sed -n 's/^\(0x[0-9a-f]*\)@.*/\1/p' >offs.txt
	check "every record of fork.data is dumped once" \
		test "$(sort -u offs.txt | wc -l)" -eq "$(wc -l <offs.txt)"
fi

# A perfkit file with an AUXTRACE record (and 4 KiB of trace data after
# it, outside its size) spliced in at the start of the data section.
"$PERFKIT" record -q -e task-clock -c 100000 -o plain.data -- "$W" hot 50 >/dev/null 2>&1
python3 - plain.data aux.data <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
off, size = struct.unpack_from('<QQ', b, 40)
payload = 4096
rec = struct.pack('<IHHQQQIIII', 71, 0, 48, payload, 0, 0x1234, 0, 0, 0, 0)
# trace data shaped like samples: a reader that took it as records would count them
sample = struct.pack('<IHHQIIQ', 9, 2, 32, 0xdeadbeef, 1, 1, 99)
ins = rec + sample * (payload // len(sample))
end = off + size
feat = bytearray(b[end:])
flags = struct.unpack_from('<4Q', b, 72)
for i in range(sum(bin(f).count('1') for f in flags)):	# the feature table: its sections move
    o, = struct.unpack_from('<Q', feat, 16 * i)
    struct.pack_into('<Q', feat, 16 * i, o + len(ins))
out = b[:off] + ins + b[off:end]
struct.pack_into('<Q', out, 48, size + len(ins))
open(sys.argv[2], 'wb').write(out + feat)
EOF
run report -i plain.data --stdio
want=$out
run report -i aux.data --stdio
expect_rc "report reads a file with an AUXTRACE record" 0
if [ "$out" = "$want" ] && [ -n "$out" ]; then ok "the AUXTRACE record and its trace data are skipped whole"
else not_ok "the AUXTRACE record and its trace data are skipped whole"; diag "$(diff <(echo "$want") <(echo "$out") | head)"; fi
contains "report says it skipped it" "$err" "Warning: 1 AUXTRACE records skipped (4096 bytes"
run report -D -i aux.data
a=$(printf '%s\n' "$out" | grep -c '^0x')
run report -D -i plain.data
b=$(printf '%s\n' "$out" | grep -c '^0x')
check "-D prints every record but the AUXTRACE ($a, $b)" test "$a" -eq "$b" -a "$a" -gt 0

# A file cut inside its feature sections (the records whole): script and
# report read every record, as perf does, and say what the cut took.
size=$(stat -c %s plain.data)
head -c $((size - 100)) plain.data >cut.data
run script -F tid,time,ip -i plain.data
want=$out
run script -F tid,time,ip -i cut.data
expect_rc "script reads a file cut inside its feature sections" 0
if [ "$out" = "$want" ] && [ -n "$out" ]; then ok "cut.data: script prints every sample"
else not_ok "cut.data: script prints every sample"; diag "$(diff <(echo "$want") <(echo "$out") | head)"; fi
contains "script names the file and what is missing" "$err" \
	"Warning: cut.data is truncated: it ends before or inside its "
contains "and says the records were read" "$err" "every record is there and was read"
run report -i cut.data --stdio --sort pid
expect_rc "report reads it too" 0
contains "report says the same" "$err" "Warning: cut.data is truncated"
run script -D -i cut.data
contains "script -D says the same" "$err" "Warning: cut.data is truncated"

echo "1..$tap_n"
exit $tap_fail
