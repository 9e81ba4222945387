#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""mkman3.py - write libperfkit(3) and one page per public header,
pk_<header>(3) (pk_evlist(3) from perfkit/evlist.h, ...), from the
headers themselves: the header's opening comment is the description, and
each PK_API declaration is listed with the contract comment above it.
The contracts are the reference; this only puts them where man looks.
Each PK_API function also gets a link page, pk_evlist_open(3) holding
".so man3/pk_evlist.3" (as man-pages does for functions documented
together), so that `man pk_evlist_open` finds its header's page.
check_man3.py holds every public function to appearing in a page and
having its link page.

usage: mkman3.py VERSION OUTDIR UMBRELLA HEADER...
       mkman3.py --links HEADER...	(the link pages' names, one a line:
					 meson's list of the outputs)
"""
import os
import re
import sys


def esc(text):
    """Plain text -> troff: backslashes, dashes, leading dots."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def comment_text(block):
    """The lines of a /* ... */ block without the comment markers."""
    out = []
    for ln in block:
        ln = re.sub(r"^\s*/?\*+/? ?", "", ln.rstrip())
        ln = re.sub(r"\s*\*/$", "", ln)
        out.append(ln)
    while out and not out[0].strip():
        out.pop(0)
    while out and not out[-1].strip():
        out.pop()
    return out


def parse(path):
    """(summary lines, [(declarations, contract lines)]) of one header."""
    lines = open(path, encoding="utf-8").read().splitlines()
    intro, entries, comment, i = None, [], None, 0
    while i < len(lines):
        ln = lines[i]
        if ln.lstrip().startswith("/*"):
            j = i
            while "*/" not in lines[j]:
                j += 1
            block = comment_text(lines[i:j + 1])
            if intro is None and i < 5:
                intro = block[1:] if block and "SPDX" in block[0] else block
                if not intro:
                    intro = None
            comment = block
            i = j + 1
            continue
        if ln.startswith("PK_API"):
            decls = []
            while i < len(lines) and lines[i].startswith("PK_API"):
                d = lines[i]
                while not d.rstrip().endswith(";"):
                    i += 1
                    d += " " + lines[i].strip()
                decls.append(re.sub(r"\s+", " ", d[len("PK_API "):]))
                i += 1
            entries.append((decls, comment or []))
            comment = None
            continue
        comment = None	# a contract sits right above its declaration
        i += 1
    return intro or [], entries


def links(headers):
    """[(function, header page)] for every PK_API function; a function
    named like a page, or declared twice, is an error (one link each)."""
    out, seen = [], {"libperfkit"} | {"pk_" + os.path.basename(h)[:-2] for h in headers}
    for h in headers:
        page_name = "pk_" + os.path.basename(h)[:-2]
        for decls, _ in parse(h)[1]:
            for d in decls:
                fn = re.match(r"[^(]*?\b(pk_\w+)\s*\(", d)
                if not fn:
                    sys.exit(f"mkman3.py: {h}: no function name in: {d}")
                if fn.group(1) in seen:
                    sys.exit(f"mkman3.py: {h}: {fn.group(1)} is already a page")
                seen.add(fn.group(1))
                out.append((fn.group(1), page_name))
    return out


def paragraphs(lines):
    """Comment lines -> troff: blank lines split paragraphs, indented
    lines (code) are kept as they are."""
    out, para = [], []
    for ln in lines:
        if not ln.strip() or ln.startswith(("\t", "  ")):
            if para:
                out.append(esc(" ".join(para)))
                para = []
            if ln.strip():
                out.append(".nf\n" + esc(ln.strip()) + "\n.fi")
            else:
                out.append(".sp")
        else:
            para.append(ln.strip())
    if para:
        out.append(esc(" ".join(para)))
    return "\n".join(out)


def page(name, version, summary, body, see):
    return (f'.TH {name.upper()} 3 "" "perfkit {version}" "libperfkit manual"\n'
            f".SH NAME\n{esc(name)} \\- {esc(summary)}\n{body}\n.SH SEE ALSO\n{see}\n")


def main():
    if sys.argv[1] == "--links":
        print("\n".join(f"{fn}.3" for fn, _ in links(sys.argv[2:])))
        return
    version, out, umbrella, headers = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    pages = []
    for h in headers:
        base = os.path.basename(h)[:-2]
        name = "pk_" + base
        intro, entries = parse(h)
        text = " ".join(l.strip() for l in intro)
        m = re.match(r"perfkit/\S+\s+-\s+(.*)", text)
        summary = (m.group(1) if m else text).split(".")[0].split(":")[0]
        body = f".SH SYNOPSIS\n.nf\n.B #include <perfkit.h>\n.PP\n"
        body += "\n".join(f".B {esc(d)}" for decls, _ in entries for d in decls) + "\n.fi\n"
        body += ".PP\nLink with \\fIpkg\\-config \\-\\-libs perfkit\\fR.\n"
        body += ".SH DESCRIPTION\n" + paragraphs(re.sub(r"^perfkit/\S+\s+-\s+", "", "\n".join(intro)).split("\n")) + "\n"
        body += ".SH FUNCTIONS\n"
        for decls, contract in entries:
            body += ".TP\n" + "\n.br\n".join(f"\\fB{esc(d)}\\fR" for d in decls) + "\n"
            body += paragraphs(contract) + "\n"
        pages.append((name, summary))
        with open(f"{out}/{name}.3", "w", encoding="utf-8") as f:
            f.write(page(name, version, summary, body,
                         "\\fBlibperfkit\\fR(3), \\fBperf_event_open\\fR(2), \\fBperfkit\\fR(1)"))
    for fn, page_name in links(headers):
        with open(f"{out}/{fn}.3", "w", encoding="utf-8") as f:
            f.write(f".so man3/{page_name}.3\n")
    intro = parse(umbrella)[0]
    body = ".SH SYNOPSIS\n.nf\n.B #include <perfkit.h>\n.fi\n.PP\n"
    body += "Compile and link with \\fIpkg\\-config \\-\\-cflags \\-\\-libs perfkit\\fR.\n"
    body += ".SH DESCRIPTION\n" + paragraphs(re.sub(r"^perfkit\.h\s+-\s+", "", "\n".join(intro)).split("\n"))
    body += "\n.SH OBJECTS\nOne page per header of perfkit/, each with every function's contract:\n"
    body += "".join(f".TP\n\\fB{esc(n)}\\fR(3)\n{esc(s)}\n" for n, s in pages)
    see = ", ".join(f"\\fB{esc(n)}\\fR(3)" for n, _ in pages) + ", \\fBperfkit\\fR(1), \\fBperf_event_open\\fR(2)"
    with open(f"{out}/libperfkit.3", "w", encoding="utf-8") as f:
        f.write(page("libperfkit", version, "perf_event_open(2) made usable, as a C library", body, see))


main()
