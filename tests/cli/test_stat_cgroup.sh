#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_stat_cgroup.sh - perfkit stat's cgroups as perf 6.1 pairs them:
# -G A,B,... puts the Nth event in the Nth cgroup (an empty name: none),
# --for-each-cgroup counts the whole list once per cgroup.  Live, with
# cgroup v2: the workload moves itself into cgroup A, B stays empty; each
# line's cgroup column and counted/not-counted state are compared with
# perf's for the same command.
. "$(dirname "$0")/tap.sh"

tmp=$(mktemp -d)
cgroot=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
A=perfkit-cgA-$$ B=perfkit-cgB-$$
trap 'rmdir "$cgroot/$A" "$cgroot/$B" 2>/dev/null; rm -rf "$tmp"' EXIT
cat > "$tmp/touch.py" <<'EOF'
pages = [bytearray(4096) for _ in range(3000)]
EOF
# The lines of perf's CSV as "event,cgroup,counted?": what must match perf.
shape() {
	printf '%s\n' "$1" | awk -F, 'NF >= 6 && $1 !~ /^#/ {
		print $3 "," $4 "," ($1 == "<not counted>" ? "not-counted" : "counted") }'
}
# value CSV EVENT CGROUP: the count of EVENT in CGROUP ("" for none).
value() { printf '%s\n' "$1" | awk -F, -v e="$2" -v g="$3" '$3 == e && $4 == g { print $1 }'; }

run stat -G "a,b" -e cs,page-faults -- true
expect_rc "-G without -a or -C is a usage error" 2
run stat --for-each-cgroup a -e cs -- true
expect_rc "--for-each-cgroup without -a or -C is a usage error" 2
run stat -a -G a --for-each-cgroup b -e cs -- true
expect_rc "-G with --for-each-cgroup is a usage error" 2
contains "in perf's words" "$err" "--cgroup and --for-each-cgroup cannot be used together"
run stat -a -G a,b,c -e cs,page-faults -- true
expect_rc "more cgroups than events is a usage error" 2
contains "which says how perf pairs them" "$err" "-G gives 3 cgroups for 2 events"

if [ "$(id -u)" -ne 0 ] || [ -z "$cgroot" ] || ! mkdir "$cgroot/$A" "$cgroot/$B" 2>/dev/null; then
	skip "cgroups counted live" "needs root and a writable cgroup2 mount to make test cgroups"
	done_testing
	exit 0
fi
into="echo \$\$ > $cgroot/$A/cgroup.procs && exec python3 $tmp/touch.py"

# --for-each-cgroup: the list in A, then the list in B.
run stat -a -x, -e task-clock,page-faults --for-each-cgroup "$A,$B" -- sh -c "$into"
expect_rc "--for-each-cgroup counts" 0
check "one line per event per cgroup, cgroup by cgroup" test "$(shape "$err")" = "$(printf '%s\n' \
	"task-clock,$A,counted" "page-faults,$A,counted" \
	"task-clock,$B,not-counted" "page-faults,$B,not-counted")"
pf=$(value "$err" page-faults "$A")
check "the workload's page faults count in its cgroup ($pf >= 2000)" test "${pf:-0}" -ge 2000
# perf derives figures within one cgroup: A's page-faults per A's task-clock.
contains "A's page-faults show a rate from A's task-clock" "$err" ",page-faults,$A,"
check "... with perf's K/sec unit" sh -c 'printf "%s\n" "$1" | grep -q "^[0-9]*,,page-faults,$2,.*,K/sec$"' sh "$err" "$A"
run stat -a -e task-clock,page-faults --for-each-cgroup "$A,$B" -- sh -c "$into"
contains "the table puts the cgroup after the event name" "$err" "page-faults                      $A # "
contains "and keeps it on a <not counted> line" "$err" "<not counted>      page-faults               $B"

# The default set, per cgroup: what cannot count here is left out of
# every copy, and named once.
run stat -a -x, --for-each-cgroup "$A,$B" -- true
check "the default set's software events, once per cgroup" test "$(shape "$err" | cut -d, -f1,2)" = \
	"$(for g in "$A" "$B"; do printf '%s\n' "task-clock,$g" "context-switches,$g" "cpu-migrations,$g" "page-faults,$g"; done)"
if ! grep -q "^cpu$" <(ls /sys/bus/event_source/devices); then
	check "the events left out are named once" \
		test "$(printf '%s\n' "$err" | grep -o 'cycles' | wc -l)" -eq 1
fi

# -G A,,B: task-clock in A, page-faults in no cgroup (every task), cs in B.
run stat -a -x, -e task-clock,page-faults,cs -G "$A,,$B" -- sh -c "$into"
expect_rc "-G with a list counts" 0
check "each event counts in its own cgroup, an empty name in none" test "$(shape "$err")" = \
	"$(printf '%s\n' "task-clock,$A,counted" "page-faults,,counted" "cs,$B,not-counted")"
all=$(value "$err" page-faults "")
check "the event without a cgroup counts at least the workload's faults ($all >= 2000)" \
	test "${all:-0}" -ge 2000
check "and shows no rate: its task-clock counted in another cgroup (as perf)" \
	sh -c 'printf "%s\n" "$1" | grep -q "^[0-9]*,,page-faults,,[0-9]*,[0-9.]*,,$"' sh "$err"
run stat -a -j -e task-clock,page-faults -G "$A," -- sh -c "$into"
contains "-j names every line's cgroup, empty for none" "$err" '"event" : "page-faults", "cgroup" : "", '

# Side by side with perf: the same lines, cgroups and counted state.
if command -v perf >/dev/null; then
	for args in "-e task-clock,page-faults,cs -G $A,,$B" "-e cs,page-faults --for-each-cgroup $A,$B"; do
		# shellcheck disable=SC2086
		pf_out=$(perf stat -a -x, $args -- sh -c "$into" 2>&1)
		# shellcheck disable=SC2086
		run stat -a -x, $args -- sh -c "$into"
		check "perf stat -a $args: same lines, cgroups and counted state" \
			test "$(shape "$err")" = "$(shape "$pf_out")"
	done
else
	skip "side by side with perf" "perf is not installed"
fi
done_testing
