/* SPDX-License-Identifier: MIT */
/*
 * counter.h - the counter layer's internal interface for the layers above
 * it (ring buffers need the event fds the evlist opened).
 */
#ifndef PK_COUNTER_H
#define PK_COUNTER_H

#include "perfkit.h"

/* pk__evlist_fd - the fd of event i on one CPU x thread, or -1 when it is
 * not open (or out of range). */
int pk__evlist_fd(const struct pk_evlist *l, size_t i, size_t cpu_idx, size_t thread_idx);

/* pk__evlist_nr_events - the number of events. */
size_t pk__evlist_nr_events(const struct pk_evlist *l);

#endif
