#!/bin/bash
# SPDX-License-Identifier: MIT
# test-bash.sh PERFKIT DIR - the generated bash completion, sourced as bash
# sources it, completes what a user types: commands after `perfkit`, each
# command's flags from its --help, file names after a FILE flag (TAP).
# The zsh file is checked for syntax where zsh is installed.
set -u
PERFKIT=$1 dir=$2
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; echo "# COMPREPLY: ${COMPREPLY[*]}"; fi; }

# shellcheck source=/dev/null
source "$dir/perfkit"
complete -p perfkit 2>/dev/null | grep -q -- "-F _perfkit perfkit$" && ok "complete -F _perfkit perfkit" ||
	not_ok "complete -F _perfkit perfkit"

# tab WORDS...: complete the last word of `WORDS`, as bash does at <TAB>.
tab() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _perfkit; }
# has WORD...: COMPREPLY holds exactly these words, in any order.
has() { [ "$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')" = "$(printf '%s\n' "$@" | sort | tr '\n' ' ')" ]; }

tab perfkit re
check "perfkit re<TAB>: record report" has record report
tab perfkit ""
check "perfkit <TAB>: every command perfkit --help lists" \
	has $("$PERFKIT" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\)  .*/\1/p')
tab perfkit --no-pager st
check "perfkit --no-pager st<TAB>: stat" has stat
tab perfkit --v
check "perfkit --v<TAB>: --version" has --version
tab perfkit report --so
want=$("$PERFKIT" report --help | grep -oE -- '--so[a-z-]*' | sort -u)
check "perfkit report --so<TAB>: the --so flags of perfkit report --help ($(echo $want))" has $want
tab perfkit report --sor
check "perfkit report --sor<TAB>: --sort" has --sort
tab perfkit script --fi
check "perfkit script --fi<TAB>: --fields" has --fields
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pk-comp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
touch "$tmp/one.data" "$tmp/two.data"
tab perfkit report -i "$tmp/"
check "perfkit report -i DIR/<TAB>: its files" has "$tmp/one.data" "$tmp/two.data"
tab perfkit report --sort "$tmp/"
check "perfkit report --sort <TAB>: no flags offered as sort keys" \
	sh -c '! printf "%s\n" "$@" | grep -q "^-"' sh "${COMPREPLY[@]}"
if command -v zsh >/dev/null; then
	check "_perfkit is valid zsh" zsh -n "$dir/_perfkit"
else
	n=$((n + 1)); echo "ok $n - _perfkit is valid zsh # SKIP zsh is not installed"
fi
check "_perfkit completes every command" \
	sh -c 'for c in $("$1" --help | sed -n "/^commands:/,/^\$/s/^  \([a-z][a-z-]*\)  .*/\1/p"); do
		grep -q "^  $c)\$" "$2/_perfkit" || exit 1; done' sh "$PERFKIT" "$dir"
echo "1..$n"
exit $fail
