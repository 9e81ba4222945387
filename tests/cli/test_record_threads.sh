#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_record_threads.sh - perfkit record --threads writes perf's directory
# format (DIR/data with DIR_FORMAT, DIR/data.N per ring, one a CPU): perf
# 6.1's report and script read it, with every sample the recording says it
# captured, and equal perfkit's on the same directory; an old recording is
# kept as DIR.old; a recording killed with SIGKILL leaves a partial
# directory perf reads; the specs perf takes are taken, the rest refused;
# the options perf refuses or ignores in this mode likewise.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD
ncpu=$(getconf _NPROCESSORS_ONLN)

# 1. A recording of a command: the directory, its files and its header.
run record --threads -F 1000 -e cpu-clock -o t.data -- "$W" hot 3000
expect_rc "record --threads exits 0" 0
check "t.data is a directory holding data" test -d t.data -a -f t.data/data
check "a data.N per CPU ring (data.0 .. data.$((ncpu - 1)))" \
	test "$(ls t.data | grep -c '^data\.[0-9]*$')" -eq "$ncpu" -a -f "t.data/data.$((ncpu - 1))"
captured=$(printf '%s\n' "$err" | sed -n 's/.*(\([0-9]*\) samples).*/\1/p')
perf report -i t.data --header-only >hdr 2>&1
check "perf reads DIR_FORMAT version 1 (perf 6.1's)" grep -q '^# directory data version : 1$' hdr

# 2. perf reads every sample, and perfkit reads what perf reads.
perf script -i t.data -F comm,tid,time,ip,sym,dso >perf.script 2>perf.err
"$PERFKIT" script -i t.data -F comm,tid,time,ip,sym,dso >pk.script 2>pk.err
n=$(wc -l <perf.script)
check "perf script reads samples from the directory ($n)" test "$n" -gt 0
check "perf script reads every sample record captured ($captured)" test "$n" -eq "${captured:-x}"
if cmp -s perf.script pk.script; then ok "perfkit script equals perf script on the directory"
else not_ok "perfkit script equals perf script on the directory"; diag "$(diff perf.script pk.script | head)"; fi
perf report -i t.data --stdio -q --sort comm,dso,sym >perf.report 2>/dev/null
"$PERFKIT" report -i t.data --stdio -q --sort comm,dso,sym >pk.report 2>/dev/null
if [ -s perf.report ] && cmp -s perf.report pk.report; then ok "perfkit report equals perf report on the directory"
else not_ok "perfkit report equals perf report on the directory"; diag "$(diff perf.report pk.report | head)"; fi
check "every sample of the command is in a data.N, none in data" \
	test "$(perf report -i t.data -D 2>/dev/null | grep -c '@t.data/data \[0x[0-9a-f]*\]: event: 9$')" -eq 0

# 3. Recording again keeps the first recording as t.data.old.
ino=$(stat -c %i t.data/data)
run record -q --threads -F 1000 -e cpu-clock -o t.data -- "$W" hot 500
expect_rc "a second recording exits 0" 0
check "the first recording is kept as t.data.old" test "$(stat -c %i t.data.old/data 2>/dev/null)" = "$ino"
check "no partial directory is left" test -z "$(ls -d t.data.partial.* 2>/dev/null)"

# 4. A recording killed with SIGKILL: its partial directory reads in perf,
#    once a data.N holds records (the writer writes them out, then the
#    header's data size, at least once a second: the handshake).
"$PERFKIT" record -q --threads -F 1000 -e cpu-clock -o k.data -- "$W" hot 30000 >/dev/null 2>&1 &
pid=$!
part=
while :; do
	kill -0 "$pid" 2>/dev/null || break
	part=$(ls -d k.data.partial.* 2>/dev/null | head -1)
	[ -n "$part" ] && [ -n "$(find "$part" -name 'data.*' -size +0c 2>/dev/null)" ] && break
	sleep 0.05	# polls the files: their sizes are the handshake
done
child=$(pgrep -P "$pid")
kill -KILL "$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ -n "$child" ] && kill -KILL $child 2>/dev/null
if [ -n "$part" ]; then
	perf script -i "$part" -F comm,tid,time,ip >killed.perf 2>/dev/null
	"$PERFKIT" script -i "$part" -F comm,tid,time,ip >killed.pk 2>/dev/null
	check "perf reads samples from the killed recording's directory" test -s killed.perf
	check "perfkit reads the same samples" cmp -s killed.perf killed.pk
else
	not_ok "the killed recording left a partial directory"
fi

# 5. The same files as perf's directory for the same target (a data.N per
#    CPU ring; with --overwrite the overwrite rings share their CPU's).
for args in "-a" "-C 0" "--overwrite"; do
	rm -rf f.data p.data
	"$PERFKIT" record -q --threads $args -e cpu-clock -o f.data -- true >/dev/null 2>&1
	perf record -q --threads $args -e cpu-clock -o p.data -- true >/dev/null 2>&1
	mine=$(ls f.data 2>/dev/null | tr '\n' ' ') theirs=$(ls p.data 2>/dev/null | tr '\n' ' ')
	check "--threads $args: perf's files ($theirs)" test -n "$theirs" -a "$mine" = "$theirs"
done

# 6. A directory that cannot be made (its parent is missing): the error
#    names it, exit status non-zero, no command run, nothing left.
run record -q --threads -e cpu-clock -o nodir/t.data -- touch ran
check "a directory that cannot be made fails (status $rc)" test "$rc" -ne 0
contains "... naming what it could not create" "$err" "nodir/t.data.partial"
check "... before the command ran" test ! -e ran

# 7. perf's specs are taken; anything else, and what perf refuses, is not.
for spec in cpu core package numa 0/0 "0-$((ncpu - 1))/0"; do
	run record -q --threads="$spec" -e cpu-clock -o s.data -- true
	expect_rc "--threads=$spec is taken" 0
done
run record -q --threads=bogus -e cpu-clock -o s.data -- true
expect_rc "--threads=bogus is refused" 2
run record -q --threads --per-thread -e cpu-clock -o s.data -- true
contains "--per-thread: perf's message" "$err" "--per-thread option is mutually exclusive to parallel streaming mode."
run record --threads --timestamp-filename -e cpu-clock -o s.data -- true
contains "--timestamp-filename: perf's warning" "$err" \
	"WARNING: --timestamp-filename option is not available in parallel streaming mode."
check "... and the directory keeps its name" test -f s.data/data
run record -q --threads -e cpu-clock -o - -- true
expect_rc "-o - is refused" 2

echo "1..$tap_n"
exit $tap_fail
