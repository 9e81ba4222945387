/* SPDX-License-Identifier: MIT */
/*
 * perfkit/tracefs.h - tracefs, where the kernel publishes its tracepoints.
 * The library finds tracefs (/sys/kernel/tracing, then
 * /sys/kernel/debug/tracing) but never mounts it on its own: a program that
 * wants tracepoints resolved on a machine where tracefs is not mounted asks
 * for the mount once, up front, with pk_tracefs_mount.  Included by perfkit.h.
 */
#ifndef PERFKIT_TRACEFS_H
#define PERFKIT_TRACEFS_H

#include <stddef.h>
#include <stdint.h>

#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/*
 * pk_tracefs_mount - make tracefs available: returns 0 at once when it is
 * already mounted (at /sys/kernel/tracing or /sys/kernel/debug/tracing),
 * else mounts tracefs at /sys/kernel/tracing, as perf does, and returns 0.
 * Mounting changes the machine for every process in the caller's mount
 * namespace and needs CAP_SYS_ADMIN; that is why no other call does it.
 * Returns -EACCES when tracefs is mounted but not readable by the caller,
 * -EPERM when it is not mounted and the caller may not mount it, or the
 * mount's negative errno (-ENODEV: a kernel without CONFIG_TRACING); each
 * with pk_last_error saying how to mount it by hand.
 */
PK_API int pk_tracefs_mount(void);

/* ---- reading a recording's tracing data (tracing-read.c) ----------------- */

/* The tracepoint formats a recording carried, ready to print its samples. */
struct pk_tracing;

/*
 * pk_tracing_data_parse - read `len` bytes of perf.data's
 * HEADER_TRACING_DATA section (as pk_data_reader_feature gives them, in
 * the file's byte order): tracing version, byte order, long and page
 * sizes, header_page, header_event, ftrace and event format files,
 * kallsyms, printk formats and saved_cmdlines, each taken into
 * libtraceevent.  Returns 0 with *out (free with pk_tracing_free);
 * -EINVAL when the bytes are not such a section (a length past its end,
 * no magic, a format file libtraceevent refuses or that holds bytes the
 * kernel never writes), naming the offset in pk_last_error; -ENOMEM.
 */
PK_API int pk_tracing_data_parse(const void *bytes, size_t len, struct pk_tracing **out);

/* pk_tracing_free - free it.  NULL is a no-op. */
PK_API void pk_tracing_free(struct pk_tracing *t);

/*
 * pk_tracing_format - the fields of one tracepoint sample (its
 * PERF_SAMPLE_RAW bytes, `size` of them, taken on `cpu`) as its format's
 * print fmt renders them, the text perf script prints after the event name
 * ("prev_comm=sh prev_pid=12 ... ==> next_comm=swapper/1 ..."), written
 * into buf (len bytes, always NUL-terminated when len > 0, cut short when
 * it does not fit).  Returns the text's full length (snprintf's rule);
 * -ENOENT when the tracing data holds no format for the sample's event id
 * (or the bytes are too short to hold one); -EINVAL when a field of the
 * format (or the dynamic data a __data_loc field points at) lies past the
 * `size` bytes (a damaged sample or format, named in pk_last_error);
 * -ENOMEM.  Not for concurrent use of one t.
 */
PK_API int pk_tracing_format(struct pk_tracing *t, const void *raw, size_t size, int cpu, char *buf,
			     size_t len);

/* pk_tracing_event_id_name - "system:name" of the event whose format has
 * id `id` (a tracepoint attr's config), as perf names a tracepoint the file
 * does not name, into buf (len bytes, snprintf's rules).  Returns its full
 * length; -ENOENT when the data holds no format of that id (no error
 * record). */
PK_API int pk_tracing_event_id_name(struct pk_tracing *t, uint64_t id, char *buf, size_t len);

/* pk_tracing_event_name - the name of the sample's event in its format
 * ("sched_switch"), owned by t; NULL when the data holds none for it. */
PK_API const char *pk_tracing_event_name(struct pk_tracing *t, const void *raw, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* PERFKIT_TRACEFS_H */
