#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_lbr_callstack.sh - call chains of an LBR call stack (--call-graph
# lbr: branch_sample_type CALL_STACK), crafted with brstack-craft.py
# --callstack into a -g recording of page faults (this machine has no
# LBR): script and report rebuild each chain as perf 6.1 does (the kernel
# part up to the user marker, then the first entry's target and every
# entry's source), compared with perf on the same files: a chain of
# several frames with kernel frames, samples whose chain has no user part
# (perf walks the plain chain), --max-stack in both orders (the LBR chain
# whole, or the plain one cut), and empty branch stacks (perf 6.1 then adds
# a frame read past the record in callee order; perfkit adds none).
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
craft="$(cd "$(dirname "$0")" && pwd)/brstack-craft.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

perf record -q -g -e cpu-clock -c 200000 -o g.data -- "$PERFKIT_WORKLOAD" pages 3000 >/dev/null 2>&1
python3 "$craft" --callstack --no-user 3 g.data lbr.data
python3 "$craft" --callstack --empty 2 g.data empty.data
[ -s lbr.data ] && [ -s empty.data ] || { echo "Bail out! no crafted recording"; exit 1; }

# same NAME FILE ARGS... [--sort-lines]: perfkit CMD's stdout equals
# perf's on FILE, the '#' comment lines of report aside (both sorted with
# --sort-lines, which goes last).
same() {
	local name=$1 file=$2 theirs sort=cat
	shift 2
	if [ "${!#}" = --sort-lines ]; then
		sort=sort
		set -- "${@:1:$#-1}"
	fi
	theirs=$(perf "$@" -i "$file" 2>/dev/null | grep -v '^#' | $sort)
	run "$@" -i "$file"
	out=$(printf '%s\n' "$out" | grep -v '^#' | $sort)
	if [ -n "$out" ] && [ "$theirs" = "$out" ]; then
		ok "$name"
	else
		not_ok "$name"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$out") | head -20)" "$err"
	fi
}

same "script: LBR chains equal perf's" lbr.data script
same "script -F ip,sym: LBR chains equal perf's" lbr.data script -F ip,sym
# report's chains, folded; sorted, as branches of equal overhead may come
# in either order.
for g in callee caller; do
	same "report --no-children -g $g: chains equal perf's" lbr.data \
		report --stdio --no-children -g folded,0,$g --sort-lines
done
same "report --no-children -g caller, empty stacks: chains equal perf's" empty.data \
	report --stdio --no-children -g folded,0,caller --sort-lines
# --max-stack N: perf rebuilds an LBR chain whole when the call chain's
# user marker is among its first N entries, and otherwise walks the plain
# chain, whose outermost N frames caller order keeps (-G too).
for n in 1 2 3 5; do
	for g in "-g folded,0,caller" "-G -g folded,0" "-g folded,0,callee"; do
		same "report --no-children $g --max-stack $n: chains equal perf's" lbr.data \
			report --stdio --no-children $g --max-stack $n --sort-lines
	done
	same "report --no-children -G --max-stack $n, empty stacks: chains equal perf's" empty.data \
		report --stdio --no-children -G -g folded,0 --max-stack $n --sort-lines
done
same "script --max-stack 3: LBR chains equal perf's" lbr.data script --max-stack 3

# Children (caller order is report's default): perf resolves an LBR
# chain's kernel part in user mode in caller order, so its addresses are
# unknown entries, which perf and perfkit may order differently among
# equal overheads: the entries are compared as sets, each with its level
# (an unknown frame takes the level of the frame before it, as in perf).
run report --stdio -i lbr.data
check "lbr.data: kernel frames in caller order are unknown, as in perf" \
	grep -q '\[unknown\] *\[\.\] 0xffffffff' <<<"$out"
# The user part comes from the branch records: no frame pointer to blame.
check "lbr.data: no warning about missing frame pointers" \
	test -z "$(grep -i 'frame pointer' <<<"$err")"
entries() { grep '^ *[0-9.]*% *[0-9.]*% ' | sort; }
for f in lbr.data empty.data; do
	for g in caller callee; do
		# (perf's frames read past the record have entries of their own)
		[ $f/$g = empty.data/callee ] && continue
		for ms in 127 3; do
			theirs=$(perf report --stdio -g $g --max-stack $ms -i $f 2>/dev/null | entries)
			run report --stdio -g $g --max-stack $ms -i $f
			ours=$(printf '%s\n' "$out" | entries)
			if [ -n "$ours" ] && [ "$theirs" = "$ours" ]; then
				ok "$f: report's children entries ($g order, --max-stack $ms) equal perf's"
			else
				not_ok "$f: report's children entries ($g order, --max-stack $ms) equal perf's"
				diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)"
			fi
		done
	done
done

# Empty branch stacks in script (callee order): every sample is perf's,
# less perf's last frame where perf read past the record.
python3 - <(perf script -i empty.data 2>/dev/null) <("$PERFKIT" script -i empty.data 2>/dev/null) <<'PY' >diff.txt
import sys
theirs, ours = (open(p).read().rstrip('\n').split('\n\n') for p in sys.argv[1:3])
cut = 0
for t, o in zip(theirs, ours):
    if t != o:
        if o != t.rsplit('\n', 1)[0]:
            print('differs:\n%s\n--- ours:\n%s' % (t, o))
        cut += 1
print('%d %d %d' % (sum('cpu-clock' in t for t in theirs), len(ours), cut))
PY
read -r nt no cut < <(tail -1 diff.txt)
if [ "$nt" = "$no" ] && [ "$nt" -gt 0 ] && [ "$(wc -l <diff.txt)" = 1 ]; then
	ok "empty.data: script equals perf's but for perf's frame read past the record"
else
	not_ok "empty.data: script equals perf's but for perf's frame read past the record"
	diag "$(head -20 diff.txt)"
fi
check "empty.data: some samples had empty stacks" test "${cut:-0}" -ge 1

# The chains are rebuilt: the crafted call sites (return addresses minus
# one) are not in the frame-pointer chains.
run script -F ip -i lbr.data
lbr=$out
run script -F ip -i g.data
check "lbr.data: the chains are the LBR's, not the frame pointers'" \
	test "$rc" = 0 -a -n "$lbr" -a -n "$out" -a "$lbr" != "$out"

echo "1..$tap_n"
exit $tap_fail
