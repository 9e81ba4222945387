/* SPDX-License-Identifier: MIT */
/*
 * hist-pair.c - a group's histograms linked: each member's sums as a pair
 * in its leader's entry of the same key (perf's --group), and the shares
 * of the members' totals.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "hist-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static int link_check(const struct pk_hist *leader, const struct pk_hist *member, size_t slot,
		      size_t nr_slots)
{
	if (slot >= nr_slots || (leader->nr_slots && leader->nr_slots != nr_slots))
		return pk__error(-EINVAL, "linking a group member", "slot %zu of %zu (%zu before)", slot,
				 nr_slots, leader->nr_slots);
	if (leader->sorted || leader->nr_keys != member->nr_keys ||
	    memcmp(leader->keys, member->keys, leader->nr_keys * sizeof(*leader->keys)))
		return pk__error(-EINVAL, "linking a group member", "%s",
				 leader->sorted ? "the leader is sorted" : "the sort keys differ");
	return 0;
}

/* Every entry of h with its pairs, as new entries come. */
static int give_pairs(struct pk_hist *h)
{
	for (size_t i = 0; i < h->nr; i++)
		if (!h->entries[i].pairs &&
		    !(h->entries[i].pairs = pk__calloc(h->nr_slots, sizeof(struct pk_hist_pair))))
			return pk__error_nomem("a group's entries");
	return 0;
}

int pk_hist_link(struct pk_hist *leader, const struct pk_hist *member, size_t slot, size_t nr_slots)
{
	uint32_t idx;
	int err;

	if ((err = link_check(leader, member, slot, nr_slots)) < 0)
		return err;
	if (!leader->slot_total && !(leader->slot_total = pk__calloc(nr_slots, sizeof(uint64_t))))
		return pk__error_nomem("a group");
	leader->nr_slots = nr_slots;
	if ((err = give_pairs(leader)) < 0)
		return err;
	leader->slot_total[slot] = member->total_period;
	for (size_t i = 0; i < member->nr; i++) {
		const struct pk_hist_entry *m = &member->entries[i];
		struct pk_hist_pair *p;

		if ((err = pk__hist_find(leader, &m->s, &idx)) < 0)
			return err;
		if (!leader->entries[idx].pairs && (err = give_pairs(leader)) < 0)
			return err;
		p = &leader->entries[idx].pairs[slot];
		p->period += m->period;
		p->period_acc += m->period_acc;
		p->nr_samples += m->nr_samples;
		p->period_sys += m->period_sys;
		p->period_us += m->period_us;
		p->period_guest_sys += m->period_guest_sys;
		p->period_guest_us += m->period_guest_us;
	}
	return 0;
}

uint64_t pk_hist_pair_total(const struct pk_hist *h, size_t slot)
{
	return slot < h->nr_slots ? h->slot_total[slot] : 0;
}

int pk_hist_pair_set_total(struct pk_hist *h, size_t slot, uint64_t total)
{
	if (slot >= h->nr_slots)
		return pk__error(-EINVAL, "a histogram's group member", "slot %zu of %zu", slot, h->nr_slots);
	h->slot_total[slot] = total;
	return 0;
}

double pk_hist_pair_percent(const struct pk_hist *h, const struct pk_hist_entry *e, size_t slot)
{
	if (slot >= h->nr_slots || !e->pairs || !h->slot_total[slot])
		return 0.0;
	return 100.0 * (double)e->pairs[slot].period / (double)h->slot_total[slot];
}

double pk_hist_pair_percent_acc(const struct pk_hist *h, const struct pk_hist_entry *e, size_t slot)
{
	if (slot >= h->nr_slots || !e->pairs || !h->slot_total[slot])
		return 0.0;
	return 100.0 * (double)e->pairs[slot].period_acc / (double)h->slot_total[slot];
}
