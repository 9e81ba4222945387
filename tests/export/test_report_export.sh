#!/bin/sh
# SPDX-License-Identifier: MIT
# perfkit report --format on a file perf 6.1 recorded with call chains: the
# folded export is perf script's output folded as stackcollapse-perf
# folds it (perf-script-fold.awk), also after a record remaps a DSO
# (remap-craft.py); Google's pprof reads the pprof export
# and its total and flat times are perfkit's; the speedscope export has a
# profile per thread; the flame graph is one SVG; bad formats and outputs
# fail cleanly, leaving no file behind.
. "$PERFKIT_SRCDIR/tests/export/tap.sh"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
perf record -q -g -e cpu-clock -F 2000 -o perf.data -- "$PERFKIT_WORKLOAD" hot 300 >/dev/null 2>&1
ok $? "perf records the hot workload with call chains"

"$PERFKIT" report --format=folded -i perf.data -o folded >out 2>err
ok $? "report --format=folded writes" "$(cat err)"
# perfkit does not name PLT entries yet (symbols/): perf's foo@plt frames
# are folded under their object's name, as perfkit shows them.
perf script -F comm,period,ip,sym,dso -i perf.data 2>/dev/null |
	awk -f "$PERFKIT_SRCDIR/tests/export/perf-script-fold.awk" |
	awk '{ n = split($1, f, ";"); s = ""; for (i = 1; i <= n; i++) { x = f[i]; if (x ~ /@plt$/) x = PLT; s = s (i > 1 ? ";" : "") x } c[s] += $2 } END { for (k in c) print k, c[k] }' PLT='[perfkit-workload]' |
	sort >want
sort folded >got
# The same total, and all but the stacks where perfkit's symbols still fall
# short of perf's (a frame perf names shown as [dso]; listed in the log)
# identical, weight for weight: at least 99% of the weight.
awk 'NR == FNR { w[$0] = 1; t1 += $NF; next } { t2 += $NF; if ($0 in w) same += $NF }
     END { printf "%d %d %d\n", t1, t2, same }' want got >cmp
read -r t1 t2 same <cmp
[ "$t1" -gt 0 ] && [ "$t1" -eq "$t2" ] && [ $((same * 100)) -ge $((t1 * 99)) ]
ok $? "the folded stacks are perf script's, folded (total $t1, identical $same)" "$(diff want got | head -20)"
diff want got | sed 's/^/# differs: /' | head -10
grep -q '^perfkit-workloa;.*hot_a ' folded
ok $? "the workload's hot_a is in its stacks"

# report gives a call chain seen again to the exporter by its stack until
# a record changes the maps: with the workload's executable mapped again
# to another file half way through (remap-craft.py), the later samples'
# frames are that file's, as perf script has them, weight for weight.
python3 "$PERFKIT_SRCDIR/tests/export/remap-craft.py" perfkit-workload perf.data remap.data
ok $? "the workload's mapping is remapped half way through"
"$PERFKIT" report --format=folded -i remap.data -o rfolded 2>err
ok $? "report --format=folded reads the remapped file" "$(cat err)"
perf script -F comm,period,ip,sym,dso -i remap.data 2>/dev/null |
	awk -f "$PERFKIT_SRCDIR/tests/export/perf-script-fold.awk" | sort >rwant
sort rfolded >rgot
remapped() { awk '/;\[remapped\]/ { w += $NF } END { print w + 0 }' "$1"; }
w1=$(remapped rwant)
w2=$(remapped rfolded)
[ "$w1" -gt 0 ] && [ "$w1" -eq "$w2" ]
ok $? "the samples after the remap are in the new file, as perf has them ($w1 $w2)" \
	"$(diff rwant rgot | head -20)"

"$PERFKIT" report --format=pprof -i perf.data -o p.pb.gz 2>err
ok $? "report --format=pprof writes" "$(cat err)"
if need_pprof; then
	total=$("$PERFKIT" report --stdio -i perf.data | awk '/Event count/ { print $NF; exit }')
	HOME="$d" "$pprof" -top -nodecount=100000 -nodefraction=0 -unit=ns p.pb.gz >top 2>err
	grep -q "Total samples = ${total}ns" top
	ok $? "pprof's total is perfkit report's event count ($total)" "$(head -8 top; cat err)"
	awk '{ n = split($1, f, ";"); flat[f[n]] += $2 } END { for (k in flat) print k, flat[k] }' folded | sort >want
	awk '/flat%/ { on = 1; next } on && $1 != "0" { v = $1; sub(/ns$/, "", v); $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print $0, v }' top |
		sort >got
	cmp -s want got
	ok $? "pprof's flat time of every function is perfkit's" "$(diff want got | head)"
fi

"$PERFKIT" report --format=speedscope -i perf.data -o s.json 2>err &&
	python3 -c 'import json, sys; d = json.load(open("s.json")); p = d["profiles"]; assert p and all(x["type"] == "sampled" and len(x["samples"]) == len(x["weights"]) for x in p), p; assert any(x["name"].startswith("perfkit-workloa (") for x in p), p'
ok $? "report --format=speedscope writes speedscope's JSON, a profile per thread" "$(cat err)"
"$PERFKIT" report --format=flamegraph -i perf.data -o f.svg 2>err && head -c 200 f.svg | grep -q '<svg' &&
	grep -q 'hot_a' f.svg
ok $? "report --format=flamegraph writes one SVG" "$(cat err)"

"$PERFKIT" report --format=svg -i perf.data >out 2>err
[ $? -eq 2 ] && grep -q "unknown --format 'svg'" err
ok $? "an unknown format is a usage error" "$(cat err)"
"$PERFKIT" report --format=folded -i perf.data -o "$d/no/such/dir/x" 2>err
[ $? -ne 0 ] && grep -q 'cannot create' err && [ ! -e "$d/no" ]
ok $? "an output that cannot be made fails, saying so" "$(cat err)"
ls | grep -q partial
[ $? -ne 0 ]
ok $? "no partial file is left behind"
done_testing
