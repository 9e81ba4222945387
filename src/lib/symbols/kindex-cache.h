/* SPDX-License-Identifier: MIT */
/*
 * kindex-cache.h - a kallsyms index's scan kept beside the build-id
 * cache's copy of the kallsyms it was made from (kindex-cache.c), so that
 * the next report reads a few kilobytes instead of walking 120,000 lines.
 */
#ifndef PK__SYMBOLS_KINDEX_CACHE_H
#define PK__SYMBOLS_KINDEX_CACHE_H

#include "host/host.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Where every BLOCK-th kept line starts, and its address. */
struct pk__kblock {
	uint64_t addr;
	uint64_t off;
};

/* What a scan of a kallsyms text learns (kallsyms-index.c's walk). */
struct pk__kindex_saved {
	uint64_t nr;		/* kept lines */
	uint64_t text_addr;	/* the _text line's address (0: none) */
	bool in_order, any_addr, any_line;
	struct pk__kblock *blocks;	/* nr_blocks of them: one per `block` kept lines */
	size_t nr_blocks;
};

/* The file a scan is kept in: `path` with this appended. */
#define PK__KINDEX_CACHE_SUFFIX ".perfkit-index"

/*
 * pk__kindex_cache_read - the scan kept beside the kallsyms at `path`,
 * whose text kt (mapped: kt->map_len the text's length, kt->id the file)
 * holds, for blocks of `block` kept lines.  1 with *s filled (s->blocks
 * allocated: the caller frees it) when the kept file is whole (its
 * checksum), made for this very file (size, modification time, inode,
 * device) and block size, and its blocks lie in the text in order; else
 * 0 and *s empty.  Never an error: the caller scans instead.
 */
int pk__kindex_cache_read(const char *path, const struct pk__host_ktext *kt, unsigned int block,
			  struct pk__kindex_saved *s);

/*
 * pk__kept_file_is - whether the file `name` in directory dir (AT_FDCWD
 * for a path) is a regular file, not a link, whose first 8 bytes are
 * magic: one of the kept files a writer may replace (this one's and
 * srcline-kept.c's).
 */
bool pk__kept_file_is(int dir, const char *name, const char magic[8]);

/*
 * pk__kindex_cache_write - keep scan s of the kallsyms at `path` (text
 * kt, mapped) beside it, best effort and silently: only in a directory
 * the caller owns, written to a new file first and then linked into
 * place, so a reader never sees half of one.  An existing file of that
 * name is replaced only when it is one of these (its first bytes say
 * so), left alone otherwise.
 */
void pk__kindex_cache_write(const char *path, const struct pk__host_ktext *kt, unsigned int block,
			    const struct pk__kindex_saved *s);

/* pk__kindex_cache_reseal - a kept file's image of len bytes given the
 * checksum its bytes now call for (its header's nr_blocks blocks, or as
 * many as it holds): a seam for tests and fuzzing, which change a kept
 * file and want the change read, not caught by the checksum. */
void pk__kindex_cache_reseal(void *file, size_t len);

#endif
