#!/bin/sh
# SPDX-License-Identifier: MIT
# perfkit report --format=json on a file perf 6.1 recorded with call
# chains: a document json.tool accepts, of the schema docs/EXPORTS.md
# gives, whose rows are the --stdio table's rows (order, shares, samples,
# periods, symbols) under every sort, filter, --percent-limit and -g mode
# tried; -o writes the same document to a file; a bad -o fails cleanly.
. "$PERFKIT_SRCDIR/tests/export/tap.sh"
check="$PERFKIT_SRCDIR/tests/export/report-json-check.py"
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
perf record -q -g -e cpu-clock -F 2000 -o perf.data -- "$PERFKIT_WORKLOAD" hot 300 >/dev/null 2>&1
ok $? "perf records the hot workload with call chains"

"$PERFKIT" report --format=json -i perf.data >r.json 2>err && python3 -m json.tool r.json >/dev/null
ok $? "report --format=json writes JSON python's json.tool accepts" "$(cat err; head -c 600 r.json)"
python3 "$check" r.json >err 2>&1
ok $? "the document has the documented schema" "$(cat err)"
python3 -c 'import json, sys
d = json.load(open("r.json")); ev = d["events"][0]
assert d["file"] == "perf.data" and ev["name"] == "cpu-clock" and ev["samples"] > 0, d.keys()
hot = [r for r in ev["rows"] if r["keys"]["sym"] == "hot_a"][0]
assert hot["keys"]["dso"] == "perfkit-workload" and hot["keys"]["comm"] == "perfkit-workloa", hot
assert hot["callchain"] and any(n["name"] == "hot_a" or any(c["name"] == "hot_a" for c in n["children"]) for n in hot["callchain"]), hot["callchain"]
assert sum(r["period"] for r in ev["rows"]) == ev["event_count"], "the self periods add up to the event count"' 2>err
ok $? "hot_a's row has its keys and its call tree; the periods add up" "$(cat err)"

# Sample counts per call-tree node: with no pruning the top nodes of a
# row's callee tree hold every one of its samples, and the first event's
# stack health is that of report --stats.
"$PERFKIT" report --format=json --no-children -g graph,0 -i perf.data >g.json 2>err &&
python3 -c 'import json
ev = json.load(open("g.json"))["events"][0]
rows = [r for r in ev["rows"] if r.get("callchain")]
assert rows, ev["rows"][:2]
for r in rows:
    top = r["callchain"]
    assert sum(n["samples"] for n in top) == r["samples"], (r["keys"], r["samples"], [n["samples"] for n in top])
    assert sum(n["period"] for n in top) == r["period"], r["keys"]
    def walk(n):
        assert n["self_samples"] + sum(c["samples"] for c in n["children"]) == n["samples"], n["name"]
        for c in n["children"]:
            walk(c)
    for n in top:
        walk(n)' 2>>err
ok $? "each call-tree node counts its samples: a row's add up to its -n column, a node's to its children's" \
	"$(cat err)"
"$PERFKIT" report --stats -i perf.data >stats 2>&1
python3 -c 'import json, re, sys
h = json.load(open("r.json"))["stack_health"]
line = [l for l in open("stats") if "with call chains" in l][0]
n = [int(x) for x in re.findall(r"[0-9]+", line)]
want = [h[k] for k in ("samples", "chains", "dwarf", "dwarf_cut", "fp_cut", "unwind_cut", "max_stack_reached", "max_stack", "dso_samples")]
assert n == want, (line, want)
assert h["samples"] == json.load(open("r.json"))["events"][0]["samples"], h' 2>err
ok $? "stack_health has report --stats' figures" "$(cat err; grep -i chains stats)"

n=0
while IFS= read -r opts; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	"$PERFKIT" report -i perf.data --format=json $opts >j$n.json 2>err &&
		"$PERFKIT" report -i perf.data --stdio -n --show-total-period $opts >t$n.txt 2>>err &&
		python3 "$check" j$n.json t$n.txt >>err 2>&1
	ok $? "rows as the table's: ${opts:-(defaults)}" "$(cat err)"
done <<'OPTS'

--no-children
-g none --sort dso,sym
--percent-limit 5
--comms perfkit-workloa --sort sym
-g caller
-g flat
--no-children -g fractal,0.5
--no-children -g folded
--dsos perfkit-workload --sort dso,sym
--sort pid,cpu,sym --no-children
--sort sym,dso --no-children -g callee
OPTS

python3 -c 'import json
d = json.load(open("j7.json"))
rows = [r for r in d["events"][0]["rows"] if r.get("callchain")]
assert rows and all("frames" in c and c["frames"] for r in rows for c in r["callchain"]), rows[:1]' 2>err
ok $? "-g flat gives each row its chains as lists of frames" "$(cat err)"

# the later keys each under their own name (they were all "unknown": null)
"$PERFKIT" report --format=json --no-children -g none -i perf.data \
	--sort time,symbol_size,socket,srcfile,weight,local_weight,ins_lat,cgroup,trace,dso_size,addr,code_page_size \
	>k.json 2>err &&
	python3 -c 'import json
rows = json.load(open("k.json"))["events"][0]["rows"]
want = ["time", "symbol_size", "socket", "srcfile", "weight", "local_weight", "ins_lat", "cgroup", "trace",
        "dso_size", "addr", "code_page_size"]
assert rows and all(list(r["keys"]) == want for r in rows), rows[:1]
assert any(r["keys"]["symbol_size"] > 0 for r in rows), rows[:3]' 2>>err
ok $? "the later sort keys have their own names" "$(cat err)"

"$PERFKIT" report --format=json -i perf.data -o out.json 2>err && cmp -s out.json r.json
ok $? "-o FILE writes the same document" "$(cat err)"
"$PERFKIT" report --format=json -i perf.data -o nodir/out.json >out 2>err
[ $? -ne 0 ] && grep -q 'cannot create nodir/out.json' err && ! ls nodir* >/dev/null 2>&1
ok $? "an -o in a missing directory fails and leaves nothing" "$(cat err)"
done_testing
