/* SPDX-License-Identifier: MIT */
/*
 * perfkit/data.h - writing perf.data files that perf itself reads: the
 * PERFILE2 header, the attrs with their ids, the records, and the feature
 * sections; or the same as a stream in perf's pipe mode.  Included by perfkit.h.
 */
#ifndef PERFKIT_DATA_H
#define PERFKIT_DATA_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pk_data_writer;

/*
 * pk_data_writer_create - start a perf.data file at `path`.  When `path` is
 * nothing yet, a regular file or a symbolic link, everything is written to
 * a temporary file of this writer's own, "<path>.partial.XXXXXX" (0600,
 * created with O_EXCL next to `path`), renamed over `path` only by
 * pk_data_writer_finish: a reader never sees a half-written file at `path`, and
 * two writers to one path never mix.  The header and attrs reach that file
 * with the first record, and pk_data_writer_tick keeps the data size in it up to
 * date, so it is a perf.data perf reads however the writer stops.  A
 * character or block device
 * (/dev/null) is written into directly and left in place, as perf does.
 * Returns 0 with the writer in *out, or a negative errno before anything
 * is written: -EINVAL for an empty path, -EISDIR for a directory other
 * than perf's (record --threads: "data" and data.N files only, which
 * pk_data_writer_keep_old then moves aside as a file), -ESPIPE
 * for a FIFO or socket (a perf.data file needs a seekable file), or the
 * errno of creating the file (-EMFILE with the RLIMIT_NOFILE hint); the
 * error names the file.
 */
PK_API int pk_data_writer_create(const char *path, struct pk_data_writer **out);

/*
 * pk_data_writer_create_dir - start perf's directory format at `path`, as
 * perf record --threads writes it: `path`/data, a perf.data file with the
 * DIR_FORMAT feature whose data section takes pk_data_writer_write's
 * records (the synthesized ones), and `path`/data.0 .. data.<nr_files-1>,
 * headerless, taking pk_data_writer_write_file's.  Written as
 * "<path>.partial.XXXXXX" and renamed into place by pk_data_writer_finish,
 * a file or directory found at `path` kept as "<path>.old" (a directory
 * perf wrote found there replaced, as perf does); the data file's header
 * is on disk from the first record and pk_data_writer_tick writes every
 * file out, so a killed recorder leaves a partial directory that reads.
 * pk_data_writer_write_round does nothing (perf writes no rounds there).
 * Returns 0 with the writer in *out, or a negative errno: -EINVAL for an
 * empty path, no files, or a device, FIFO or socket at `path`; the errno
 * of creating the directory or a file (the error names it).
 */
PK_API int pk_data_writer_create_dir(const char *path, size_t nr_files, struct pk_data_writer **out);

/* pk_data_writer_nr_files - the data.N files of a directory writer, 0 for
 * any other. */
PK_API size_t pk_data_writer_nr_files(const struct pk_data_writer *w);

/*
 * pk_data_writer_write_file - append whole records to data.`k` of a
 * directory writer (through a buffer of its own, written out when full,
 * by pk_data_writer_tick and at the end; the first record of any file
 * lays out the data file's header first); for any other writer,
 * pk_data_writer_write.  Not for calls from several threads at once.  Returns 0, -EINVAL for k out of
 * range, or the errno of writing that file, sticky for it.
 */
PK_API int pk_data_writer_write_file(struct pk_data_writer *w, size_t k, const void *records, size_t len);

/*
 * pk_data_writer_create_pipe - stream perf.data's pipe format into `fd` (a
 * pipe, a socket, a terminal or any file, written strictly in order, as
 * perf record -o - writes stdout), for a reader such as perf report -i -.
 * With the first record go the 16-byte pipe header and, as records of
 * perf's user types, the attrs with their ids, the feature sections perf
 * sends down a pipe, the tracing data of tracepoint events and each
 * event's name; then the records as written, sent at every
 * pk_data_writer_tick and whenever the 1 MiB buffer fills.  Finish adds
 * the build-ids as HEADER_BUILD_ID records.  Nothing is renamed, rotated
 * or rewritten; pk_data_writer_keep_old does nothing and
 * pk_data_writer_temp_path is NULL.  The writer owns `fd` from here on
 * and closes it when it is freed.  The first failed write (-EPIPE when the
 * reader went away; the caller should ignore or catch SIGPIPE) ends the
 * stream: every later write and the finish return it.  Returns 0 with the
 * writer in *out, -EBADF for an fd that is not open (left to the caller),
 * or -ENOMEM.
 */
PK_API int pk_data_writer_create_pipe(int fd, struct pk_data_writer **out);

/*
 * pk_data_writer_keep_old - have pk_data_writer_finish keep a regular file
 * or perf's directory found at the path as "<path>.old" (replacing an
 * older one: a file, or a directory of perf's) before putting the new
 * file there, as perf record does; a device is never moved.  Checks now
 * what can be checked: returns 0, or -EISDIR when "<path>.old" is a
 * directory other than perf's (and not an empty one the directory at the
 * path replaces).
 */
PK_API int pk_data_writer_keep_old(struct pk_data_writer *w);

/*
 * pk_data_writer_set_path - have pk_data_writer_finish put the file at
 * `path` instead of the path it was created with (perf record's
 * --switch-output and --timestamp-filename name a file when it ends).
 * The temporary file stays where it is, so `path` should be in the same
 * directory.  A file at `path` is never replaced: finish then fails with
 * -EEXIST and keeps the recording in the temporary file, and no ".old" is
 * kept (pk_data_writer_keep_old is undone).  Returns 0, -EINVAL for an
 * empty path or a writer of a device or a stream (written in place), or
 * -ENOMEM.
 */
PK_API int pk_data_writer_set_path(struct pk_data_writer *w, const char *path);

/*
 * pk_data_writer_keep_bpf - have w's BPF_PROG_INFO and BPF_BTF also
 * describe the BPF programs `from` describes so far (those loaded when it
 * began and those loaded since), as perf's next file of --switch-output
 * still describes programs unloaded before the switch.  w's own programs
 * are read as usual; a program both have is taken once.  Call it with
 * `from` before finishing `from`.  Returns 0, or -ENOMEM.
 */
PK_API int pk_data_writer_keep_bpf(struct pk_data_writer *w, const struct pk_data_writer *from);

/* pk_data_writer_temp_path - the temporary file the writer writes (what a killed
 * recorder leaves behind), or NULL when it writes a device directly. */
PK_API const char *pk_data_writer_temp_path(const struct pk_data_writer *w);

/*
 * pk_data_writer_add_event - describe one event: its attr as opened, its name, and
 * the kernel ids of its fds (PERF_EVENT_IOC_ID), which records carry.  Call
 * for every event, in order, before the first pk_data_writer_write.  The attr is
 * stored as the 128-byte layout perf 6.1 reads.  Returns 0, -EINVAL after
 * writing started, or -ENOMEM.
 */
PK_API int pk_data_writer_add_event(struct pk_data_writer *w, const struct perf_event_attr *attr,
		      const char *name, const uint64_t *ids, size_t nr_ids);

/*
 * pk_data_writer_add_group - record that events leader .. leader+nr_members-1 form
 * a group (the GROUP_DESC feature, "{a,b}" in perf's output).  Returns 0,
 * -EINVAL for a range of events not added, or -ENOMEM.
 */
PK_API int pk_data_writer_add_group(struct pk_data_writer *w, size_t leader, size_t nr_members);

/*
 * pk_data_writer_add_build_id - record the build-id of a DSO samples landed in
 * (the BUILD_ID feature, what perf buildid-list and perf report use to find
 * the right binary later).  `name` is its path, or "[kernel.kallsyms]" /
 * "[vdso]"; `kernel` says it is kernel text.  Returns 0, -EINVAL for a size
 * outside 1..20 or a name of 4096 bytes or more, or -ENOMEM.
 */
PK_API int pk_data_writer_add_build_id(struct pk_data_writer *w, const char *name, const uint8_t *id,
				size_t size, bool kernel);

/*
 * pk_data_writer_set_clock - the events' sample times are on `clockid` (attr
 * use_clockid, perf record -k): write its resolution `res_ns` (the CLOCKID
 * feature, left out when 0) and a reference pair taken together, the
 * wall-clock time `tod_ns` and the clock's own `clock_ns` (CLOCK_DATA),
 * which lets perf convert sample times to wall-clock time.
 */
PK_API void pk_data_writer_set_clock(struct pk_data_writer *w, int clockid, uint64_t res_ns, uint64_t tod_ns,
			      uint64_t clock_ns);

/* pk_data_writer_set_cmdline - the command line to store (CMDLINE feature).
 * 0 or -ENOMEM. */
PK_API int pk_data_writer_set_cmdline(struct pk_data_writer *w, int argc, char *const argv[]);

/* pk_data_writer_set_sample_time - the times of the first and last sample
 * (SAMPLE_TIME feature), when the caller tracked them. */
PK_API void pk_data_writer_set_sample_time(struct pk_data_writer *w, uint64_t first, uint64_t last);

/*
 * pk_data_writer_set_compression - compress the records with zstd at `level`
 * (1-22) as perf record -z does: they are written as PERF_RECORD_COMPRESSED
 * records and the COMPRESSED feature says how to read them.  Call before
 * the first pk_data_writer_write.  Returns 0, -EINVAL for a bad level or after
 * writing started, or -ENOMEM.
 */
PK_API int pk_data_writer_set_compression(struct pk_data_writer *w, int level);

/*
 * pk_data_writer_write - append records (whole perf_event_header records, as the
 * kernel wrote them) to the data section.  Writes are buffered.  Returns 0,
 * or the negative errno of writing.  ENOSPC (the disk is full) ends the
 * writing: every later call returns it, and pk_data_writer_finish still makes a
 * whole file of the records written, cutting the last ones if it needs room
 * for the header and features.
 */
PK_API int pk_data_writer_write(struct pk_data_writer *w, const void *records, size_t len);

/* perf.data's own record types (perf's user types, above the kernel's). */
#define PK_DATA_RECORD_FINISHED_ROUND 68	/* no record before it is newer than any after */

/*
 * pk_data_writer_write_round - append a FINISHED_ROUND record: every record
 * written before it is older than every record written after it, which
 * lets perf sort the file in rounds instead of all at once.  Write one
 * after each pass over all the rings.  Returns what pk_data_writer_write returns.
 */
PK_API int pk_data_writer_write_round(struct pk_data_writer *w);

/* pk_data_writer_size - the bytes of records written so far. */
PK_API uint64_t pk_data_writer_size(const struct pk_data_writer *w);

/*
 * pk_data_writer_tick - call it from the recording loop, every wake-up and at
 * least once a second: when a second or more has passed since records last
 * reached the file, writes the buffered (and, with -z, compressed) records
 * out through the page cache, then the header with a data size covering
 * them, without fsync and without giving up the O_DIRECT path (three
 * syscalls a second at most).  A recording killed at any moment then
 * keeps all but about its last second.  The first call after the first
 * record writes at once.  Otherwise it only reads the clock.  Returns 0 or
 * the negative errno of writing (as pk_data_writer_write).
 */
PK_API int pk_data_writer_tick(struct pk_data_writer *w);

/*
 * pk_data_writer_finish - write the feature sections (BUILD_ID, HOSTNAME,
 * OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM, CMDLINE,
 * EVENT_DESC, CPU_TOPOLOGY, PMU_MAPPINGS, GROUP_DESC, SAMPLE_TIME, CLOCKID,
 * COMPRESSED, CLOCK_DATA) and the final header, flush, fsync and rename the
 * file into place (after keeping the old one, see pk_data_writer_keep_old); frees
 * the writer whatever happens.  On a full disk it cuts the data back to a
 * record boundary until the rest fits.  Returns the bytes of records it had
 * to cut (0 normally), or a negative errno: with the temporary file removed
 * when not even the header and attrs could be written, and otherwise kept
 * (the error names it) with every record up to the last flush, so a failed
 * finish or rename never loses what was recorded.
 */
PK_API int pk_data_writer_finish(struct pk_data_writer *w);

/* pk_data_writer_abort - remove the partial file and free the writer.  NULL is a
 * no-op. */
PK_API void pk_data_writer_abort(struct pk_data_writer *w);

#ifdef __cplusplus
}
#endif
#endif
