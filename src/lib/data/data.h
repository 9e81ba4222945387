/* SPDX-License-Identifier: MIT */
/*
 * data.h - the data layer's internal interface: the perf.data writer's
 * state, shared by writer.c (the file: layout, buffering, header),
 * writer-pipe.c (the stream), writer-desc.c (what the writer is told) and
 * features.c (the feature sections).
 */
#ifndef PK_DATA_H
#define PK_DATA_H

#include "perfkit.h"

#define PK__ATTR_SIZE 128	/* PERF_ATTR_SIZE_VER7: the attr perf 6.1 reads */

struct pk__file_section {
	uint64_t offset, size;
};

struct pk__data_event {
	struct perf_event_attr attr;
	char *name;
	uint64_t *ids;
	size_t nr_ids;
	uint64_t ids_offset;
};

struct pk__data_group {
	size_t leader, nr_members;
};

struct pk__data_build_id {
	char *name;
	uint8_t id[20];
	uint8_t size;
	bool kernel;
};

struct pk_data_writer {
	int fd;
	/* The same file opened O_DIRECT, or -1: whole 4 KiB blocks of a full
	 * buffer go through it, past the page cache (see writer.c). */
	int dfd;
	char *path;
	char *partial;			/* the temporary file, or NULL when writing a device */
	bool device;			/* path is a device, written into directly */
	bool keep_old;			/* pk_data_writer_keep_old: rotate a regular path to .old */
	bool no_replace;		/* pk_data_writer_set_path: never rename over a file */
	unsigned char *buf;
	size_t buf_len;
	/* The first `flushed` bytes of buf are also in the file (pk_data_writer_tick),
	 * but stay buffered to be written again as whole O_DIRECT blocks. */
	size_t flushed;
	uint64_t last_tick;		/* CLOCK_MONOTONIC ns when records last reached the file */
	uint64_t offset;		/* bytes already written to the file */
	bool started;			/* header, ids and attrs are laid out */
	uint64_t attrs_offset, data_offset, data_size;
	struct pk__data_event *ev;
	size_t nr_events;
	struct pk__data_group *groups;
	size_t nr_groups;
	char **cmdline;
	size_t nr_cmdline;
	struct pk__data_build_id *build_ids;
	size_t nr_build_ids;
	uint64_t first_sample, last_sample;
	bool have_sample_time;
	/* -k: the clock sample times are on, its resolution, and a reference
	 * pair of wall-clock and that clock's time taken together */
	bool have_clock;
	int32_t clockid;
	uint64_t clock_res_ns, clock_tod_ns, clock_ns;
	/* -z: records staged, then zstd-compressed into COMPRESSED records */
	void *zcs;			/* ZSTD_CStream, or NULL */
	int comp_level;
	unsigned char *stage;
	size_t stage_len;
	uint64_t comp_in, comp_out;
	/* A full disk: data sizes that end on a record, every ~64 KiB, so the
	 * data can be cut back to one to make room for the header and features. */
	uint64_t *marks;
	size_t nr_marks, cap_marks;
	bool full;			/* ENOSPC seen: no more records are taken */
	/* pk_data_writer_create_pipe: a stream written in order (writer-pipe.c),
	 * and the first error writing it, which every later write returns. */
	bool pipe;
	int pipe_err;
	uint64_t dropped;		/* bytes of records cut to finish the file */
	struct pk__data_bpf *bpf;	/* BPF programs from the start on (features-bpf.c) */
	struct pk__data_dir *dir;	/* perf's directory format: the data.N files (writer-dir.c) */
	bool dir_format;		/* the header says DIR_FORMAT (the data file of a directory) */
};

/* writer-dir.c: the data.N files of a directory writer. */
int pk__data_dir_flush(struct pk_data_writer *w);	/* every buffer out; the first error */
uint64_t pk__data_dir_bytes(const struct pk_data_writer *w);	/* bytes of records in them */
int pk__data_dir_finish(struct pk_data_writer *w);	/* finish, fsync, place; frees w */
/* A feature table holding DIR_FORMAT alone at file offset `at` (the end of
 * the data), its bit set in flags: a killed recording's directory reads. */
int pk__data_dir_features(struct pk_data_writer *w, uint64_t at, uint64_t flags[4]);
void pk__data_dir_abort(struct pk__data_dir *d);	/* remove the partial directory, free */
void pk__data_dir_free(struct pk__data_dir *d);
/* PATH is a directory perf or perfkit wrote: "data" and data.N files in
 * it, nothing else.  pk__data_dir_clear removes such a one (0), and
 * anything else not (-1), as perf removes its PATH.old. */
bool pk__data_dir_ours(const char *path);
int pk__data_dir_clear(const char *path);

/* pk__data_clear_old - make room for a recording's PATH.old, as perf does
 * (writer-dir.c): a perf.data directory there is removed, and a file when
 * PATH is a directory.  Anything else stays, for the rename to refuse. */
void pk__data_clear_old(const char *old, bool path_is_dir);

/* pk__data_writer_begin - the header and attrs laid out, once. */
int pk__data_writer_begin(struct pk_data_writer *w);

#define PK__DATA_BUF_SIZE (1 << 20)	/* the writer's buffer */
#define PK__COMP_MMAP_LEN (512 * 1024)	/* what one COMPRESSED record may expand to */

/* Buffered output: pk__data_writer_put appends, pk__data_writer_flush writes the buffer
 * out, pk__data_writer_pos is the file offset of the next byte put. */
int pk__data_writer_put(struct pk_data_writer *w, const void *p, size_t len);
int pk__data_writer_flush(struct pk_data_writer *w);
uint64_t pk__data_writer_pos(const struct pk_data_writer *w);

/* pk__data_writer_features - put the feature table and payloads after the data
 * section and set their bits in flags[4].  0 or a negative errno. */
int pk__data_writer_features(struct pk_data_writer *w, uint64_t flags[4]);

/* A feature payload being built (features.c, features-host.c):
 * pk__data_put appends len bytes, the others a u32, a u64 or a
 * perf_header_string (u32 length, the string NUL-padded to 64 bytes); oom
 * is set, and the rest left out, when memory runs out. */
struct pk__data_blob {
	unsigned char *p;
	size_t len, cap;
	bool oom;
};
void pk__data_put(struct pk__data_blob *b, const void *p, size_t len);
void pk__data_put_u32(struct pk__data_blob *b, uint32_t v);
void pk__data_put_u64(struct pk__data_blob *b, uint64_t v);
void pk__data_put_string(struct pk__data_blob *b, const char *s);

/*
 * The machine's description for perf.data (features-host.c), gathered once
 * per process and again when its key (sysfs root, uname, CPU count, online
 * CPUs and nodes, PMU names, MemTotal) changed.  pk__data_host_get gives
 * a reference to the current one in *h (0), or -ENOMEM with the error
 * record set; pk__data_host_put drops it (NULL: no-op).  Thread-safe.
 * pk__data_host_feature puts machine feature f's payload from h into b
 * (NRCPUS and NUMA_TOPOLOGY read anew) and says whether there is one;
 * false for a feature that is not about the machine.
 */
struct pk__data_host;
int pk__data_host_get(struct pk__data_host **h);
void pk__data_host_put(struct pk__data_host *h);
bool pk__data_host_feature(const struct pk__data_host *h, int f, struct pk__data_blob *b);

/* Appends len bytes at p to the feature payload b. */
typedef void (*pk__data_put_fn)(void *b, const void *p, size_t len);

/*
 * The BPF programs and BTFs perf.data's BPF features describe
 * (features-bpf.c), kept by the writer from when it begins a file.
 * pk__data_bpf_snapshot adds the programs loaded now that perf describes,
 * with their BTFs, to *s (made when NULL; none are added when they may not
 * be read: no CAP_SYS_ADMIN); 0, or -ENOMEM with the error record set and
 * *s holding what it held, or what was added.  pk__data_bpf_merge adds
 * copies of what `from` holds that *to (made when NULL) lacks; 0, or
 * -ENOMEM with the error record set.
 * pk__data_bpf_note reads, by id, each program a PERF_RECORD_BPF_EVENT
 * PROG_LOAD record among the len bytes of whole records at `records` names
 * and keeps it (one gone already is left out); s NULL notes nothing; 0, or
 * -ENOMEM with the error record set.  pk__data_bpf_feature puts the
 * BPF_PROG_INFO payload (btf 0) or the BPF_BTF one (btf 1) of what s
 * holds (a count of 0 for s NULL).  pk__data_bpf_free(NULL) is a no-op.
 */
struct pk__data_bpf;
int pk__data_bpf_snapshot(struct pk__data_bpf **s);
int pk__data_bpf_merge(struct pk__data_bpf **to, const struct pk__data_bpf *from);
int pk__data_bpf_note(struct pk__data_bpf *s, const void *records, size_t len);
void pk__data_bpf_feature(const struct pk__data_bpf *s, int btf, pk__data_put_fn put, void *b);
void pk__data_bpf_free(struct pk__data_bpf *s);
/* pk__data_bpf_new - an empty set in *s (for a reader of its own, the
 * recorder's side band): 0 or -ENOMEM with the error record set. */
int pk__data_bpf_new(struct pk__data_bpf **s);
/* pk__data_writer_add_bpf - s's programs and BTFs into w's BPF features
 * too (those w lacks, by id): 0 or -ENOMEM with the error record set. */
int pk__data_writer_add_bpf(struct pk_data_writer *w, const struct pk__data_bpf *s);

/*
 * pk__data_writer_tracing - the HEADER_TRACING_DATA payload for the
 * tracepoint events among ev[0..nr_ev) (tracing.c), reading format files
 * from `tracefs` (NULL: find it).  Returns 0 with a malloc'd payload in *out
 * and its length in *len, or 0 with NULL and 0 when no event is a
 * tracepoint; a negative errno with the error record set when tracefs or a
 * format file cannot be read, or memory runs out.
 */
int pk__data_writer_tracing(const char *tracefs, const struct pk__data_event *ev, size_t nr_ev,
			    unsigned char **out, size_t *len);

/*
 * pk__data_writer_feature - the payload of feature `f` (a features.def id)
 * as the feature section carries it, for pipe mode's HEADER_FEATURE
 * records, the machine's from `h` (a pk__data_host_get reference the
 * caller holds for all of a stream's features, so its key is checked once
 * a stream; NULL: one taken for this call).  Returns 1 with a malloc'd
 * payload in *p and its length in *len, 0 (and NULL) when the writer has
 * nothing to say for `f`, or -ENOMEM.
 */
int pk__data_writer_feature(struct pk_data_writer *w, const struct pk__data_host *h, int f, unsigned char **p,
			    size_t *len);

/* Pipe mode (writer-pipe.c): what goes before the first record (the pipe
 * header, HEADER_ATTR, HEADER_FEATURE, HEADER_TRACING_DATA, EVENT_UPDATE
 * names), writing the buffer out in order, and the end (HEADER_BUILD_ID
 * records, the last flush).  0 or a negative errno. */
int pk__data_writer_pipe_start(struct pk_data_writer *w);
int pk__data_writer_pipe_flush(struct pk_data_writer *w);
int pk__data_writer_pipe_end(struct pk_data_writer *w);

/* pk__data_writer_mark - note that data_size now ends on a record. */
void pk__data_writer_mark(struct pk_data_writer *w);

/* pk__data_writer_free - release the writer (the file is left as it is). */
void pk__data_writer_free(struct pk_data_writer *w);

#endif
