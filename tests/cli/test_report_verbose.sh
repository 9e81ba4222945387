#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_verbose.sh - perfkit report -v against perf report -v 6.1
# on the same files (perf's stderr chatter aside): each DSO by its full
# path, sized and sorted by it, and each resolved symbol after its address
# and the letter for where its symbols came from (B the build-id cache, D
# its debug info, k kallsyms); recordings by perf (plain, a forking
# workload whose samples reach ld.so, -g, a non-PIE executable, whose
# addresses perf shows as file offsets, a stripped static one, '!') and
# by perfkit record.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
: "${PERFKIT_WORKLOAD_NOPIE:?PERFKIT_WORKLOAD_NOPIE must name the non-PIE workload}"
: "${PERFKIT_INLINE_TARGET:?PERFKIT_INLINE_TARGET must name the inline target}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD
# A build-id cache of this test's own: the origin letters depend on what a
# cache holds (D: a debug file cached for the DSO), and tests running
# meanwhile add to a shared one between perfkit's report and perf's.
export HOME=$tmp/home PERFKIT_BUILDID_DIR=$tmp/home/.debug
mkdir -p "$HOME"

. "$(dirname "$0")/report-perf.sh"

"$PERFKIT" record -F 999 -o perfkit.data -- "$W" hot 150 >/dev/null 2>&1
if ! command -v perf >/dev/null; then
	skip "comparisons with perf report -v" "perf is not installed"
else
	perf record -q -e cpu-clock -F 999 -o plain.data -- "$W" hot 150 >/dev/null 2>&1
	perf record -q -e cpu-clock -F 5000 -o fork.data -- "$W" children 30 >/dev/null 2>&1
	perf record -q -g -e cpu-clock -F 999 -o g.data -- "$W" hot 150 >/dev/null 2>&1
	for f in plain.data fork.data perfkit.data; do
		same_as_perf "$f" -v
		same_as_perf "$f" --verbose --sort dso,sym -n
		same_as_perf "$f" -v --no-children --sort sym
		same_as_perf "$f" -v --sort pid,comm,dso
	done
	# --dsos names a DSO by its short name or its path, as perf matches either
	same_as_perf plain.data -v --dsos perfkit-workload
	same_as_perf plain.data -v --dsos "$W,[kernel.kallsyms]" --sort dso,sym
	same_as_perf g.data -v --percent-limit 5
	# A non-PIE executable (system-wide files are full of them: cc1, static
	# binaries): perf's -v address is the offset into the file, its map_ip,
	# not the ELF address 0x400000 above it.
	perf record -q -e cpu-clock -F 999 -o nopie.data -- "$PERFKIT_WORKLOAD_NOPIE" hot 150 >/dev/null 2>&1
	"$PERFKIT" record -F 999 -o knopie.data -- "$PERFKIT_WORKLOAD_NOPIE" hot 150 >/dev/null 2>&1
	for f in nopie.data knopie.data; do
		same_as_perf "$f" -v
		same_as_perf "$f" -v --sort dso,sym
	done
	# A static executable stripped of both symbol tables (as a system-wide
	# file meets them): perf finds no symbol source ('!', not the cache's
	# 'B') and shows its unknown addresses at their file offsets.
	printf 'volatile unsigned long s;\nint main(void) { for (unsigned long i = 0; i < 200000000ul; i++) s += i; return 0; }\n' >st.c
	if cc -static -O1 -o st st.c 2>/dev/null && strip --strip-all st; then
		perf record -q -e cpu-clock -F 999 -o static.data -- ./st >/dev/null 2>&1
		same_as_perf static.data -v
		out=$("$PERFKIT" report -i static.data --stdio -v -q --sort dso,sym 2>/dev/null)
		if printf '%s\n' "$out" | grep -q '/st ' &&
		   ! printf '%s\n' "$out" | grep '/st ' | grep -Evq ' 0x[0-9a-f]{1,5} +! \[\.\] 0x0{6,}[0-9a-f]+$'; then
			ok "-v: a stripped static executable's addresses: '!', file offsets"
		else
			not_ok "-v: a stripped static executable's addresses: '!', file offsets"
			diag "$out"
		fi
	else
		skip "-v on a stripped static executable" "cc -static does not link here"
	fi
	out=$("$PERFKIT" report -i nopie.data --stdio -v -q --sort sym 2>/dev/null)
	if printf '%s\n' "$out" | grep -Eq ' 0x1[0-9a-f]{3} +[A-Za-z!] \[\.\] hot_a$'; then
		ok "-v: a non-PIE executable's symbol at its file offset"
	else
		not_ok "-v: a non-PIE executable's symbol at its file offset"
		diag "$out"
	fi
	same_as_perf g.data -v --no-children -g folded --percent-limit 5
	# A DSO reached only through call chains is not in the recording's
	# build-id table (perf record marks the DSOs of samples' ips), but the
	# cache may hold its debug copy from another recording: perf reads the
	# file's own build-id and says D.  With libc in this test's cache, a
	# frame-pointer target's chains reach __libc_start_call_main.
	perf buildid-cache -a "$(ldd "$PERFKIT_INLINE_TARGET" | awk '/libc\.so/ { print $3 }')" 2>/dev/null
	# User space only: perf orders sibling call-chain nodes of equal
	# period by the addresses of its DSO objects in its own heap, so a
	# kernel frame beside a libc frame with one sample each came out in
	# either order from run to run; the user DSOs are made in the
	# recording's order in both tools.
	perf record -q -g -e cpu-clock:u -F 999 -o libc.data -- "$PERFKIT_INLINE_TARGET" 30 >/dev/null 2>&1
	same_as_perf libc.data -v
	same_as_perf libc.data -v --sort dso,sym
	out=$("$PERFKIT" report -i libc.data --stdio -v -q 2>/dev/null)
	if printf '%s\n' "$out" | grep -Eq '/libc\.so\.6 +0x[0-9a-f]+ +D \[\.\] __libc_start_call_main$'; then
		ok "-v: libc, reached through call chains, from the cache's debug copy (D)"
	else
		not_ok "-v: libc, reached through call chains, from the cache's debug copy (D)"
		diag "$out"
	fi
fi

# What -v adds, whatever perf says: the workload's full path, and its hot
# function after an address and an origin letter.
out=$("$PERFKIT" report -i perfkit.data --stdio -v -q --sort dso,sym 2>/dev/null)
line=$(printf '%s\n' "$out" | grep ' hot_a$' | head -1)
contains "-v: the DSO's full path" "$line" " $W "
if printf '%s\n' "$line" | grep -Eq ' 0x[0-9a-f]+ +[A-Za-z!] \[\.\] hot_a$'; then
	ok "-v: the symbol's address and origin before it"
else
	not_ok "-v: the symbol's address and origin before it"
	diag "$out"
fi
plain=$("$PERFKIT" report -i perfkit.data --stdio -q --sort dso,sym 2>/dev/null | grep ' hot_a$' | head -1)
case $plain in *"$W"*|*" 0x"*) not_ok "without -v: the short name, no address"; diag "$plain" ;;
	*) ok "without -v: the short name, no address" ;; esac
done_testing
