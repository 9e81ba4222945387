/* SPDX-License-Identifier: MIT */
/*
 * fuzz_cli.c - libFuzzer target for the option values the CLI parses
 * itself (src/cli), through the functions the CLI already exposes: the
 * first byte of an input picks the parser, the rest is the value,
 * NUL-terminated on the heap.  'm' record -m, 'g' record --call-graph
 * (record_parse_opts), 'G' report -g (report_cg_parse), 's' report --sort,
 * 'p' report --percent-limit, 'C' report -C (cmd_report), 'F' script -F
 * (cmd_script), 'i' --pid/--tid lists (cli_parse_ids), 'k' a --control spec
 * (cli_control_open), 'l' --control command lines (cli_control_next over a
 * pipe), 'P' a perfconfig file (cli_buildid_dir with $PERF_CONFIG naming
 * it), 'x' raw bytes whose x86-64 instruction length script -F insn
 * finds (script_insn_len: -1, or within the bytes and 15; and whether
 * brstackinsn takes it for a branch, script_insn_is_branch: always when
 * it does not decode), 'S' bytes read
 * as perf stat's records (script_stat_record over a stream of two events
 * with ids 1 to 4: 1 for each of its record types, 0 for the others),
 * 'M' a sample record report's memo reads raw (memo_record) and
 * 'T' diff's
 * --time string (diff_time_part, diff_time_parse, diff_time_skip); any
 * other byte is ignored.  report and script run with -i naming a
 * file that does not exist, so a value they accept ends at the file check
 * (exit 1) and one they refuse at the usage message (exit 2); anything else
 * aborts.  Each parser's result is checked against what its contract says.
 * The CLI's sources are linked in with its main() renamed (meson.build);
 * its messages go to /dev/null (the FILE stderr is replaced, descriptor 2
 * is left to libFuzzer and the sanitizers).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"
#include "diff.h"
#include "record.h"
#include "report.h"
#include "report-memo.h"
#include "script-fields.h"
#include "script-stat.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define NO_FILE "/nonexistent/perfkit-fuzz-cli.data"

static int pipe_fds[2] = { -1, -1 };	/* 'l': the control commands come through it */
static int config_fd = -1;		/* 'P': the perfconfig file, a memfd */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char path[64];

	(void)argc;
	(void)argv;
	if (pipe2(pipe_fds, O_NONBLOCK | O_CLOEXEC) < 0 || (config_fd = memfd_create("perfconfig", 0)) < 0)
		abort();
	/* The CLI's messages (a usage line for every refused value) go to a
	 * FILE of their own: libFuzzer's and the sanitizers' reports still
	 * reach descriptor 2. */
	if (!(stderr = fopen("/dev/null", "we")))
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", config_fd);
	if (setenv("PERF_CONFIG", path, 1) || unsetenv("PERFKIT_BUILDID_DIR") ||
	    unsetenv("PERF_BUILDID_DIR"))
		abort();
	return 0;
}

/* record with one option and its value: -q keeps the rounding note quiet,
 * and a command makes the target complete. */
static void record_value(const char *opt, const char *value)
{
	char *argv[] = { "record", "-q", (char *)opt, (char *)value, "--", "true", NULL };
	struct record_opts o = { .output = "perf.data", .r = { .size = sizeof(o.r) } };
	int rc = record_parse_opts(6, argv, &o);

	if (rc != 0 && rc != CLI_EXIT_USAGE)
		abort();
	if (rc == 0 && opt[1] == 'm') {
		/* A power of two of pages, at least what was asked, at most 1 GiB's worth. */
		if (!o.pages || (o.pages & (o.pages - 1)) || o.pages > (1u << 18) || !o.pages_asked ||
		    o.pages < o.pages_asked)
			abort();
	}
	if (rc == 0 && opt[1] == '-') {
		if (o.r.callgraph == PK_CALLGRAPH_DWARF) {
			if (o.r.stack_size < 8 || o.r.stack_size > 65528 || o.r.stack_size % 8)
				abort();
		} else if (o.r.callgraph != PK_CALLGRAPH_FP && o.r.callgraph != PK_CALLGRAPH_LBR) {
			abort();
		}
	}
	record_free_opts(&o);
}

/* report -g PARAMS as report_option hands it over. */
static void report_g(const char *value)
{
	struct report_opts o = { .cg = { .mode = PK_CALLCHAIN_GRAPH_ABS, .min_percent = 0.5 } };
	int rc = report_cg_parse(&o, value);

	if ((rc != 0 && rc != CLI_EXIT_USAGE) || !o.cg_given)
		abort();
	if (rc == 0 && !o.cg_none && o.cg.mode != PK_CALLCHAIN_GRAPH_ABS && o.cg.mode != PK_CALLCHAIN_FLAT &&
	    o.cg.mode != PK_CALLCHAIN_GRAPH_REL && o.cg.mode != PK_CALLCHAIN_FOLDED)
		abort();
}

/* A whole `perfkit CMD -i NO_FILE OPT VALUE`: accepted values reach the
 * file check (1), refused ones the usage message (2).  -C's refusals are
 * the library's (cli_error: 1), so either status will do for it. */
static void command(int (*cmd)(int, char **), const char *name, const char *opt, const char *value)
{
	char *argv[] = { (char *)name, "-i", NO_FILE, (char *)opt, (char *)value, NULL };
	int rc = cmd(5, argv);

	if (rc != CLI_EXIT_EVENT && rc != CLI_EXIT_USAGE)
		abort();
}

/* --pid/--tid: every id in 1..INT32_MAX, one per comma-separated word. */
static void ids(const char *list)
{
	static pid_t sentinel;
	pid_t *out = &sentinel;
	size_t nr = 7, words = 1;
	int rc = cli_parse_ids("report", list, &out, &nr);

	for (const char *p = list; *p; p++)
		words += *p == ',';
	if (rc < 0) {
		if ((rc != -EINVAL && rc != -ENOMEM) || out != &sentinel || nr != 7)
			abort();	/* a failure leaves the outputs alone */
		return;
	}
	if (rc != 0 || nr != words)
		abort();
	for (size_t i = 0; i < nr; i++)
		if (out[i] < 1)
			abort();
	free(out);
}

/* A --control spec.  fifo: names with a '/' are skipped, so only files of
 * the current directory are opened (O_RDWR, never created or truncated);
 * fd: descriptors are the process's own and stay open. */
static void control_spec(const char *spec)
{
	struct cli_control c;
	bool fifo = !strncmp(spec, "fifo:", 5);
	int rc;

	if (fifo && strchr(spec, '/'))
		return;
	rc = cli_control_open("record", spec, &c);
	if (rc != 0 && rc != -1)
		abort();
	if (rc == -1 && (c.fd != -1 || c.ack != -1))
		abort();	/* a refused spec holds nothing open */
	if (rc == 0 && (c.fd < 0 || c.ack < -1))
		abort();
	if (rc == 0 && !fifo) {
		if (fcntl(c.fd, F_GETFD) < 0 || (c.ack >= 0 && fcntl(c.ack, F_GETFD) < 0))
			abort();
		return;
	}
	if (rc == 0)
		cli_control_close(&c);
}

/* Command lines as they come down the control FIFO: each one handed out is
 * non-empty, holds no newline and lies inside the buffer.  Read until
 * nothing is handed out and nothing is left in the pipe. */
static void control_lines(const uint8_t *data, size_t size)
{
	struct cli_control c = { .fd = pipe_fds[0], .ack = -1 };
	const char *line;
	int pending = 0;

	if (size && write(pipe_fds[1], data, size) != (ssize_t)size)
		abort();	/* max_len is far below a pipe's 64 KiB */
	for (;;) {
		if ((line = cli_control_next(&c, 0))) {
			size_t len = strlen(line);

			if (!len || memchr(line, '\n', len) || line < c.buf ||
			    line + len >= c.buf + sizeof(c.buf))
				abort();
			continue;
		}
		if (ioctl(pipe_fds[0], FIONREAD, &pending) < 0)
			abort();
		if (!pending)
			break;
	}
}

/* A perfconfig file: the build-id directory it gives fits the buffer. */
static void perfconfig(const uint8_t *data, size_t size)
{
	char buf[256];
	const char *dir;

	if (ftruncate(config_fd, 0) < 0 || pwrite(config_fd, data, size, 0) != (ssize_t)size)
		abort();
	dir = cli_buildid_dir(buf, sizeof(buf));
	if (dir && (dir != buf || strlen(buf) >= sizeof(buf) - 1))
		abort();
}

/* A pipe-mode stream of two task-clock events, ids 1-2 and 3-4, for 'S',
 * in a memfd (*fd: the caller's to close after the reader is freed). */
static struct pk_data_reader *stat_reader(int *fd_out)
{
	struct { struct perf_event_header h; struct perf_event_attr a; uint64_t ids[2]; } rec;
	static const char magic[16] = "PERFILE2\x10\0\0\0\0\0\0\0";
	struct pk_data_reader *r = NULL;
	int fd = memfd_create("fuzz-stat", MFD_CLOEXEC);

	if (fd < 0 || write(fd, magic, sizeof(magic)) != (ssize_t)sizeof(magic))
		abort();
	for (uint64_t i = 0; i < 2; i++) {
		memset(&rec, 0, sizeof(rec));
		rec.h = (struct perf_event_header){ .type = 64, .size = sizeof(rec) };
		rec.a = (struct perf_event_attr){ .type = PERF_TYPE_SOFTWARE, .size = sizeof(rec.a),
						  .config = PERF_COUNT_SW_TASK_CLOCK };
		rec.ids[0] = 1 + 2 * i;
		rec.ids[1] = 2 + 2 * i;
		if (write(fd, &rec, sizeof(rec)) != (ssize_t)sizeof(rec))
			abort();
	}
	if (lseek(fd, 0, SEEK_SET) < 0 || pk_data_reader_open_fd(fd, "fuzz-stat", &r) < 0)
		abort();
	*fd_out = fd;
	return r;
}

/* 'S': records cut from the bytes, each size clamped to what is left. */
static void stat_records(const uint8_t *data, size_t size)
{
	static uint64_t buf[65536 / 8];
	int fd;
	struct pk_data_reader *r = stat_reader(&fd);
	struct script_stat *st = NULL;
	FILE *out = fopen("/dev/null", "w");

	if (!out || script_stat_new(r, &st) < 0)
		abort();
	while (size >= 8) {
		struct perf_event_header *h = (struct perf_event_header *)buf;
		size_t n;
		int rc;

		memcpy(h, data, 8);
		n = h->size < 8 ? 8 : h->size > size ? size : h->size;
		memcpy(buf, data, n);
		h->size = (uint16_t)n;
		rc = script_stat_record(st, r, h, out);
		if (rc != (h->type >= 73 && h->type <= 77) && rc != -ENOMEM)
			abort();
		data += n;
		size -= n;
	}
	script_stat_free(st);
	pk_data_reader_free(r);
	close(fd);	/* the reader leaves a caller's fd open: 223k inputs ran out of them */
	fclose(out);
}

/* 'T': each of four files' part of a --time string parsed against a span
 * and against a file without sample times; every sample time tested. */
static void diff_time(const char *v)
{
	static const uint64_t span[][2] = { { 1000000000ULL, 3500000000ULL }, { 0, 0 } };
	char buf[4096];

	for (size_t f = 0; f < 4; f++) {
		const char *part = diff_time_part(v, f, buf, sizeof(buf));

		for (size_t k = 0; part && k < 2; k++) {
			struct diff_time t = { 0 };
			int err = diff_time_parse(part, span[k][0], span[k][1], &t);

			if (err && err != -EINVAL && err != -ENODATA && err != -ENOMEM)
				abort();
			if (err ? t.r || t.nr : !t.nr)
				abort();
			for (uint64_t ns = 0; ns < 4000000000ULL; ns += 250000000ULL)
				(void)diff_time_skip(&t, ns);
			free(t.r);
		}
	}
}

/*
 * 'M': 8 bytes of a sample_type, then a SAMPLE record (its size clamped
 * to the bytes): report's memo reads a repeat's key straight from its
 * bytes (report_memo_record) and must read what pk_record_decode reads.
 * The record is kept through the decoded way (its first two sights), then
 * given again raw: where it decodes and its layout is one the raw way
 * takes, it must be counted as a repeat with the decoded time, else not.
 */
static void memo_record(const uint8_t *data, size_t size)
{
	static uint64_t buf[65536 / 8];
	struct perf_event_header *h = (struct perf_event_header *)buf;
	struct report_opts o = { .cg = { .mode = PK_CALLCHAIN_GRAPH_ABS } };
	struct pk_resolved_sample rs = { .size = sizeof(rs) };
	struct pk_hist_sample s = { .size = sizeof(s) };
	struct perf_event_attr attr = { .size = sizeof(attr) };
	struct report_event ev = { .name = "e" };
	struct report_memo *m = NULL;
	struct pk_record d = { .size = sizeof(d) };
	uint64_t t = 0, raw_bits = ~(uint64_t)(PERF_SAMPLE_READ | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK |
					      PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER |
					      PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_AUX);
	bool decoded;
	int rc;

	if (size < 16)
		return;
	memcpy(&attr.sample_type, data, 8);
	size = size - 8 > 65528 ? 65528 : size - 8;
	memcpy(buf, data + 8, size);
	h->type = PERF_RECORD_SAMPLE;
	h->size = (uint16_t)size;
	if (pk_hist_new(NULL, 0, &ev.hist) < 0 || report_memo_new(&o, &ev, 1, NULL, false, false, &m) < 0 || !m)
		abort();
	decoded = pk_record_decode(h, &attr, &d) == 0;
	for (int i = 0; decoded && i < 2; i++)	/* first and second sight: the second is kept */
		if ((rc = report_memo_sample(m, 0, &attr, &d, 1)) != 0)
			abort();
	if (decoded) {
		report_memo_keep_health(m, &rs);
		report_memo_keep_hist(m, &s, NULL, NULL, 0);
	}
	rc = report_memo_record(m, 0, &attr, h, &t);
	if (rc != (decoded && !(attr.sample_type & ~raw_bits)) ||
	    (rc && (d.sample.fields & PERF_SAMPLE_TIME) && t != d.sample.time))
		abort();
	if (report_memo_flush(m) < 0 && rc)
		abort();
	report_memo_free(m);
	pk_hist_free(ev.hist);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *v;

	if (size < 1)
		return 0;
	if (data[0] == 'l') {
		control_lines(data + 1, size - 1);
		return 0;
	}
	if (data[0] == 'P') {
		perfconfig(data + 1, size - 1);
		return 0;
	}
	if (data[0] == 'S') {
		stat_records(data + 1, size - 1);
		return 0;
	}
	if (data[0] == 'M') {
		memo_record(data + 1, size - 1);
		return 0;
	}
	if (data[0] == 'x') {	/* script -F insn's instruction length, of raw bytes */
		int len = script_insn_len(data + 1, size - 1);

		if (len != -1 && (len < 1 || (size_t)len > size - 1 || len > 15))
			abort();
		if (len == -1 && !script_insn_is_branch(data + 1, (int)(size - 1)))
			abort();
		return 0;
	}
	if (!(v = malloc(size)))
		return 0;
	memcpy(v, data + 1, size - 1);
	v[size - 1] = '\0';
	switch (data[0]) {
	case 'm': record_value("-m", v); break;
	case 'g': record_value("--call-graph", v); break;
	case 'G': report_g(v); break;
	case 's': command(cmd_report, "report", "--sort", v); break;
	case 'p': command(cmd_report, "report", "--percent-limit", v); break;
	case 'C': command(cmd_report, "report", "-C", v); break;
	case 'F': command(cmd_script, "script", "-F", v); break;
	case 'i': ids(v); break;
	case 'k': control_spec(v); break;
	case 'T': diff_time(v); break;
	default: break;
	}
	free(v);
	return 0;
}
