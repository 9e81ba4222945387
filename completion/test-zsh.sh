#!/bin/bash
# SPDX-License-Identifier: MIT
# test-zsh.sh PERFKIT DIR - the generated zsh completion (DIR/_perfkit), as
# zsh runs it: an interactive `zsh -f` in a pseudo-terminal (zsh/zpty)
# with DIR on its fpath and compinit loaded is sent what a user types and
# a TAB; a compadd wrapper prints each match the completion system adds
# (TAP).  Skipped where zsh is not installed (scripts/deps.sh installs it).
set -u
PERFKIT=$1 dir=$2
n=0 fail=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)); echo "not ok $n - $1"; fail=1; }
if ! command -v zsh >/dev/null; then
	echo "1..0 # SKIP zsh is not installed"
	exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pk-zsh.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Sourced by the interactive zsh: no prompt, TAB completes, every match
# printed as "PKCOMP:<match>" and "PKCOMP-END" when completion is done.
cat >"$tmp/capture.zsh" <<'ZSH'
PS1= PROMPT= RPROMPT=
autoload -Uz compinit && compinit -u -D
bindkey '^I' complete-word
pk_done() { print -r -- PKCOMP-END; }
comppostfuncs=(pk_done)
compadd() {
	local -a pk_hits
	local a
	for a in "$@"; do
		case $a in -O|-A|-D) builtin compadd "$@"; return;; --) break;; esac
	done
	builtin compadd -O pk_hits "$@"
	for a in "${pk_hits[@]}"; do print -r -- "PKCOMP:$a"; done
	builtin compadd "$@"
}
ZSH
# Run by `zsh -f`: type $2 and a TAB into an interactive zsh, print the matches.
cat >"$tmp/drive.zsh" <<'ZSH'
zmodload zsh/zpty
zpty pk zsh -f -i
zpty -w pk "fpath=(${(q)1} \$fpath); source ${(q)3}/capture.zsh"
zpty -w -n pk "$2"$'\t'
local line
while zpty -r pk line; do
	[[ $line == *PKCOMP-END* ]] && break
	line=${${line%$'\n'}%$'\r'}	# the terminal's line end
	[[ $line == *PKCOMP:?* ]] && print -r -- ${line##*PKCOMP:}
done
zpty -d pk
ZSH

# tab LINE: the matches, sorted, one line.
tab() { timeout 60 zsh -f "$tmp/drive.zsh" "$dir" "$1" "$tmp" | sort -u | tr '\n' ' '; }
# expect WHAT LINE WORD...: TAB after LINE offers exactly these words.
expect() {
	local what=$1 line=$2 got want
	shift 2
	got=$(tab "$line")
	want=$(printf '%s\n' "$@" | sort -u | tr '\n' ' ')
	if [ "$got" = "$want" ]; then ok "$what"; else not_ok "$what"; echo "# got: $got"; echo "# want: $want"; fi
}

expect "perfkit rec<TAB>: record" "perfkit rec" record
expect "perfkit re<TAB>: record report" "perfkit re" record report
expect "perfkit <TAB>: every command perfkit --help lists" "perfkit " \
	$("$PERFKIT" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z-]*\)  .*/\1/p')
expect "perfkit report --so<TAB>: the --so flags of perfkit report --help" "perfkit report --so" \
	$("$PERFKIT" report --help | grep -oE -- '--so[a-z-]*' | sort -u)
expect "perfkit script --fi<TAB>: --fields" "perfkit script --fi" \
	$("$PERFKIT" script --help | grep -oE -- '--fi[a-z-]*' | sort -u)
expect "perfkit record --cal<TAB>: --call-graph" "perfkit record --cal" \
	$("$PERFKIT" record --help | grep -oE -- '--cal[a-z-]*' | sort -u)
echo "1..$n"
exit $fail
