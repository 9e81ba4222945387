# SPDX-License-Identifier: MIT
# report-json-check.py JSON [STDIO] - checks perfkit report --format=json's
# document against the schema docs/EXPORTS.md gives and, with STDIO (the
# --stdio table of the same file and options, with -n --show-total-period),
# that the rows are the table's rows, in its order, number for number.
import json
import re
import sys


def fail(msg):
    print(msg)
    sys.exit(1)


def check_node(n, path):
    if not isinstance(n, dict):
        fail(f"{path}: not an object")
    for k, t in (("name", str), ("period", int), ("self", int), ("samples", int), ("self_samples", int),
                 ("children", list)):
        if not isinstance(n.get(k), t):
            fail(f"{path}: {k} is not {t.__name__}: {n.get(k)!r}")
    if n["dso"] is not None and not isinstance(n["dso"], str):
        fail(f"{path}: dso")
    if n["self"] > n["period"] or sum(c["period"] for c in n["children"]) > n["period"]:
        fail(f"{path}: periods do not add up")
    if n["self_samples"] > n["samples"] or sum(c["samples"] for c in n["children"]) > n["samples"] or \
            (n["samples"] == 0) != (n["period"] == 0):
        fail(f"{path}: sample counts do not add up")
    for i, c in enumerate(n["children"]):
        check_node(c, f"{path}.children[{i}]")


HEALTH = ("samples", "chains", "dwarf", "dwarf_cut", "dwarf_size", "dwarf_suggest", "fp_cut", "unwind_cut",
          "max_stack_reached", "max_stack", "dso_samples")
PROBLEMS = {"no_symbols", "build_id", "no_frame_pointer", "no_unwind_table"}


def check_health(h):
    if not isinstance(h, dict) or not all(isinstance(h.get(k), int) for k in HEALTH):
        fail(f"stack_health: {h!r}")
    if h["chains"] > h["samples"] or h["dwarf"] > h["chains"] or h["dwarf_cut"] > h["dwarf"]:
        fail(f"stack_health: counts do not nest: {h!r}")
    for x in h["dsos"]:
        if not isinstance(x.get("dso"), str) or not set(x["problems"]) <= PROBLEMS or not x["problems"] or \
                not all(isinstance(x.get(k), int) for k in ("samples", "fp_cut", "unwind_cut")):
            fail(f"stack_health dso: {x!r}")


def check_schema(d):
    check_health(d.get("stack_health"))
    if d.get("perfkit_report") != 1 or not isinstance(d.get("events"), list):
        fail("no perfkit_report 1 or events")
    for ev in d["events"]:
        for k in ("samples", "event_count", "lost"):
            if not isinstance(ev.get(k), int) or isinstance(ev[k], bool):
                fail(f"event {k}: {ev.get(k)!r}")
        for r in ev["rows"]:
            if not isinstance(r.get("overhead"), (int, float)) or not isinstance(r.get("keys"), dict):
                fail(f"row: {r!r}")
            for k in ("samples", "period"):
                if not isinstance(r.get(k), int):
                    fail(f"row {k}: {r!r}")
            for i, n in enumerate(r.get("callchain", [])):
                if "frames" in n:
                    if not isinstance(n["period"], int) or not isinstance(n.get("samples"), int) or \
                            not all(isinstance(f["name"], str) for f in n["frames"]):
                        fail(f"flat chain: {n!r}")
                else:
                    check_node(n, f"callchain[{i}]")


ROW = re.compile(r"^ +[0-9.]+%.*\[[.kgHu]\] ")


def same_sym(cell, sym):
    """the table's cell from the symbol on: the symbol, then maybe more key columns"""
    return cell == sym or cell.startswith(sym + " ")


def check_table(d, table):
    rows = []
    for line in open(table, encoding="utf-8", errors="replace"):
        if not ROW.match(line):
            continue
        head, sym = re.split(r" \[[.kgHu]\] ", line.rstrip("\n"), maxsplit=1)
        f = head.split()
        pct = [float(x[:-1]) for x in f if x.endswith("%")]
        ints = [int(x) for x in f[len(pct):len(pct) + 2]]
        if re.fullmatch(r"[0-9a-f]{16}", sym.rstrip()):
            sym = "0x" + sym    # the table prints address 0 without its 0x
        rows.append((pct, ints, sym.rstrip()))
    got = [r for ev in d["events"] for r in ev["rows"]]
    if len(rows) != len(got):
        fail(f"{len(got)} JSON rows, {len(rows)} table rows")
    for i, ((pct, ints, sym), r) in enumerate(zip(rows, got)):
        want_pct = [r["children"], r["overhead"]] if "children" in r else [r["overhead"]]
        if pct != want_pct or ints != [r["samples"], r["period"]] or not same_sym(sym, r["keys"].get("sym", sym)):
            fail(f"row {i}: table {pct} {ints} {sym!r}, JSON {want_pct} {r['samples']} {r['period']} {r['keys']}")
    print(f"{len(rows)} rows agree")


d = json.load(open(sys.argv[1], encoding="utf-8"))
check_schema(d)
if len(sys.argv) > 2:
    check_table(d, sys.argv[2])
