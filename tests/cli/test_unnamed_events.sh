#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_unnamed_events.sh - a perf.data file cut before its EVENT_DESC
# section (a recording killed while writing its header features) names
# its events as perf 6.1 does, from their attrs: "page-faults:uH" for
# page-faults:u, "minor-faults:kH", and a tracepoint "system:name" from
# the file's own tracing data when that section survived; report, script
# and --stats compared with perf on the same cut files.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
. "$(dirname "$0")/report-perf.sh"
W=$PERFKIT_WORKLOAD

# same_script FILE ARGS...: perfkit script prints what perf script prints.
same_script() {
	local file=$1 theirs ours
	shift
	theirs=$(perf script -i "$file" "$@" 2>/dev/null)
	ours=$("$PERFKIT" script -i "$file" "$@" 2>"$tmp/err")
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
		ok "$file: script $* equals perf's ($(printf '%s\n' "$ours" | wc -l) lines)"
	else
		not_ok "$file: script $* equals perf's"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}

# cut SRC DST WHERE: DST is SRC cut at its EVENT_DESC section ("desc") or
# right after its feature table, every feature section gone ("table").
cut_file() {
	python3 - "$1" "$2" "$3" <<'PY'
import struct, sys
b = open(sys.argv[1], 'rb').read()
off, size = struct.unpack_from('<QQ', b, 40)
bits = int.from_bytes(b[72:104], 'little')
feats = [i for i in range(256) if bits >> i & 1]
table = off + size
if sys.argv[3] == 'desc':
    at, _ = struct.unpack_from('<QQ', b, table + 16 * feats.index(12))
else:
    at = table + 16 * len(feats)
open(sys.argv[2], 'wb').write(b[:at])
PY
}

perf record -q -e page-faults:u,minor-faults:k,sched:sched_process_exit -c 1 -o tp-full.data \
	-- "$W" pages 50 >/dev/null 2>&1
perf record -q -e page-faults:u,minor-faults:k -c 1 -o sw-full.data -- "$W" pages 50 >/dev/null 2>&1
"$PERFKIT" record -e page-faults:u,sched:sched_process_exit -c 1 -o pk-full.data \
	-- "$W" pages 50 >/dev/null 2>&1
cut_file tp-full.data tp.data desc
cut_file sw-full.data sw.data table
cut_file pk-full.data pk.data desc

for f in tp sw pk; do
	same_script $f.data
	same_as_perf $f.data
	same_as_perf $f.data --stats
done
same_script tp.data -F event,trace

# What a user sees whatever the samples: the names, never [unknown].
run script -i tp.data -F event
contains "tp.data: page-faults:u is named page-faults:uH" "$out" "page-faults:uH:"
contains "tp.data: the tracepoint is named from the tracing data" "$out" "sched:sched_process_exit:"
run report -i sw.data --stdio
contains "sw.data: report names the event" "$out" "of event 'page-faults:uH'"
check "sw.data: no event is [unknown]" test -z "$(printf '%s\n' "$out" | grep -F "'unknown'")"

echo "1..$tap_n"
exit $tap_fail
