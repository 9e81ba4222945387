/* SPDX-License-Identifier: MIT */
/*
 * fuzz_writer.c - libFuzzer target for the perf.data writer's feature
 * inputs: event names, command-line strings, build-ids (name, size, kernel
 * or user) and group ranges, all taken from the input.  An input is a byte
 * giving the number of events (1-8), their names as NUL-terminated
 * strings, a byte and that many cmdline strings (0-7), a byte and that many
 * build-ids (0-3: size byte, kernel byte, name), then a byte and that many
 * groups (0-3: leader and member count as little-endian u64s, so ranges
 * that overflow are tried).  The writer must accept exactly the build-ids
 * and groups its contract allows, and the file pk_data_writer_finish makes (in a
 * temporary directory on tmpfs when there is one, removed at exit) must
 * parse: the header's sections inside the file, the feature table after
 * the data, EVENT_DESC, CMDLINE, GROUP_DESC and BUILD_ID holding what
 * was given, and the machine's HOSTNAME and NRCPUS (the description is
 * gathered once per process, features-host.c: every file after the first
 * is written from the kept one, which is what makes this target fast).  The same input is then written in pipe mode
 * (pk_data_writer_create_pipe into a file) and the stream must parse: the
 * 16-byte pipe header, then whole records only (feature records need not be
 * 8-aligned, as perf's are not), one HEADER_ATTR per event
 * with its id, the CMDLINE and GROUP_DESC features as given, the
 * end-of-features mark, an EVENT_UPDATE naming each event that fits one,
 * the FINISHED_ROUND written, and a HEADER_BUILD_ID per build-id accepted.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "perfkit.h"
#include "perfkit/data.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[1024], file[1100];
static struct utsname host;

struct input {
	const uint8_t *p;
	size_t left;
};

struct given {
	const char *names[8];
	size_t nr_events;
	char *argv[8];
	int argc;
	const char *bid_names[3];
	uint8_t bid_size[3];
	bool bid_kernel[3];
	bool bid_ok[3], group_ok[3];
	size_t nr_bids;
	uint64_t groups[3][2];
	size_t nr_groups;
};

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void remove_dir(void)
{
	if (*dir)
		nftw(dir, remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = getenv("TMPDIR");
	struct stat st;

	(void)argc;
	(void)argv;
	if (!tmp || !*tmp || strlen(tmp) > 900)
		tmp = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) ? "/dev/shm" : "/tmp";
	snprintf(dir, sizeof(dir), "%s/fuzz-writer.XXXXXX", tmp);
	if (!mkdtemp(dir))
		abort();
	atexit(remove_dir);
	snprintf(file, sizeof(file), "%.1024s/perf.data", dir);
	if (uname(&host) != 0)
		abort();
	return 0;
}

static uint8_t take_byte(struct input *in)
{
	if (!in->left)
		return 0;
	in->left--;
	return *in->p++;
}

static uint64_t take_u64(struct input *in)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)take_byte(in) << (8 * i);
	return v;
}

/* A NUL-terminated string of the input (the caller's copy ends in NUL). */
static const char *take_str(struct input *in)
{
	const char *s = (const char *)in->p;
	size_t n = strnlen(s, in->left);

	in->p += n < in->left ? n + 1 : n;
	in->left -= n < in->left ? n + 1 : n;
	return s;
}

static void take_all(struct input *in, struct given *g)
{
	g->nr_events = take_byte(in) % 8 + 1;
	for (size_t i = 0; i < g->nr_events; i++)
		g->names[i] = take_str(in);
	g->argc = take_byte(in) % 8;
	for (int i = 0; i < g->argc; i++)
		g->argv[i] = (char *)take_str(in);
	g->nr_bids = take_byte(in) % 4;
	for (size_t i = 0; i < g->nr_bids; i++) {
		g->bid_size[i] = take_byte(in);
		g->bid_kernel[i] = take_byte(in) & 1;
		g->bid_names[i] = take_str(in);
	}
	g->nr_groups = take_byte(in) % 4;
	for (size_t i = 0; i < g->nr_groups; i++) {
		g->groups[i][0] = take_u64(in);
		g->groups[i][1] = take_u64(in);
	}
}

static uint64_t u64_at(const unsigned char *d, size_t len, uint64_t off)
{
	uint64_t v;

	if (off > len || len - off < 8)
		abort();	/* the file points outside itself */
	memcpy(&v, d + off, 8);
	return v;
}

static uint32_t u32_at(const unsigned char *d, size_t len, uint64_t off)
{
	uint32_t v;

	if (off > len || len - off < 4)
		abort();
	memcpy(&v, d + off, 4);
	return v;
}

/* A perf_header_string at *off equal to s; *off moves past it. */
static void expect_string(const unsigned char *d, size_t len, uint64_t *off, const char *s)
{
	uint32_t n = u32_at(d, len, *off);

	if (n > len - *off - 4 || n % 64 || strnlen((const char *)d + *off + 4, n) == n ||
	    strcmp((const char *)d + *off + 4, s))
		abort();
	*off += 4 + n;
}

/* The feature section of bit `feat`: its offset and size, or false. */
static bool section(const unsigned char *d, size_t len, int feat, uint64_t *off, uint64_t *size)
{
	uint64_t table = u64_at(d, len, 40) + u64_at(d, len, 48);
	int before = 0;

	if (!(u64_at(d, len, 72 + 8 * (feat / 64)) & (1ULL << (feat % 64))))
		return false;
	for (int b = 0; b < feat; b++)
		before += (u64_at(d, len, 72 + 8 * (b / 64)) >> (b % 64)) & 1;
	*off = u64_at(d, len, table + 16 * (uint64_t)before);
	*size = u64_at(d, len, table + 16 * (uint64_t)before + 8);
	if (*off > len || *size > len - *off)
		abort();	/* a feature section outside the file */
	return true;
}

static void check_event_desc(const unsigned char *d, size_t len, const struct given *g)
{
	uint64_t off, size;

	if (!section(d, len, 12, &off, &size) || u32_at(d, len, off) != g->nr_events)
		abort();
	uint32_t attr_size = u32_at(d, len, off + 4);

	off += 8;
	for (size_t i = 0; i < g->nr_events; i++) {
		uint32_t nr_ids;

		off += attr_size;
		nr_ids = u32_at(d, len, off);
		off += 4;
		expect_string(d, len, &off, g->names[i]);
		if (nr_ids != 1 || u64_at(d, len, off) != 100 + i)
			abort();
		off += 8 * (uint64_t)nr_ids;
	}
}

static void check_features(const unsigned char *d, size_t len, const struct given *g)
{
	uint64_t off, size, nr = 0;

	check_event_desc(d, len, g);
	/* The machine's description, kept from the first file, in every one. */
	if (!section(d, len, 7, &off, &size) || size != 8 || u32_at(d, len, off) == 0 ||
	    !section(d, len, 3, &off, &size))
		abort();
	expect_string(d, len, &off, host.nodename);
	if (!section(d, len, 11, &off, &size) || u32_at(d, len, off) != (uint32_t)g->argc)
		abort();
	off += 4;
	for (int i = 0; i < g->argc; i++)
		expect_string(d, len, &off, g->argv[i]);
	for (size_t i = 0; i < g->nr_groups; i++)
		nr += g->group_ok[i];
	if (section(d, len, 17, &off, &size) != (nr > 0) || (nr && u32_at(d, len, off) != nr))
		abort();	/* GROUP_DESC holds exactly the groups accepted */
	off += 4;
	for (size_t i = 0; nr && i < g->nr_groups; i++) {
		if (!g->group_ok[i])
			continue;
		expect_string(d, len, &off, "{anon_group}");
		if (u32_at(d, len, off) != g->groups[i][0] || u32_at(d, len, off + 4) != g->groups[i][1])
			abort();
		off += 8;
	}
	nr = 0;
	for (size_t i = 0; i < g->nr_bids; i++)
		nr += g->bid_ok[i];
	if (section(d, len, 2, &off, &size) != (nr > 0))
		abort();
	for (size_t i = 0; nr && i < g->nr_bids; i++) {
		if (!g->bid_ok[i])
			continue;
		/* perf_event_header: u32 type, u16 misc, u16 size. */
		uint16_t rec_size = (uint16_t)(u32_at(d, len, off + 4) >> 16);

		if (d[off + 32] != g->bid_size[i] || rec_size < 36 + 64 ||
		    strcmp((const char *)d + off + 36, g->bid_names[i]))
			abort();
		off += rec_size;
	}
}

static void check_file(const struct given *g)
{
	unsigned char *d;
	long len;
	FILE *f = fopen(file, "rb");

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 104 || fseek(f, 0, SEEK_SET))
		abort();	/* pk_data_writer_finish said the file is whole */
	d = malloc((size_t)len);
	if (!d || fread(d, 1, (size_t)len, f) != (size_t)len)
		abort();
	fclose(f);
	if (memcmp(d, "PERFILE2", 8) || u64_at(d, (size_t)len, 8) != 104)
		abort();
	for (int s = 0; s < 3; s++) {
		uint64_t off = u64_at(d, (size_t)len, 24 + 16 * s), size = u64_at(d, (size_t)len, 32 + 16 * s);

		if (off > (uint64_t)len || size > (uint64_t)len - off)
			abort();	/* attrs, data or event types outside the file */
	}
	if (u64_at(d, (size_t)len, 32) != g->nr_events * u64_at(d, (size_t)len, 16))
		abort();	/* one attr entry per event */
	check_features(d, (size_t)len, g);
	free(d);
}

/* What a pipe stream held, counted while walking its records. */
struct seen {
	size_t attrs, names, rounds, build_ids, features_end;
	bool cmdline, group_desc;
};

/* One HEADER_FEATURE record's payload at off, size bytes after its id. */
static void check_pipe_feature(const unsigned char *d, size_t len, uint64_t off, const struct given *g,
			       struct seen *s)
{
	uint64_t f = u64_at(d, len, off + 8), nr = 0;

	off += 16;
	if (f == 32) {
		s->features_end++;
	} else if (f == 11) {
		s->cmdline = true;
		if (u32_at(d, len, off) != (uint32_t)g->argc)
			abort();
		off += 4;
		for (int i = 0; i < g->argc; i++)
			expect_string(d, len, &off, g->argv[i]);
	} else if (f == 17) {
		for (size_t i = 0; i < g->nr_groups; i++)
			nr += g->group_ok[i];
		s->group_desc = true;
		if (u32_at(d, len, off) != nr)
			abort();
	}
}

/* One record of the stream at off (its size checked by the caller). */
static void check_pipe_record(const unsigned char *d, size_t len, uint64_t off, uint16_t size,
			      const struct given *g, struct seen *s)
{
	uint32_t type = u32_at(d, len, off);

	if (type == 64) {		/* HEADER_ATTR: attr, then the event's one id */
		if (size != 8 + 128 + 8 || s->attrs >= g->nr_events || u64_at(d, len, off + 136) != 100 + s->attrs)
			abort();
		s->attrs++;
	} else if (type == 80) {
		if (s->features_end)
			abort();	/* a feature after the end mark */
		check_pipe_feature(d, len, off, g, s);
	} else if (type == 78) {	/* EVENT_UPDATE: type NAME, the id, the name */
		uint64_t id = u64_at(d, len, off + 16);

		if (u64_at(d, len, off + 8) != 2 || id < 100 || id >= 100 + g->nr_events ||
		    strnlen((const char *)d + off + 24, size - 24u) == size - 24u ||
		    strcmp((const char *)d + off + 24, g->names[id - 100]))
			abort();
		s->names++;
	} else if (type == PK_DATA_RECORD_FINISHED_ROUND) {
		s->rounds++;
	} else if (type == 67) {	/* HEADER_BUILD_ID, as in the feature */
		size_t k = s->build_ids;

		while (k < g->nr_bids && !g->bid_ok[k])
			k++;
		if (k >= g->nr_bids || d[off + 32] != g->bid_size[k] || strcmp((const char *)d + off + 36,
									   g->bid_names[k]))
			abort();
		s->build_ids = k + 1;
	} else {
		abort();	/* nothing else was written */
	}
}

static void check_pipe(int fd, const struct given *g)
{
	struct seen s = { 0 };
	size_t named = 0, groups = 0;
	unsigned char *d;
	off_t len = lseek(fd, 0, SEEK_END);

	if (len < 16 || !(d = malloc((size_t)len)) || pread(fd, d, (size_t)len, 0) != len)
		abort();
	if (memcmp(d, "PERFILE2", 8) || u64_at(d, (size_t)len, 8) != 16)
		abort();
	for (uint64_t off = 16; off < (uint64_t)len;) {
		uint16_t size = (uint16_t)(u32_at(d, (size_t)len, off + 4) >> 16);

		/* Not 8-aligned: perf's own HEADER_FEATURE records are not. */
		if (size < 8 || size > (uint64_t)len - off)
			abort();	/* a record that is not whole */
		check_pipe_record(d, (size_t)len, off, size, g, &s);
		off += size;
	}
	for (size_t i = 0; i < g->nr_events; i++)
		named += g->names[i][0] && ((40 + strlen(g->names[i]) + 1 + 7) & ~(size_t)7) <= 65535;
	for (size_t i = 0; i < g->nr_groups; i++)
		groups += g->group_ok[i];
	if (s.attrs != g->nr_events || s.features_end != 1 || !s.cmdline || s.rounds != 1 ||
	    s.group_desc != (groups > 0) || s.names != named)
		abort();
	for (size_t i = s.build_ids; i < g->nr_bids; i++)
		if (g->bid_ok[i])
			abort();	/* a build-id accepted but not sent */
	free(d);
}

static void add_all(struct pk_data_writer *w, struct given *g)
{
	static const uint8_t id[20] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17 };
	struct perf_event_attr attr = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
					.config = PERF_COUNT_SW_TASK_CLOCK, .sample_id_all = 1 };

	for (size_t i = 0; i < g->nr_events; i++) {
		uint64_t ev_id = 100 + i;

		if (pk_data_writer_add_event(w, &attr, g->names[i], &ev_id, 1) != 0)
			abort();
	}
	for (size_t i = 0; i < g->nr_groups; i++) {
		uint64_t leader = g->groups[i][0], nr = g->groups[i][1];
		int ret = pk_data_writer_add_group(w, (size_t)leader, (size_t)nr);

		g->group_ok[i] = nr && leader < g->nr_events && nr <= g->nr_events - leader;
		if (ret != (g->group_ok[i] ? 0 : -EINVAL))
			abort();	/* a group range the contract does not allow, or the reverse */
	}
	for (size_t i = 0; i < g->nr_bids; i++) {
		int ret = pk_data_writer_add_build_id(w, g->bid_names[i], id, g->bid_size[i], g->bid_kernel[i]);

		g->bid_ok[i] = g->bid_size[i] >= 1 && g->bid_size[i] <= 20 && strlen(g->bid_names[i]) < 4096;
		if (ret != (g->bid_ok[i] ? 0 : -EINVAL))
			abort();
	}
	if (pk_data_writer_set_cmdline(w, g->argc, g->argv) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_header rec = { .type = PK_DATA_RECORD_FINISHED_ROUND, .size = 8 };
	struct pk_data_writer *w = NULL;
	struct given g = { .nr_events = 0 };
	struct input in;
	uint8_t *copy = malloc(size + 1);

	if (!copy)
		return 0;
	memcpy(copy, data, size);
	copy[size] = 0;	/* the last string ends even when the input does not */
	in = (struct input){ copy, size };
	take_all(&in, &g);
	if (pk_data_writer_create(file, &w) != 0) {
		fprintf(stderr, "fuzz_writer: %s: %s\n", pk_last_error()->what, pk_last_error()->why);
		abort();	/* the directory is ours: nothing should stop this */
	}
	add_all(w, &g);
	if (pk_data_writer_write(w, &rec, sizeof(rec)) != 0 || pk_data_writer_finish(w) != 0)
		abort();
	check_file(&g);
	unlink(file);
	/* The same in pipe mode, into a file the writer owns the fd of. */
	int fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600), rfd = open(file, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || rfd < 0 || pk_data_writer_create_pipe(fd, &w) != 0)
		abort();
	add_all(w, &g);
	if (pk_data_writer_write(w, &rec, sizeof(rec)) != 0 || pk_data_writer_finish(w) != 0)
		abort();
	check_pipe(rfd, &g);
	close(rfd);
	unlink(file);
	free(copy);
	return 0;
}
