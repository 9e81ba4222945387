/* SPDX-License-Identifier: MIT */
/*
 * tracefs.h - the tracefs layer's internal interface: finding tracefs,
 * listing the tracepoints under events/ that match globs with their ids, and
 * the one parser of format files (libtraceevent's) behind a plain struct.
 * Nothing here mounts anything: pk_tracefs_mount is the only call that does.
 */
#ifndef PK_TRACEFS_H
#define PK_TRACEFS_H

#include "perfkit.h"
#include "../sys/sys.h"

#define PK__TRACEFS_PATH "/sys/kernel/tracing"
#define PK__TRACEFS_DEBUGFS_PATH "/sys/kernel/debug/tracing"
#define PK__TRACEFS_MOUNT_HINT "mount -t tracefs nodev " PK__TRACEFS_PATH

/* ---- finding tracefs (tracefs.c) ------------------------------------------ */

/*
 * pk__tracefs_find - the tracefs directory: `override` if non-NULL, else
 * /sys/kernel/tracing, else /sys/kernel/debug/tracing (the first with an
 * events/ directory).  Writes it into buf.  Returns 0, -ENAMETOOLONG when
 * it does not fit, or -ENOENT/-EACCES with the error record saying how to
 * mount tracefs or make it readable.  Never mounts.
 */
int pk__tracefs_find(const char *override, char *buf, size_t len);

/* ---- listing tracepoints (tracefs.c) ----------------------------------------- */

struct pk__tp {
	char *sys;		/* "sched" */
	char *name;		/* "sched_switch" */
	uint64_t id;		/* events/<sys>/<name>/id; 0 with PK__TRACEFS_NO_ID */
};

enum {
	PK__TRACEFS_NO_ID = 1 << 0,	/* names only: do not read the id files */
};

/*
 * pk__tracefs_list - every tracepoint under <tracefs>/events whose subsystem
 * matches `sys_glob` and whose name matches `ev_glob` (fnmatch globs),
 * sorted by subsystem then name.  Control files (enable, filter,
 * header_page) are not tracepoints; a tracepoint whose id cannot be read is
 * skipped.  Returns 0 with a malloc'd array in *out (free with pk__tp_free;
 * NULL and 0 when nothing matches), or -ENOENT (no events/ directory),
 * -EACCES or -ENOMEM with the error record set; `what` names the attempt.
 */
int pk__tracefs_list(const char *tracefs, const char *sys_glob, const char *ev_glob,
		     unsigned flags, const char *what, struct pk__tp **out, size_t *nr);
void pk__tp_free(struct pk__tp *tps, size_t nr);

/* pk__tracefs_is_system - whether <tracefs>/events/<sys> is a directory;
 * `sys` must be one path component (no '/', ".", ".."). */
bool pk__tracefs_is_system(const char *tracefs, const char *sys);

/* ---- format files (format.c) ---------------------------------------------- */

/* One field of a tracepoint's record, as its format file declares it. */
struct pk__tp_field {
	const char *name;	/* "prev_comm" */
	const char *type;	/* "char[16]", "__data_loc char[]", "pid_t" */
	unsigned int offset;	/* in the raw record */
	unsigned int size;	/* bytes; 4 for __data_loc (offset << 16 | len) */
	unsigned int arraylen;	/* elements of a fixed array, else 0 */
	bool is_signed;
	bool is_array;		/* fixed ([N]) or dynamic (__data_loc/__rel_loc) */
	bool is_dynamic;	/* __data_loc or __rel_loc: the data follow the record */
	bool is_string;		/* an array of char: printed as text */
	bool is_common;		/* common_type, common_pid, ...: in every record */
};

/* A parsed format file.  One allocation: free with pk__tp_format_free. */
struct pk__tp_format {
	const char *sys;	/* as passed to the parser */
	const char *name;	/* name: */
	uint64_t id;		/* ID: */
	const char *print_fmt;	/* the "print fmt:" line's text as written
				 * (quoted format, arguments), or "" */
	size_t nr_fields;	/* common fields first, in file order */
	struct pk__tp_field *fields;
};

/*
 * pk__tracefs_format_parse - parse the text of a format file (`len` bytes,
 * not necessarily NUL-terminated) with libtraceevent.  Returns 0 with the
 * result in *out, -EINVAL (the error record says what libtraceevent
 * rejected) or -ENOMEM.  Never prints.
 */
int pk__tracefs_format_parse(const char *text, size_t len, const char *sys,
			     struct pk__tp_format **out);

/*
 * pk__tracefs_format - read and parse <tracefs>/events/<sys>/<name>/format.
 * Returns 0 with *out set, the read's negative errno, -EINVAL or -ENOMEM,
 * with the error record set.
 */
int pk__tracefs_format(const char *tracefs, const char *sys, const char *name,
		       struct pk__tp_format **out);

/*
 * pk__tracefs_format_text - the raw text of <tracefs>/events/<sys>/<name>/format,
 * as the kernel wrote it (what perf.data's tracing data carries).  Returns 0
 * with a malloc'd, NUL-terminated copy in *out and its length (without the
 * NUL) in *len, or the read's negative errno / -ENOMEM with the error record
 * set.
 */
int pk__tracefs_format_text(const char *tracefs, const char *sys, const char *name,
			    char **out, size_t *len);

/*
 * pk__tracefs_header_text - the raw text of <tracefs>/events/<file>, where
 * `file` is "header_page" or "header_event" (the ring buffer page and event
 * header layouts).  Returns as pk__tracefs_format_text; -EINVAL for any
 * other name.
 */
int pk__tracefs_header_text(const char *tracefs, const char *file, char **out, size_t *len);

/*
 * pk__tracefs_print_fmt_check - whether a format file's text (`len` bytes)
 * is safe to give libtraceevent: every "field:" line declares its field up
 * to a ';'; the "print fmt:" line has a closed quoted format, then arguments
 * whose strings close, whose brackets pair and whose every REC->name is one
 * of the "field:" lines' names.  0 (also when there is no print fmt), -EINVAL with the reason in why (why_len bytes, for the
 * caller's message), or -ENOMEM.  Sets no error record.
 */
int pk__tracefs_print_fmt_check(const char *text, size_t len, char *why, size_t why_len);

/* pk__tp_format_free - free a parsed format.  NULL is a no-op. */
void pk__tp_format_free(struct pk__tp_format *f);

#endif /* PK_TRACEFS_H */
