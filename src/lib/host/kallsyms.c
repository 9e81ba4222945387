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

/* KSYM_NAME_LEN is 512 since Linux 6.1, a module name at most 56 bytes. */
#define LINE_MAX_LEN 1024
/* The kernel generates the file on every read(2) and it has 100k+ lines:
 * stdio's 4 KiB reads cost ~50 ms, reads this big a few. */
#define READ_BUFFER (1 << 18)

int pk__host_ksym_parse(char *line, struct pk__host_ksym *s)
{
	char *p = line, *end;

	if (!isxdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	s->addr = strtoull(p, &end, 16);
	if (errno || *end != ' ' || !isalpha((unsigned char)end[1]) || end[2] != ' ')
		return -EINVAL;
	s->type = end[1];
	p = end + 3;
	if (!*p || isspace((unsigned char)*p))
		return -EINVAL;
	s->name = p;
	p += strcspn(p, " \t\n");
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

int pk__host_kallsyms_read(const char *path, unsigned int flags, pk__host_ksym_cb cb, void *arg)
{
	struct pk__host_ksym s;
	bool any_addr = false, any_line = false;
	char *big, *line = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f;
	int ret = 0;

	path = path ? path : "/proc/kallsyms";
	if (!(f = fopen(path, "re")))
		return open_error(path, errno);
	big = malloc(READ_BUFFER);
	if (big)
		setvbuf(f, big, _IOFBF, READ_BUFFER);
	/* getline: an overlong line, or one with a NUL in it, is skipped whole. */
	while (!ret && (n = getline(&line, &cap, f)) > 0) {
		if (n >= LINE_MAX_LEN || strlen(line) != (size_t)n ||
		    pk__host_ksym_parse(line, &s) < 0)
			continue;
		any_line = true;
		any_addr |= s.addr != 0;
		ret = cb(arg, &s);
	}
	if (!ret && ferror(f))
		ret = pk__error(-EIO, "read the kernel's symbols", "%s: read error", path);
	fclose(f);
	free(line);
	free(big);
	/* Hidden addresses all read 0; a walk that saw only zeros (to the end,
	 * or to where the callback stopped) saw hidden ones. */
	if (ret >= 0 && (flags & PK__KSYM_NEED_ADDRS) && !any_addr) {
		pk__error(-EACCES, "read the kernel's symbols", "%s", any_line ?
			  "the kernel hides its addresses from this user (kptr_restrict)" :
			  "the file lists no symbols");
		pk__error_hint("%s", "as root: sysctl -w kernel.kptr_restrict=0");
		return -EACCES;
	}
	return ret;
}
