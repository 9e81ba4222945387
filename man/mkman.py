#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""mkman.py - write perfkit(1) and perfkit-CMD(1) from committed sources:
docs/CLI.md (one '## perfkit CMD' section per command: synopsis, flags
table, prose; the part before the first such section is perfkit(1)) and
the command table of src/cli/main.c (each command's one-line summary).
CLI.md is what the docs test keeps in step with every --help, so the man
pages are too; tests/cli/man_flags.py checks the pages themselves.

usage: mkman.py SRCDIR VERSION OUTDIR
"""
import re
import sys

SRC, VERSION, OUT = sys.argv[1], sys.argv[2], sys.argv[3]


def esc(text):
    """Markdown inline text -> troff: backslashes, `code` in bold."""
    text = text.replace("\\", "\\e")
    text = re.sub(r"`([^`]+)`", lambda m: "\\fB" + m.group(1) + "\\fR", text)
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", text)
    text = text.replace("-", "\\-")
    return text


def line(text):
    """A troff text line: one starting with . or ' is protected."""
    return "\\&" + text if text[:1] in (".", "'") else text


def cells(row):
    return [c.strip() for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]


def body(md):
    """Markdown blocks -> troff requests."""
    out, lines, i = [], md.splitlines(), 0
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("```"):
            j = i + 1
            out.append(".PP\n.nf\n.RS 4")
            while j < len(lines) and not lines[j].startswith("```"):
                out.append(line(lines[j].replace("\\", "\\e")))
                j += 1
            out.append(".RE\n.fi")
            i = j + 1
        elif ln.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append(cells(lines[i].replace("\\|", "|")))
                i += 1
            for r in rows[2:]:
                out.append(".TP\n" + line(esc(r[0])) + "\n" + line(esc(" ".join(r[1:]))))
        elif ln.startswith("#"):
            out.append(".SS " + esc(ln.lstrip("#").strip()))
            i += 1
        elif ln.startswith("<!--") or not ln.strip():
            i += 1
        else:
            bullet = ln.startswith("- ")
            para = [ln[2:] if bullet else ln]
            i += 1
            while i < len(lines) and lines[i].strip() and not re.match(r"(- |```|\||#|<!--)", lines[i]):
                para.append(lines[i].strip())
                i += 1
            out.append((".IP \\(bu 2" if bullet else ".PP") + "\n" + line(esc(" ".join(para))))
    return "\n".join(out)


def page(name, summary, md, see_also):
    head = f'.TH {name.upper()} 1 "" "perfkit {VERSION}" "perfkit manual"\n'
    head += f".SH NAME\n{name} \\- {esc(summary)}\n"
    return head + ".SH DESCRIPTION\n" + body(md) + "\n.SH SEE ALSO\n" + see_also + "\n"


def main():
    cli = open(f"{SRC}/docs/CLI.md", encoding="utf-8").read()
    table = open(f"{SRC}/src/cli/main.c", encoding="utf-8").read()
    summaries = dict(re.findall(r'\{\s*"([a-z][\w-]*)",\s*cmd_\w+,\s*"([^"]+)"', table))
    parts = re.split(r"^## perfkit (\S+)\n", cli, flags=re.M)
    intro, sections = parts[0], dict(zip(parts[1::2], parts[2::2]))
    intro = re.sub(r"^# .*\n", "", intro)
    cmds = [c for c in summaries if c in sections]
    see = ", ".join(f"\\fBperfkit\\-{c}\\fR(1)" for c in cmds) + ", \\fBperf\\fR(1)"
    listing = "\n".join(f"| `{c}` | {summaries[c]} |" for c in cmds)
    with open(f"{OUT}/perfkit.1", "w", encoding="utf-8") as f:
        f.write(page("perfkit", "count, sample and report with perf_event_open(2), like perf",
                     intro + "\n## Commands\n\n| command | |\n| --- | --- |\n" + listing + "\n", see))
    for c in cmds:
        with open(f"{OUT}/perfkit-{c}.1", "w", encoding="utf-8") as f:
            f.write(page(f"perfkit-{c}", summaries[c], sections[c], "\\fBperfkit\\fR(1), " + see))


main()
