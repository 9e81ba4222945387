/* SPDX-License-Identifier: MIT */
/*
 * kallsyms.c - the one reader of /proc/kallsyms: each line parsed into
 * address, nm type letter, name and module, handed to a callback, and
 * every way the file can fail (absent, unreadable, addresses hidden by
 * kptr_restrict, out of file descriptors) named in the error record.
 */
#include "host/host.h"
#include "sys/sys.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

/* KSYM_NAME_LEN is 512 since Linux 6.1, a module name at most 56 bytes. */
#define LINE_MAX_LEN 1024
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

int pk__host_ksym_parse(char *line, struct pk__host_ksym *s)
{
	char *p = line, *end = hex64(p, &s->addr);

	if (!end || *end != ' ' || !isalpha((unsigned char)end[1]) || end[2] != ' ')
		return -EINVAL;
	s->type = end[1];
	p = end + 3;
	s->name = p;
	/* A name is printable (or UTF-8) up to a blank, a newline or the end. */
	while ((unsigned char)*p > ' ' && *p != 0x7f)
		p++;
	if (p == s->name || (*p && *p != ' ' && *p != '\t' && *p != '\n'))
		return -EINVAL;
	s->module = NULL;
	if (*p == '\n' || !*p) {
		*p = '\0';
		return 0;
	}
	*p++ = '\0';
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

/* The walk's state, for each line. */
struct walk {
	pk__host_ksym_cb cb;
	void *arg;
	bool any_addr, any_line;
	int read_err;		/* read(2)'s errno, or 0 */
};

static int one_line(struct walk *w, char *line, size_t n)
{
	struct pk__host_ksym s;

	if (n >= LINE_MAX_LEN || memchr(line, '\0', n) || pk__host_ksym_parse(line, &s) < 0)
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

int pk__host_kallsyms_read(const char *path, unsigned int flags, pk__host_ksym_cb cb, void *arg)
{
	struct walk w = { cb, arg, false, false, 0 };
	char *buf;
	int fd, ret;

	path = path ? path : "/proc/kallsyms";
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return open_error(path, errno);
	if (!(buf = pk__malloc(READ_BUFFER))) {
		close(fd);
		return pk__error(-ENOMEM, "read the kernel's symbols", "out of memory for %s", path);
	}
	ret = each_line(fd, buf, READ_BUFFER, &w);
	free(buf);
	close(fd);
	if (w.read_err)
		return pk__error(-w.read_err, "read the kernel's symbols", "%s: %s", path,
				 strerror(w.read_err));
	/* Hidden addresses all read 0; a walk that saw only zeros (to the end,
	 * or to where the callback stopped) saw hidden ones. */
	if (ret >= 0 && (flags & PK__KSYM_NEED_ADDRS) && !w.any_addr) {
		pk__error(-EACCES, "read the kernel's symbols", "%s", w.any_line ?
			  "the kernel hides its addresses from this user (kptr_restrict)" :
			  "the file lists no symbols");
		pk__error_hint("%s", "as root: sysctl -w kernel.kptr_restrict=0");
		return -EACCES;
	}
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
