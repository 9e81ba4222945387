/* SPDX-License-Identifier: MIT */
/*
 * perfkit/data.h - writing perf.data files that perf itself reads: the
 * PERFILE2 header, the attrs with their ids, the records, and the feature
 * sections.  Included by perfkit.h.
 */
#ifndef PERFKIT_DATA_H
#define PERFKIT_DATA_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef PK_API
#define PK_API __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

struct pk_data_writer;

/*
 * pk_data_create - start a perf.data file at `path`.  Everything is written
 * to "<path>.partial" and renamed to `path` only by pk_data_finish, so a
 * reader never sees a half-written file at `path`.  Returns 0 with the
 * writer in *out, or the negative errno of creating the file (the error
 * names it).
 */
PK_API int pk_data_create(const char *path, struct pk_data_writer **out);

/*
 * pk_data_add_event - describe one event: its attr as opened, its name, and
 * the kernel ids of its fds (PERF_EVENT_IOC_ID), which records carry.  Call
 * for every event, in order, before the first pk_data_write.  The attr is
 * stored as the 128-byte layout perf 6.1 reads.  Returns 0, -EINVAL after
 * writing started, or -ENOMEM.
 */
PK_API int pk_data_add_event(struct pk_data_writer *w, const struct perf_event_attr *attr,
		      const char *name, const uint64_t *ids, size_t nr_ids);

/*
 * pk_data_add_group - record that events leader .. leader+nr_members-1 form
 * a group (the GROUP_DESC feature, "{a,b}" in perf's output).  Returns 0,
 * -EINVAL for a range of events not added, or -ENOMEM.
 */
PK_API int pk_data_add_group(struct pk_data_writer *w, size_t leader, size_t nr_members);

/*
 * pk_data_add_build_id - record the build-id of a DSO samples landed in
 * (the BUILD_ID feature, what perf buildid-list and perf report use to find
 * the right binary later).  `name` is its path, or "[kernel.kallsyms]" /
 * "[vdso]"; `kernel` says it is kernel text.  Returns 0, -EINVAL for a size
 * outside 1..20 or a name of 4096 bytes or more, or -ENOMEM.
 */
PK_API int pk_data_add_build_id(struct pk_data_writer *w, const char *name, const uint8_t *id,
				size_t size, bool kernel);

/*
 * pk_data_set_clock - the events' sample times are on `clockid` (attr
 * use_clockid, perf record -k): write its resolution `res_ns` (the CLOCKID
 * feature, left out when 0) and a reference pair taken together, the
 * wall-clock time `tod_ns` and the clock's own `clock_ns` (CLOCK_DATA),
 * which lets perf convert sample times to wall-clock time.
 */
PK_API void pk_data_set_clock(struct pk_data_writer *w, int clockid, uint64_t res_ns, uint64_t tod_ns,
			      uint64_t clock_ns);

/* pk_data_set_cmdline - the command line to store (CMDLINE feature).
 * 0 or -ENOMEM. */
PK_API int pk_data_set_cmdline(struct pk_data_writer *w, int argc, char *const argv[]);

/* pk_data_set_sample_time - the times of the first and last sample
 * (SAMPLE_TIME feature), when the caller tracked them. */
PK_API void pk_data_set_sample_time(struct pk_data_writer *w, uint64_t first, uint64_t last);

/*
 * pk_data_set_compression - compress the records with zstd at `level`
 * (1-22) as perf record -z does: they are written as PERF_RECORD_COMPRESSED
 * records and the COMPRESSED feature says how to read them.  Call before
 * the first pk_data_write.  Returns 0, -EINVAL for a bad level or after
 * writing started, or -ENOMEM.
 */
PK_API int pk_data_set_compression(struct pk_data_writer *w, int level);

/*
 * pk_data_write - append records (whole perf_event_header records, as the
 * kernel wrote them) to the data section.  Writes are buffered.  Returns 0,
 * or the negative errno of writing.  ENOSPC (the disk is full) ends the
 * writing: every later call returns it, and pk_data_finish still makes a
 * whole file of the records written, cutting the last ones if it needs room
 * for the header and features.
 */
PK_API int pk_data_write(struct pk_data_writer *w, const void *records, size_t len);

/* perf.data's own record types (perf's user types, above the kernel's). */
#define PK_DATA_RECORD_FINISHED_ROUND 68	/* no record before it is newer than any after */

/*
 * pk_data_write_round - append a FINISHED_ROUND record: every record
 * written before it is older than every record written after it, which
 * lets perf sort the file in rounds instead of all at once.  Write one
 * after each pass over all the rings.  Returns what pk_data_write returns.
 */
PK_API int pk_data_write_round(struct pk_data_writer *w);

/* pk_data_size - the bytes of records written so far. */
PK_API uint64_t pk_data_size(const struct pk_data_writer *w);

/*
 * pk_data_finish - write the feature sections (BUILD_ID, HOSTNAME,
 * OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM, CMDLINE,
 * EVENT_DESC, CPU_TOPOLOGY, PMU_MAPPINGS, GROUP_DESC, SAMPLE_TIME, CLOCKID,
 * COMPRESSED, CLOCK_DATA) and the final header, flush, fsync and rename the file into place; frees the
 * writer whatever happens.  On a full disk it cuts the data back to a record
 * boundary until the rest fits.  Returns the bytes of records it had to cut
 * (0 normally), or a negative errno with the partial file removed (when
 * not even the header fits).
 */
PK_API int pk_data_finish(struct pk_data_writer *w);

/* pk_data_abort - remove the partial file and free the writer.  NULL is a
 * no-op. */
PK_API void pk_data_abort(struct pk_data_writer *w);

#ifdef __cplusplus
}
#endif
#endif
