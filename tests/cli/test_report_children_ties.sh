#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_children_ties.sh - perfkit report's default children table
# where rows tie, against perf report 6.1 on the same files.  perf breaks
# an equal Children total between two entries of one thread by their
# chains' depth and others by Self, comm, dso and symbol: that comparison
# is not transitive, so perf's rows follow the red-black tree it inserts
# its entries into, in address order.  The workload's pingpong is two
# processes of one comm taking turns through pipes, so many kernel rows of
# both share a Children total and mix the two rules (a plain sort put some
# of them elsewhere: in about one recording of three, hence five).
# Compared whole, chains included, callee and caller order; the tip aside.
# Under a one-name --comms list, whose key perf's output sort skips;
# symbols keyed before their objects, in perf's signed order of their
# starts; unresolved addresses that tie, in perf's signed order; and a
# symbol perf's input tree keeps on two rows.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

for i in 1 2 3 4 5; do
	perf record -q -g -e cpu-clock -F 999 -o "pp$i.data" -- "$W" pingpong 3000 >/dev/null 2>&1
	theirs=$(perf report -i "pp$i.data" --stdio 2>/dev/null | grep -v 'Tip:\|perf report --')
	ours=$("$PERFKIT" report -i "pp$i.data" --stdio 2>/dev/null | grep -v 'Tip:\|perfkit report --')
	rows=$(grep -cE '^ +[0-9.]+% +[0-9.]+% ' <<<"$ours")
	# rows of one Children total, of both processes' chains: the ties in question
	ties=$(grep -E '^ +[0-9.]+% +[0-9.]+% ' <<<"$ours" | awk '{ print $1 }' | uniq -d | wc -l)
	diag "pp$i.data: $rows rows, $ties Children totals shared by several rows"
	check "pp$i.data: rows with a Children total in common ($ties)" test "$ties" -ge 1
	if [ "$theirs" = "$ours" ]; then
		ok "pp$i.data: report's children table equals perf's, ties and chains included"
	else
		not_ok "pp$i.data: report's children table equals perf's, ties and chains included"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)"
	fi
	theirs=$(perf report -i "pp$i.data" --stdio -g caller 2>/dev/null | grep -v 'Tip:\|perf report --')
	ours=$("$PERFKIT" report -i "pp$i.data" --stdio -g caller 2>/dev/null | grep -v 'Tip:\|perfkit report --')
	check "pp$i.data: -g caller (the deeper entry first in a tie) as perf" test "$theirs" = "$ours"
	theirs=$(perf report -i "pp$i.data" --stdio -g none --sort pid,sym 2>/dev/null | grep -E '^ +[0-9.]+%')
	ours=$("$PERFKIT" report -i "pp$i.data" --stdio -g none --sort pid,sym 2>/dev/null | grep -E '^ +[0-9.]+%')
	check "pp$i.data: and by pid,sym (each process its own rows), as perf" test -n "$ours" -a "$theirs" = "$ours"
done

# same_report FILE WHAT ARGS...: perfkit report ARGS prints what perf
# report prints on FILE (something), the tip aside.
same_report() {
	local f=$1 what=$2 theirs ours
	shift 2
	theirs=$(perf report -i "$f" --stdio "$@" 2>/dev/null | grep -v 'Tip:\|perf report --')
	ours=$("$PERFKIT" report -i "$f" --stdio "$@" 2>/dev/null | grep -v 'Tip:\|perfkit report --')
	if [ -n "$ours" ] && [ "$theirs" = "$ours" ]; then
		ok "$f: report $* equals perf's, $what"
	else
		not_ok "$f: report $* equals perf's, $what"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)"
	fi
}

# A --comms list of one name elides the comm column, and perf's output
# sort then skips the comm key: the filtered entries of the other comm,
# still in its tree, meet this comm's ties in another order (the workload
# and a copy of it named pkw2 playing pingpong side by side; the old
# order differed in about one comparison of five).
cp "$W" pkw2
for i in 1 2 3; do
	perf record -q -g -e cpu-clock -F 999 -o "m$i.data" -- sh -c "\"$W\" pingpong 3000 & ./pkw2 pingpong 3000; wait" \
		>/dev/null 2>&1
	for c in perfkit-workloa pkw2; do
		same_report "m$i.data" "the comm key elided from the order" --comm $c
	done
done

# A symbol key with the dso key after it (sym,dso, comm,sym,dso): perf's
# symbol comparison then leaves the objects to that key, and orders two
# symbols by the sign of the difference of their starts, so a kernel
# symbol (at or above 2^63) comes before a user object's, and its tree
# gets the entries in that order; the kernel's and the shell's rows of a
# fork and exec tie in Children (comparing the starts unsigned put
# kernel_clone and copy_process above handle_amd, in every recording).
for i in 1 2; do
	perf record -q -g -e cpu-clock -o "sd$i.data" -- \
		sh -c "ls /usr/bin >/dev/null; \"$W\" threads 200; sleep 0.1 & wait" >/dev/null 2>&1
	for args in "--sort sym,dso" "--sort comm,sym,dso" "--sort sym,dso -g caller"; do
		# shellcheck disable=SC2086
		same_report "sd$i.data" "symbols before their objects, kernel first" $args
	done
done

# An inlined function's symbol perf compares by name, other symbols by
# start: no order, and perf's search of its tree of entries can pass the
# entry of a key by and make a second one, two rows of one symbol with
# --sort sym (libc's __libc_start_call_main beside its inlined frames, in
# about two DWARF recordings of five of `threads 100`), merged again by
# the default keys' collapse.  -g none: perf orders sibling chains that
# tie by its heap's addresses.
for i in 1 2 3; do
	perf record -q --call-graph dwarf -e cpu-clock -F 4000 -o "th$i.data" -- "$W" threads 100 >/dev/null 2>&1
	for args in "--sort sym -g none" "--sort dso,sym -g none" "-g none"; do
		# shellcheck disable=SC2086
		same_report "th$i.data" "inlined functions' symbols by name" $args
	done
done

# Unresolved addresses of one sample each tie: perf orders them by
# (int64_t)(b - a), so the garbage a frame-pointer walk finds at or above
# 2^63 comes before user space's (kip-craft.py sets eight user frames,
# each on its own sample; equal periods from -c).  That order is no order
# (a cycle among these eight), and perf's tree of entries, searched with
# it for an unresolved address of many samples, can miss that address's
# node and make it a second entry, depending on where the other entries
# fell: the walk past hot_a reads garbage from the stack's top (here
# argv[0]'s bytes) in nearly every sample, which perf split in two rows in
# about one run in ten.  So --user-rest puts each other sample's own
# address in its place: the eight are the only unresolved ones.
perf record -q -g -e cpu-clock:u -c 200000 -o u.data -- env -i setarch "$(uname -m)" -R "$W" hot 300 \
	>/dev/null 2>&1
n=$(python3 "$(dirname "$0")/kip-craft.py" --user-rest u.data uc.data 8000000000001000 aee822788a440028 \
	fb0101010000002a 10 7fff00001234 c3c0310375400000 bebebebe00003f34 20)
check "kip-craft.py --user-rest set $n of 8 frames" test "$n" = 8
for args in "" "-g none" "-g none --sort dso,sym" "--no-children --sort sym"; do
	# shellcheck disable=SC2086
	same_report uc.data "its garbage addresses in perf's order" $args
done
done_testing
