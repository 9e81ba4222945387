#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_kept.sh - a compressed debug file's DWARF, inflated whole and
# kept in the build-id cache (symbols/srcline-kept.c), changes nothing but
# time: on a --call-graph dwarf recording through libc and ld.so (whose
# Debian debug files are zlib-compressed), report and script print the
# same with no cache, with a fresh one (which the first report fills: one
# file per debug file it made whole), read back from it, and with each kept file cut
# short (read as none, and kept again whole); a cache directory of
# another user gets nothing written in it.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# The premise: libc's debug file is there and its DWARF compressed.
libc=$(ldd "$PERFKIT_WORKLOAD" | awk '/libc.so/ { print $3 }')
id=$(readelf -n "$libc" 2>/dev/null | awk '/Build ID/ { print $3 }')
dbg=/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug
if ! readelf -S -W "$dbg" 2>/dev/null | grep -q ' \.debug_info .* C '; then
	skip "kept DWARF images" "no zlib-compressed debug file for $libc ($dbg): install libc6-dbg"
	done_testing
	exit 0
fi

"$PERFKIT" record -q -N -e task-clock -c 100000 --call-graph dwarf -o hot.data -- "$PERFKIT_WORKLOAD" hot 200 \
	>/dev/null 2>&1
check "perfkit recorded the workload with --call-graph dwarf" test -s hot.data
mkdir cache

# out DIR ARGS...: perfkit's output (and status) with the build-id cache DIR.
out() {
	local dir=$1
	shift
	PERFKIT_BUILDID_DIR=$dir "$PERFKIT" "$@" -i hot.data 2>&1
	echo "status $?"
}

kept() { find cache/.perfkit-dwarf -type f 2>/dev/null | sort; }
# inodes: each kept file's NAME:INODE (a file kept again is a new one: its
# inode differs from the one it replaced, which still existed when it was
# made; another file's old inode may be reused, so each is compared by name)
inodes() { kept | xargs -r stat -c %n:%i | tr '\n' ' '; }
# all_in A B: every word of A is one of B's
all_in() { for i in $1; do case " $2 " in *" $i "*) ;; *) return 1;; esac; done; }
# none_in A B: no NAME:INODE of A is one of B's
none_in() { for i in $1; do case " $2 " in *" $i "*) return 1;; esac; done; }

first_inodes=
modes=("report --stdio" "report --stdio --no-children -g caller,0,callee,function,percent"
	"report --stdio --no-children --sort dso,srcline -g none" "script" "script -F ip,sym,srcline")
declare -A plain
for m in "${modes[@]}"; do
	# shellcheck disable=SC2086
	none=$(out "$tmp/none" $m)
	plain[$m]=$none
	# shellcheck disable=SC2086
	first=$(out "$tmp/cache" $m)
	[ -n "$first_inodes" ] || first_inodes=$(inodes)
	# shellcheck disable=SC2086
	again=$(out "$tmp/cache" $m)
	if [ "$none" = "$first" ] && [ "$none" = "$again" ] && [ "$(printf '%s\n' "$none" | wc -l)" -gt 10 ]; then
		ok "perfkit $m: the same without a cache, filling it, and from it"
	else
		not_ok "perfkit $m: the same without a cache, filling it, and from it"
		diag "$(diff <(printf '%s\n' "$none") <(printf '%s\n' "$first") | head -10)" \
			"$(diff <(printf '%s\n' "$none") <(printf '%s\n' "$again") | head -10)"
	fi
done
check "no cache directory was made where none was" test ! -e "$tmp/none"
check "the later reports read the kept files, not made again" all_in "$first_inodes" "$(inodes)"
# ld.so's needed units lie past half its DWARF: it is always made whole;
# libc's only when the samples reach far enough into it.
n=$(kept | wc -l)
check "the debug files made whole are kept, one file each ($n)" test "$n" -ge 1 -a "$n" -le 2
check "nothing else left in the cache's .perfkit-dwarf" \
	test "$(find cache/.perfkit-dwarf -mindepth 1 | wc -l)" -eq "$n"

# Cut short: not read, and kept again whole.
sizes=$(kept | xargs stat -c %s)
for f in $(kept); do truncate -s -1 "$f"; done
same=0
for m in "${modes[@]}"; do	# each mode, as before: the same files made whole
	# shellcheck disable=SC2086
	[ "$(out "$tmp/cache" $m)" = "${plain[$m]}" ] && same=$((same + 1))
done
check "kept files cut short are read as none ($same of ${#modes[@]} the same)" test "$same" -eq "${#modes[@]}"
check "and kept again whole" test "$(kept | xargs stat -c %s)" = "$sizes"
check "as new files" none_in "$(inodes)" "$first_inodes"

# Another user's cache directory: nothing written there.
if [ "$(id -u)" -eq 0 ]; then
	mkdir other
	chown 12345:12345 other
	PERFKIT_BUILDID_DIR=$tmp/other "$PERFKIT" report --stdio -i hot.data >/dev/null 2>&1
	check "a report with another user's cache directory succeeds" test $? -eq 0
	check "and writes nothing in it" test -z "$(ls -A other)"
else
	skip "another user's cache directory" "giving a directory to another user needs root"
fi

done_testing
