/* SPDX-License-Identifier: MIT */
/*
 * srcline-kept.c - a compressed debug file's whole image (srcline-zdebug.c's
 * last one: every section source lines read, inflated) kept in the build-id
 * cache's directory, so that the next report or script maps it instead of
 * inflating the file again.  Inflating Debian's libc debug file as far as
 * a workload's inlined frames reach took a DWARF report on 1,000 samples
 * from 8 to 50 ms; read back, it costs a map.
 *
 * DIR/.perfkit-dwarf/NAME, NAME the hex of a 64-bit hash of the debug
 * file's path, so a file has one kept image however often it changes (an
 * upgraded package's replaces the last).  The kept file: a 4 KiB header
 * (what it is, the debug file it was made from as fstat(2) saw it, the
 * image's size, a checksum of the header), then the image.  It is trusted
 * only for that very file and whole; any doubt and the caller inflates as
 * before and keeps its image again.  Written only in a directory the caller
 * owns, under a temporary name, linked into place, and replacing only a
 * file that is one of these; no link in the way is followed.
 */
#include "host/host.h"
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAGIC "PKDWIMG1"
#define VERSION 1u
#define SUBDIR ".perfkit-dwarf"

struct header {
	char magic[8];
	uint32_t version, zero;
	struct pk__host_file_id id;	/* the debug file's */
	uint64_t size;			/* the image's bytes, after the header */
	uint64_t sum;			/* checksum() of what comes before it */
};
_Static_assert(sizeof(struct header) == 72, "the kept header has no padding");

static uint64_t checksum(const struct header *h)
{
	uint64_t w[offsetof(struct header, sum) / 8], s = 0x6477696d616765ull;

	memcpy(w, h, sizeof(w));
	for (size_t i = 0; i < sizeof(w) / 8; i++) {
		s = (s ^ w[i]) * 0x9e3779b97f4a7c15ull;
		s ^= s >> 29;
	}
	return s;
}

static bool file_id(int fd, struct pk__host_file_id *id)
{
	struct stat st;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	*id = (struct pk__host_file_id){ (uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec,
					 (uint64_t)st.st_mtim.tv_nsec, (uint64_t)st.st_ino, (uint64_t)st.st_dev };
	return true;
}

/* NAME for path: FNV-1a, 64 bits, in hex. */
static void kept_name(const char *path, char name[17])
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		h = (h ^ *p) * 0x100000001b3ull;
	snprintf(name, 17, "%016llx", (unsigned long long)h);
}

/* DIR/.perfkit-dwarf open as a directory (made first when `make`), owned
 * by the caller as DIR is, no link followed; -1 otherwise. */
static int kept_dir(const char *dir, bool make)
{
	int d = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), sub = -1;
	struct stat st;

	if (d < 0)
		return -1;
	if (fstat(d, &st) == 0 && st.st_uid == geteuid()) {
		if (make)
			(void)mkdirat(d, SUBDIR, 0755);
		sub = openat(d, SUBDIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0 && (fstat(sub, &st) < 0 || st.st_uid != geteuid())) {
			close(sub);
			sub = -1;
		}
	}
	close(d);
	return sub;
}

bool pk__zkept_read(const char *dir, const char *path, int fd, struct pk__spill *img, size_t *size)
{
	struct pk__host_file_id id;
	struct header h;
	struct stat st;
	char name[17];
	int d, k;
	void *p;

	if (!dir || !path || !file_id(fd, &id) || (d = kept_dir(dir, false)) < 0)
		return false;
	kept_name(path, name);
	k = openat(d, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	close(d);
	if (k < 0)
		return false;
	if (fstat(k, &st) < 0 || !S_ISREG(st.st_mode) || pread(k, &h, sizeof(h), 0) != (ssize_t)sizeof(h) ||
	    memcmp(h.magic, MAGIC, 8) || h.version != VERSION || h.zero || memcmp(&h.id, &id, sizeof(id)) ||
	    h.sum != checksum(&h) || h.size < 64 || h.size > (uint64_t)st.st_size ||
	    (uint64_t)st.st_size - h.size != PK__ZKEPT_AT) {
		close(k);
		return false;
	}
	/* private and writable: libelf and libdw only read it, but a write
	 * would then change a copy, never the kept file */
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, k, 0);
	if (p == MAP_FAILED) {
		close(k);
		return false;
	}
	pk__spill_adopt(img, k, p, (size_t)st.st_size);
	*size = (size_t)h.size;
	return true;
}

/* Whether the file `name` in d is one of these (so it may be replaced). */
static bool ours(int d, const char *name)
{
	int k = openat(d, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	char magic[8];
	struct stat st;
	bool yes;

	if (k < 0)
		return false;
	yes = fstat(k, &st) == 0 && S_ISREG(st.st_mode) && pread(k, magic, 8, 0) == 8 && !memcmp(magic, MAGIC, 8);
	close(k);
	return yes;
}

bool pk__zkept_usable(const char *dir)
{
	int d = dir ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1, sub;
	struct stat st;
	bool yes;

	if (d < 0)
		return false;
	yes = fstat(d, &st) == 0 && st.st_uid == geteuid();
	if (yes && (sub = openat(d, SUBDIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) >= 0) {
		yes = fstat(sub, &st) == 0 && st.st_uid == geteuid();
		close(sub);
	} else if (yes) {
		yes = errno == ENOENT;	/* made when an image is kept */
	}
	close(d);
	return yes;
}

/* The kept file's bytes written through a shared mapping of its blocks
 * (allocated first: a full disk fails here, never a SIGBUS on a store).
 * Written so, the page cache holds it in single pages, which a reader's
 * fault maps 64 KiB at a time, where write(2) makes large folios that a
 * fault maps whole (1 MB on this machine's kernel): the reader's memory,
 * which it lets go every few answers, stays what it reads. */
static bool write_mapped(int k, const struct header *h, const void *image, size_t size)
{
	size_t len = PK__ZKEPT_AT + size;
	unsigned char *p;

	if (fallocate(k, 0, 0, (off_t)len) < 0)
		return false;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, k, 0);
	if (p == MAP_FAILED)
		return false;
	memcpy(p, h, sizeof(*h));
	memcpy(p + PK__ZKEPT_AT, image, size);
	return munmap(p, len) == 0;
}

void pk__zkept_write(const char *dir, const char *path, int fd, const void *image, size_t size)
{
	static unsigned int serial;
	struct header h = { .version = VERSION, .size = size };
	char name[17], tmp[64];
	bool done;
	int d, k;

	if (!dir || !path || !file_id(fd, &h.id) || (d = kept_dir(dir, true)) < 0)
		return;
	kept_name(path, name);
	snprintf(tmp, sizeof(tmp), "%s.%ld.%u", name, (long)getpid(), serial++);
	k = openat(d, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (k < 0) {
		close(d);
		return;
	}
	memcpy(h.magic, MAGIC, 8);
	h.sum = checksum(&h);
	done = write_mapped(k, &h, image, size);
	done = close(k) == 0 && done;
	/* linkat(2) never replaces a file; one of ours (stale, damaged or
	 * made for another file of the same hash) is replaced by renameat(2) */
	if (done && linkat(d, tmp, d, name, 0) < 0 && errno == EEXIST && ours(d, name))
		(void)renameat(d, tmp, d, name);
	(void)unlinkat(d, tmp, 0);
	close(d);
}
