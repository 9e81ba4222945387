#!/bin/sh
# SPDX-License-Identifier: MIT
# demo.sh - what `make run` shows: the events this machine offers
# (`perfkit list`, without the long tracepoint list) and what perfkit makes
# of a few of them (`perfkit info`): a software event with a modifier, a
# group, a tracepoint, a breakpoint, and a hardware event, which on a VM
# without a PMU explains why it does not open.  $1 is the perfkit binary.
set -u
PERFKIT=${1:?usage: demo.sh PATH-TO-PERFKIT}

section() {
	printf '\n==== %s ====\n\n' "$*"
}

section "perfkit --version"
"$PERFKIT" --version

section "perfkit list (all sources but tracepoints; 'perfkit list tracepoint' has those)"
"$PERFKIT" list hw sw cache pmu raw breakpoint probe libpfm

section "perfkit list 'sched:sched_s*'"
"$PERFKIT" list 'sched:sched_s*'

for ev in task-clock:u '{task-clock,page-faults}' sched:sched_switch 'mem:0x1000/8:w' cycles; do
	section "perfkit info '$ev'"
	"$PERFKIT" info "$ev"
done

section "perfkit info --json cs:k"
"$PERFKIT" info --json cs:k | head -40
echo "  ..."

section "a typo: perfkit info task-clok (exits 1)"
"$PERFKIT" info task-clok || true
exit 0
