/* SPDX-License-Identifier: MIT */
/*
 * resolve-procs.h - the resolver's side of the records the unwinder has no
 * way to follow (resolve-procs.c): each process's file mappings, kept so
 * that a FORK gives the child its parent's, an exec's COMM starts afresh,
 * and an exited process's mappings go a second after its last thread.
 */
#ifndef PK_SESSION_RESOLVE_PROCS_H
#define PK_SESSION_RESOLVE_PROCS_H

#include "perfkit.h"

struct pk__file_map;
struct pk__born;

/* The maps and the unwinder it tells (the resolver's), and its own
 * state: zero but for those two is empty. */
struct pk__procs {
	struct pk_maps *maps;
	struct pk_unwinder *unwinder;
	struct pk__file_map *fmaps;
	size_t nr_fmaps, cap_fmaps;
	struct pk__born *born;		/* the live processes that began in the file */
	size_t nr_born, cap_born;
};

/* pk__procs_follow - a MMAP, MMAP2, COMM, FORK or EXIT record followed
 * (others are no-ops): 0, or a negative errno from the unwinder or -ENOMEM
 * (recorded). */
int pk__procs_follow(struct pk__procs *p, const struct pk_record *rec);

/* pk__procs_free - its state let go (not the maps or the unwinder). */
void pk__procs_free(struct pk__procs *p);

#endif
