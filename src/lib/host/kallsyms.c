/* SPDX-License-Identifier: MIT */
/*
 * kallsyms.c - the one reader of /proc/kallsyms: each line parsed into
 * address, nm type letter, name and module, handed to a callback, and
 * every way the file can fail (absent, unreadable, addresses hidden by
 * kptr_restrict, out of file descriptors) named in the error record.
 */
#include "host/host.h"
#include "host/ksym-quick.h"
#include "sys/sys.h"

#include <ctype.h>
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* KSYM_NAME_LEN is 512 since Linux 6.1, a module name at most 56 bytes. */
#define LINE_MAX_LEN PK__KSYM_LINE_MAX
/* The kernel generates the file on every read(2) and it has 100k+ lines:
 * 4 KiB reads cost ~50 ms, reads this big a few.  The first read is
 * small: the kernel formats only what a read asks for, and a walk that
 * stops in the first lines (_text, for one) then costs ~60 lines. */
#define READ_BUFFER (1 << 18)
#define FIRST_READ 4096

/* Hex digit values plus one; 0 for anything else. */
static const unsigned char hexval[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8,
	['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15,
	['f'] = 16, ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* A hex number of at most 16 digits, by table: strtoull was a tenth of
 * the reader's time over 100k+ lines.  Returns the end, or NULL. */
static char *hex64(char *p, uint64_t *out)
{
	const char *start = p;
	uint64_t v = 0;
	unsigned int d;

	while ((d = hexval[(unsigned char)*p]) != 0) {
		v = v << 4 | (d - 1);
		p++;
	}
	*out = v;
	return p > start && p - start <= 16 ? p : NULL;
}

/* The address at the start of a line of n bytes (line[n] is NUL): the usual
 * 16 digits by word, anything else by table.  Returns its end, or NULL. */
static char *address(char *line, size_t n, uint64_t *out)
{
	uint32_t hi, lo;

	if (n >= 16 && ksym_hex8(ksym_word(line), &hi) && ksym_hex8(ksym_word(line + 8), &lo) &&
	    !hexval[(unsigned char)line[16]]) {
		*out = (uint64_t)hi << 32 | lo;
		return line + 16;
	}
	return hex64(line, out);
}

/* The flags of the bytes in x that end a name (their top bits), exact up
 * to the lowest: a borrow only runs upwards from a byte flagged itself. */
static inline uint64_t enders(uint64_t x)
{
	uint64_t z = x ^ 0x7f * ONES;

	return ((x - 0x21 * ONES) & ~x & HIGH) | ((z - ONES) & ~z & HIGH);
}

/*
 * The end of the name at p: the first byte that is a blank, a control
 * character (NUL included) or DEL; bytes from 0x80 up (UTF-8) are part of
 * it.  Eight bytes at a time while eight remain before `end` (a NUL), the
 * rest in the word that ends there, its bytes before p set to 0xff (which
 * flags nothing and borrows nothing); a byte loop for lines shorter than
 * a word.
 */
static char *name_end(char *p, const char *line, char *end)
{
	uint64_t m;

	for (; end - p >= 8; p += 8)
		if ((m = enders(ksym_word(p))) != 0)
			return p + __builtin_ctzll(m) / 8;
	if (p == end)
		return p;
	if (end - line >= 8) {
		unsigned int skip = (unsigned int)(8 - (end - p));	/* 1..7 */

		m = enders(ksym_word(end - 8) | ((1ull << (8 * skip)) - 1));
		return m ? end - 8 + __builtin_ctzll(m) / 8 : end;
	}
	while ((unsigned char)*p > ' ' && *p != 0x7f)
		p++;
	return p;
}

/* The module part after a name, from p to the line's end (NUL-terminated,
 * no NUL inside): blanks, "[module]", blanks. */
static int module_part(char *p, struct pk__host_ksym *s)
{
	p += strspn(p, " \t");
	if (*p == '[') {
		char *close = strchr(p, ']');

		if (!close || close == p + 1)
			return -EINVAL;
		*close = '\0';
		s->module = p + 1;
		p = close + 1;
	}
	return p[strspn(p, " \t\n")] ? -EINVAL : 0;
}

/* One line of n bytes, line[n] being NUL; a NUL inside makes it malformed. */
static int parse(char *line, size_t n, struct pk__host_ksym *s)
{
	char *end = address(line, n, &s->addr), *p;

	if (!end || *end != ' ' || !isalpha((unsigned char)end[1]) || end[2] != ' ')
		return -EINVAL;
	s->type = end[1];
	s->name = end + 3;
	s->module = NULL;
	s->unchecked = false;
	s->name_len = 0;
	/* A name is printable (or UTF-8) up to a blank, a newline or the end. */
	p = name_end(end + 3, line, line + n);
	if (p == s->name || (*p && *p != ' ' && *p != '\t' && *p != '\n') ||
	    (!*p && p != line + n))
		return -EINVAL;
	if (*p == '\n' || !*p) {
		*p = '\0';
		return 0;
	}
	*p++ = '\0';
	if (memchr(p, '\0', (size_t)(line + n - p)))
		return -EINVAL;
	return module_part(p, s);
}

int pk__host_ksym_parse(char *line, struct pk__host_ksym *s)
{
	return parse(line, strlen(line), s);
}

int pk__host_ksym_parse_n(char *line, size_t n, struct pk__host_ksym *s)
{
	return parse(line, n, s);
}

/* The error record for a kallsyms file that cannot be opened. */
static int open_error(const char *path, int e)
{
	pk__error(-e, "read the kernel's symbols", "%s: %s", path, strerror(e));
	if (e == ENOENT)
		pk__error_hint("%s", "the kernel was built without CONFIG_KALLSYMS");
	else if (e == EACCES || e == EPERM)
		pk__error_hint("%s", "the file is not readable by this user");
	else if (e == EMFILE || e == ENFILE)
		pk__error_hint("%s", "this process is out of file descriptors: raise 'ulimit -n' "
			       "or close some");
	return -e;
}

bool pk__host_ksym_name_ok(const char *name, size_t name_len)
{
	char *line = (char *)name - QUICK_NAME, *end = line + QUICK_NAME + name_len;

	return name_end(line + QUICK_NAME, line, end) == end;
}

/* The walk's state, for each line. */
struct walk {
	pk__host_ksym_cb cb;
	void *arg;
	bool any_addr, any_line;
	bool quick;		/* PK__KSYM_QUICK */
	int read_err;		/* read(2)'s errno, or 0 */
};

/* A quick line: counted as the walk without PK__KSYM_QUICK would (its
 * name checked while that can change what is counted), then handed over. */
static int quick_line(struct walk *w, const struct pk__host_ksym *s)
{
	if ((!w->any_line || (!w->any_addr && s->addr)) && pk__host_ksym_name_ok(s->name, s->name_len)) {
		w->any_line = true;
		w->any_addr |= s->addr != 0;
	}
	return w->cb(w->arg, s);
}

static int one_line(struct walk *w, char *line, size_t n)
{
	struct pk__host_ksym s;

	if (n >= LINE_MAX_LEN)
		return 0;	/* not a kallsyms line: skipped */
	if (w->quick && pk__host_ksym_quick(line, n, &s))
		return quick_line(w, &s);
	if (parse(line, n, &s) < 0)
		return 0;	/* not a kallsyms line: skipped */
	w->any_line = true;
	w->any_addr |= s.addr != 0;
	return w->cb(w->arg, &s);
}

/*
 * Each line of fd, NUL-terminated in place, through one_line, read in big
 * chunks with read(2): the kernel formats the file anew on every read, so
 * few large reads matter most, and splitting lines ourselves is cheaper
 * than stdio.  A line longer than LINE_MAX_LEN is skipped whole.
 */
static int each_line(int fd, char *buf, size_t cap, struct walk *w)
{
	size_t have = 0, want = FIRST_READ;
	bool skip = false;	/* inside an overlong line */

	for (;;) {
		ssize_t r = read(fd, buf + have, want - have);
		size_t start = 0;
		char *nl;
		int ret = 0;

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			w->read_err = errno;
			return 0;
		}
		if (r == 0) {	/* the end: a last line without its newline */
			buf[have] = '\0';
			return have && !skip ? one_line(w, buf, have) : 0;
		}
		have += (size_t)r;
		want = cap - 1;
		while (!ret && (nl = memchr(buf + start, '\n', have - start))) {
			size_t n = (size_t)(nl - (buf + start));

			*nl = '\0';
			if (!skip)
				ret = one_line(w, buf + start, n);
			skip = false;
			start += n + 1;
		}
		if (ret)
			return ret;
		memmove(buf, buf + start, have - start);
		have -= start;
		if (have >= LINE_MAX_LEN) {
			skip = true;
			have = 0;
		}
	}
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif

void pk__host_populate(void *mem, size_t len)
{
	uintptr_t start = ((uintptr_t)mem + 4095) & ~(uintptr_t)4095;
	uintptr_t end = ((uintptr_t)mem + len) & ~(uintptr_t)4095;

	if (end > start)
		(void)madvise((void *)start, end - start, MADV_POPULATE_WRITE);
}

/*
 * The whole of fd in one buffer, NUL-terminated, its length in *len: sized
 * by fstat for a plain file (one read), grown by doubling for /proc's
 * (which says 0).  NULL with errno, or with *len = (size_t)-1 for ENOMEM.
 */
static char *read_all(int fd, size_t *len)
{
	struct stat st;
	size_t cap = fstat(fd, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size + 2 : READ_BUFFER * 4;
	size_t have = 0;
	char *buf = NULL;

	for (;;) {
		ssize_t r;

		if (!buf || cap - have < 2) {
			char *n = pk__realloc(buf, buf ? cap *= 2 : cap);

			if (!n) {
				free(buf);
				*len = (size_t)-1;
				return NULL;
			}
			buf = n;
			pk__host_populate(buf + have, cap - have);
		}
		r = read(fd, buf + have, cap - have - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;

			free(buf);
			errno = e;
			*len = 0;
			return NULL;
		}
		if (r == 0)
			break;
		have += (size_t)r;
	}
	buf[have] = '\0';
	*len = have;
	return buf;
}

/* Each line of the whole text, NUL-terminated in place, through one_line. */
static int each_line_whole(char *text, size_t len, struct walk *w)
{
	char *p = text, *end = text + len;
	int ret = 0;

	while (!ret && p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		p[n] = '\0';
		ret = one_line(w, p, n);
		p += n + 1;
	}
	return ret;
}

/* fd mapped read-only when it is a plain file ending in a newline (every
 * line then ends inside the file); else NULL.  Not MAP_POPULATE: the
 * scan's own faults map the page cache 16 pages at a time (fault-around),
 * which took this VM 0.4 ms for a 5.4 MB kallsyms where populating it
 * took 0.7 ms. */
static char *map_text(int fd, size_t *len, struct pk__host_ktext *kt)
{
	struct stat st;
	char *m;

	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size >= SIZE_MAX / 2)
		return NULL;
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return NULL;
	if (m[st.st_size - 1] != '\n') {
		munmap(m, (size_t)st.st_size);
		return NULL;
	}
	*len = (size_t)st.st_size;
	kt->id = (struct pk__host_file_id){ (uint64_t)st.st_size, (uint64_t)st.st_mtim.tv_sec,
					    (uint64_t)st.st_mtim.tv_nsec, (uint64_t)st.st_ino, (uint64_t)st.st_dev };
	return m;
}

void pk__host_ktext_free(struct pk__host_ktext *kt)
{
	if (kt->map_len)
		munmap(kt->text, kt->map_len);
	else
		free(kt->text);
	*kt = (struct pk__host_ktext){ NULL, 0, { 0 } };
}

void pk__host_ktext_drop(struct pk__host_ktext *kt)
{
	if (kt->map_len)
		madvise(kt->text, kt->map_len, MADV_DONTNEED);
}

/* The walk over fd, in chunks or (kt non-NULL) whole, with its errors. */
static int walk_fd(const char *path, int fd, unsigned int flags, struct walk *w,
		   struct pk__host_ktext *kt)
{
	size_t len = 0;
	char *buf = kt ? read_all(fd, &len) : pk__malloc(READ_BUFFER);
	int ret = 0;

	if (!buf && (!kt || len == (size_t)-1))
		return pk__error(-ENOMEM, "read the kernel's symbols", "out of memory for %s", path);
	if (!buf)
		w->read_err = errno;
	else if (kt)
		ret = each_line_whole(buf, len, w);
	else
		ret = each_line(fd, buf, READ_BUFFER, w);
	if (kt) {
		*kt = (struct pk__host_ktext){ buf, 0, { 0 } };
		if (w->read_err)
			pk__host_ktext_free(kt);
	} else {
		free(buf);
	}
	if (w->read_err)
		return pk__error(-w->read_err, "read the kernel's symbols", "%s: %s", path,
				 strerror(w->read_err));
	/* Hidden addresses all read 0; a walk that saw only zeros (to the end,
	 * or to where the callback stopped) saw hidden ones. */
	if (ret >= 0 && (flags & PK__KSYM_NEED_ADDRS) && !w->any_addr)
		return pk__host_kallsyms_hidden(path, w->any_line);
	return ret;
}

int pk__host_kallsyms_hidden(const char *path, bool any_line)
{
	if (!any_line) {
		pk__error(-EACCES, "read the kernel's symbols", "%s lists no symbols", path);
		pk__error_hint("a kallsyms file has lines of ADDRESS TYPE NAME, as /proc/kallsyms");
		return -EACCES;
	}
	pk__error(-EACCES, "read the kernel's symbols", "%s: %s", path,
		  "the kernel hides its addresses from this user (kptr_restrict)");
	pk__error_hint("%s", "as root: sysctl -w kernel.kptr_restrict=0");
	return -EACCES;
}

int pk__host_kallsyms_whole(const char *path, bool map, struct pk__host_ktext *kt, size_t *len)
{
	char *buf = NULL;
	int fd, e = 0;

	*kt = (struct pk__host_ktext){ NULL, 0, { 0 } };
	path = path ? path : "/proc/kallsyms";
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return open_error(path, errno);
	if (map && (buf = map_text(fd, len, kt)) != NULL) {
		kt->text = buf;
		kt->map_len = *len;
	} else if ((buf = read_all(fd, len)) != NULL) {
		*kt = (struct pk__host_ktext){ buf, 0, { 0 } };
	}
	else
		e = *len == (size_t)-1 ? ENOMEM : errno;
	close(fd);
	if (e == ENOMEM)
		return pk__error(-ENOMEM, "read the kernel's symbols", "out of memory for %s", path);
	if (e)
		return pk__error(-e, "read the kernel's symbols", "%s: %s", path, strerror(e));
	return 0;
}

static int kallsyms_walk(const char *path, unsigned int flags, pk__host_ksym_cb cb, void *arg,
			 struct pk__host_ktext *kt)
{
	struct walk w = { cb, arg, false, false, kt && (flags & PK__KSYM_QUICK), 0 };
	int fd, ret;

	path = path ? path : "/proc/kallsyms";
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return open_error(path, errno);
	ret = walk_fd(path, fd, flags, &w, kt);
	close(fd);
	return ret;
}

int pk__host_kallsyms_read(const char *path, unsigned int flags, pk__host_ksym_cb cb, void *arg)
{
	return kallsyms_walk(path, flags, cb, arg, NULL);
}

int pk__host_kallsyms_load(const char *path, unsigned int flags, pk__host_ksym_cb cb, void *arg,
			   char **text)
{
	struct pk__host_ktext kt = { NULL, 0 };
	int ret = kallsyms_walk(path, flags, cb, arg, &kt);

	*text = kt.text;
	return ret;
}

static int text_sym(void *arg, const struct pk__host_ksym *s)
{
	if (s->module || strcmp(s->name, "_text"))
		return 0;
	*(uint64_t *)arg = s->addr;
	return 1;
}

uint64_t pk__host_kallsyms_text(const char *path)
{
	uint64_t text = 0;

	return pk__host_kallsyms_read(path, 0, text_sym, &text) == 1 ? text : 0;
}
