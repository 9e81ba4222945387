#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_brstackinsn.sh - script -F brstackinsn and brstackinsnlen
# against perf 6.1 on the same files: recordings of the workload given
# branch stacks by brstack-craft.py (no LBR here) - plain, with --deep
# (a block that starts inside an instruction: "<bad>" bytes and perf's
# "mismatch of LBR data and executable"), with --overlap on a -g
# recording, and through brstackinsn-craft.py (a newest branch that
# misses the sample: perf's 128-byte scan and "... not reaching sample
# ..."), with srcline (each function's line after its name) and srccode
# (each instruction's source line where it changes), with --max-blocks;
# and perf's refusal of an LBR call stack (no any-branch
# filter).
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
DIR="$(cd "$(dirname "$0")" && pwd)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

if ! command -v perf >/dev/null; then
	skip "comparisons with perf script" "perf is not installed"
	done_testing
	exit 0
fi

perf record -q -e cpu-clock:u -F 999 -o plain.data -- "$W" hot 30 >/dev/null 2>&1
perf record -q -e cpu-clock:u -F 999 -g -o g.data -- "$W" hot 30 >/dev/null 2>&1
python3 "$DIR/brstack-craft.py" plain.data br.data
python3 "$DIR/brstack-craft.py" --deep 3 plain.data deep.data
python3 "$DIR/brstack-craft.py" --overlap 3 g.data overlap.data
python3 "$DIR/brstack-craft.py" --callstack g.data callstack.data
python3 "$DIR/brstackinsn-craft.py" br.data miss.data

# same FILE FIELDS PATTERN [ARGS...]: perfkit script -F FIELDS ARGS on
# FILE prints what perf script prints, and that has a line matching
# PATTERN; the output is left in $ours.
same() {
	local theirs
	theirs=$(perf script -i "$1" -F "$2" "${@:4}" 2>/dev/null)
	ours=$("$PERFKIT" script -i "$1" -F "$2" "${@:4}" 2>"$tmp/err")
	if [ "$theirs" != "$ours" ]; then
		not_ok "script -F $2 ${*:4} on $1 equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	elif [ -n "${3:-}" ] && ! grep -qE -- "$3" <<<"$ours"; then
		not_ok "script -F $2 ${*:4} on $1 equals perf's, with a line matching '$3'"
	else
		ok "script -F $2 ${*:4} on $1 equals perf's ($(wc -l <<<"$ours") lines)"
	fi
}

# Each pattern holds for any sample whose ip is in a file (cpu-clock:u):
# brstack-craft.py's third entry leaves from the ip (--deep 3: from the
# ip plus one on every third sample) with 300 cycles, INTX, mispredicted.
same br.data ip,brstackinsn '^	[0-9a-f]{16}	insn: [0-9a-f ]+	# MISPRED INTX 300 cycles \[300\] 0\.00 IPC$'
same br.data ip,sym,brstackinsnlen '	ilen: [0-9]+	# MISPRED INTX'
same br.data +brstackinsn '^	[A-Za-z_][A-Za-z0-9_.@]*(\+[0-9]+)?:$'
same br.data ip,brstackinsn,srcline '^	[A-Za-z_][A-Za-z0-9_.@]*(\+[0-9]+)?:	[^	]+:[0-9]+$'
# srccode: from the workload's build directory, which its DWARF's relative
# file names start from
cd "$(dirname "$W")/.." || exit 1
same "$tmp/miss.data" ip,brstackinsn,srccode '^\|[0-9]+ +'
cd "$tmp" || exit 1
same deep.data ip,brstackinsn 'mismatch of LBR data and executable'
same deep.data brstackinsn,brstackinsnlen '	ilen: [0-9]+'
same overlap.data ip,brstackinsn '	insn: '
same miss.data ip,brstackinsnlen 'not reaching sample'
# --max-blocks 1: the newest two entries only, the oldest of them (from
# the ip, no flags) printed first; the third's 300 cycles never
same br.data ip,brstackinsn '^	[0-9a-f]{16}	insn: [0-9a-f ]+	#$' --max-blocks 1
check "--max-blocks 1 leaves out the older entries" bash -c '! grep -q "300 cycles" <<<"$1"' _ "$ours"

"$PERFKIT" script -i callstack.data -F ip,brstackinsn >/dev/null 2>"$tmp/err"
rc=$?
want="Display of branch stack assembler requested, but non all-branch filter set
Hint: run 'perf record -b ...'"
if [ "$rc" -ne 0 ] && [ "$(cat "$tmp/err")" = "$want" ] &&
	[ "$(perf script -i callstack.data -F ip,brstackinsn 2>&1 >/dev/null)" = "$want" ]; then
	ok "an LBR call stack's brstackinsn is refused with perf's message"
else
	not_ok "an LBR call stack's brstackinsn is refused with perf's message (exit $rc)"
	diag "$(cat "$tmp/err")"
fi

done_testing
