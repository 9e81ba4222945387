#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_dump_lbr.sh - report -D and script -D on samples of an
# event that samples the LBR call stack (branch_sample_type CALL_STACK,
# crafted with brstack-craft.py into a -g recording, as this machine has
# no LBR): perf 6.1's "... LBR call chain" block before the FP chain (the
# kernel frames and the user marker, then the first entry's target and
# every entry's source), byte for byte with perf.  script's own lines
# for such samples (perf stitches the chain from the LBR) are not compared.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

perf record -q -g -e cpu-clock -c 200000 -o g.data -- "$W" hot 50 >/dev/null 2>&1
python3 "$(dirname "$0")/brstack-craft.py" g.data gb.data
python3 - <<'PY'
import struct
b = bytearray(open('gb.data', 'rb').read())
attrs = struct.unpack_from('<Q', b, 24)[0]
bst = struct.unpack_from('<Q', b, attrs + 72)[0]
struct.pack_into('<Q', b, attrs + 72, bst | 1 << 11)  # PERF_SAMPLE_BRANCH_CALL_STACK
open('lbr.data', 'wb').write(b)
PY

theirs=$(perf report -D -i lbr.data 2>/dev/null)
run report -D -i lbr.data
if [ "$theirs" = "$out" ] && [ -n "$out" ]; then
	ok "lbr.data: report -D equals perf's"
else
	not_ok "lbr.data: report -D equals perf's"
	diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$out") | head -20)" "$err"
fi
# the LBR blocks of script -D
lbr_blocks() { awk '/^\.\.\. LBR call chain/ { on = 1 } /^\.\.\. FP chain/ { on = 0 } on'; }
theirs=$(perf script -D -i lbr.data 2>/dev/null | lbr_blocks)
run script -D -i lbr.data
ours=$(printf '%s\n' "$out" | lbr_blocks)
if [ "$theirs" = "$ours" ] && [ -n "$ours" ]; then
	ok "lbr.data: script -D's LBR call chains equal perf's"
else
	not_ok "lbr.data: script -D's LBR call chains equal perf's"
	diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)"
fi
# Every sample with a user part has the block; its count is the kernel
# part, the marker, and the four crafted entries plus one.
check "lbr.data: LBR call chains printed" \
	test "$(printf '%s\n' "$out" | grep -c '^\.\.\. LBR call chain: nr:')" -ge 1
check "lbr.data: the crafted fault entry's source ends each block" \
	grep -q '^\.\.\.\.\. *[0-9]*: 0000000000001234$' <<<"$out"

echo "1..$tap_n"
exit $tap_fail
