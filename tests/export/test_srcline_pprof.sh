#!/bin/sh
# SPDX-License-Identifier: MIT
# Source lines in the pprof export: perf records the inline target (-O2
# -g, mix() inlined into step() inlined into spin()) with --call-graph
# dwarf; in perfkit report's pprof export, Google's pprof -lines puts the
# hot samples on mix()'s lines of inline-target.c, and -traces shows the
# inlined functions as pprof shows inlining: mix and step "(inline)" lines
# of spin's one location, as perfkit report --inline shows them.
. "$PERFKIT_SRCDIR/tests/export/tap.sh"
need_pprof || done_testing
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
perf record -q --call-graph dwarf -e cpu-clock -F 999 -o perf.data -- "$PERFKIT_INLINE_TARGET" 60 \
	>/dev/null 2>&1
ok $? "perf records the inline target with DWARF call graphs"
"$PERFKIT" report --format=pprof -i perf.data -o p.pb.gz 2>err
ok $? "report --format=pprof writes" "$(cat err)"
HOME="$d" "$pprof" -top -lines -nodecount=3 p.pb.gz >top 2>err
ok $? "pprof -top -lines reads it" "$(cat err)"
awk '/flat%/ { on = 1; next } on { print $6, $7; exit }' top | grep -Eq '^mix .*inline-target\.c:1[678]$'
ok $? "the hottest line is one of mix()'s, in inline-target.c" "$(cat top)"
HOME="$d" "$pprof" -traces p.pb.gz >traces 2>err
ok $? "pprof -traces reads it" "$(cat err)"
awk '$(NF-1) == "mix" && $NF == "(inline)" { m = NR } $1 == "step" && $2 == "(inline)" && NR == m + 1 { s = NR }
     $1 == "spin" && NF == 1 && NR == s + 1 { f = 1 } END { exit !f }' traces
ok $? "a trace has mix and step, inlined (lines of spin's location), then spin" "$(head -30 traces)"
# perfkit report --inline's own call chains name the same frames in the same order
"$PERFKIT" report --stdio --inline --no-children -i perf.data 2>/dev/null >report
grep -A2 -E -- '--mix \(inlined\)$' report | sed -n 2,3p | tr -s ' |' ' ' | tr '\n' ';' | grep -q '^ step (inlined); spin;$'
ok $? "perfkit report --inline shows the same chain: mix and step inlined, then spin" "$(head -20 report)"
HOME="$d" "$pprof" -raw p.pb.gz >raw 2>err
awk '/^Locations/ { on = 1; next } /^Mappings/ { on = 0 } on && $1 ~ /^[0-9]+:$/ { n = 0 }
     on { n++; if (n == 1) m = ($4 == "mix"); if (n == 3 && m && prev ~ /^ +step / && $1 == "spin") f = 1; prev = $0 }
     END { exit !f }' raw
ok $? "pprof -raw: one location holds mix, step and spin, innermost first" \
	"$(awk '/^Locations/,/^Mappings/' raw | head -20)"
done_testing
