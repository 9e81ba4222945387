/* SPDX-License-Identifier: MIT */
/*
 * fuzz_branch.c - libFuzzer target for the branch-history code
 * (callchain-branch.c: pk_branch_history, pk_branch_remove_loops, the
 * per-frame counts and their text), which perf report --branch-history
 * and perf diff --stream feed straight from a perf.data sample.  Input:
 * one byte of branch entries wanted (up to 255: over 127 is perf's
 * "corrupted branch chain"), one byte of max_stack, then that many
 * 24-byte struct perf_branch_entry as the kernel writes them (fewer when
 * the input ends first), then the call chain's 64-bit words; each input
 * runs in both orders.  The properties checked, with abort() on a
 * violation: the frames are the kept entries' targets and sources, the
 * kept entries are the input's in order with the folded ones counted at
 * most once each, the call-chain window lies within the chain, the loop
 * folding alone agrees with the history's, and the counts' text is
 * NUL-terminated within its buffer.  fuzz_replay_branch runs the
 * committed corpus (fuzz/corpus/branch) as a unit test.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_INPUT_ENTRIES 255

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

struct input {
	struct perf_branch_entry br[MAX_INPUT_ENTRIES];
	size_t nr_br, max_stack;
	uint64_t *ips;
	size_t nr_ips;
};

static bool same_entry(const struct perf_branch_entry *a, const struct perf_branch_entry *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}

/* The kept entries are the (ordered, truncated) input's, in order, and
 * the iterations counted are no more than the entries folded away. */
static void check_entries(const struct input *in, bool caller, const struct pk_branch_history *h, size_t kept)
{
	size_t nr = in->nr_br < in->max_stack ? in->nr_br : in->max_stack, at = 0;
	uint64_t iters = 0;

	if (kept > nr)
		abort();
	for (size_t i = 0; i < kept; i++, at++) {
		while (at < nr && !same_entry(&h->entries[i], &in->br[caller ? in->nr_br - at - 1 : at]))
			at++;
		if (at == nr)
			abort();
		iters += h->iter[i].nr_loop_iter;
	}
	if (iters > nr - kept || (kept == nr && iters))
		abort();
}

/* Each kept entry as its target (from set) then its source (from 0). */
static void check_frames(const struct pk_branch_history *h, size_t kept)
{
	for (size_t i = 0; i < kept; i++) {
		const struct pk_branch_frame *to = &h->frames[2 * i], *from = &h->frames[2 * i + 1];
		const struct perf_branch_entry *e = &h->entries[i];

		if (!to->branch || !from->branch || to->ip != e->to || to->from != e->from ||
		    from->ip != e->from || from->from != 0 || !same_entry(&to->entry, e) ||
		    from->nr_loop_iter != h->iter[i].nr_loop_iter)
			abort();
	}
}

/* The counts of the frames, and their text in a buffer of each size up
 * to 64: NUL-terminated, its length returned. */
static void check_counts(const struct pk_branch_history *h)
{
	struct pk_branch_counts to = { 0 }, from = { 0 };
	char buf[64];

	for (size_t i = 0; i + 1 < h->nr_frames; i += 2) {
		pk_branch_counts_add(&to, &h->frames[i], i == 0);
		pk_branch_counts_add(&from, &h->frames[i + 1], i == 0);
		if (!pk_branch_type_name(h->entries[i / 2].type, h->entries[i / 2].new_type))
			abort();
	}
	for (size_t size = 1; size <= sizeof(buf); size++) {
		size_t n = pk_branch_counts_str(h->nr_frames ? &to : NULL, buf, size);

		if (n >= size || buf[n] != 0 || strlen(buf) != n)
			abort();
		n = pk_branch_counts_str(&from, buf, size);
		if (n >= size || buf[n] != 0 || strlen(buf) != n)
			abort();
	}
}

static void run(const struct input *in, bool caller, struct pk_branch_history *h)
{
	struct perf_branch_entry loop[PK_BRANCH_MAX_DEPTH];
	struct pk_branch_iter iter[PK_BRANCH_MAX_DEPTH];
	size_t kept, nr = in->nr_br < in->max_stack ? in->nr_br : in->max_stack;

	if (pk_branch_history(in->br, in->nr_br, in->ips, in->nr_ips, caller, in->max_stack, h) != 0)
		abort();
	if (in->nr_br > PK_BRANCH_MAX_DEPTH) {	/* the call chain alone */
		if (h->nr_frames || h->first_call || h->chain_end != in->nr_ips)
			abort();
		return;
	}
	if (h->nr_frames % 2)
		abort();
	kept = h->nr_frames / 2;
	if (h->chain_end != (in->nr_ips > kept ? in->nr_ips - kept : 0) || h->first_call > in->nr_ips ||
	    (caller && h->first_call) || h->first_call > nr)
		abort();
	check_entries(in, caller, h, kept);
	check_frames(h, kept);
	check_counts(h);
	for (size_t i = 0; i < nr; i++)
		loop[i] = in->br[caller ? in->nr_br - i - 1 : i];
	if (pk_branch_remove_loops(loop, iter, nr) != kept || memcmp(loop, h->entries, kept * sizeof(*loop)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input *in;
	struct pk_branch_history *h;
	size_t words;

	if (size < 2)
		return 0;
	in = calloc(1, sizeof(*in));
	h = malloc(sizeof(*h));
	if (!in || !h)
		abort();
	in->max_stack = data[1];
	in->nr_br = data[0];
	if (in->nr_br > (size - 2) / sizeof(in->br[0]))
		in->nr_br = (size - 2) / sizeof(in->br[0]);
	memcpy(in->br, data + 2, in->nr_br * sizeof(in->br[0]));
	data += 2 + in->nr_br * sizeof(in->br[0]);
	size -= 2 + in->nr_br * sizeof(in->br[0]);
	words = size / sizeof(uint64_t);
	if (words && !(in->ips = malloc(words * sizeof(uint64_t))))
		abort();
	if (words)
		memcpy(in->ips, data, words * sizeof(uint64_t));
	in->nr_ips = words;
	run(in, false, h);
	run(in, true, h);
	if (pk_branch_remove_loops(in->br, NULL, in->nr_br) != in->nr_br)	/* no iter array: unchanged */
		abort();
	free(in->ips);
	free(h);
	free(in);
	return 0;
}
