/* SPDX-License-Identifier: MIT */
/*
 * kindex-cache.c - a kallsyms index's scan kept beside the build-id
 * cache's copy of kallsyms (see kindex-cache.h).  The copy is named by
 * the kernel's build-id and never rewritten, so the scan of its 120,000
 * lines (a millisecond and a half of every report with kernel samples)
 * can be made once.  The kept file: a header (what it is, the kallsyms
 * file it was made from as fstat(2) saw it, what the scan learnt, a
 * checksum) and the blocks, native byte order (another machine's fails
 * the checks).  It is trusted only whole and for the very file: any
 * doubt and the caller scans as before, so a damaged or stale one costs
 * the scan and nothing else; and what a block says is only where to
 * start reading lines, each line still parsed and checked when used.
 */
#include "symbols/kindex-cache.h"
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "PKKINDEX"
#define VERSION 1u

enum { IN_ORDER = 1, ANY_ADDR = 2, ANY_LINE = 4 };

struct header {
	char magic[8];
	uint32_t version, block;
	struct pk__host_file_id id;	/* the kallsyms file's */
	uint64_t nr, nr_blocks, text_addr;
	uint32_t flags, zero;
	uint64_t sum;		/* checksum(): of the rest of the header and the blocks */
};
_Static_assert(sizeof(struct header) == 96, "the kept header has no padding");

/* A word-wise multiply-xor hash of the header before its sum and n
 * blocks' bytes: enough to tell a torn or damaged file. */
static uint64_t checksum(const struct header *h, const void *blocks, size_t n)
{
	const uint64_t mul = 0x9e3779b97f4a7c15ull;
	uint64_t w[offsetof(struct header, sum) / 8], s = 0x6b696e646578ull, v;

	memcpy(w, h, sizeof(w));
	for (size_t i = 0; i < sizeof(w) / 8; i++) {
		s = (s ^ w[i]) * mul;
		s ^= s >> 29;
	}
	for (size_t i = 0; i < 2 * n; i++) {
		memcpy(&v, (const unsigned char *)blocks + 8 * i, 8);
		s = (s ^ v) * mul;
		if (i % 2)
			s ^= s >> 29;
	}
	return s;
}

void pk__kindex_cache_reseal(void *file, size_t len)
{
	struct header h;
	size_t n;

	if (len < sizeof(h))
		return;
	memcpy(&h, file, sizeof(h));
	n = (len - sizeof(h)) / sizeof(struct pk__kblock);
	h.sum = checksum(&h, (unsigned char *)file + sizeof(h), h.nr_blocks < n ? (size_t)h.nr_blocks : n);
	memcpy(file, &h, sizeof(h));
}

static bool kept_name(const char *path, char *name, size_t len)
{
	int n = snprintf(name, len, "%s%s", path, PK__KINDEX_CACHE_SUFFIX);

	return n > 0 && (size_t)n < len;
}

/* Whether header h, of a file of `size` bytes, is for text kt and blocks
 * of `block` lines. */
static bool header_fits(const struct header *h, uint64_t size, const struct pk__host_ktext *kt,
			unsigned int block)
{
	return !memcmp(h->magic, MAGIC, 8) && h->version == VERSION && h->block == block && block &&
	       !memcmp(&h->id, &kt->id, sizeof(h->id)) && h->nr <= kt->map_len &&
	       h->nr_blocks == h->nr / block + (h->nr % block != 0) &&
	       size == sizeof(*h) + h->nr_blocks * sizeof(struct pk__kblock) && !h->zero &&
	       !(h->flags & ~(uint32_t)(IN_ORDER | ANY_ADDR | ANY_LINE));
}

/* Whether the blocks start inside the text, one after the other, their
 * addresses in order when the lines are. */
static bool blocks_fit(const struct header *h, const struct pk__kblock *b, size_t len)
{
	for (size_t i = 0; i < h->nr_blocks; i++) {
		if (b[i].off >= len || (i && b[i].off <= b[i - 1].off))
			return false;
		if ((h->flags & IN_ORDER) && i && b[i].addr < b[i - 1].addr)
			return false;
	}
	return true;
}

int pk__kindex_cache_read(const char *path, const struct pk__host_ktext *kt, unsigned int block,
			  struct pk__kindex_saved *s)
{
	char name[PATH_MAX];
	struct header h;
	struct stat st;
	size_t bytes;
	int fd, ok = 0;

	*s = (struct pk__kindex_saved){ 0 };
	if (!kt->map_len || !kept_name(path, name, sizeof(name)) ||
	    (fd = open(name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
		return 0;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || pread(fd, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    !header_fits(&h, (uint64_t)st.st_size, kt, block))
		goto out;
	bytes = (size_t)h.nr_blocks * sizeof(*s->blocks);
	if (!(s->blocks = pk__malloc(bytes)))
		goto out;
	if (pread(fd, s->blocks, bytes, sizeof(h)) != (ssize_t)bytes || checksum(&h, s->blocks, h.nr_blocks) != h.sum ||
	    !blocks_fit(&h, s->blocks, kt->map_len)) {
		free(s->blocks);
		s->blocks = NULL;
		goto out;
	}
	s->nr = h.nr;
	s->nr_blocks = (size_t)h.nr_blocks;
	s->text_addr = h.text_addr;
	s->in_order = h.flags & IN_ORDER;
	s->any_addr = h.flags & ANY_ADDR;
	s->any_line = h.flags & ANY_LINE;
	ok = 1;
out:
	close(fd);
	return ok;
}

/* Whether the file `name` is one of these (so it may be replaced). */
bool pk__kept_file_is(int dir, const char *name, const char magic[8])
{
	/* (O_NONBLOCK: a FIFO at the name does not stop the open) */
	int fd = openat(dir, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	char head[8];
	struct stat st;
	bool yes;

	if (fd < 0)
		return false;
	yes = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && pread(fd, head, 8, 0) == 8 && !memcmp(head, magic, 8);
	close(fd);
	return yes;
}

/* Whether the caller owns the directory `path` is in. */
static bool own_dir(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	struct stat st;

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return false;
	snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid();
}

void pk__kindex_cache_write(const char *path, const struct pk__host_ktext *kt, unsigned int block,
			    const struct pk__kindex_saved *s)
{
	char name[PATH_MAX], tmp[PATH_MAX + 8];
	struct header h = { .version = VERSION, .block = block };
	bool done;
	int fd;

	if (!kt->map_len || !s->any_addr || !kept_name(path, name, sizeof(name)) || !own_dir(name))
		return;
	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", name);
	if ((fd = mkostemp(tmp, O_CLOEXEC)) < 0)
		return;
	memcpy(h.magic, MAGIC, 8);
	h.id = kt->id;
	h.nr = s->nr;
	h.nr_blocks = s->nr_blocks;
	h.text_addr = s->text_addr;
	h.flags = (s->in_order ? IN_ORDER : 0) | (s->any_addr ? ANY_ADDR : 0) | (s->any_line ? ANY_LINE : 0);
	h.sum = checksum(&h, s->blocks, s->nr_blocks);
	done = !pk__write_all(fd, &h, sizeof(h)) && !pk__write_all(fd, s->blocks, s->nr_blocks * sizeof(*s->blocks));
	done = close(fd) == 0 && done;
	/* link(2) never replaces a file; one of ours (stale or damaged,
	 * since the caller scanned) is replaced by rename(2). */
	if (done && link(tmp, name) < 0 && errno == EEXIST && pk__kept_file_is(AT_FDCWD, name, MAGIC))
		(void)rename(tmp, name);
	(void)unlink(tmp);
}
