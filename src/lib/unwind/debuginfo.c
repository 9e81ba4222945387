/* SPDX-License-Identifier: MIT */
/*
 * debuginfo.c - the unwinder's search for a module's separate debug file
 * when debuginfod is not configured: what libdwfl's standard search
 * (dwfl_standard_find_debuginfo, elfutils 0.188) finds on this machine
 * with its default debuginfo_path ":.debug:/usr/lib/debug" (the file of
 * the module's build-id first, then its .gnu_debuglink file by name),
 * accepted as libdwfl accepts it, without the standard search's last step,
 * libdwfl's debuginfod client (see unwind.c's find_debuginfo for why).
 */
#include "perfkit.h"
#include "elf/elf.h"
#include "sys/sys.h"
#include "unwind/unwind.h"

#include <elfutils/libdwelf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define DEBUG_ROOT "/usr/lib/debug"	/* libdwfl's default debug directory */

/* What a candidate file is checked against. */
struct search {
	const unsigned char *id;	/* the module's build-id */
	int id_len;			/* <= 0: it has none */
	bool check_crc;			/* no build-id: the link's CRC-32 decides */
	uint32_t crc;
	struct stat main_st;		/* the module's file, never its own debug file */
	const char *link;		/* the name looked for */
	const char *base;		/* the module file's name, tried too when
					 * the link was made up from it, else NULL */
};

/* How one place turned out: libdwfl goes on to the next directory below
 * the debug root only when a place has no file at all. */
enum place {
	PLACE_FOUND,
	PLACE_ABSENT,		/* no such file (ENOENT, ENOTDIR) */
	PLACE_REJECTED,		/* a file, not the module's debug file */
	PLACE_ERROR,		/* any other failure: the search ends, errno set */
};

/* Whether the file open at fd (path) is the module's debug file: its
 * build-id the module's when the module has one, else the CRC-32 the link
 * carries (when it carries one: libdwfl takes a link CRC of 0, or a name
 * it made up, unchecked). */
static bool valid(const struct search *s, int fd, const char *path)
{
	const void *fid;
	uint32_t crc;
	bool ok;
	Elf *e;

	if (s->id_len <= 0)
		return !s->check_crc || (pk__elf_file_crc32(path, &crc) == 0 && crc == s->crc);
	if (!(e = elf_begin(fd, ELF_C_READ_MMAP, NULL)))
		return false;
	ok = dwelf_elf_gnu_build_id(e, &fid) == s->id_len && !memcmp(fid, s->id, (size_t)s->id_len);
	elf_end(e);
	return ok;
}

/* Open [dir/][subdir/]name; the module's own file, by another name, counts
 * as no file.  Returns the fd with *path malloc'd, or -1 with errno. */
static int try_open(const struct search *s, const char *dir, const char *subdir, const char *name,
		    char **path)
{
	struct stat st;
	int n, fd;

	if (dir && subdir)
		n = pk__asprintf(path, "%s/%s/%s", dir, subdir, name);
	else if (dir || subdir)
		n = pk__asprintf(path, "%s/%s", dir ? dir : subdir, name);
	else
		n = (*path = pk__strdup(name)) ? 0 : -1;
	if (n < 0)
		return -1;
	fd = open(*path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_dev == s->main_st.st_dev && st.st_ino == s->main_st.st_ino) {
		close(fd);
		fd = -1;
		errno = ENOENT;
	}
	if (fd < 0) {
		free(*path);
		*path = NULL;
	}
	return fd;
}

/* One place: the link's name there (and the module file's own name when
 * also_base and the link was made up). */
static enum place try_place(const struct search *s, const char *dir, const char *subdir, bool also_base,
			    int *fd, char **path)
{
	*fd = try_open(s, dir, subdir, s->link, path);
	if (*fd < 0 && also_base && s->base)
		*fd = try_open(s, dir, subdir, s->base, path);
	if (*fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? PLACE_ABSENT : PLACE_ERROR;
	if (valid(s, *fd, *path))
		return PLACE_FOUND;
	close(*fd);
	free(*path);
	*path = NULL;
	return PLACE_REJECTED;
}

/* Below the debug root, the module's absolute directory, then that
 * directory less its first component, and so on down to the root itself,
 * for as long as a place has no file (libdwfl's "sub-subdirs"). */
static enum place try_debug_root(const struct search *s, const char *dir, int *fd, char **path)
{
	const char *sub = dir;
	enum place r;

	do {
		if ((sub = strchr(sub, '/')))
			sub++;
		if (sub && !*sub)
			return PLACE_ABSENT;
		r = try_place(s, DEBUG_ROOT, sub, true, fd, path);
	} while (r == PLACE_ABSENT && sub);
	return r;
}

/* The module file's directory, its .debug/, then below the debug root
 * (for an absolute directory only).  Returns the fd with *path, or -1
 * with errno 0 when nothing is there, another errno on a failure. */
static int search_dirs(struct search *s, const char *file_name, char **path)
{
	char *copy = pk__strdup(file_name), *dir = NULL, *slash = copy ? strrchr(copy, '/') : NULL;
	enum place r;
	int fd = -1;

	if (!copy)
		return -1;
	if (slash) {
		*slash = '\0';
		dir = copy;
	}
	r = try_place(s, dir, NULL, false, &fd, path);
	if (r == PLACE_ABSENT || r == PLACE_REJECTED)
		r = try_place(s, dir, ".debug", true, &fd, path);
	if ((r == PLACE_ABSENT || r == PLACE_REJECTED) && dir && dir[0] == '/')
		r = try_debug_root(s, dir, &fd, path);
	free(copy);
	if (r == PLACE_FOUND)
		return fd;
	if (r != PLACE_ERROR)
		errno = 0;
	return -1;
}

/* The .gnu_debuglink search for the module file file_name (the link, or
 * when it has none, "NAME.debug" and, away from its own directory, NAME
 * itself, both unchecked, as libdwfl makes them up). */
static int search_link(const struct search *base, const char *file_name, const char *link, char **path)
{
	struct search s = *base;
	const char *slash = strrchr(file_name, '/');
	char *name = NULL;
	int fd = -1;

	if (stat(file_name, &s.main_st) != 0)
		memset(&s.main_st, 0, sizeof(s.main_st));
	s.link = link;
	if (!link && pk__asprintf(&name, "%s.debug", slash ? slash + 1 : file_name) >= 0) {
		s.link = name;
		s.base = slash ? slash + 1 : file_name;
		s.check_crc = false;
	}
	if (s.link)
		fd = search_dirs(&s, file_name, path);
	free(name);
	return fd;
}

/* Whether libdwfl is asking for the module's alternate (dwz) DWARF file:
 * it then passes the .gnu_debugaltlink name instead of the module's own
 * .gnu_debuglink. */
static bool asks_for_altfile(Dwfl_Module *mod, const char *link)
{
	Dwarf_Addr bias;
	GElf_Word crc;
	Elf *e = dwfl_module_getelf(mod, &bias);
	const char *own = e ? dwelf_elf_gnu_debuglink(e, &crc) : NULL;

	return link && (!own || strcmp(own, link));
}

int pk__unwind_find_debuginfo(Dwfl_Module *mod, const char *file_name, const char *link, GElf_Word crc,
			      char **debuginfo_file_name)
{
	struct search s = { .check_crc = crc != 0, .crc = crc };
	GElf_Addr vaddr;
	char *canon;
	int fd;

	s.id_len = dwfl_module_build_id(mod, &s.id, &vaddr);
	if (s.id_len > 0) {
		errno = 0;
		fd = dwfl_build_id_find_debuginfo(mod, NULL, NULL, 0, NULL, NULL, 0, debuginfo_file_name);
		if (fd >= 0 || errno != 0)
			return fd;
	}
	/* The dwz file holds no CFI, all the unwinder reads: its build-id
	 * file above is all that is looked for. */
	if (!file_name || asks_for_altfile(mod, link))
		return -1;
	fd = search_link(&s, file_name, link, debuginfo_file_name);
	/* A symlink's debug file may go with the name of its target. */
	if (fd < 0 && errno == 0 && (canon = realpath(file_name, NULL))) {
		if (strcmp(canon, file_name))
			fd = search_link(&s, canon, link, debuginfo_file_name);
		free(canon);
	}
	return fd;
}
