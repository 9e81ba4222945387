#!/bin/sh
# SPDX-License-Identifier: MIT
# Source lines in the pprof export: perf records the inline target (-O2
# -g, mix() inlined into step() inlined into spin()) with --call-graph
# dwarf; in perfkit report's pprof export, Google's pprof -lines puts the
# hot samples on mix()'s lines of inline-target.c, and -traces shows the
# inlined functions as frames of their own: mix, step, spin.
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
awk '$NF == "mix" { m = NR } $1 == "step" && NR == m + 1 { s = NR } $1 == "spin" && NR == s + 1 { f = 1 }
     END { exit !f }' traces
ok $? "a trace has mix, step and spin, the inlined functions as frames" "$(head -30 traces)"
done_testing
