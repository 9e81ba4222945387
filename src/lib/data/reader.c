/* SPDX-License-Identifier: MIT */
/*
 * reader.c - the perf.data reader: opens a file or a file descriptor, tells
 * a PERFILE2 file from a pipe-mode stream (whose header records
 * reader-pipe.c reads) and either from one of the other byte order (read
 * through get_u32/pk__reader_u64 and reader-swap.c), validates the file's
 * header, reads the attrs with
 * their ids and the feature section table after the data, decodes the
 * string features, EVENT_DESC's names and the COMPRESSED parameters, and
 * answers the accessors; the records come from reader-stream.c and
 * reader-order.c.  Every malformed part of a file becomes a named error
 * with its file offset, never a read outside the file.
 */
#include "reader-int.h"
#include "sys/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HEADER_SIZE 104
#define MAGIC2 0x32454c4946524550ULL	/* "PERFILE2" read as a little-endian u64 */
#define MAGIC1 0x454c494652455050ULL	/* "PERFFILE", perf's first format */
#define MAX_ATTR 4096			/* an attr is at most a page (the kernel's limit) */

#define PK__FEAT(id, NAME, name) _Static_assert(PK_DATA_FEAT_##NAME == (id), "features.def and reader.h agree");
#include "features.def"
#undef PK__FEAT

static const char *const feat_names[PK_DATA_FEAT_LAST] = {
#define PK__FEAT(id, NAME, name) [id] = name,
#include "features.def"
#undef PK__FEAT
};

/* A u64 or u32 of the file, in the file's byte order. */
static uint32_t get_u32(const struct pk_data_reader *r, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return r->swap ? __builtin_bswap32(v) : v;
}

/* Read exactly len bytes at off; a short read is the file ending early. */
int pk__reader_read_at(struct pk_data_reader *r, void *p, size_t len, uint64_t off, const char *what)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(r->fd, (char *)p + done, len - done, (off_t)(off + done));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return pk__error(-errno, "read perf.data", "%s: reading %s at offset %llu: %s", r->path,
					 what, (unsigned long long)(off + done), strerror(errno));
		if (n == 0)
			return pk__error(-EINVAL, "read perf.data",
					 "%s: the file ends at offset %llu, inside %s (truncated?)", r->path,
					 (unsigned long long)(off + done), what);
		done += (size_t)n;
	}
	return 0;
}

/* A section must lie wholly inside the file (and not wrap around). */
static int check_section(const struct pk_data_reader *r, const struct pk__file_section *s, const char *what)
{
	if (s->offset > r->file_size || s->size > r->file_size - s->offset)
		return pk__error(-EINVAL, "read perf.data",
				 "%s: %s at offset %llu, %llu bytes, lies outside the file of %llu bytes",
				 r->path, what, (unsigned long long)s->offset, (unsigned long long)s->size,
				 (unsigned long long)r->file_size);
	return 0;
}

static int check_magic(const struct pk_data_reader *r, uint64_t magic, uint64_t size)
{
	const char *why = NULL;

	if (magic == MAGIC1 || magic == __builtin_bswap64(MAGIC1))
		why = "is perf's old PERFFILE format, which this reader does not read";
	if (why)
		return pk__error(-EOPNOTSUPP, "read perf.data", "%s %s", r->path, why);
	if (magic != MAGIC2)
		return pk__error(-EINVAL, "read perf.data",
				 "%s: no \"PERFILE2\" magic at offset 0: not a perf.data file", r->path);
	if (size != HEADER_SIZE)
		return pk__error(-EINVAL, "read perf.data",
				 "%s: the header size at offset 8 is %llu, where perf.data's is %d", r->path,
				 (unsigned long long)size, HEADER_SIZE);
	return 0;
}

int pk__reader_add_event(struct pk_data_reader *r, const void *attr, size_t len, uint64_t *ids, size_t nr_ids)
{
	struct rd_event *e;

	if (r->nr_events == r->cap_events) {
		size_t cap = r->cap_events ? 2 * r->cap_events : 8;
		struct rd_event **n = pk__realloc(r->ev, cap * sizeof(*n));

		if (!n) {
			free(ids);
			return pk__error_nomem("%zu events", cap);
		}
		r->ev = n;
		r->cap_events = cap;
	}
	e = pk__calloc(1, sizeof(*e));
	if (!e) {
		free(ids);
		return pk__error_nomem("an event");
	}
	/* the events' answers found so far may change with another event */
	r->have_last_id = false;
	pk__reader_order_forget_events(r);
	memcpy(e->attr, attr, len < PK_DATA_READER_ATTR_SIZE ? len : PK_DATA_READER_ATTR_SIZE);
	e->ids = ids;
	e->nr_ids = nr_ids;
	pk_attr_name((const struct perf_event_attr *)e->attr, e->attr_name, sizeof(e->attr_name));
	r->ev[r->nr_events++] = e;
	return 0;
}

static int read_ids(struct pk_data_reader *r, const struct pk__file_section *s, uint64_t **ids)
{
	int err = check_section(r, s, "an event's ids");

	*ids = NULL;
	if (err)
		return err;
	if (s->size % 8)
		return pk__error(-EINVAL, "read perf.data", "%s: the ids at offset %llu are %llu bytes, not whole u64s",
				 r->path, (unsigned long long)s->offset, (unsigned long long)s->size);
	if (!s->size)
		return 0;
	*ids = pk__malloc((size_t)s->size);
	if (!*ids)
		return pk__error_nomem("%llu event ids", (unsigned long long)s->size / 8);
	err = pk__reader_read_at(r, *ids, (size_t)s->size, s->offset, "an event's ids");
	for (uint64_t i = 0; !err && r->swap && i < s->size / 8; i++)
		(*ids)[i] = __builtin_bswap64((*ids)[i]);
	if (err) {
		free(*ids);
		*ids = NULL;
	}
	return err;
}

static int read_attrs(struct pk_data_reader *r, uint64_t attr_size, const struct pk__file_section *attrs)
{
	unsigned char entry[MAX_ATTR + 16];
	int err = check_section(r, attrs, "the attrs section");

	if (err)
		return err;
	if (attr_size < PERF_ATTR_SIZE_VER0 + 16 || attr_size > sizeof(entry) || attr_size % 8)
		return pk__error(-EINVAL, "read perf.data", "%s: the attr size at offset 16 is %llu, which no perf writes",
				 r->path, (unsigned long long)attr_size);
	if (attrs->size % attr_size)
		return pk__error(-EINVAL, "read perf.data",
				 "%s: the attrs section at offset %llu (%llu bytes) is not whole %llu-byte attrs",
				 r->path, (unsigned long long)attrs->offset, (unsigned long long)attrs->size,
				 (unsigned long long)attr_size);
	for (uint64_t i = 0; i < attrs->size / attr_size; i++) {
		size_t len = (size_t)attr_size - 16;
		struct pk__file_section s;
		uint64_t *ids;

		err = pk__reader_read_at(r, entry, (size_t)attr_size, attrs->offset + i * attr_size, "the attrs");
		if (err)
			return err;
		s.offset = pk__reader_u64(r, entry + len);
		s.size = pk__reader_u64(r, entry + len + 8);
		err = read_ids(r, &s, &ids);
		if (r->swap)
			pk__reader_swap_attr(entry, len);
		if (!err)
			err = pk__reader_add_event(r, entry, len, ids, (size_t)(s.size / 8));
		if (err)
			return err;
	}
	return 0;
}

/* A feature section after the records that the file ends before or
 * inside: a file cut short after its data, which perf reads without it.
 * It reads as absent; pk_data_reader_features_cut tells. */
static bool cut_off(const struct pk_data_reader *r, const struct pk__file_section *s)
{
	return s->offset >= r->data_end && (s->offset > r->file_size || s->size > r->file_size - s->offset);
}

/* The feature table: one section per bit set, in bit order, after the data. */
static int read_feature_table(struct pk_data_reader *r)
{
	uint64_t at = r->data_end;

	for (unsigned int id = 0; id < 256; id++) {
		unsigned char s[16];
		int err;

		if (!(r->flags[id / 64] & (1ULL << (id % 64))))
			continue;
		err = pk__reader_read_at(r, s, sizeof(s), at, "the feature section table");
		if (err)
			return err;
		if (id < PK_DATA_FEAT_LAST) {
			r->feat[id].offset = pk__reader_u64(r, s);
			r->feat[id].size = pk__reader_u64(r, s + 8);
			if (cut_off(r, &r->feat[id])) {
				if (!r->nr_feat_cut++)
					r->feat_cut_first = id;
				r->flags[id / 64] &= ~(1ULL << (id % 64));
				at += 16;
				continue;
			}
			err = check_section(r, &r->feat[id], feat_names[id] ? feat_names[id] : "a feature section");
			if (err)
				return err;
		}
		at += 16;
	}
	return 0;
}

/* perf_header_string at p (len bytes left): u32 length, then the string
 * NUL-padded.  Returns its length with the string in *s, or 0 when bad. */
static size_t header_string(const struct pk_data_reader *r, const unsigned char *p, size_t left, const char **s)
{
	uint32_t n;

	if (left < 4)
		return 0;
	n = get_u32(r, p);
	if (n == 0 || n > left - 4 || !memchr(p + 4, 0, n))
		return 0;
	*s = (const char *)p + 4;
	return 4 + (size_t)n;
}

static int bad_feature(const struct pk_data_reader *r, unsigned int id)
{
	return pk__error(-EINVAL, "read perf.data", "%s: the %s feature at offset %llu does not decode", r->path,
			 feat_names[id], (unsigned long long)r->feat[id].offset);
}

static int decode_string(struct pk_data_reader *r, unsigned int id)
{
	const void *p;
	const char *s;
	size_t len;
	int err = pk_data_reader_feature(r, id, &p, &len);

	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	if (!header_string(r, p, len, &s))
		return bad_feature(r, id);
	r->strings[id] = pk__strdup(s);
	return r->strings[id] ? 0 : pk__error_nomem("the %s string", feat_names[id]);
}

static int decode_cmdline(struct pk_data_reader *r)
{
	const unsigned char *p;
	const void *v;
	size_t len, at = 4, out = 0;
	int err = pk_data_reader_feature(r, PK_DATA_FEAT_CMDLINE, &v, &len);
	char *line;

	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	p = v;
	if (len < 4)
		return bad_feature(r, PK_DATA_FEAT_CMDLINE);
	line = pk__malloc(len + 1);	/* the strings and their separators fit in the section */
	if (!line)
		return pk__error_nomem("the command line");
	line[0] = 0;
	for (uint32_t i = 0, nr = get_u32(r, p); i < nr; i++) {
		const char *s;
		size_t n = header_string(r, p + at, len - at, &s), sl;

		if (!n) {
			free(line);
			return bad_feature(r, PK_DATA_FEAT_CMDLINE);
		}
		sl = strlen(s);
		if (out)
			line[out++] = ' ';
		memcpy(line + out, s, sl + 1);
		out += sl;
		at += n;
	}
	r->strings[PK_DATA_FEAT_CMDLINE] = line;
	return 0;
}

static struct rd_event *event_by_id(const struct pk_data_reader *r, uint64_t id)
{
	for (size_t i = 0; i < r->nr_events; i++)
		for (size_t j = 0; j < r->ev[i]->nr_ids; j++)
			if (r->ev[i]->ids[j] == id)
				return r->ev[i];
	return NULL;
}

/* EVENT_DESC: u32 nr, u32 attr_size, then per event its attr, u32 nr_ids,
 * its name as a header string and its ids.  A name goes to the event
 * holding its first id, or by position when it lists none. */
static int decode_event_desc(struct pk_data_reader *r)
{
	const unsigned char *p;
	const void *v;
	size_t len, at = 8;
	int err = pk_data_reader_feature(r, PK_DATA_FEAT_EVENT_DESC, &v, &len);
	uint32_t nr, asz;

	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	p = v;
	if (len < 8)
		return bad_feature(r, PK_DATA_FEAT_EVENT_DESC);
	nr = get_u32(r, p);
	asz = get_u32(r, p + 4);
	for (uint32_t i = 0; i < nr; i++) {
		const char *name;
		uint32_t nr_ids;
		size_t n;
		struct rd_event *e;

		if (asz > len - at || len - at - asz < 4)
			return bad_feature(r, PK_DATA_FEAT_EVENT_DESC);
		at += asz;
		nr_ids = get_u32(r, p + at);
		at += 4;
		n = header_string(r, p + at, len - at, &name);
		if (!n || (len - at - n) / 8 < nr_ids)
			return bad_feature(r, PK_DATA_FEAT_EVENT_DESC);
		at += n;
		e = nr_ids ? event_by_id(r, pk__reader_u64(r, p + at)) : (i < r->nr_events ? r->ev[i] : NULL);
		at += (size_t)nr_ids * 8;
		if (!e || e->name)
			continue;
		e->name = pk__strdup(name);
		if (!e->name)
			return pk__error_nomem("an event name");
	}
	return 0;
}

/* COMPRESSED: u32 version, type (1: zstd), level, ratio, mmap_len. */
static int decode_compressed(struct pk_data_reader *r)
{
	const unsigned char *p;
	const void *v;
	size_t len;
	int err = pk_data_reader_feature(r, PK_DATA_FEAT_COMPRESSED, &v, &len);

	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	if (len < 20)
		return bad_feature(r, PK_DATA_FEAT_COMPRESSED);
	p = v;
	r->comp.version = get_u32(r, p);
	r->comp.type = get_u32(r, p + 4);
	r->comp.level = get_u32(r, p + 8);
	r->comp.ratio = get_u32(r, p + 12);
	r->comp.mmap_len = get_u32(r, p + 16);
	r->have_comp = true;
	return 0;
}

static int decode_nr_cpus(struct pk_data_reader *r)
{
	const void *p;
	size_t len;
	int err = pk_data_reader_feature(r, PK_DATA_FEAT_NRCPUS, &p, &len);

	if (err)
		return err == -ENOENT ? 0 : err;
	if (len < 8)
		return bad_feature(r, PK_DATA_FEAT_NRCPUS);
	/* perf writes the CPUs available (max present), then those online */
	r->nr_cpus_avail = get_u32(r, p);
	r->nr_cpus_online = get_u32(r, (const unsigned char *)p + 4);
	r->have_nr_cpus = true;
	return 0;
}

int pk__reader_decode_feature(struct pk_data_reader *r, unsigned int id)
{
	switch (id) {
	case PK_DATA_FEAT_HOSTNAME: case PK_DATA_FEAT_OSRELEASE: case PK_DATA_FEAT_VERSION:
	case PK_DATA_FEAT_ARCH: case PK_DATA_FEAT_CPUDESC: case PK_DATA_FEAT_CPUID:
		return decode_string(r, id);
	case PK_DATA_FEAT_NRCPUS:
		return decode_nr_cpus(r);
	case PK_DATA_FEAT_COMPRESSED:
		return decode_compressed(r);
	case PK_DATA_FEAT_CMDLINE:
		return decode_cmdline(r);
	case PK_DATA_FEAT_EVENT_DESC:
		return decode_event_desc(r);
	case PK_DATA_FEAT_TRACING_DATA:
		return pk__reader_name_tracepoints(r);	/* reader-names.c */
	default:
		return 0;
	}
}

const char *pk__reader_feature_name(unsigned int id)
{
	return id < PK_DATA_FEAT_LAST && feat_names[id] ? feat_names[id] : "an unknown feature";
}

static int decode_features(struct pk_data_reader *r)
{
	for (unsigned int id = 0; id < PK_DATA_FEAT_LAST; id++) {
		int err = pk__reader_decode_feature(r, id);

		if (err)
			return err;
	}
	return 0;
}

static int read_header(struct pk_data_reader *r)
{
	unsigned char h[HEADER_SIZE];
	struct pk__file_section attrs, data;
	int err;

	if (r->file_size < HEADER_SIZE)
		return pk__error(-EINVAL, "read perf.data",
				 "%s is %llu bytes, shorter than perf.data's %d-byte header (truncated?)", r->path,
				 (unsigned long long)r->file_size, HEADER_SIZE);
	err = pk__reader_read_at(r, h, sizeof(h), 0, "the header");
	if (!err)
		err = check_magic(r, pk__reader_u64(r, h), pk__reader_u64(r, h + 8));
	if (err)
		return err;
	attrs.offset = pk__reader_u64(r, h + 24);
	attrs.size = pk__reader_u64(r, h + 32);
	data.offset = pk__reader_u64(r, h + 40);
	data.size = pk__reader_u64(r, h + 48);
	for (int i = 0; i < 4; i++)
		r->flags[i] = pk__reader_u64(r, h + 72 + 8 * i);
	err = read_attrs(r, pk__reader_u64(r, h + 16), &attrs);
	if (err)
		return err;
	if (data.offset < HEADER_SIZE || data.offset > r->file_size || data.offset % 8 ||
	    data.size > UINT64_MAX - data.offset)
		return pk__error(-EINVAL, "read perf.data", "%s: the data section's offset %llu at offset 40 %s",
				 r->path, (unsigned long long)data.offset,
				 data.offset % 8 ? "is not 8-aligned" : "lies outside the file");
	r->data_offset = data.offset;
	memcpy(r->flags_said, r->flags, sizeof(r->flags));
	if (data.size == 0 && !pk__reader_size_zero(r))
		return 0;	/* unfinished: records to the end, no features */
	r->data_end_said = data.offset + data.size;
	r->data_end = r->data_end_said <= r->file_size ? r->data_end_said : r->file_size;
	/* A data section cut by the end of the file (a killed recording) still
	 * gives its records; the feature table that followed it is gone. */
	if (r->data_end_said > r->file_size)
		memset(r->flags, 0, sizeof(r->flags));
	err = read_feature_table(r);
	return err ? err : decode_features(r);
}

/* The first 16 bytes, whichever the kind of fd: a PERFILE2 file's
 * magic and header size, or all of a pipe-mode stream's header. */
static int read_start(struct pk_data_reader *r, unsigned char *h)
{
	size_t done = 0;

	if (r->seekable)
		return pk__reader_read_at(r, h, 16, 0, "the header");
	while (done < 16) {
		ssize_t n = read(r->fd, h + done, 16 - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return pk__error(-errno, "read perf.data", "%s: reading the header: %s", r->path,
					 strerror(errno));
		if (n == 0)
			return pk__error(-EINVAL, "read perf.data",
					 "%s ends at offset %zu, inside the 16-byte header of a pipe-mode stream",
					 r->path, done);
		done += (size_t)n;
	}
	return 0;
}

static int start(struct pk_data_reader *r)
{
	unsigned char h[16];
	struct stat st;
	int err;

	if (fstat(r->fd, &st) < 0)
		return pk__error(-errno, "read perf.data", "cannot stat %s: %s", r->path, strerror(errno));
	/* A regular file is read at its offsets; anything else in stream order. */
	r->seekable = S_ISREG(st.st_mode);
	r->file_size = r->seekable ? (uint64_t)st.st_size : UINT64_MAX;
	if (r->seekable && r->file_size < 16)
		return pk__error(-EINVAL, "read perf.data",
				 "%s is %llu bytes, shorter than perf.data's %d-byte header (truncated?)", r->path,
				 (unsigned long long)r->file_size, HEADER_SIZE);
	err = read_start(r, h);
	if (err)
		return err;
	r->swap = pk__reader_u64(r, h) == __builtin_bswap64(MAGIC2);	/* pk__reader_u64 swaps from here on */
	if (pk__reader_u64(r, h) == MAGIC2 && pk__reader_u64(r, h + 8) == 16) {
		r->pipe = true;
		r->data_offset = r->buf_off = 16;
		r->data_end = r->data_end_said = UINT64_MAX;	/* known at the end of the stream */
		return pk__reader_pipe_open(r);
	}
	err = check_magic(r, pk__reader_u64(r, h), pk__reader_u64(r, h + 8));
	if (!err && !r->seekable)
		err = pk__error(-ESPIPE, "read perf.data",
				"%s is a perf.data file, which can only be read from a file: its header points "
				"forward and back; record with -o - for a stream that can be piped", r->path);
	if (!err)
		err = read_header(r);
	r->buf_off = r->data_offset;
	return err;
}

int pk_data_reader_open_fd(int fd, const char *name, struct pk_data_reader **out)
{
	struct pk_data_reader *r;
	int err;

	*out = NULL;
	r = pk__calloc(1, sizeof(*r));
	if (!r)
		return pk__error_nomem("a perf.data reader");
	r->fd = fd;
	r->path = pk__strdup(name ? name : "perf.data");
	r->buf = pk__reader_buf_new(r);
	if (!r->path || !r->buf) {
		pk_data_reader_free(r);
		return pk__error_nomem("a perf.data reader");
	}
	err = start(r);
	if (err) {
		pk_data_reader_free(r);
		return err;
	}
	*out = r;
	return 0;
}

int pk_data_reader_open(const char *path, struct pk_data_reader **out)
{
	struct stat st;
	int fd, err;

	*out = NULL;
	if (!strcmp(path, "-"))
		return pk_data_reader_open_fd(STDIN_FILENO, "stdin", out);
	if (!stat(path, &st) && S_ISDIR(st.st_mode))
		return pk__reader_dir_open(path, out);	/* perf record --threads */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		return pk__error(err, "open perf.data", "cannot open %s: %s", path, strerror(-err));
	}
	err = pk_data_reader_open_fd(fd, path, out);
	if (err)
		close(fd);
	else
		(*out)->own_fd = true;
	return err;
}

void pk_data_reader_free(struct pk_data_reader *r)
{
	if (!r)
		return;
	if (r->own_fd)
		close(r->fd);
	for (size_t i = 0; i < r->nr_events; i++) {
		free(r->ev[i]->ids);
		free(r->ev[i]->name);
		for (size_t j = 0; j < r->ev[i]->nr_old_names; j++)
			free(r->ev[i]->old_names[j]);
		free(r->ev[i]->old_names);
		free(r->ev[i]);
	}
	for (unsigned int i = 0; i < PK_DATA_FEAT_LAST; i++) {
		free(r->feat_data[i]);
		free(r->strings[i]);
	}
	pk__reader_stream_free(r);
	pk__reader_pipe_free(r);
	pk__reader_order_free(r);
	pk__reader_dir_free(r);
	free(r->ev);
	pk__reader_buf_drop(r->buf);
	free(r->path);
	free(r);
}

bool pk_data_reader_swapped(const struct pk_data_reader *r)
{
	return r->swap;
}

size_t pk_data_reader_nr_events(const struct pk_data_reader *r)
{
	return r->nr_events;
}

const struct perf_event_attr *pk_data_reader_attr(const struct pk_data_reader *r, size_t idx)
{
	return idx < r->nr_events ? (const struct perf_event_attr *)(const void *)r->ev[idx]->attr : NULL;
}

const uint64_t *pk_data_reader_ids(const struct pk_data_reader *r, size_t idx, size_t *nr)
{
	*nr = idx < r->nr_events ? r->ev[idx]->nr_ids : 0;
	return *nr ? r->ev[idx]->ids : NULL;
}

const char *pk_data_reader_name(const struct pk_data_reader *r, size_t idx)
{
	if (idx >= r->nr_events)
		return NULL;
	return r->ev[idx]->name ? r->ev[idx]->name : r->ev[idx]->attr_name;
}

bool pk_data_reader_has_feature(const struct pk_data_reader *r, unsigned int id)
{
	return id < 256 && (r->flags[id / 64] & (1ULL << (id % 64)));
}

uint32_t pk_data_reader_features_cut(const struct pk_data_reader *r, unsigned int *first)
{
	if (first && r->nr_feat_cut)
		*first = r->feat_cut_first;
	return r->nr_feat_cut;
}

const char *pk_data_reader_feature_name(unsigned int id)
{
	return id < PK_DATA_FEAT_LAST ? feat_names[id] : NULL;
}

int pk_data_reader_feature(struct pk_data_reader *r, unsigned int id, const void **ptr, size_t *len)
{
	const struct pk__file_section *s;

	if (id >= PK_DATA_FEAT_LAST || !pk_data_reader_has_feature(r, id))
		return -ENOENT;
	s = &r->feat[id];
	if (!r->feat_data[id]) {
		int err;

		r->feat_data[id] = pk__malloc(s->size ? (size_t)s->size : 1);
		if (!r->feat_data[id])
			return pk__error_nomem("the %s feature (%llu bytes)", feat_names[id],
					       (unsigned long long)s->size);
		err = pk__reader_read_at(r, r->feat_data[id], (size_t)s->size, s->offset, feat_names[id]);
		if (err) {
			free(r->feat_data[id]);
			r->feat_data[id] = NULL;
			return err;
		}
	}
	*ptr = r->feat_data[id];
	*len = (size_t)s->size;
	return 0;
}

const char *pk_data_reader_string(const struct pk_data_reader *r, unsigned int id)
{
	return id < PK_DATA_FEAT_LAST ? r->strings[id] : NULL;
}

int pk_data_reader_nr_cpus(const struct pk_data_reader *r, uint32_t *available, uint32_t *online)
{
	if (!r->have_nr_cpus)
		return -ENOENT;
	*available = r->nr_cpus_avail;
	*online = r->nr_cpus_online;
	return 0;
}

int pk_data_reader_compression(const struct pk_data_reader *r, struct pk_data_compression *out)
{
	size_t size = out->size;

	if (size < sizeof(*out))
		return pk__error(-EINVAL, "pk_data_reader_compression",
				 "struct pk_data_compression.size is %zu, less than the %zu bytes this "
				 "library fills", size, sizeof(*out));
	if (!r->have_comp)
		return -ENOENT;
	*out = r->comp;
	out->size = size;
	return 0;
}

int pk_data_reader_layout(const struct pk_data_reader *r, struct pk_data_layout *out)
{
	size_t size = out->size;

	if (size < sizeof(*out))
		return pk__error(-EINVAL, "pk_data_reader_layout",
				 "struct pk_data_layout.size is %zu, less than the %zu bytes this "
				 "library fills", size, sizeof(*out));
	*out = (struct pk_data_layout){ .size = size, .version = 1 };
	if (!r->pipe) {
		out->data_offset = r->data_offset;
		out->data_size = r->unfinished ? 0 : r->data_end_said - r->data_offset;
		out->feat_offset = r->unfinished ? r->data_offset : r->data_end_said;
	}
	return 0;
}

uint64_t pk_data_reader_nr_taken(const struct pk_data_reader *r, uint32_t type)
{
	return type >= 64 && type - 64 < PK__READER_NR_TAKEN ? r->nr_taken[type - 64] : 0;
}

/* The event of `rec` as pk_data_reader_event_of finds it, with in *id
 * the id it found (when it looked for one). */
static int find_event(const struct pk_data_reader *r, const struct perf_event_header *rec, uint64_t *id)
{
	if (r->nr_events == 1)
		return 0;
	if (!r->nr_events || rec->type >= PERF_RECORD_MAX)
		return -ENOENT;
	if (pk_record_event_id(rec, pk_data_reader_attr(r, 0), id) < 0)
		return -ENOENT;
	if (r->have_last_id && *id == r->last_id)
		return r->last_id_ev;
	for (size_t i = 0; i < r->nr_events; i++)
		for (size_t j = 0; j < r->ev[i]->nr_ids; j++)
			if (r->ev[i]->ids[j] == *id)
				return (int)i;
	return -ENOENT;
}

int pk_data_reader_event_of(const struct pk_data_reader *r, const struct perf_event_header *rec)
{
	uint64_t id;

	return find_event(r, rec, &id);
}

int pk__reader_event_of(struct pk_data_reader *r, const struct perf_event_header *h)
{
	uint64_t id;
	int ev = find_event(r, h, &id);

	if (ev >= 0 && r->nr_events > 1) {
		r->have_last_id = true;
		r->last_id = id;
		r->last_id_ev = ev;
	}
	return ev;
}

int pk_data_reader_last_event(const struct pk_data_reader *r)
{
	if (!r->cur_rec)
		return -ENOENT;
	return r->cur_ev >= 0 ? r->cur_ev : pk_data_reader_event_of(r, r->cur_rec);
}

const struct perf_event_attr *pk_data_reader_attr_of(const struct pk_data_reader *r,
						     const struct perf_event_header *rec)
{
	int i = pk_data_reader_event_of(r, rec);

	return i < 0 ? NULL : pk_data_reader_attr(r, (size_t)i);
}
