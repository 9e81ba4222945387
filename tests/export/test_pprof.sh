#!/bin/sh
# SPDX-License-Identifier: MIT
# Google's pprof (built here from Debian's golang-github-google-pprof-dev
# with golang-go, offline) reads perfkit's pprof export of the synthetic
# profile, and its -top and -traces agree with perfkit's own folded export
# of the same profile: every function's flat time, every stack with its
# labels.
. "$PERFKIT_SRCDIR/tests/export/tap.sh"
need_pprof || done_testing
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$PERFKIT_EXPORT_SYNTH" pprof "$d/p.pb.gz" && "$PERFKIT_EXPORT_SYNTH" folded "$d/folded"
ok $? "the synthetic profile exports as pprof and as folded stacks"
[ "$(od -An -tx1 -N2 "$d/p.pb.gz" | tr -d ' ')" = 1f8b ]
ok $? "the pprof file is gzipped"

HOME="$d" "$pprof" -top -nodecount=100000 -nodefraction=0 -unit=ns "$d/p.pb.gz" >"$d/top" 2>"$d/err"
ok $? "pprof -top reads it" "$(cat "$d/err")"
grep -q '^Type: cpu-clock$' "$d/top" && grep -q 'Build ID: 0123456789abcdef' "$d/top"
ok $? "the sample type is the event, and the build-id is the mapping's"
# flat per leaf function, from the folded lines and from pprof
awk '{ n = split($1, f, ";"); flat[f[n]] += $2 } END { for (k in flat) print k, flat[k] }' "$d/folded" |
	sort >"$d/want"
awk '/flat%/ { on = 1; next } on && $1 != "0" { v = $1; sub(/ns$/, "", v); print $6, v }' "$d/top" |
	sort >"$d/got"
cmp -s "$d/want" "$d/got"
ok $? "every function's flat time in pprof -top is perfkit's" "$(diff "$d/want" "$d/got" | head)"
total=$(awk '{ s += $2 } END { print s }' "$d/folded")
grep -q "Total samples = ${total}ns" "$d/top"
ok $? "pprof's total is perfkit's ($total ns)" "$(grep Total "$d/top")"

HOME="$d" "$pprof" -traces -unit=ns "$d/p.pb.gz" >"$d/traces" 2>"$d/err"
ok $? "pprof -traces reads it" "$(cat "$d/err")"
awk '$2 == "parse" && $3 == "(inline)" { p = NR } NR == p + 1 && $1 == "work" && NF == 1 { f = 1 } END { exit !f }' \
	"$d/traces"
ok $? "an inlined frame is a line of its caller's location: pprof marks parse (inline) above work" \
	"$(grep -B1 -A3 parse "$d/traces" | head)"
# each trace back into a folded line (comm first, root first)
sed 's/ (inline)$//' "$d/traces" | awk '/^-+\+/ { if (n) { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; print s, v }; n = 0; next }
     $1 == "comm:" { comm = $2; next } $1 ~ /:$/ { next }
     n == 0 && NF == 2 { v = $1; sub(/ns$/, "", v); f[++n] = $2; next }
     NF == 1 && n { f[++n] = $1 }
     END { if (n) { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; print s, v } }' |
	awk '{ c[$1] += $2 } END { for (k in c) print k, c[k] }' | sort >"$d/got"
sort "$d/folded" >"$d/want"
cmp -s "$d/want" "$d/got"
ok $? "every stack in pprof -traces, with its comm label and weight, is one of perfkit's folded lines" \
	"$(diff "$d/want" "$d/got" | head)"
grep -q 'tid:  101' "$d/traces" && grep -q 'cpu:  1' "$d/traces" && grep -q 'pid:  200' "$d/traces"
ok $? "the samples carry pid, tid and cpu labels"
done_testing
