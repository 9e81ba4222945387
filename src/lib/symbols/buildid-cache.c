/* SPDX-License-Identifier: MIT */
/*
 * buildid-cache.c - the build-id cache in perf's layout, so perf and
 * perfkit find each other's entries: a DSO's file under
 * DIR/<its real path>/<build-id hex>/elf (the kernel's symbols as
 * DIR/[kernel.kallsyms]/<id>/kallsyms, the vDSO as DIR/[vdso]/<id>/vdso),
 * and DIR/.build-id/<2 hex>/<rest> a relative link to that directory.
 * Everything below DIR is walked one component at a time without
 * following links, so a link planted in the cache cannot send a write (or
 * a lookup) outside it; entries are written under a temporary name,
 * checked, and renamed into place, so readers never see half a file.
 */
#include "perfkit.h"
#include "elf/elf.h"
#include "host/host.h"
#include "symbols/symbols.h"
#include "sys/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

/* What an entry holds, by the DSO's name; its file's name in the entry. */
enum kind { KIND_ELF, KIND_KALLSYMS, KIND_VDSO };
static const char *const entry_file[] = { "elf", "kallsyms", "vdso" };

static enum kind kind_of(const char *name)
{
	if (!strcmp(name, "[kernel.kallsyms]"))
		return KIND_KALLSYMS;
	return !strcmp(name, "[vdso]") ? KIND_VDSO : KIND_ELF;
}

static void to_hex(const uint8_t *id, size_t n, char out[41])
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[id[i] >> 4];
		out[2 * i + 1] = digits[id[i] & 15];
	}
	out[2 * n] = '\0';
}

/*
 * Open directory `rel` ("a/b/c", leading slashes ignored) below dirfd one
 * component at a time with O_NOFOLLOW, creating missing ones when asked.
 * "." and ".." are refused, so the walk never leaves dirfd's tree.
 * Returns an fd, or a negative errno (-ELOOP: a component is a link).
 */
static int walk(int dirfd, const char *rel, bool create)
{
	int fd = dup(dirfd);
	const char *p = rel;

	while (fd >= 0 && *p) {
		char part[NAME_MAX + 1];
		size_t n = strcspn(p, "/");
		int next;

		if (!n) {
			p++;
			continue;
		}
		if (n > NAME_MAX || (n == 1 && p[0] == '.') || (n == 2 && !strncmp(p, "..", 2))) {
			close(fd);
			return n > NAME_MAX ? -ENAMETOOLONG : -EINVAL;
		}
		memcpy(part, p, n);
		part[n] = '\0';
		next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0 && errno == ENOENT && create &&
		    (mkdirat(fd, part, 0755) == 0 || errno == EEXIST))
			next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			/* A link opened with O_NOFOLLOW | O_DIRECTORY reads ENOTDIR
			 * on some kernels: say what it is. */
			struct stat st;
			int e = errno;

			if (fstatat(fd, part, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
				e = ELOOP;
			close(fd);
			return -e;
		}
		close(fd);
		fd = next;
		p += n;
	}
	return fd < 0 ? -errno : fd;
}

/* Whether file `name` in dirfd (not followed if a link) is an ELF file
 * with build-id id: 1 yes, 0 no or unreadable. */
static int has_id(int dirfd, const char *name, const uint8_t *id, size_t id_size)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	char path[64];
	uint8_t got[20];
	int n;

	if (fd < 0)
		return 0;
	/* Through our own descriptor: the file checked is the file opened. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = pk_build_id_read(path, got);
	close(fd);
	return n == (int)id_size && !memcmp(got, id, id_size);
}

/* A fresh temporary file in dirfd: its fd, name in tmp[32]; -errno. */
static int make_temp(int dirfd, char tmp[32], mode_t mode)
{
	for (int tries = 0; tries < 16; tries++) {
		uint64_t r = 0;
		int fd;

		if (getrandom(&r, sizeof(r), 0) != sizeof(r))
			r ^= (uint64_t)getpid() << 20 ^ (uint64_t)tries;
		snprintf(tmp, 32, ".tmp.%016llx", (unsigned long long)r);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

int pk__write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t w = write(fd, p, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Copy file src into the open fd. */
static int copy_file(const char *src, int out)
{
	char buf[65536];
	int in = open(src, O_RDONLY | O_CLOEXEC), err = 0;

	if (in < 0)
		return -errno;
	for (;;) {
		ssize_t r = read(in, buf, sizeof(buf));

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r < 0 ? -errno : 0;
			break;
		}
		if ((err = pk__write_all(out, buf, (size_t)r)) < 0)
			break;
	}
	close(in);
	return err;
}

static int ksym_line(void *arg, const struct pk__host_ksym *s)
{
	if (s->module)
		return fprintf(arg, "%016llx %c %s\t[%s]\n", (unsigned long long)s->addr, s->type, s->name,
			       s->module) < 0 ? -EIO : 0;
	return fprintf(arg, "%016llx %c %s\n", (unsigned long long)s->addr, s->type, s->name) < 0 ? -EIO : 0;
}

/* /proc/kallsyms, addresses and all, into fd (which this closes). */
static int write_kallsyms(int fd)
{
	FILE *f = fdopen(fd, "w");
	int err;

	if (!f) {
		close(fd);
		return -errno;
	}
	err = pk__host_kallsyms_read(NULL, PK__KSYM_NEED_ADDRS, ksym_line, f);
	if (fclose(f) != 0 && !err)
		err = -errno;
	return err < 0 ? err : 0;
}

static int vdso_len(void *arg, const struct pk__host_map *m)
{
	if (strcmp(m->path, "[vdso]") || m->start != (uint64_t)getauxval(AT_SYSINFO_EHDR))
		return 0;
	*(size_t *)arg = (size_t)(m->end - m->start);
	return 1;
}

/* This process's vDSO image into fd, as mapped (what perf stores). */
int pk__vdso_write(int fd)
{
	const void *base = (const void *)getauxval(AT_SYSINFO_EHDR);
	size_t len = 0;

	if (!base || pk__host_maps_read(getpid(), vdso_len, &len) != 1 || !len)
		return -ENOENT;
	return pk__write_all(fd, base, len);
}

/* What the entry's file is made of and how it is checked. */
struct entry {
	enum kind kind;
	const char *src;		/* the real path, for KIND_ELF */
	const uint8_t *id;
	size_t id_size;
	const char *why;		/* set on failure: what went wrong */
};

/* Fill the temporary file `tmp` (open as fd, closed here). */
static int fill_temp(struct entry *e, int leaf, const char *tmp, int fd)
{
	int err;

	if (e->kind == KIND_KALLSYMS)
		return write_kallsyms(fd);
	if (e->kind == KIND_VDSO) {
		err = pk__vdso_write(fd);
	} else {
		/* A hard link when the cache shares the file's filesystem and
		 * the kernel allows it (protected_hardlinks), else a copy. */
		err = unlinkat(leaf, tmp, 0) == 0 &&
		      linkat(AT_FDCWD, e->src, leaf, tmp, AT_SYMLINK_FOLLOW) == 0 ? 0 : 1;
		if (err) {
			close(fd);
			if ((fd = openat(leaf, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)) < 0)
				return -errno;
			err = copy_file(e->src, fd);
		}
	}
	if (close(fd) < 0 && !err)
		err = -errno;
	if (!err && !has_id(leaf, tmp, e->id, e->id_size)) {
		e->why = "its build-id is not the recorded one: it changed since the recording";
		err = -ESTALE;
	}
	return err;
}

/* Whether the kallsyms copy `name` in `leaf` is from an earlier boot: its
 * _text is not the running kernel's (KASLR moved it).  A copy this boot
 * made lets report read it instead of generating /proc/kallsyms. */
static bool stale_kallsyms(int leaf, const char *name)
{
	char path[64];
	uint64_t now = pk__host_kallsyms_text(NULL), then;
	int fd = openat(leaf, name, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	then = pk__host_kallsyms_text(path);
	close(fd);
	return now && then != now;
}

/*
 * The entry's file in its directory `leaf`: 0 when a good one is there
 * already, 1 when written, or a negative errno with e->why.  A file that
 * is there is kept when its build-id is right (kallsyms: its _text is the
 * running kernel's, so this boot's) and
 * replaced when it is wrong; anything that is not a regular file is left.
 */
static int install(struct entry *e, int leaf)
{
	const char *name = entry_file[e->kind];
	struct stat st;
	char tmp[32];
	int fd, err;

	if (fstatat(leaf, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (!S_ISREG(st.st_mode)) {
			e->why = "the entry there is not a regular file: left alone";
			return -EEXIST;
		}
		if (e->kind == KIND_KALLSYMS ? !stale_kallsyms(leaf, name)
					     : has_id(leaf, name, e->id, e->id_size))
			return 0;
	} else if (errno != ENOENT) {
		return -errno;
	}
	if ((fd = make_temp(leaf, tmp, e->kind == KIND_KALLSYMS ? 0600 : 0644)) < 0)
		return fd;
	err = fill_temp(e, leaf, tmp, fd);
	if (!err && renameat(leaf, tmp, leaf, name) < 0)
		err = -errno;
	/* Also after a rename: onto a link of the same file it does nothing. */
	unlinkat(leaf, tmp, 0);
	return err < 0 ? err : 1;
}

/* DIR/.build-id/xx/rest -> ../..<rel>.  0 when there (to anything: perf
 * also keeps the first), 1 when made, or a negative errno. */
static int link_id(int root, const char *hex, const char *rel)
{
	char two[3] = { hex[0], hex[1], '\0' }, *target;
	int fd, err = 0;

	if ((fd = walk(root, ".build-id", true)) < 0)
		return fd;
	err = walk(fd, two, true);
	close(fd);
	if ((fd = err) < 0)
		return err;
	if (pk__asprintf(&target, "../..%s", rel) < 0) {
		close(fd);
		return -ENOMEM;
	}
	err = symlinkat(target, fd, hex + 2) == 0 ? 1 : errno == EEXIST ? 0 : -errno;
	free(target);
	close(fd);
	return err;
}

/* Where the entry goes, relative to the cache: "/REALPATH/HEX" or "/[vdso]/HEX". */
static int entry_dir(const char *name, enum kind kind, const char *hex, char **src, char **rel)
{
	*src = NULL;
	if (kind == KIND_ELF) {
		if (name[0] != '/')
			return -EINVAL;
		if (!(*src = realpath(name, NULL)))
			return -errno;
	}
	if (pk__asprintf(rel, "%s%s/%s", *src ? "" : "/", *src ? *src : name, hex) < 0)
		return -ENOMEM;
	return 0;
}

/* The source matches the id: the running kernel's, our vDSO. */
static int check_source(struct entry *e)
{
	uint8_t got[20];
	int n;

	if (e->kind == KIND_ELF)
		return 0;	/* checked on the copy itself */
	n = e->kind == KIND_KALLSYMS ? pk_build_id_kernel(got) : pk_build_id_vdso(got);
	if (n != (int)e->id_size || memcmp(got, e->id, e->id_size)) {
		e->why = e->kind == KIND_KALLSYMS ? "the running kernel has another build-id"
						  : "this process's vDSO has another build-id";
		return -ESTALE;
	}
	return 0;
}

static int add_entry(int root, struct entry *e, const char *hex, const char *rel)
{
	int leaf, err, linked;

	if ((err = check_source(e)) < 0)
		return err;
	if ((leaf = walk(root, rel, true)) < 0) {
		e->why = leaf == -ELOOP ? "a directory on the way is a symbolic link: the cache does not "
					  "follow links" : NULL;
		return leaf;
	}
	err = install(e, leaf);
	close(leaf);
	if (err < 0)
		return err;
	if ((linked = link_id(root, hex, rel)) < 0) {
		e->why = linked == -ELOOP ? ".build-id or its subdirectory is a symbolic link: the cache "
					    "does not follow links" : NULL;
		return linked;
	}
	return err | linked;
}

int pk_buildid_cache_add(const char *dir, const char *name, const uint8_t *id, size_t id_size)
{
	struct entry e = { .kind = KIND_ELF, .id = id, .id_size = id_size };
	char hex[41], *src = NULL, *rel = NULL;
	int root, err;

	if (!dir || !*dir || !name || !id || !id_size || id_size > 20)
		return pk__error(-EINVAL, "pk_buildid_cache_add", "needs a directory, a DSO name and a "
				 "build-id of 1 to 20 bytes");
	to_hex(id, id_size, hex);
	e.kind = kind_of(name);
	if ((err = entry_dir(name, e.kind, hex, &src, &rel)) < 0) {
		free(src);
		return pk__error(err, "add to the build-id cache", "%s: %s", name, err == -EINVAL ?
				 "not a file path, the kernel or the vDSO" : strerror(-err));
	}
	e.src = src;
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		err = -errno;
	else if ((root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		err = -errno;
	else {
		err = add_entry(root, &e, hex, rel);
		close(root);
	}
	if (err < 0)
		pk__error(err, "add to the build-id cache", "%s (build-id %s) into %s: %s", name, hex, dir,
			  e.why ? e.why : strerror(-err));
	free(src);
	free(rel);
	return err;
}

/* Check a link's target "../../REL/HEX": relative to the cache, no "."
 * or ".." past its start, ending in the id.  Returns REL or NULL. */
static const char *link_rel(const char *target, const char *hex)
{
	const char *rel = target + 5, *last = strrchr(target, '/');

	if (strncmp(target, "../../", 6) || !last || strcmp(last + 1, hex))
		return NULL;
	for (const char *p = rel; *p; p += strcspn(p, "/")) {
		p += *p == '/';
		if ((p[0] == '.' && (p[1] == '/' || !p[1])) ||
		    (p[0] == '.' && p[1] == '.' && (p[2] == '/' || !p[2])))
			return NULL;
	}
	return rel;
}

/* Read DIR/.build-id/xx/rest (no link followed on the way) into buf. */
static int read_id_link(int root, const char *hex, char *buf, size_t len)
{
	char two[16];
	ssize_t n;
	int fd;

	snprintf(two, sizeof(two), ".build-id/%.2s", hex);
	if ((fd = walk(root, two, false)) < 0)
		return fd;
	n = readlinkat(fd, hex + 2, buf, len - 1);
	close(fd);
	if (n < 0)
		return errno == EINVAL ? -ENOENT : -errno;	/* EINVAL: not a link (perf's old layout) */
	buf[n] = '\0';
	return 0;
}

static int find_entry(int root, const char *dir, const char *hex, char *path, size_t len)
{
	char target[PATH_MAX];
	const char *rel, *file;
	struct stat st;
	int leaf, n;

	if ((n = read_id_link(root, hex, target, sizeof(target))) < 0)
		return n == -ELOOP ? -EXDEV : n;
	if (!(rel = link_rel(target, hex)))
		return -EXDEV;
	file = entry_file[!strncmp(rel, "/[kernel.kallsyms]/", 19) ? KIND_KALLSYMS :
			  !strncmp(rel, "/[vdso]/", 8) ? KIND_VDSO : KIND_ELF];
	if ((leaf = walk(root, rel, false)) < 0)
		return leaf == -ELOOP ? -EXDEV : leaf;
	n = fstatat(leaf, file, &st, AT_SYMLINK_NOFOLLOW) < 0 ? -errno : S_ISREG(st.st_mode) ? 0 : -EXDEV;
	close(leaf);
	if (n < 0)
		return n;
	n = snprintf(path, len, "%s%s/%s", dir, rel, file);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : n;
}

int pk_buildid_cache_lookup(const char *dir, const uint8_t *id, size_t id_size, char *path, size_t len)
{
	char hex[41];
	int root, n;

	if (!dir || !*dir || !id || !id_size || id_size > 20 || !path || !len)
		return pk__error(-EINVAL, "pk_buildid_cache_lookup", "needs a directory, a build-id of 1 "
				 "to 20 bytes and room for the path");
	to_hex(id, id_size, hex);
	if ((root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		n = -errno;
	else {
		n = find_entry(root, dir, hex, path, len);
		close(root);
	}
	if (n == -EXDEV)
		return pk__error(-EXDEV, "look up a build-id in the cache", "%s: the entry for %s leads "
				 "out of the cache (a symbolic link): not followed", dir, hex);
	if (n < 0)
		return pk__error(n, "look up a build-id in the cache", "%s has no entry for %s%s%s", dir,
				 hex, n == -ENOENT ? "" : ": ", n == -ENOENT ? "" : strerror(-n));
	return n;
}
