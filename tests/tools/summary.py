#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""summary.py - turn Meson's test logs into one verdict.

Reads <builddir>/meson-logs/testlog.json for each build directory given,
counts every TAP test case (cmocka and the shell tests speak TAP) or, for a
test that printed no TAP, the test itself, prints the failures with their
output, and ends with the line "N passed, N failed[, N skipped]".  Exits 1
when anything failed or no test ran.
"""
import json
import os
import re
import sys

TAP = re.compile(r"^(not ok|ok)\b(.*)$")


def count(builddir):
    path = os.path.join(builddir, "meson-logs", "testlog.json")
    passed = failed = skipped = 0
    failures = []
    if not os.path.exists(path):
        return 0, 1, 0, [(builddir, "no test log: did the build or meson test fail?", "")]
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            t = json.loads(line)
            out = t.get("stdout") or ""
            result = t.get("result", "")
            p = fl = s = 0
            bad_cases = []
            for l in out.splitlines():
                m = TAP.match(l.strip())
                if not m:
                    continue
                rest = m.group(2)
                if "# SKIP" in rest.upper() or "# skip" in rest:
                    s += 1
                elif m.group(1) == "ok":
                    p += 1
                else:
                    fl += 1
                    bad_cases.append(l.strip())
            if p + fl + s == 0:
                if result in ("OK", "EXPECTEDFAIL"):
                    p = 1
                elif result == "SKIP":
                    s = 1
                else:
                    fl = 1
            elif result not in ("OK", "SKIP", "EXPECTEDFAIL") and fl == 0:
                # The runner crashed or timed out after its last TAP line.
                fl = 1
                bad_cases.append("%s ended with %s after its test cases" % (t["name"], result))
            passed += p
            failed += fl
            skipped += s
            if fl:
                failures.append((builddir + ": " + t["name"], "\n".join(bad_cases),
                                 (t.get("stderr") or "") + out[-4000:]))
    return passed, failed, skipped, failures


def main():
    dirs = sys.argv[1:] or ["build"]
    P = F = S = 0
    allfail = []
    for d in dirs:
        p, f, s, fl = count(d)
        P, F, S = P + p, F + f, S + s
        allfail += fl
    for name, cases, out in allfail:
        print("FAILED %s" % name)
        if cases:
            print("  " + cases.replace("\n", "\n  "))
        tail = out.strip().splitlines()[-40:]
        for l in tail:
            print("  | " + l)
    line = "%d passed, %d failed" % (P, F)
    if S:
        line += ", %d skipped" % S
    print(line)
    return 1 if F or P == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
