#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_damage_type.sh - damage perf 6.1 stops at and perfkit used
# to read past or misname: a record of a type above every perf type
# mid-file (perf: "0x.. [0x..]: failed to process type: 200"), and a file
# cut inside a record's header.  Both: the rows (script: the lines) of the
# records before, one warning naming the file offset and what is wrong,
# exit 0 (docs/CLI.md's damaged data section).  A perfkit recording of a
# fixed period, user-only; damage placed by walking its records.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

"$PERFKIT" record -q -e cpu-clock:u -c 100000 -o plain.data -- "$PERFKIT_WORKLOAD" hot 100 >/dev/null 2>&1
# The 20th sample's type becomes 200 (typed.data); the file is cut 4
# bytes into the 30th sample (cut.data).  Prints each offset and the
# samples before it.
read -r toff tbefore coff cbefore < <(python3 - plain.data <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
start, size = struct.unpack_from('<QQ', b, 40)
samples, p = [], start
while p < start + size:
    t, m, s = struct.unpack_from('<IHH', b, p)
    if t == 9:
        samples.append(p)
    p += s
typed = bytearray(b)
struct.pack_into('<I', typed, samples[19], 200)
open('typed.data', 'wb').write(typed)
open('cut.data', 'wb').write(b[:samples[29] + 4])
print(samples[19], 19, samples[29], 29)
EOF
)
check "the recording has samples to damage" test -n "$cbefore"

run report -i typed.data --stdio --sort comm
expect_rc "a record of type 200: exit 0 with the rows before it" 0
contains "type 200: the samples before it are counted ($tbefore)" "$out" "# Samples: $tbefore  of event"
contains "type 200: one warning naming the offset and the type" "$err" \
	"warning: read perf.data: typed.data: the record at offset $toff has type 200, which no perf record has"
check "type 200: one message only" test "$(grep -c . <<<"$err")" -eq 1
run script -i typed.data
expect_rc "script on it: exit 0" 0
check "script: the $tbefore samples before it" test "$(grep -c . <<<"$out")" -eq "$tbefore"
contains "script: the same warning" "$err" "the record at offset $toff has type 200"
if command -v perf >/dev/null; then
	hex=$(printf '%#x' "$toff")
	contains "perf stops at the same offset ($hex)" "$(perf report -i typed.data --stdio 2>&1 >/dev/null)" \
		"$hex [0x"
else
	skip "perf stops at the same offset" "perf is not installed"
fi

run report -i cut.data --stdio --sort comm
expect_rc "a file cut inside a header: exit 0 with the rows before it" 0
contains "cut: the samples before it are counted ($cbefore)" "$out" "# Samples: $cbefore  of event"
contains "cut: the warning says the file ends there" "$err" \
	"the record at offset $coff has no room for its header before the end of the file (truncated)"
check "cut: no size named for a header that is not there" bash -c '! grep -q "(size" <<<"$1"' _ "$err"
done_testing
