#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_other_kernel.sh - a recording made under another kernel (its
# kernel build-id is not the running one's) gets its kernel symbols from
# that kernel's kallsyms in the build-id cache, as perf 6.1's
# dso__find_kallsyms does: a copy of a recording with the kernel build-id
# rewritten, and a kallsyms under that build-id in a private cache whose
# symbols carry an "other_" prefix, so names from the running kernel
# cannot pass for them.  report compared with perf (HOME names the cache
# for perf, PERFKIT_BUILDID_DIR for perfkit); without the cached copy both
# show addresses.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
. "$(dirname "$0")/report-perf.sh"
W=$PERFKIT_WORKLOAD
X=0123456789abcdef0123456789abcdef01234567

# Context switches are sampled in the kernel's scheduler: every sample is
# a kernel one.
perf record -q -e context-switches -c 1 -o run.data -- "$W" pingpong 50 >/dev/null 2>&1
bid=$(perf buildid-list -i run.data --kernel 2>/dev/null)
if [ -z "$bid" ] || ! head -1 /proc/kallsyms | grep -qv '^0000000000000000'; then
	skip "another kernel's kallsyms" "no kernel build-id in the recording, or kallsyms hides addresses"
	echo "1..$tap_n"
	exit 0
fi
python3 - "$bid" "$X" <<'PY'
import sys
b = open('run.data', 'rb').read()
old, new = bytes.fromhex(sys.argv[1]), bytes.fromhex(sys.argv[2])
assert b.count(old) >= 1
open('other.data', 'wb').write(b.replace(old, new))
PY
mkdir -p "home/.debug/[kernel.kallsyms]/$X" "home/.debug/.build-id/${X:0:2}"
# Every name gets the prefix, so no sample can land in a name from the
# running kernel.  perf and perfkit relocate the kernel by _text (perf
# also by _stext): both stay as 'A' (absolute) lines, which perf 6.1's
# kallsyms__get_function_start accepts and neither loads as a symbol.
{
	grep -E '^[0-9a-f]+ [tT] _s?text$' /proc/kallsyms | sed -E 's/ [tT] / A /'
	sed -E 's/^([0-9a-f]+ [A-Za-z] )/\1other_/' /proc/kallsyms
} >"home/.debug/[kernel.kallsyms]/$X/kallsyms"
check "the cached kallsyms keeps _text for relocation" \
	grep -q ' A _text$' "home/.debug/[kernel.kallsyms]/$X/kallsyms"
ln -s "../../[kernel.kallsyms]/$X" "home/.debug/.build-id/${X:0:2}/${X:2}"

export HOME=$tmp/home PERFKIT_BUILDID_DIR=$tmp/home/.debug
same_as_perf other.data
same_as_perf other.data --sort sym
run report -i other.data --stdio --sort sym
check "other.data: kernel rows are named from the cached kallsyms" \
	grep -q '\[k\] other_' <<<"$out"
check "other.data: no kernel row named from the running kernel" \
	test -z "$(grep '\[k\] ' <<<"$out" | grep -v '\[k\] other_' | grep -v '\[k\] 0x')"

# Without that kallsyms, no kernel names at all (wrong names are worse).
rm -r "home/.debug/[kernel.kallsyms]"
same_as_perf other.data --sort sym
run report -i other.data --stdio --sort sym
check "other.data: without the cached kallsyms, kernel rows are addresses" \
	test -z "$(grep '\[k\] ' <<<"$out" | grep -v '\[k\] 0x')"

echo "1..$tap_n"
exit $tap_fail
