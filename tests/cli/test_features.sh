#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_features.sh - the header features of perfkit's files against perf's:
# `perf record -a` and `perfkit record -a` of the same command, read back by
# `perf report --header-only -I`, list the same features (the "missing
# features" line) and the same machine facts (host, CPUs, topology, NUMA
# nodes, caches, memory blocks, PMUs).  Lines that differ by nature are
# normalised: times, offsets and sizes, the version and command line (whose
# first word is each tool's own path: checked apart), the
# events and a node's free memory (the PMU mappings keep their order:
# perf writes them as readdir(3) lists the PMUs, and so does perfkit); BPF
# programs, which other tests may load meanwhile, are compared apart.  And
# perfkit's -a recording has perf's side-band event, dummy:HG.  With two BPF
# programs loaded (tests/cli/bpf-load.c), one named by its BTF, perf lists
# them the same in both files' BPF_PROG_INFO and BPF_BTF, and finds the
# same KSYMBOL and BPF_EVENT records for them; and keeps programs unloaded
# during the recording, those loaded before it and those loaded during it,
# as perf keeps them.
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# header FILE: perf's header view of FILE, normalised.
header() {
	perf report --header-only -I -i "$1" 2>/dev/null | grep -v \
		-e '^# captured on' -e '^# data offset' -e '^# data size' -e '^# feat offset' \
		-e '^# perf version' -e '^# cmdline' -e '^# event :' -e '^# time of' \
		-e '^# sample duration' -e '^# bpf_prog_info' -e '^# btf info' -e '^# 	sub_prog' |
		sed -e 's/\(meminfo  : total = [0-9]* kB\), free = [0-9]* kB/\1/'
}

if ! command -v perf >/dev/null; then
	skip "perf and perfkit write the same features" "perf is not installed"
	done_testing
	exit 0
fi
if ! perf record -q -a -o perf.data -- sleep 0.1 >/dev/null 2>&1; then
	skip "perf and perfkit write the same features" "perf record -a is not allowed here"
	done_testing
	exit 0
fi
run record -a -o perfkit.data -- sleep 0.1
check "perfkit record -a exits 0 (got $rc)" test "$rc" -eq 0
header perf.data >perf.txt
header perfkit.data >perfkit.txt
for what in "missing features" "node0 meminfo" "node0 cpu list" "CPU cache info" \
	"memory nodes" "pmu mappings" "sibling threads"; do
	if grep -q "$what" perf.txt; then
		check "perfkit's file has perf's \"$what\" line" grep -q "$what" perfkit.txt
	fi
done
if diff -u perf.txt perfkit.txt >diff.txt; then
	ok "perf shows the same features and machine facts for both files"
else
	not_ok "perf shows the same features and machine facts for both files"
	diag "$(cat diff.txt)"
fi
# perf stores its own path first, then the command from "record" on.
exe=$(readlink -f "$PERFKIT")
cmdline=$(perf report --header-only -i perfkit.data 2>/dev/null | grep '^# cmdline : ')
check "the command line starts with perfkit's own path, as perf's starts with perf's" \
	test "$cmdline" = "# cmdline : $exe record -a -o perfkit.data -- sleep 0.1 "
[ "$cmdline" = "# cmdline : $exe record -a -o perfkit.data -- sleep 0.1 " ] || diag "got: $cmdline"
# The side-band event of -a: perf's dummy:HG, carrying the process records
# and the kernel symbol and BPF program records, and sampling nothing.
sideband() {
	perf evlist -v -i "$1" 2>/dev/null | grep '^dummy:HG:' |
		sed -e 's/read_format: [A-Z_|]*, //' -e 's/disabled: 1, //' -e 's/inherit: 1, //'
}
want=$(sideband perf.data)
got=$(sideband perfkit.data)
check "perfkit's -a recording has perf's side-band event (dummy:HG)" test -n "$got" -a "$got" = "$want"
[ "$got" = "$want" ] || diag "perf:    $want" "perfkit: $got"
contains "and it asks for ksymbol and bpf_event records" "$got" "ksymbol: 1, bpf_event: 1"

# bpf_lines FILE: perf's view of our programs in FILE: the BPF_PROG_INFO and
# BPF_BTF lines of the header, then the KSYMBOL and BPF_EVENT records.
bpf_lines() {
	perf report --header-only -I -i "$1" 2>/dev/null |
		grep -E "^# bpf_prog_info ($plain|$withbtf)[: ]|^# btf info of id $btf\$"
	perf script --show-bpf-events -i "$1" 2>/dev/null |
		grep -E "PERF_RECORD_KSYMBOL .* name bpf_prog_[0-9a-f]{16}_pk_(plain|btf_func_long_name)\$|PERF_RECORD_BPF_EVENT .* id ($plain|$withbtf)\$"
}
mkfifo bpf.in bpf.out
"$PERFKIT_BPF_LOAD" <bpf.in >bpf.out 2>bpf.err &
loader=$!
exec 3>bpf.in	# the loader exits when this closes
read -r plain withbtf btf <bpf.out
if [ -z "$btf" ]; then
	exec 3>&-
	wait "$loader"
	skip "perf and perfkit describe the same BPF programs" "bpf-load: $(cat bpf.err)"
	done_testing
	exit 0
fi
perf record -q -a -o perf-bpf.data -- sleep 0.1 >/dev/null 2>&1
run record -a -o perfkit-bpf.data -- sleep 0.1
exec 3>&-
wait "$loader"
check "perfkit record -a with BPF programs loaded exits 0 (got $rc)" test "$rc" -eq 0
want=$(bpf_lines perf-bpf.data)
got=$(bpf_lines perfkit-bpf.data)
contains "perf's file lists the program named by its own name" "$want" "_pk_plain addr 0x"
contains "and the one named by its BTF, with the BTF" "$want" "_pk_btf_func_long_name addr 0x"
check "perf reads the same BPF programs, BTF and their records in perfkit's file" \
	test -n "$got" -a "$got" = "$want"
[ "$got" = "$want" ] || diag "perf:" "$want" "perfkit:" "$got"
contains "perfkit's file has a KSYMBOL for the program named by BTF" "$got" \
	"PERF_RECORD_KSYMBOL addr"
contains "and the BPF_EVENT of its load" "$got" "PERF_RECORD_BPF_EVENT type 1, flags 0, id $withbtf"

# Programs that come and go during the recording.  perf describes those
# loaded when it begins and those its side band sees loaded during -a, and
# keeps them when they are unloaded; perfkit's file must list them as
# perf's does, though at its end the kernel no longer has them.
#
# gone_during FILE TOOL...: bpf-load's programs, loaded before `TOOL -a -o
# FILE` begins and unloaded during it.  The workload, once running (so the
# recording has begun), says so through a fifo; the shell then closes the
# loader's input, which makes it exit, and the workload ends when the
# loader's output closes.  Sets ids to the loader's "plain withbtf btf".
gone_during() {
	local file=$1 loader rec
	shift
	rm -f g.in g.out g.started
	mkfifo g.in g.out g.started
	"$PERFKIT_BPF_LOAD" <g.in >g.out 2>g.err &
	loader=$!
	exec 5>g.in 6<g.out
	read -r ids <&6
	"$@" -a -o "$file" -- sh -c 'echo >g.started; cat <&6 >/dev/null' 5>&- >/dev/null 2>&1 &
	rec=$!
	read -r _ <g.started
	exec 5>&-
	wait "$rec"
	wait "$loader"
	exec 6<&-
}
# gone_lines FILE IDS: FILE's BPF_PROG_INFO and BPF_BTF lines for the
# programs and BTF of IDS, with their ids and addresses named.
gone_lines() {
	local p w b
	read -r p w b <<<"$2"
	perf report --header-only -I -i "$1" 2>/dev/null |
		grep -E "^# bpf_prog_info ($p|$w):|^# btf info of id $b\$" |
		sed -e "s/bpf_prog_info $p:/bpf_prog_info PLAIN:/" -e "s/bpf_prog_info $w:/bpf_prog_info BTF:/" \
			-e "s/btf info of id $b\$/btf info of id BTF/" -e 's/addr 0x[0-9a-f]*/addr ADDR/'
}
gone_during perf-gone.data perf record -q
want=$(gone_lines perf-gone.data "$ids")
gone_during perfkit-gone.data "$PERFKIT" record
got=$(gone_lines perfkit-gone.data "$ids")
contains "perf keeps a program loaded before -a and unloaded during it" "$want" "_pk_plain addr ADDR"
contains "and its BTF" "$want" "btf info of id BTF"
check "perfkit's file keeps them as perf's does" test -n "$got" -a "$got" = "$want"
[ "$got" = "$want" ] || diag "perf:" "$want" "perfkit:" "$got"

# busy_lines FILE: FILE's BPF_PROG_INFO line for bpf-busy's pk_busy, its id
# and address named.
busy_lines() {
	perf report --header-only -I -i "$1" 2>/dev/null | grep -E '^# bpf_prog_info [0-9]+: bpf_prog_[0-9a-f]+_pk_busy ' |
		sed -e 's/bpf_prog_info [0-9]*:/bpf_prog_info ID:/' -e 's/addr 0x[0-9a-f]*/addr ADDR/'
}
# A program loaded during -a and unloaded before its end: pk_busy lives
# 300 ms, the time perf's side band and perfkit's writer have to read it.
if "$PERFKIT_BPF_BUSY" 1 >/dev/null 2>&1; then
	perf record -q -a -o perf-busy.data -- "$PERFKIT_BPF_BUSY" 300 >/dev/null 2>&1
	run record -a -o perfkit-busy.data -- "$PERFKIT_BPF_BUSY" 300
	want=$(busy_lines perf-busy.data)
	got=$(busy_lines perfkit-busy.data)
	contains "perf keeps a program loaded during -a and unloaded before its end" "$want" "_pk_busy addr ADDR"
	check "perfkit's file keeps it as perf's does" test -n "$got" -a "$got" = "$want"
	[ "$got" = "$want" ] || diag "perf:" "$want" "perfkit:" "$got"
else
	skip "a program loaded during -a and unloaded before its end" "bpf-busy cannot load its program"
fi
done_testing
