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
 * (what it is, the debug file it was made from as fstat(2) saw it, its
 * change time too, the image's size, a checksum of the header), then the
 * image.  It is trusted only for that very file and whole, and only an
 * ELF image of sections in its bounds, none compressed (libelf would
 * write into a compressed one's header to inflate it); any doubt and the
 * caller inflates as before and keeps its image again.  Written only in a
 * directory the caller owns, as an unnamed file made durable before it is
 * linked into place (a crash leaves no part of one), replacing only a file
 * that is one of these; no link in the way is followed.
 */
#include "host/host.h"
#include "symbols/kindex-cache.h"
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAGIC "PKDWIMG1"
#define VERSION 2u
#define SUBDIR ".perfkit-dwarf"

struct header {
	char magic[8];
	uint32_t version, zero;
	struct pk__host_file_id id;	/* the debug file's */
	uint64_t ctime_sec, ctime_nsec;	/* its change time: a rewrite in place */
	uint64_t size;			/* the image's bytes, after the header */
	uint64_t sum;			/* checksum() of what comes before it */
};
_Static_assert(sizeof(struct header) == 88, "the kept header has no padding");

/* What names the debug file: fstat(2)'s identity and change time. */
struct file_key {
	struct pk__host_file_id id;
	uint64_t ctime_sec, ctime_nsec;
};

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

static bool file_key(int fd, struct file_key *k)
{
	struct stat st;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false;
	k->id = (struct pk__host_file_id){ (uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec,
					   (uint64_t)st.st_mtim.tv_nsec, (uint64_t)st.st_ino, (uint64_t)st.st_dev };
	k->ctime_sec = (uint64_t)st.st_ctim.tv_sec;
	k->ctime_nsec = (uint64_t)st.st_ctim.tv_nsec;
	return true;
}

/* Whether the image (size bytes) is an ELF file libelf and libdw read
 * without writing into it: this machine's class and byte order, its
 * section headers and every section's bytes inside it, none compressed. */
static bool image_sound(const unsigned char *img, uint64_t size)
{
	Elf64_Ehdr eh;
	Elf64_Shdr sh;

	memcpy(&eh, img, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__ ||
	    eh.e_shentsize != sizeof(sh) || !eh.e_shnum || eh.e_shstrndx >= eh.e_shnum ||
	    eh.e_shoff > size || (size - eh.e_shoff) / sizeof(sh) < eh.e_shnum || eh.e_shoff % 8)
		return false;
	for (unsigned int i = 0; i < eh.e_shnum; i++) {
		memcpy(&sh, img + eh.e_shoff + i * sizeof(sh), sizeof(sh));
		if ((sh.sh_flags & SHF_COMPRESSED) ||
		    (sh.sh_type != SHT_NOBITS && (sh.sh_offset > size || sh.sh_size > size - sh.sh_offset)))
			return false;
	}
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
	struct file_key key;
	struct header h;
	struct stat st;
	char name[17];
	int d, k;
	void *p;

	if (!dir || !path || !file_key(fd, &key) || (d = kept_dir(dir, false)) < 0)
		return false;
	kept_name(path, name);
	/* (O_NONBLOCK: a FIFO put at the name does not stop the open) */
	k = openat(d, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	close(d);
	if (k < 0)
		return false;
	if (fstat(k, &st) < 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size > SIZE_MAX ||
	    pread(k, &h, sizeof(h), 0) != (ssize_t)sizeof(h) || memcmp(h.magic, MAGIC, 8) ||
	    h.version != VERSION || h.zero || memcmp(&h.id, &key.id, sizeof(key.id)) ||
	    h.ctime_sec != key.ctime_sec || h.ctime_nsec != key.ctime_nsec || h.sum != checksum(&h) ||
	    h.size < sizeof(Elf64_Ehdr) || h.size > (uint64_t)st.st_size ||
	    (uint64_t)st.st_size - h.size != PK__ZKEPT_AT) {
		close(k);
		return false;
	}
	/* private and writable: libelf and libdw only read a sound image, but
	 * a write would change a copy, never the kept file */
	p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, k, 0);
	if (p == MAP_FAILED) {
		close(k);
		return false;
	}
	pk__spill_adopt(img, k, p, (size_t)st.st_size);
	if (!image_sound((const unsigned char *)p + PK__ZKEPT_AT, h.size)) {
		pk__spill_free(img);
		return false;
	}
	*size = (size_t)h.size;
	return true;
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
 * (allocated first: a full disk fails here, never a SIGBUS on a store),
 * then made durable.  Written so, the page cache holds it in single
 * pages, which a reader's fault maps 64 KiB at a time, where write(2)
 * makes large folios that a fault maps whole (1 MB on this machine's
 * kernel): the reader's memory, which it lets go every few answers, stays
 * what it reads. */
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
	return munmap(p, len) == 0 && fdatasync(k) == 0;
}

/* An unnamed file in d (O_TMPFILE: nothing is left if the process dies
 * before it is linked), else one under a temporary name in tmp (which the
 * caller unlinks); -1 when neither can be made. */
static int new_file(int d, const char *name, char *tmp, size_t len)
{
	struct timespec ts;
	int k = openat(d, ".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (k >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return k;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	snprintf(tmp, len, "%s.%ld.%ld.%ld", name, (long)getpid(), (long)gettid(), (long)ts.tv_nsec);
	return openat(d, tmp, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
}

void pk__zkept_write(const char *dir, const char *path, int fd, const void *image, size_t size)
{
	struct header h = { .version = VERSION, .size = size };
	char name[17], tmp[96] = "", fdpath[64];
	struct file_key key;
	bool done;
	int d, k;

	if (!dir || !path || !file_key(fd, &key) || (d = kept_dir(dir, true)) < 0)
		return;
	kept_name(path, name);
	if ((k = new_file(d, name, tmp, sizeof(tmp))) < 0) {
		close(d);
		return;
	}
	memcpy(h.magic, MAGIC, 8);
	h.id = key.id;
	h.ctime_sec = key.ctime_sec;
	h.ctime_nsec = key.ctime_nsec;
	h.sum = checksum(&h);
	done = write_mapped(k, &h, image, size);
	if (done && !tmp[0]) {	/* named now, by a temporary name, to link or rename */
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", k);
		snprintf(tmp, sizeof(tmp), "%s.%ld.%ld", name, (long)getpid(), (long)gettid());
		done = linkat(AT_FDCWD, fdpath, d, tmp, AT_SYMLINK_FOLLOW) == 0;
		if (!done)
			tmp[0] = '\0';
	}
	done = close(k) == 0 && done;
	/* linkat(2) never replaces a file; one of ours (stale, damaged or
	 * made for another file of the same hash) is replaced by renameat(2) */
	if (done && linkat(d, tmp, d, name, 0) < 0 && errno == EEXIST && pk__kept_file_is(d, name, MAGIC))
		(void)renameat(d, tmp, d, name);
	if (tmp[0])
		(void)unlinkat(d, tmp, 0);
	close(d);
}
