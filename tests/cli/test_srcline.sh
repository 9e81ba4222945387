#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_srcline.sh - source lines and inlined frames against perf report
# 6.1 (which asks a forked addr2line; perfkit reads the DWARF itself) on
# recordings of the inline target (-O2 -g, functions inlined two deep):
# --sort srcline and srcfile, alone and with other keys, with and without
# Children, on frame-pointer (-g) and --call-graph dwarf files; script -F
# srcline on both and on a file without call chains; the dwarf file's call
# graphs in report and script with perf's "(inlined)" frames, and without
# them under --no-inline.  glibc's frames are in every chain: their lines
# come from Debian's debug files, whose rewritten DWARF 5 line tables
# addr2line reads its own way (pk_srcline.file_addr2line).  The no-line
# target's samples all land where addr2line finds no line (perf's ":0" and
# "??:0") or names a DWARF 5 file by that rule, so those cases are hit on
# every run, not only when a sample happens to fall in ld.so or libc.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_INLINE_TARGET:?PERFKIT_INLINE_TARGET must name the inline target}"
: "${PERFKIT_SRCLINE_TARGET:?PERFKIT_SRCLINE_TARGET must name the no-line target}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
T=$PERFKIT_INLINE_TARGET

. "$(dirname "$0")/report-perf.sh"

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
	done_testing
	exit 0
fi
perf record -q -g -e cpu-clock -F 999 -o g.data -- "$T" 60 >/dev/null 2>&1
perf record -q --call-graph dwarf -e cpu-clock -F 999 -o d.data -- "$T" 60 >/dev/null 2>&1
perf record -q -e cpu-clock -F 999 -o plain.data -- "$T" 30 >/dev/null 2>&1

# Lines of the workload's own source, whatever perf says.
out=$("$PERFKIT" report -i g.data --stdio --no-children --sort srcline -q -g none 2>&1)
if printf '%s\n' "$out" | grep -Eq '%  inline-target\.c:1[678]$'; then
	ok "the hot lines are mix()'s, inlined: inline-target.c:16-18"
else
	not_ok "the hot lines are mix()'s, inlined: inline-target.c:16-18"
	diag "$out"
fi

for args in "--sort srcline" "--sort srcline --no-children" "--sort srcfile" \
	"--sort srcline,sym --no-children -g none" "--sort comm,srcline -g none" \
	"--sort srcfile,srcline -g none"; do
	# shellcheck disable=SC2086
	same_as_perf g.data $args
done
for args in "--sort srcline" "--sort srcline --no-children" "--sort srcline,sym --no-children" \
	"--sort srcfile" "--sort srcfile --no-children -g none"; do
	# shellcheck disable=SC2086
	same_as_perf d.data $args
done

# perf's inline frames in DWARF-unwound call chains, on by default.
same_as_perf d.data
same_as_perf d.data --no-children
same_as_perf d.data -g caller
same_as_perf d.data --no-children -g folded
same_as_perf d.data --no-inline --no-children
# --max-stack N keeps the N innermost unwound frames (their inlined
# functions besides), in caller order too: perf's unwinder stops there.
for n in 1 2 4; do
	same_as_perf d.data --max-stack $n
	same_as_perf d.data --max-stack $n --no-inline
	same_as_perf d.data -G --max-stack $n
done
# script_same FILE ARGS...: perfkit script prints what perf script prints.
script_same() {
	local file=$1 theirs ours
	shift
	theirs=$(perf script -i "$file" "$@" 2>/dev/null)
	ours=$("$PERFKIT" script -i "$file" "$@" 2>&1)
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
		ok "$file: script $* equals perf's"
	else
		not_ok "$file: script $* equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)"
	fi
}
# perf script prints inlined frames "mix+0x39 (inlined)", the DSO left out,
# and -F srcline a "  file.c:123" line under each address.
script_same d.data
script_same d.data --no-inline
script_same d.data -F comm,ip,sym
for f in d.data g.data plain.data; do
	script_same "$f" -F +srcline
	script_same "$f" -F ip,sym,srcline --no-inline
done
check "script -F +srcline names the inlined lines" \
	grep -q '^  inline-target\.c:24 (inlined)$' <<<"$("$PERFKIT" script -i d.data -F +srcline 2>&1)"
check "script shows inlined frames" grep -q 'mix+0x[0-9a-f]* (inlined)$' <<<"$("$PERFKIT" script -i d.data 2>&1)"

# --hierarchy with source lines and files as levels: perf sizes their
# column by the lines it has made, those of groups of two samples or more
# (a kernel symbol's "sym+off" of one sample is cut to it).
for args in "srcline" "sym,srcline" "comm,dso,srcline -n" "srcfile,srcline" "dso,srcfile" \
	"sym,srcline --percent-limit 5" "srcline,sym -g caller"; do
	# shellcheck disable=SC2086
	same_as_perf g.data --no-children --hierarchy --sort $args
done
same_as_perf plain.data --no-children --hierarchy --sort sym,srcline

# The no-line target, by frame pointers and by DWARF.
S=$PERFKIT_SRCLINE_TARGET
perf record -q -g -e cpu-clock -F 999 -o sg.data -- "$S" 200 >/dev/null 2>&1
perf record -q --call-graph dwarf -e cpu-clock -F 999 -o sd.data -- "$S" 200 >/dev/null 2>&1
out=$("$PERFKIT" report -i sd.data --stdio --no-children --sort srcline -q -g none 2>&1)
for want in ':0' '??:0' 'srcline-files.c:11' 'srcline-other.h:20' 'srcline-files.h:30'; do
	# :0 a local function after an unnamed STT_FILE, ??:0 a global one;
	# srcline-files.c:11 a DWARF 5 row of file 1 still carrying the
	# sequence's initial file (addr2line names file 0), srcline-files.h:30
	# one after an explicit set_file 1.
	if printf '%s\n' "$out" | awk -v w="%  $want" \
		'substr($0, length($0) - length(w) + 1) == w { f = 1 } END { exit !f }'; then
		ok "sd.data: a $want row"
	else
		not_ok "sd.data: a $want row"
		diag "$out"
	fi
done
for f in sg.data sd.data; do
	for args in "--sort srcline" "--sort srcline --no-children" "--sort srcfile" \
		"--sort srcfile,srcline -g none"; do
		# shellcheck disable=SC2086
		same_as_perf "$f" $args
	done
	same_as_perf "$f" --no-children --hierarchy --sort dso,srcline
	script_same "$f" -F +srcline
	script_same "$f" -F ip,sym,srcline --no-inline
done

out=$("$PERFKIT" report -i d.data --stdio --no-children 2>&1)
if printf '%s\n' "$out" | grep -q 'mix (inlined)' && printf '%s\n' "$out" | grep -q 'step (inlined)'; then
	ok "the call graph has mix and step as inlined frames"
else
	not_ok "the call graph has mix and step as inlined frames"
	diag "$out"
fi
out=$("$PERFKIT" report -i d.data --stdio --no-children --no-inline 2>&1)
if printf '%s\n' "$out" | grep -q '(inlined)'; then
	not_ok "--no-inline leaves the inlined frames out"
	diag "$out"
else
	ok "--no-inline leaves the inlined frames out"
fi
# A function inlined into a copy of itself: ld.so's call_init holds an
# inlined call_init where it calls each library's constructors, and perf
# prints that frame twice (its inline symbol of the same name is the
# function's own, so no "(inlined)").  A hardware breakpoint on libc's
# __init_misc, a constructor, stops there on every run (the address from
# libc6-dbg's symbols, without address randomisation).
libc=$(readlink -f /lib/x86_64-linux-gnu/libc.so.6)
bid=$(readelf -n "$libc" | awk '/Build ID/ { print $3 }')
off=$(nm "/usr/lib/debug/.build-id/${bid:0:2}/${bid:2}.debug" 2>/dev/null | awk '$3 == "__init_misc" { print $1 }')
base=$(setarch -R cat /proc/self/maps | awk -v f="$libc" '$6 == f { print $1; exit }')
if [ -z "$off" ] || [ -z "$base" ]; then
	not_ok "libc's __init_misc found in libc6-dbg's symbols"
	diag "libc $libc, build id $bid, offset '$off', base '$base'"
else
	bp=$(printf '0x%x' $((0x${base%-*} + 0x$off)))
	setarch -R perf record -q --call-graph dwarf -e "mem:$bp:x" -c 1 -o ci-perf.data -- /bin/true >/dev/null 2>&1
	setarch -R "$PERFKIT" record -q --call-graph dwarf -e "mem:$bp:x" -c 1 -o ci-pk.data -- /bin/true >/dev/null 2>&1
	for f in ci-perf.data ci-pk.data; do
		check "$f: the constructor's chain holds call_init twice" \
			test "$("$PERFKIT" script -i "$f" -F ip,sym 2>&1 | grep -c ' call_init$')" = 2
		script_same "$f" -F ip,sym,dso
		script_same "$f" -F ip,sym,dso --no-inline
		same_as_perf "$f" --no-children
	done
fi
done_testing
