/* SPDX-License-Identifier: MIT */
/*
 * spill.c - arrays that move out of memory.  What a report keeps of every
 * distinct call chain grows with the recording (a DWARF profile's stacks
 * are nearly all distinct), but is read back rarely: once to index it and
 * once per tree printed.  Such an array lives on the heap while small; past
 * its budget it moves to an unlinked temporary file that it maps shared, so
 * that its pages are the page cache's, which the kernel writes out and
 * reclaims, and pk__spill_drop takes them out of the process's memory once
 * read or written.  The file's blocks are allocated before they are
 * mapped (fallocate): a full disk is then a failure to grow, which moves
 * the array back to the heap, never a SIGBUS on a store.
 */
#include "sys/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t budget_set;

size_t pk__spill_budget(void)
{
	const char *env;
	char *end;
	unsigned long long v;

	if (budget_set)
		return budget_set;
	/* a testing knob: anything but a positive decimal number is ignored */
	env = getenv("PERFKIT_SPILL_BUDGET");
	if (env && *env >= '1' && *env <= '9') {
		errno = 0;
		v = strtoull(env, &end, 10);
		if (!*end && !errno && v <= SIZE_MAX)
			return (size_t)v;
	}
	return (size_t)PK__SPILL_BUDGET;
}

void pk__spill_set_budget(size_t bytes)
{
	budget_set = bytes;
}

void pk__spill_init(struct pk__spill *s)
{
	*s = (struct pk__spill){ .fd = -1, .budget = pk__spill_budget(), .last_block = SIZE_MAX };
}

/* An unlinked file in $TMPDIR (else /tmp), or -1. */
static int temp_file(void)
{
	const char *dir = getenv("TMPDIR");
	char *path = NULL;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
	if (fd >= 0 || pk__asprintf(&path, "%s/perfkit-spill-XXXXXX", dir) < 0)
		return fd;
	if ((fd = mkostemp(path, O_CLOEXEC)) >= 0)
		unlink(path);
	free(path);
	return fd;
}

/* The file's blocks for `cap` bytes, and its mapping of them. */
static bool file_grow(struct pk__spill *s, size_t cap)
{
	void *p;

	if (fallocate(s->fd, 0, 0, (off_t)cap) != 0)
		return false;
	p = s->p ? mremap(s->p, s->cap, cap, MREMAP_MAYMOVE)
		 : mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_SHARED, s->fd, 0);
	if (p == MAP_FAILED)
		return false;
	madvise(p, cap, MADV_RANDOM);	/* a page the kernel wrote out and reclaimed comes back alone */
	s->p = p;
	s->cap = cap;
	return true;
}

/* The heap array moved into a new file of cap bytes; false: it stays. */
static bool to_file(struct pk__spill *s, size_t cap)
{
	struct pk__spill f = { .fd = temp_file(), .budget = s->budget, .last_block = SIZE_MAX };
	size_t done = 0;

	if (f.fd < 0)
		return false;
	while (done < s->cap) {	/* written, not stored: never resident here */
		ssize_t n = pwrite(f.fd, s->p + done, s->cap - done, (off_t)done);

		if (n <= 0)
			break;
		done += (size_t)n;
	}
	if (done < s->cap || !file_grow(&f, cap)) {
		if (f.p)
			munmap(f.p, f.cap);
		close(f.fd);
		return false;
	}
	free(s->p);
	*s = f;
	return true;
}

/* The file's bytes moved back to a heap array of cap bytes (the file
 * could not grow); false when there is no memory for it. */
static bool to_heap(struct pk__spill *s, size_t cap)
{
	unsigned char *p = pk__malloc(cap);

	if (!p)
		return false;
	memcpy(p, s->p, s->cap);
	munmap(s->p, s->cap);
	close(s->fd);
	*s = (struct pk__spill){ .p = p, .cap = cap, .fd = -1, .budget = s->budget, .last_block = SIZE_MAX };
	return true;
}

int pk__spill_reserve(struct pk__spill *s, size_t bytes)
{
	size_t page = pk__sys_page_size(), cap = s->cap ? s->cap : 4096;
	void *p;

	if (bytes <= s->cap)
		return 0;
	while (cap < bytes) {
		if (cap > SIZE_MAX / 2)
			return pk__error(-ENOMEM, "an array", "%zu bytes are more than memory holds", bytes);
		cap *= 2;
	}
	cap = (cap + page - 1) / page * page;
	if (s->fd >= 0 && (file_grow(s, cap) || to_heap(s, cap)))
		return 0;
	if (s->fd < 0 && cap > s->budget && to_file(s, cap))
		return 0;
	if (s->fd >= 0 || !(p = pk__realloc(s->p, cap)))
		return pk__error_nomem("an array of %zu bytes", cap);
	s->p = p;
	s->cap = cap;
	return 0;
}

int pk__spill_alloc(struct pk__spill *s, size_t bytes)
{
	size_t page = pk__sys_page_size(), cap = (bytes + page - 1) / page * page;

	if (cap > s->budget && (s->fd = temp_file()) >= 0) {
		if (file_grow(s, cap))	/* allocated blocks read as zeros */
			return 0;
		close(s->fd);
		s->fd = -1;
	}
	if (!(s->p = pk__calloc(1, cap ? cap : 1)))
		return pk__error_nomem("an array of %zu bytes", cap);
	s->cap = cap;
	return 0;
}

void pk__spill_drop(struct pk__spill *s, size_t from, size_t to)
{
	size_t page = pk__sys_page_size();

	s->touched = 0;
	s->last_block = SIZE_MAX;
	if (s->fd < 0)
		return;
	if (to > s->cap)
		to = s->cap;
	from = (from + page - 1) / page * page;
	to = to / page * page;
	if (from < to)
		madvise(s->p + from, to - from, MADV_DONTNEED);
}

/* What a read fault maps of a shared file: the kernel maps the pages
 * around it that the page cache holds, 64 KiB by default
 * (fault_around_bytes). */
#define FAULT_AROUND (64u << 10)

void pk__spill_count(struct pk__spill *s, size_t bytes)
{
	if (s->fd < 0)
		return;
	s->touched += bytes;
	if (s->touched > s->budget / 4)
		pk__spill_drop(s, 0, s->cap);
}

void pk__spill_touch(struct pk__spill *s, size_t from, size_t bytes)
{
	size_t first = from / FAULT_AROUND, last;

	if (s->fd < 0 || !bytes)
		return;
	last = (from + bytes - 1) / FAULT_AROUND;
	/* a block counts once while touches stay in it (appends in turn) */
	first += first == s->last_block;
	s->last_block = last;
	pk__spill_count(s, (last + 1 - first) * FAULT_AROUND);
}

void pk__spill_adopt(struct pk__spill *s, int fd, void *p, size_t len)
{
	pk__spill_init(s);
	s->p = p;
	s->cap = len;
	s->fd = fd;
}

bool pk__spill_in_file(const struct pk__spill *s)
{
	return s->fd >= 0;
}

void pk__spill_free(struct pk__spill *s)
{
	if (s->fd >= 0) {
		munmap(s->p, s->cap);
		close(s->fd);
	} else {
		free(s->p);
	}
	pk__spill_init(s);
}
