# SPDX-License-Identifier: MIT
# perf script -F comm,period,ip,sym,dso (with call chains) folded as
# stackcollapse-perf does: comm first, frames root first, an unnamed
# frame as [basename of its dso] or [unknown], weighted by period.
function flush() { if (comm != "") { s = comm; for (i = n; i >= 1; i--) s = s ";" f[i]; w[s] += period } comm = ""; n = 0 }
/^[^\t]/ { flush(); period = $NF; comm = $0; sub(/[ \t]+[0-9]+[ \t]*$/, "", comm); sub(/^[ \t]+/, "", comm); next }
/^\t/ { line = $0; sub(/^[ \t]+[0-9a-f]+ /, "", line); dso = line; sub(/^.* \(/, "", dso); sub(/\)$/, "", dso)
        sym = line; sub(/ \([^()]*\)$/, "", sym); sub(/\+0x[0-9a-f]+$/, "", sym)
        if (sym == "[unknown]") { b = dso; sub(/.*\//, "", b); sym = (dso == "[unknown]") ? "[unknown]" : "[" b "]" }
        gsub(/;/, ":", sym); f[++n] = sym; next }
/^$/ { flush() }
END { flush(); for (k in w) print k, w[k] }
