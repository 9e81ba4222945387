/* SPDX-License-Identifier: MIT */
/*
 * hist-merge.c - two entries of one key made one, as perf's collapse
 * merges them (hists__collapse_insert_entry): the sums added, the call
 * chains of the second appended to the first's tree.  Entries come to
 * share a key when a thread's ":TID" is renamed after the fact
 * (pk_hist_rename_comm).
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "hist-int.h"
#include "callchain-int.h"

#include <stdlib.h>

static void add_pair(struct pk_hist_pair *d, const struct pk_hist_pair *s)
{
	d->period += s->period;
	d->period_acc += s->period_acc;
	d->nr_samples += s->nr_samples;
	d->period_sys += s->period_sys;
	d->period_us += s->period_us;
	d->period_guest_sys += s->period_guest_sys;
	d->period_guest_us += s->period_guest_us;
}

int pk__hist_entry_merge(struct pk_hist_entry *dst, struct pk_hist_entry *src, size_t nr_slots)
{
	int err;

	if (src->chain && dst->chain && (err = pk__callchain_merge(dst->chain, src->chain)) < 0)
		return err;
	if (src->chain && !dst->chain)
		dst->chain = src->chain;
	else
		pk_callchain_free(src->chain);
	src->chain = NULL;
	dst->period += src->period;
	dst->nr_samples += src->nr_samples;
	dst->period_acc += src->period_acc;
	dst->period_sys += src->period_sys;
	dst->period_us += src->period_us;
	dst->period_guest_sys += src->period_guest_sys;
	dst->period_guest_us += src->period_guest_us;
	if (src->max_depth > dst->max_depth)
		dst->max_depth = src->max_depth;
	if (src->pairs && !dst->pairs) {
		dst->pairs = src->pairs;
	} else if (src->pairs) {
		for (size_t i = 0; i < nr_slots; i++)
			add_pair(&dst->pairs[i], &src->pairs[i]);
		free(src->pairs);
	}
	src->pairs = NULL;
	return 0;
}
