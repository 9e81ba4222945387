#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_unwind_cache.sh - --call-graph dwarf samples of a binary that was
# rebuilt (or removed) since the recording unwind from the build-id
# cache's copy, as perf's do: perfkit script and report print perf's
# chains byte for byte, with both tools reading the same cache (HOME).
# Without a copy, perfkit never unwinds against the other build: a chain
# stops at its first frame in the target (the sample's ip alone, for a
# sample in it), where perf goes on with the rebuilt file's CFI.
. "$(dirname "$0")/tap.sh"
. "$(dirname "$0")/report-perf.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
unset PERFKIT_BUILDID_DIR PERF_BUILDID_DIR PERF_CONFIG LD_BIND_NOW
export PERF_CONFIG_NOSYSTEM=1	# /etc/perfconfig is this machine's, not the test's
command -v perf >/dev/null || { echo "1..0 # SKIP perf is not installed"; exit 0; }
command -v cc >/dev/null || { echo "1..0 # SKIP no C compiler"; exit 0; }
: "${PERFKIT_UNWIND_TARGET:?PERFKIT_UNWIND_TARGET must name the unwinding target}"
: "${PERFKIT_SRCDIR:?PERFKIT_SRCDIR must name the source tree}"
W=$PERFKIT_SRCDIR/tests/workloads
export HOME=$tmp/home
mkdir -p "$HOME" "$tmp/empty"

cp "$PERFKIT_UNWIND_TARGET" target
perf record -q --call-graph dwarf -e task-clock -c 1000000 -o perf.data -- ./target 20000000 >/dev/null 2>&1
"$PERFKIT" record --call-graph dwarf -e task-clock -c 1000000 -o perfkit.data -- ./target 20000000 \
	>/dev/null 2>&1
old_id=$(perf buildid-list -i target 2>/dev/null)
check "both recordings put the target in the cache" \
	test -n "$old_id" -a -f "$HOME/.debug$tmp/target/$old_id/elf"

# Another build at the same path: a page of code before inner, middle and
# outer moves them (rm first: the cache's elf may be a hard link).
rm target
printf 'void pk_pad(void) { __asm__(".skip 8192"); }\n' >pad.c
cc -O2 -fomit-frame-pointer -o target pad.c "$W/unwind-target.c" "$W/unwind-target-nocfi.c"
new_id=$(perf buildid-list -i target 2>/dev/null)
check "the rebuilt target has another build-id and moved code" \
	test -n "$new_id" -a "$new_id" != "$old_id" -a \
	"$(nm "$PERFKIT_UNWIND_TARGET" | grep ' inner$')" != "$(nm target | grep ' inner$')"

# upto_target: each sample's lines up to its first frame in the target.
upto_target() {
	awk '/^[^\t]/ { cut = 0 } !cut { print } /\/target\)$/ { cut = 1 }'
}

# script_same DESC FILE HOME [FILTER]: perfkit script prints perf's frames
# (both through FILTER, if given).
script_same() {
	local theirs ours filter=${4:-cat}
	theirs=$(HOME=$3 perf script -i "$2" --no-inline 2>/dev/null | $filter)
	ours=$(HOME=$3 "$PERFKIT" script -i "$2" --no-inline 2>&1 | $filter)
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)"
	fi
}
full_chain='inner\+0x[0-9a-f]+ \(\S+\)\n\t\s+[0-9a-f]+ middle\+0x[0-9a-f]+ \(\S+\)\n\t\s+[0-9a-f]+ outer\+0x[0-9a-f]+ \(\S+\)\n\t\s+[0-9a-f]+ main\+'

for f in perf.data perfkit.data; do
	script_same "$f, rebuilt: script's unwound chains equal perf's (cache)" "$f" "$HOME"
	ours=$("$PERFKIT" script -i "$f" --no-inline 2>&1)
	check "$f, rebuilt: the chains run inner, middle, outer, main (the cached copy's CFI)" \
		grep -Pzq "$full_chain" <<<"$ours"
	same_as_perf "$f" --no-children -G --sort dso,sym
	# perf unwinds on through the target with the rebuilt file's CFI,
	# which is not the recorded code's; perfkit stops at the target's
	# first frame. Up to there, the chains are perf's.
	script_same "$f, rebuilt, no cache: equal to perf's up to the target's first frame" \
		"$f" "$tmp/empty" upto_target
	ours=$(HOME=$tmp/empty "$PERFKIT" script -i "$f" --no-inline 2>&1)
	# A sample in the target itself has its ip alone; one in libc or ld.so
	# (start-up, exit) unwinds through their CFI up to the target's first
	# frame, then stops.
	check "$f, rebuilt, no cache: one frame a sample in the target, nothing unwound against the other build" \
		awk 'BEGIN { RS = "" } { split($0, l, "\n") }
			l[2] ~ /\/target\)$/ { n++; if (length(l) != 2) bad++ }
			END { exit !(n > 0 && !bad) }' <<<"$ours"
done

# The file gone: the same, from the cache or not at all.
rm target
for f in perf.data perfkit.data; do
	script_same "$f, removed: script equals perf's (cache)" "$f" "$HOME"
	check "$f, removed: the chains are whole" \
		grep -Pzq "$full_chain" <<<"$("$PERFKIT" script -i "$f" --no-inline 2>&1)"
	script_same "$f, removed, no cache: equal to perf's" "$f" "$tmp/empty"
done
done_testing
