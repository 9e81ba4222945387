#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_verbose_bpf.sh - report -v on samples in code a KSYMBOL
# registered, against perf report -v 6.1 on the same files: a BPF
# program's rows by its name, its address relative to the program's own
# map and origin '!' (no symbol table), and the kernel's BPF images (the
# XDP dispatcher, a trampoline where the kernel allows fentry) with the
# empty long name perf gives them (is_bpf_image).  Recorded -a by perf and
# by perfkit while tests/cli/bpf-tramp.c runs the image; then -g
# recordings: the Children rows and call graphs with KSYMBOL frames.
. "$(dirname "$0")/tap.sh"
T=${PERFKIT_BPF_TRAMP:?PERFKIT_BPF_TRAMP must name tests/cli/bpf-tramp}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
export HOME=$tmp/home PERFKIT_BUILDID_DIR=$tmp/home/.debug
mkdir -p "$HOME"

# rows TOOL FILE PATTERN ARGS...: TOOL's report -v rows of the BPF code.
rows() {
	local tool=$1 file=$2 pat=$3
	shift 3
	if [ "$tool" = perf ]; then
		perf report -i "$file" --stdio -v "$@" 2>/dev/null | grep -E "\] $pat"
	else
		"$PERFKIT" report -i "$file" --stdio -v "$@" 2>/dev/null | grep -E "\] $pat"
	fi
}

# image_check KIND PATTERN: both tools' -v rows for KIND's image and the
# program in it, on perf's recording and on perfkit's, and on one of the
# program loaded twice (two KSYMBOLs of one name: perf keys their symbol
# at 0 in each, so the loads share rows wherever the kernel put them).
image_check() {
	local kind=$1 pat=$2 f n=0 all
	if ! "$T" "$kind" 1000 2>tramp.err; then
		skip "-v rows of a BPF $kind image" "bpf-tramp: $(cat tramp.err)"
		return
	fi
	perf record -q -a -e cpu-clock -c 100000 -o "perf-$kind.data" -- "$T" "$kind" 20000000 >/dev/null 2>&1
	run record -q -a -e cpu-clock -c 100000 -o "pk-$kind.data" -- "$T" "$kind" 20000000
	check "record -a -- bpf-tramp $kind: exit 0 (got $rc)" test "$rc" -eq 0
	# a second between the loads: the kernel frees the first program's
	# image a moment after its process exits, and a second load made
	# before that may land over it; on one CI run perf then placed a
	# sample of the new one 8 bytes off perfkit (0x11 against 0x9), as
	# from the old one's start
	run record -q -a -e cpu-clock -c 100000 -o "twice-$kind.data" -- \
		sh -c "'$T' $kind 10000000 && sleep 1 && '$T' $kind 10000000"
	check "record -a -- bpf-tramp $kind, twice: exit 0 (got $rc)" test "$rc" -eq 0
	for f in "perf-$kind.data" "pk-$kind.data" "twice-$kind.data"; do
		# A -a file holds what other programs did meanwhile: perf 6.1
		# must read it for a comparison to mean anything.
		all=$(perf report -i "$f" --stdio 2>/dev/null | grep -c '%')
		if [ "$all" -eq 0 ]; then
			skip "$f: report -v's BPF rows against perf's" "perf report printed no rows for it"
			continue
		fi
		for s in "" "--sort dso,sym" "--sort sym"; do
			# shellcheck disable=SC2086
			rows perf "$f" "($pat|bpf_prog_)" $s >perf.rows
			# shellcheck disable=SC2086
			rows perfkit "$f" "($pat|bpf_prog_)" $s >perfkit.rows
			if cmp -s perf.rows perfkit.rows; then
				ok "$f: report -v $s: the BPF rows are perf's ($(wc -l <perfkit.rows))"
			else
				not_ok "$f: report -v $s: the BPF rows are perf's"
				diag "$(diff perf.rows perfkit.rows | head -10)"
			fi
		done
		n=$((n + $(rows perfkit "$f" "$pat\$" --sort dso,sym | wc -l)))
		# What a user sees whatever the samples: the image under no long
		# name, its address an offset into it, never kallsyms' 'k'.
		rows perfkit "$f" "$pat\$" --sort dso,sym >img.rows
		check "$f: the $kind image's rows have perf's empty long name and '!'" \
			test -z "$(grep -Ev "^ +[0-9.]+% +0x[0-9a-f]+ +! \[k\] $pat\$|^ +[0-9.]+% +0 +! \[k\] $pat\$" img.rows)"
	done
	if [ "$n" -ge 1 ]; then
		ok "samples landed in the $kind image ($n rows)"
	else
		# a few instructions per call on some kernels (this check's
		# first machines gave rows every time; a later one 0 or 1 in
		# three recordings): the comparisons above had no image row
		skip "samples landed in the $kind image" "no sample landed in it in three recordings"
	fi
}

# tree TOOL FILE ROW ARGS...: the call graph under TOOL's -v row ROW (a
# pattern of the row's end), up to the blank line that ends it.
tree() {
	local tool=$1 file=$2 row=$3
	shift 3
	if [ "$tool" = perf ]; then
		perf report -i "$file" --stdio -v "$@" 2>/dev/null
	else
		"$PERFKIT" report -i "$file" --stdio -v "$@" 2>/dev/null
	fi | awk -v row="$row" 'on && (/^$/ || /^ +[0-9.]+%/) { exit }
		$0 ~ row "$" && / ! \[k\] / { on = 1; print; next } on { print }'
}

# graph_check KIND PATTERN: a -g recording of KIND's image.  Call-chain
# frames in KSYMBOL code are perf's callchain nodes: their symbol starts
# at 0 as the sample's does, so with Children each BPF symbol is one row
# (the sample's and the frames' periods together), and the trees under
# the rows are perf's, callee and caller first.
graph_check() {
	local kind=$1 pat=$2 f s a out
	if ! "$T" "$kind" 1000 2>tramp.err; then
		skip "-g rows of a BPF $kind image" "bpf-tramp: $(cat tramp.err)"
		return
	fi
	perf record -q -g -a -e cpu-clock -c 100000 -o "perf-g-$kind.data" -- "$T" "$kind" 5000000 >/dev/null 2>&1
	run record -q -g -a -e cpu-clock -c 100000 -o "pk-g-$kind.data" -- "$T" "$kind" 5000000
	check "record -g -a -- bpf-tramp $kind: exit 0 (got $rc)" test "$rc" -eq 0
	for f in "perf-g-$kind.data" "pk-g-$kind.data"; do
		if [ "$(perf report -i "$f" --stdio 2>/dev/null | grep -c '%')" -eq 0 ]; then
			skip "$f: report -v -g's BPF rows against perf's" "perf report printed no rows for it"
			continue
		fi
		for s in "" "--sort sym" "--sort dso,sym" "--no-children"; do
			# shellcheck disable=SC2086
			rows perf "$f" "($pat|bpf_prog_[0-9a-f]+_.*)\$" $s | grep ' ! \[k\] ' >perf.rows
			# shellcheck disable=SC2086
			rows perfkit "$f" "($pat|bpf_prog_[0-9a-f]+_.*)\$" $s | grep ' ! \[k\] ' >perfkit.rows
			if cmp -s perf.rows perfkit.rows; then
				ok "$f: report -v $s: the KSYMBOL rows are perf's ($(wc -l <perfkit.rows))"
			else
				not_ok "$f: report -v $s: the KSYMBOL rows are perf's"
				diag "$(diff perf.rows perfkit.rows | head -10)"
			fi
		done
		out=$(rows perfkit "$f" "($pat|bpf_prog_[0-9a-f]+_.*)\$" --sort sym | grep ' ! \[k\] ')
		check "$f: one Children row per BPF symbol" \
			test "$(awk '{ print $NF }' <<<"$out" | sort | uniq -d)" = ""
		# graph,0: every branch, whatever share of all the samples it has
		for r in "$pat" 'bpf_prog_[0-9a-f]+_pk_[a-z_]+'; do
			for a in "-g graph,0" "-g graph,0,caller" "--no-children -g graph,0" \
				 "--no-children -g graph,0,caller"; do
				# shellcheck disable=SC2086
				tree perf "$f" "$r" --sort sym $a >perf.tree
				# shellcheck disable=SC2086
				tree perfkit "$f" "$r" --sort sym $a >perfkit.tree
				if cmp -s perf.tree perfkit.tree && [ -s perf.tree ]; then
					ok "$f: report -v --sort sym $a: the call graph of $r is perf's ($(wc -l <perf.tree) lines)"
				elif [ ! -s perf.tree ] && [ ! -s perfkit.tree ]; then
					# a kernel that runs the program through
					# bpf_dispatcher_xdp_func, not the image, or
					# no sample or frame there this time
					skip "$f: report -v --sort sym $a: the call graph of $r" \
						"neither perf nor perfkit shows a row for it in this recording"
				else
					not_ok "$f: report -v --sort sym $a: the call graph of $r is perf's"
					diag "$(diff perf.tree perfkit.tree | head -10)"
				fi
			done
		done
	done
}

# ksym_lines: the KSYMBOL frames of script -F ip,sym,srcline on stdin,
# each with the srcline line after it.
ksym_lines() {
	awk '/ (bpf_prog_[0-9a-f]+_pk_[a-z_]+|bpf_dispatcher_xdp|bpf_trampoline_[0-9]+)$/ {
		l = $0; getline n; print l "|" n }'
}

# script_check KIND: script's srcline for KSYMBOL frames, perf's
# "NAME[OFFSET]" with the offset into the code (perf 6.1's map_ip), on
# graph_check's files.  perf script -F srcline may stop early (its
# addr2line pipe), so perf's lines are compared as a prefix of perfkit's.
script_check() {
	local kind=$1 f n
	for f in "perf-g-$kind.data" "pk-g-$kind.data"; do
		[ -f "$f" ] || continue
		# perf's output can end in the middle of a frame when it dies,
		# and its srcline of one KSYMBOL frame sometimes names another
		# program (bpf_dispatcher_xdp[0] under a bpf_prog frame, varying
		# from run to run on one file): only its whole pairs that name the
		# frame's own symbol are compared, each with perfkit's pair at
		# the same place.
		perf script -i "$f" -F ip,sym,srcline 2>/dev/null | ksym_lines |
			awk '{ gsub(/[ \t]+/, " "); sub(/^ /, ""); print NR "\t" $0 }' |
			awk -F'\t' '{ split($2, p, "|"); n = split(p[1], w, " "); s = p[2]; sub(/^ /, "", s)
				if (s ~ /^[a-z_0-9]+\[[0-9a-f][0-9a-f]*\]$/ && length(s) - index(s, "[") <= 6 && substr(s, 1, index(s, "[") - 1) == w[n]) print }' >perf.lines
		"$PERFKIT" script -i "$f" -F ip,sym,srcline 2>/dev/null | ksym_lines |
			awk '{ gsub(/[ \t]+/, " "); sub(/^ /, ""); print NR "\t" $0 }' >perfkit.lines
		n=$(wc -l <perf.lines)
		bad=$(awk -F'\t' 'NR == FNR { pk[$1] = $2; next }
			pk[$1] != $2 { print "frame " $1 ": perf " $2 " / perfkit " pk[$1] }' perfkit.lines perf.lines)
		if [ -z "$bad" ]; then
			ok "$f: script's srcline of KSYMBOL frames is perf's ($n frames)"
		else
			not_ok "$f: script's srcline of KSYMBOL frames is perf's ($n frames)"
			diag "$(printf '%s\n' "$bad" | head -10)"
		fi
		# Whatever perf printed: every one is an offset into the code.
		check "$f: script's KSYMBOL srclines are offsets into the frame's own code ($(wc -l <perfkit.lines))" \
			test -z "$(awk -F'\t' '{ split($2, p, "|"); n = split(p[1], w, " "); s = p[2]; sub(/^ /, "", s)
				if (s !~ /^[a-z_0-9]+\[[0-9a-f][0-9a-f]*\]$/ || length(s) - index(s, "[") > 6 || substr(s, 1, index(s, "[") - 1) != w[n]) print }' perfkit.lines)"
	done
}

image_check xdp 'bpf_dispatcher_xdp'
image_check fentry 'bpf_trampoline_[0-9]+'
graph_check xdp 'bpf_dispatcher_xdp'
graph_check fentry 'bpf_trampoline_[0-9]+'
script_check xdp
script_check fentry
done_testing
