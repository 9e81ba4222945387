#!/bin/sh
# SPDX-License-Identifier: MIT
# same-output.sh - the md5 of perfkit report's and script's output over a
# set of files and options, one line per pair, so that a performance change
# can be checked byte for byte against the binary before it: run it with
# both binaries and diff the two outputs.
# usage: bench/same-output.sh PATH-TO-PERFKIT FILE...
set -u
pk=$1
shift
for f in "$@"; do
	for o in "--no-children" "--children" "--no-children -g none" \
		"--no-children --sort sym" "--sort dso,sym -n" "--children --sort sym -g caller" \
		"--no-children -g folded" "--format=json" "--no-children --sort srcline"; do
		# shellcheck disable=SC2086
		s=$("$pk" report -i "$f" --stdio $o 2>&1 | md5sum | cut -c1-12)
		echo "$s report $o $f"
	done
	for o in "" "--ns" "--show-task-events --show-mmap-events" "-F ip,sym --no-inline" \
		"-F comm,tid,time,ip,sym,dso,period" "--max-stack 2"; do
		# shellcheck disable=SC2086
		s=$("$pk" script -i "$f" $o 2>&1 | md5sum | cut -c1-12)
		echo "$s script $o $f"
	done
done
