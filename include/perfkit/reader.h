/* SPDX-License-Identifier: MIT */
/*
 * perfkit/reader.h - reading perf.data files (PERFILE2, in either byte
 * order) and pipe-mode streams (perf record -o -): the header, the
 * events with their attrs, ids and names,
 * the feature sections, and the records, streamed in time order as perf
 * report and perf script see them (or in file order), COMPRESSED records
 * expanded.  Included by perfkit.h.
 */
#ifndef PERFKIT_READER_H
#define PERFKIT_READER_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfkit/error.h"

#ifdef __cplusplus
extern "C" {
#endif

struct pk_data_reader;

/* The feature sections, by their bit in perf.data's feature bitmap (perf
 * 6.1's HEADER_* numbers; the library's list is src/lib/data/features.def). */
enum pk_data_feature {
	PK_DATA_FEAT_TRACING_DATA = 1, PK_DATA_FEAT_BUILD_ID = 2, PK_DATA_FEAT_HOSTNAME = 3,
	PK_DATA_FEAT_OSRELEASE = 4, PK_DATA_FEAT_VERSION = 5, PK_DATA_FEAT_ARCH = 6,
	PK_DATA_FEAT_NRCPUS = 7, PK_DATA_FEAT_CPUDESC = 8, PK_DATA_FEAT_CPUID = 9,
	PK_DATA_FEAT_TOTAL_MEM = 10, PK_DATA_FEAT_CMDLINE = 11, PK_DATA_FEAT_EVENT_DESC = 12,
	PK_DATA_FEAT_CPU_TOPOLOGY = 13, PK_DATA_FEAT_NUMA_TOPOLOGY = 14,
	PK_DATA_FEAT_BRANCH_STACK = 15, PK_DATA_FEAT_PMU_MAPPINGS = 16,
	PK_DATA_FEAT_GROUP_DESC = 17, PK_DATA_FEAT_AUXTRACE = 18, PK_DATA_FEAT_STAT = 19,
	PK_DATA_FEAT_CACHE = 20, PK_DATA_FEAT_SAMPLE_TIME = 21, PK_DATA_FEAT_MEM_TOPOLOGY = 22,
	PK_DATA_FEAT_CLOCKID = 23, PK_DATA_FEAT_DIR_FORMAT = 24, PK_DATA_FEAT_BPF_PROG_INFO = 25,
	PK_DATA_FEAT_BPF_BTF = 26, PK_DATA_FEAT_COMPRESSED = 27, PK_DATA_FEAT_CPU_PMU_CAPS = 28,
	PK_DATA_FEAT_CLOCK_DATA = 29, PK_DATA_FEAT_HYBRID_TOPOLOGY = 30, PK_DATA_FEAT_PMU_CAPS = 31,
	PK_DATA_FEAT_LAST = 32,		/* HEADER_LAST_FEATURE of perf 6.1 */
};

/* The bytes of attr storage the reader keeps per event: PERF_ATTR_SIZE_VER8,
 * so config3 of newer files is kept; smaller attrs are zero-extended. */
#define PK_DATA_READER_ATTR_SIZE 136

/*
 * pk_data_reader_open - open the perf.data file at `path`, or standard
 * input for "-" (as perf's -i -), and read what precedes the records (see
 * pk_data_reader_open_fd).  A directory is perf's directory format (perf
 * record --threads): its `data` file is read as a perf.data file (header,
 * events, features, and the records of its data section), then the
 * records of every non-empty `data.N` file (records with no header), in
 * the order of N, as if they followed that data section: in time order
 * they are merged as perf merges them; a record cut by the end of its
 * file is damage (-EINVAL).  `data` must be a whole perf.data file
 * (-EINVAL); a `data.N` that cannot be opened gives open(2)'s errno.  Returns 0 with the reader in *out, or a
 * negative errno with pk_last_error naming the file, the file offset and
 * what is wrong there: the errno of open(2)/read(2), or those of
 * pk_data_reader_open_fd.  The file is closed by pk_data_reader_free
 * (standard input is not).
 */
PK_API int pk_data_reader_open(const char *path, struct pk_data_reader **out);

/*
 * pk_data_reader_open_fd - read perf.data from `fd`, named `name` in
 * messages ("perf.data" when NULL).  The fd stays the caller's: it is not
 * closed, and must stay open until pk_data_reader_free.  Two formats:
 *
 * A PERFILE2 file (a regular file, read at its own offsets whatever fd's
 * position): the header, attrs, ids and feature sections are read here,
 * not the records.  Memory is bounded by the header's parts, never by the
 * size of the data section.  A data section that runs past the end of the
 * file (a recording killed before it finished) is not an error here: the
 * records that are there are delivered and pk_data_reader_next reports
 * the truncation at the end.
 *
 * A pipe-mode stream (perf record -o -: a 16-byte header, then records;
 * from a pipe, a socket or a regular file), read once, in order, with
 * plain reads.  What a file has in its header comes as records: the
 * HEADER_ATTR, HEADER_FEATURE, HEADER_TRACING_DATA, HEADER_BUILD_ID and
 * HEADER_EVENT_TYPE records before the first other record are read here,
 * so the events (attrs, ids, EVENT_DESC's names) and the features perf
 * sends first (every one perf record 6.1 sends; TRACING_DATA's payload
 * included) are known when this returns.  Such records met later (as
 * perf inject may write them: HEADER_BUILD_ID at the end) are taken as
 * pk_data_reader_next reads past them: their events and features are
 * known from then on, and all of them once pk_data_reader_next returned
 * 0.  They are not delivered as records, unless asked for
 * (pk_data_reader_set_header_records).  A feature sent twice keeps
 * its first section.  An event without a name takes the one of the first
 * EVENT_UPDATE record naming it once that record is delivered.
 *
 * Returns 0 with the reader in *out, or a negative errno with pk_last_error
 * naming the file or stream, the offset and what is wrong there: the errno
 * of read(2); -EINVAL for a file too short for the header, a magic other
 * than "PERFILE2", a header or attr size that is absurd, an attrs, ids,
 * data or feature section that lies outside the file (but feature
 * sections a file cut after its records lacks: absent, see
 * pk_data_reader_features_cut), a feature section that does not decode, or in a stream a header record that is malformed
 * or cut by the end of the stream (a stream that ends cleanly after its
 * header records opens, and has no records); -ESPIPE for a PERFILE2 file
 * given as a pipe; -EOPNOTSUPP for an old PERFFILE file; -ENOMEM.
 *
 * Either format may have been written on a machine of the other byte
 * order (its magic reads "2ELIFREP"): the header, attrs (perf's rule for
 * the flag bit-fields: each byte's bits reversed), ids, feature table, the
 * features the accessors decode, and every record are brought to this
 * machine's order, so attrs, ids, names, strings and records read as if
 * written here (see pk_data_reader_next); pk_data_reader_swapped says so.
 */
PK_API int pk_data_reader_open_fd(int fd, const char *name, struct pk_data_reader **out);

/* pk_data_reader_free - close the file and free the reader and everything its
 * accessors returned.  NULL is a no-op. */
PK_API void pk_data_reader_free(struct pk_data_reader *r);

/* pk_data_reader_swapped - whether the file or stream was written on a
 * machine of the other byte order: its records and attrs are delivered in
 * this machine's order, its raw feature bytes are not. */
PK_API bool pk_data_reader_swapped(const struct pk_data_reader *r);

/* pk_data_reader_nr_events - the number of events (attrs) in the file. */
PK_API size_t pk_data_reader_nr_events(const struct pk_data_reader *r);

/*
 * pk_data_reader_attr - event `idx`'s attr, as stored in the file and
 * zero-extended to PK_DATA_READER_ATTR_SIZE bytes (all of which may be
 * read; attr->size keeps the size the file gave).  Owned by the reader.
 * NULL for idx out of range.
 */
PK_API const struct perf_event_attr *pk_data_reader_attr(const struct pk_data_reader *r, size_t idx);

/* pk_data_reader_ids - event `idx`'s kernel ids (what its records carry), with
 * their number in *nr; NULL with *nr 0 for none or idx out of range. */
PK_API const uint64_t *pk_data_reader_ids(const struct pk_data_reader *r, size_t idx, size_t *nr);

/* pk_data_reader_name - event `idx`'s name from the EVENT_DESC feature
 * ("task-clock"); for a file that does not name it (cut before that
 * section), the name perf gives its attr (pk_attr_name: "page-faults",
 * "raw 0x1c2:u"); NULL for idx out of range. */
PK_API const char *pk_data_reader_name(const struct pk_data_reader *r, size_t idx);

/* pk_data_reader_has_feature - whether the file has feature section `id`
 * (enum pk_data_feature). */
PK_API bool pk_data_reader_has_feature(const struct pk_data_reader *r, unsigned int id);

/* pk_data_reader_feature_name - perf's name for feature `id` ("hostname"),
 * or NULL for an id perf 6.1 does not define. */
PK_API const char *pk_data_reader_feature_name(unsigned int id);

/*
 * pk_data_reader_feature - the raw bytes of feature section `id` in *ptr
 * (in the file's byte order, see pk_data_reader_swapped)
 * and *len (read from the file on the first call, then kept by the reader
 * until pk_data_reader_free; in a pipe-mode stream, the bytes of its
 * HEADER_FEATURE record, or of HEADER_TRACING_DATA's payload, kept as they
 * came).  In a stream, BUILD_ID is its HEADER_BUILD_ID records one after
 * the other, as a file's section holds them; it grows as they come, so its
 * pointer is valid until the next pk_data_reader_next.  Returns 0; -ENOENT
 * when the file has no such section (in a stream: none came so far); or
 * the negative errno of reading it (-EINVAL when the file ended early),
 * -ENOMEM.
 */
PK_API int pk_data_reader_feature(struct pk_data_reader *r, unsigned int id, const void **ptr,
				  size_t *len);

/*
 * pk_data_reader_string - the decoded text of string feature `id`:
 * HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC or CPUID as perf wrote it,
 * CMDLINE as its arguments joined by single spaces.  NULL when the file
 * has no such section or `id` is not a string feature.  Owned by the reader.
 */
PK_API const char *pk_data_reader_string(const struct pk_data_reader *r, unsigned int id);

/* pk_data_reader_nr_cpus - the NRCPUS feature: CPUs available and online
 * when the file was recorded.  0, or -ENOENT when the file has no NRCPUS. */
PK_API int pk_data_reader_nr_cpus(const struct pk_data_reader *r, uint32_t *available,
				  uint32_t *online);

/* Where a PERFILE2 file keeps its parts (perf report --header's first lines). */
struct pk_data_layout {
	size_t size;		/* set by the caller: sizeof(struct pk_data_layout) */
	uint32_t version;	/* perf's header version: 1 for PERFILE2 */
	uint64_t data_offset;	/* the data section, as the header says */
	uint64_t data_size;
	uint64_t feat_offset;	/* the feature table: data_offset + data_size */
};

/*
 * pk_data_reader_layout - the header's offsets and sizes in *out, as the
 * file says them (a data section cut by the end of the file keeps the size
 * the header gives).  A pipe-mode stream has none: all 0 but version.
 * Returns 0; -EINVAL when out->size is smaller than the struct this
 * library fills (in pk_last_error; *out untouched).  out->size is kept.
 */
PK_API int pk_data_reader_layout(const struct pk_data_reader *r, struct pk_data_layout *out);

/* The order pk_data_reader_next delivers records in. */
enum pk_data_order {
	PK_DATA_ORDER_TIME = 0,	/* perf report's and perf script's (the default) */
	PK_DATA_ORDER_FILE = 1,	/* as the file holds them */
	/* time order, but a FINISHED_ROUND comes as it is read, before the
	 * records it releases (the order perf report -D prints them in) */
	PK_DATA_ORDER_TIME_ROUND_FIRST = 2,
};

/*
 * pk_data_reader_set_order - choose the order of pk_data_reader_next, before
 * its first call.  Returns 0; -EINVAL for a value not in enum
 * pk_data_order; -EBUSY once records were read.
 */
PK_API int pk_data_reader_set_order(struct pk_data_reader *r, enum pk_data_order order);

/*
 * pk_data_reader_set_header_records - with `on`, pk_data_reader_next
 * delivers a pipe-mode stream's header records (HEADER_ATTR,
 * HEADER_EVENT_TYPE, HEADER_TRACING_DATA without its payload,
 * HEADER_BUILD_ID, HEADER_FEATURE) as well as taking them: those taken at
 * open first, each at its offset in the stream, then each later one where
 * the stream has it, as soon as it is read (a record without a time);
 * pk_data_reader_nr_taken counts none of them then.  perf's -D
 * prints them.  Those taken at open come even when the record after them
 * is damaged (pk_data_reader_next then fails after them).  A
 * HEADER_FEATURE or HEADER_BUILD_ID record's size need not be a multiple
 * of 8 (perf pads neither).  No effect on a PERFILE2 file, which has
 * none.  Call it before the first pk_data_reader_next.  Returns 0, or
 * -EBUSY once records were read.
 */
PK_API int pk_data_reader_set_header_records(struct pk_data_reader *r, bool on);

/*
 * pk_data_reader_next - the next record of the data section in *rec
 * (8-byte aligned, rec->size bytes, valid until the next call, or
 * until pk_data_reader_free, and no longer: the reader reuses its bytes;
 * keep a copy to keep a record).  In a
 * pipe-mode stream, the data section is the stream after its header, less
 * the header records the reader takes (see pk_data_reader_open_fd), unless
 * they are asked for (pk_data_reader_set_header_records); its end is the
 * end of the stream, and a record cut by it is damage (-EINVAL).
 *
 * In time order (the default), records are delivered as perf's
 * ordered_events delivers them to perf report and perf script: a record
 * whose event has PERF_SAMPLE_TIME (and, not being a SAMPLE,
 * sample_id_all) and whose time is neither 0 nor ~0 waits in a queue; at
 * each FINISHED_ROUND record the queued records no later than the latest
 * time read before the previous FINISHED_ROUND are delivered, by time and,
 * at equal times, in file order, then the FINISHED_ROUND itself; at the
 * end of the data section all that is left.  Every other record (perf's
 * user records, records of no known event, times of 0 such as the
 * synthesized ones) is delivered as soon as it is read.  The queue holds
 * about two rounds; a file without rounds is delivered in halves of the
 * queued time span once the queue's memory (the buffers its records are
 * in, and its entries) passes 16 MiB.  In file order, records come as
 * the file holds them.
 *
 * In both orders a COMPRESSED record (perf record -z) is not delivered:
 * the records it expands to are, in its place (one zstd stream over the
 * file, records may span two COMPRESSED records), then ordered like the
 * rest.  Records are read with plain reads into bounded buffers, so memory
 * does not grow with the file.
 *
 * In a file of the other byte order every record is delivered in this
 * machine's order, field by field in its own width (u32 pairs such as
 * pid/tid and cpu/res in their places, the sample_id_all trailer
 * included, records expanded from COMPRESSED ones too), except bytes that
 * are not numbers, kept as the file has them: names and paths, the
 * tracepoint data of PERF_SAMPLE_RAW (in the order its TRACING_DATA
 * says, as perf leaves it), the user stack of PERF_SAMPLE_STACK_USER and
 * PERF_SAMPLE_AUX data.  Branch entries' flags are swapped as one u64.
 * Records of types perf 6.1 does not define keep their bodies unswapped.
 *
 * Returns 1 per record; 0 at the end of the data section; or a negative
 * errno, with pk_last_error naming the file offset and why, after every
 * record before the damage was delivered (in time order: every record read
 * before it): -EINVAL for a record whose size is 0, under 8 or not a
 * multiple of 8 (COMPRESSED records excepted, perf does not pad them), one
 * that runs past the data section, a data section cut short by the end of
 * the file, a COMPRESSED record that does not decompress, expands to a
 * record of an impossible size or leaves a cut record at the end, or one
 * of a compression type other than zstd; the errno of read(2); -ENOMEM.
 * After an error every call returns it again.
 */
PK_API int pk_data_reader_next(struct pk_data_reader *r, const struct perf_event_header **rec);

/*
 * pk_data_reader_offset - the file offset of the record pk_data_reader_next
 * delivered last, in pk_data_reader_file (for a record expanded from a COMPRESSED one, that
 * COMPRESSED record's offset, as perf -D tells it; in a pipe-mode stream,
 * the offset in the stream).  0 before the first record.
 */
PK_API uint64_t pk_data_reader_offset(const struct pk_data_reader *r);

/* pk_data_reader_features_cut - how many feature sections (after the
 * records) the file ends before or inside: a file cut short after its
 * data, read as perf reads it, the records whole and those sections absent
 * (pk_data_reader_has_feature false), in *first (may be NULL) the first
 * one's id.  0 for a whole file; feature sections outside the file
 * elsewhere fail pk_data_reader_open.  In an unfinished file
 * (pk_data_reader_unfinished) every feature the header lists. */
PK_API uint32_t pk_data_reader_features_cut(const struct pk_data_reader *r, unsigned int *first);

/*
 * pk_data_reader_unfinished - whether the file's header says its data
 * section is 0 bytes long: perf record writes the header first and the
 * data size when it finishes, so such a file was never finished (the
 * workload failed to start, or perf record was killed).  perf warns ("The
 * FILE file's data size field is 0 which is unexpected") and so should a
 * caller; the reader takes the records from the data offset to the end of
 * the file, a last record cut by the end of the file ending them (its
 * bytes in *tail, may be NULL, once pk_data_reader_next returned 0), and
 * no feature section: the feature table is written last, and what lies
 * where it would be are records (see pk_data_reader_features_cut).  The
 * exception: a whole feature table right at the data offset is a file
 * finished with no records (as pk_data_writer_finish writes one when
 * nothing was written), read as usual: no records, its features; true
 * all the same, since perf warns the same way.
 * pk_data_reader_layout gives the header's 0.  False for a pipe-mode stream.
 */
PK_API bool pk_data_reader_unfinished(const struct pk_data_reader *r, uint64_t *tail);

/*
 * pk_data_reader_feature_listed - whether the header's feature bitmap (or,
 * in a pipe-mode stream, a HEADER_FEATURE record) lists feature `id`,
 * read or not: true for the sections a cut or unfinished file lacks,
 * which pk_data_reader_has_feature says are absent (perf report --header's
 * "missing features" are the ones not listed).
 */
PK_API bool pk_data_reader_feature_listed(const struct pk_data_reader *r, unsigned int id);

/* pk_data_reader_file - the path of the file holding the record
 * pk_data_reader_next delivered last, which pk_data_reader_offset is an
 * offset in: the path opened, or for a directory DIR/data or DIR/data.N
 * (perf -D's "offset@file").  Owned by the reader. */
PK_API const char *pk_data_reader_file(const struct pk_data_reader *r);

/* The records pk_data_reader_next does not deliver: AUX area tracing,
 * skipped as this library does not decode it (no AUX PMU decoder), and
 * COMPRESSED records, delivered as the records they expand to. */
struct pk_data_reader_stats {
	size_t size;		/* set by the caller: sizeof(struct pk_data_reader_stats) */
	uint64_t nr_auxtrace;	/* PERF_RECORD_AUXTRACE records (perf's user type 71) */
	uint64_t auxtrace_bytes;	/* the trace data after them, skipped too (so far) */
	uint64_t nr_auxtrace_info;	/* PERF_RECORD_AUXTRACE_INFO (70) */
	uint64_t nr_aux;	/* the kernel's PERF_RECORD_AUX */
	uint64_t nr_itrace_start;	/* the kernel's PERF_RECORD_ITRACE_START */
	uint64_t nr_compressed;	/* COMPRESSED records expanded (not skipped: not delivered) */
};

/*
 * pk_data_reader_stats - how many records of each skipped kind
 * pk_data_reader_next met so far, in *out.  An AUXTRACE record is followed
 * by its `size` field's bytes of trace data, outside its header's size:
 * they are skipped with it (a data section that ends inside them is
 * damage, -EINVAL from pk_data_reader_next).  Returns 0; -EINVAL when
 * out->size is smaller than the struct this library fills (in
 * pk_last_error; *out untouched).  out->size is kept.
 */
PK_API int pk_data_reader_stats(const struct pk_data_reader *r, struct pk_data_reader_stats *out);

/* pk_data_reader_nr_unordered - how many records, so far, had a time
 * earlier than a record already delivered in time order (perf's "out of
 * order events"): the rounds did not hold them back long enough. */
PK_API uint64_t pk_data_reader_nr_unordered(const struct pk_data_reader *r);

/*
 * pk_data_reader_nr_taken - how many records of perf's type `type` (a
 * user type, from 64) the reader read so far without delivering them: in
 * a pipe-mode stream the header records it takes (HEADER_ATTR,
 * HEADER_FEATURE, HEADER_TRACING_DATA, HEADER_BUILD_ID, HEADER_EVENT_TYPE;
 * none when pk_data_reader_set_header_records delivers them),
 * in either format the COMPRESSED records whose records it delivers
 * instead.  With the delivered ones, every record perf counts (perf
 * report --stats).  0 for any other type.
 */
PK_API uint64_t pk_data_reader_nr_taken(const struct pk_data_reader *r, uint32_t type);

/* The COMPRESSED feature: how perf record -z compressed the records. */
struct pk_data_compression {
	size_t size;		/* set by the caller: sizeof(struct pk_data_compression) */
	uint32_t version;
	uint32_t type;		/* 1: zstd, the only one */
	uint32_t level;		/* the zstd level, -z's argument */
	uint32_t ratio;		/* bytes in per byte out, as perf computed it */
	uint32_t mmap_len;	/* the ring size: what one round expands to at most */
};

/*
 * pk_data_reader_compression - the COMPRESSED feature in *out.  Returns 0;
 * -ENOENT when the file has none (its records were not compressed); -EINVAL
 * when out->size is smaller than the struct this library fills (in
 * pk_last_error; *out untouched).  out->size is kept.
 */
PK_API int pk_data_reader_compression(const struct pk_data_reader *r, struct pk_data_compression *out);

/*
 * pk_data_reader_event_of - the index of the event record `rec` belongs
 * to, found by its id (PERF_SAMPLE_IDENTIFIER or PERF_SAMPLE_ID's place,
 * see pk_record_event_id) among the events' ids; when the file has one
 * event, always that one.  Returns the index (>= 0), or -ENOENT when the
 * record carries no id or an id of no event (perf's own record types).
 */
PK_API int pk_data_reader_event_of(const struct pk_data_reader *r, const struct perf_event_header *rec);

/*
 * pk_data_reader_last_event - pk_data_reader_event_of for the record
 * pk_data_reader_next delivered last, most often without looking for it
 * again: the reader found it while reading the record.  Returns the
 * index (>= 0); -ENOENT as pk_data_reader_event_of, or when no record
 * was delivered yet or pk_data_reader_next's last call returned 0 or an
 * error.
 */
PK_API int pk_data_reader_last_event(const struct pk_data_reader *r);

/* pk_data_reader_attr_of - the attr to decode `rec` with (pk_record_decode):
 * that of pk_data_reader_event_of, or NULL when no event is found. */
PK_API const struct perf_event_attr *pk_data_reader_attr_of(const struct pk_data_reader *r,
							    const struct perf_event_header *rec);

#ifdef __cplusplus
}
#endif
#endif
