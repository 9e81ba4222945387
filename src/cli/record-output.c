/* SPDX-License-Identifier: MIT */
/*
 * record-output.c - the output files of `perfkit record` when there are
 * several or their names carry the time: perf's --switch-output (on
 * SIGUSR2, a size or a time), --switch-max-files, --timestamp-filename and
 * --max-size, and the size values of those and of --mmap-flush.  Each file
 * ends whole (the library's pk_recorder_switch and the writer's rename),
 * is named PATH.<YYYYmmddHHMMSScc> as perf names it, never over a file
 * that is there, and only files this run made are ever deleted.
 */
#include "record.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/*
 * A number with one of the units in `units` after it (B K M G, s m h d),
 * each worth mult[i]; `bare` is the multiplier of a number without one (0:
 * a unit is needed).  Returns 0 with the value, or -1 (not such a value).
 */
static int parse_tagged(const char *arg, const char *units, const uint64_t *mult, uint64_t bare,
			uint64_t *out)
{
	char *end;
	const char *u;
	unsigned long long v;

	if (!isdigit((unsigned char)arg[0]))
		return -1;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || (!*end && !bare))
		return -1;
	if (!*end) {
		*out = v * bare;
		return 0;
	}
	u = strchr(units, toupper((unsigned char)*end)) ? strchr(units, toupper((unsigned char)*end))
							: strchr(units, *end);
	if (!u || end[1] || v > UINT64_MAX / mult[u - units])
		return -1;
	*out = v * mult[u - units];
	return 0;
}

static const uint64_t size_mult[] = { 1, 1ULL << 10, 1ULL << 20, 1ULL << 30 };

int record_parse_size(const char *opt, const char *arg, uint64_t *out)
{
	if (parse_tagged(arg, "BKMG", size_mult, 1, out) < 0)
		return cli_usage("record", "%s takes a size in bytes, or with B, K, M or G (64K, 10M), "
				 "not '%s'", opt, arg);
	return 0;
}

int record_parse_switch(struct record_opts *o, const char *arg)
{
	static const uint64_t time_mult[] = { 1, 60, 3600, 86400 };
	uint64_t v;

	o->switch_output = true;
	if (!arg || !strcmp(arg, "signal")) {
		o->switch_signal = true;
		return 0;
	}
	/* Size units are capitals and time units small letters, as in perf. */
	if (parse_tagged(arg, "BKMG", size_mult, 0, &v) == 0 && strpbrk(arg, "BKMG") && v) {
		o->switch_size = v;
		return 0;
	}
	if (parse_tagged(arg, "smhd", time_mult, 0, &v) == 0 && v && v <= 31536000) {
		o->switch_secs = (unsigned)v;
		return 0;
	}
	return cli_usage("record", "--switch-output takes signal, a size (10M: B, K, M, G) or a time "
			 "(30s: s, m, h, d), not '%s'", arg);
}

int record_out_check(const struct record_opts *o)
{
	struct stat st;

	if (!o->switch_output && !o->timestamp_filename)
		return 0;
	if (!strcmp(o->output, "-"))
		return cli_usage("record", "--%s names files: it does not go with -o -, a stream",
				 o->switch_output ? "switch-output" : "timestamp-filename");
	/* perf renames the device itself; we refuse. */
	if (stat(o->output, &st) == 0 && (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)))
		return cli_usage("record", "--%s renames the file it wrote, and %s is a device, which "
				 "is never renamed: write a file (-o PATH)",
				 o->switch_output ? "switch-output" : "timestamp-filename", o->output);
	return 0;
}

/* "PATH.YYYYmmddHHMMSScc" as perf's fetch_current_timestamp makes it, with
 * ".N" after it when that name is taken (two switches within 10 ms). */
static int next_name(const char *path, char *buf, size_t len)
{
	struct timeval tv;
	struct tm tm;
	char dt[32];
	struct stat st;
	int n;

	gettimeofday(&tv, NULL);
	if (!localtime_r(&tv.tv_sec, &tm) || !strftime(dt, sizeof(dt), "%Y%m%d%H%M%S", &tm))
		return -EINVAL;
	n = snprintf(buf, len, "%s.%s%02u", path, dt, (unsigned)tv.tv_usec / 10000);
	for (int i = 1; n > 0 && (size_t)n < len && lstat(buf, &st) == 0 && i < 1000; i++)
		n = snprintf(buf, len, "%s.%s%02u.%d", path, dt, (unsigned)tv.tv_usec / 10000, i);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int record_out_name(struct record_out *out, const struct record_opts *o, struct pk_data_writer *w)
{
	int err = next_name(o->output, out->name, sizeof(out->name));

	if (err < 0) {
		fprintf(stderr, "perfkit record: cannot name the file after %s: %s\n", o->output,
			strerror(-err));
		return err;
	}
	if ((err = pk_data_writer_set_path(w, out->name)) < 0)
		cli_error("record", NULL);
	return err;
}

/*
 * The file just named out->name is in place: say so as perf does, and with
 * --switch-max-files delete the oldest file this run made when there are
 * more, and only when it is still the file we made (same inode).
 */
void record_out_done(struct record_out *out, const struct record_opts *o, bool say)
{
	struct stat st;
	struct record_file *slot;

	if (say && !o->quiet)
		fprintf(stderr, "[ perfkit record: Dump %s ]\n", out->name);
	if (o->switch_max_files <= 0 || stat(out->name, &st) < 0)
		return;
	if (!out->files && !(out->files = calloc((size_t)o->switch_max_files, sizeof(*out->files))))
		return;	/* nothing deleted: more files, never fewer */
	slot = &out->files[out->next];
	out->next = (out->next + 1) % (size_t)o->switch_max_files;
	if (slot->name && lstat(slot->name, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_dev == slot->dev && st.st_ino == slot->ino)
		unlink(slot->name);
	free(slot->name);
	slot->name = strdup(out->name);
	stat(out->name, &st);
	slot->dev = st.st_dev;
	slot->ino = st.st_ino;
}

int record_out_switch(struct record_out *out, const struct record_opts *o, struct pk_recorder *rec,
		      struct pk_data_writer **w, uint64_t wakeups)
{
	struct pk_data_writer *next, *old = *w;
	int err, rerr;

	if (pk_data_writer_create(o->output, &next) < 0)
		return cli_error("record", NULL), -1;
	/* perf's next file still describes the BPF programs unloaded so far. */
	if (pk_data_writer_set_cmdline(next, out->argc, out->argv) < 0 ||
	    pk_data_writer_keep_bpf(next, old) < 0) {
		cli_error("record", NULL);
		pk_data_writer_abort(next);
		return -1;
	}
	if (!o->quiet)
		fprintf(stderr, "[ perfkit record: dump data: Woken up %llu times ]\n",
			(unsigned long long)(wakeups - out->wakeups));
	out->wakeups = wakeups;
	/* Past its checks the recorder writes into `next`, whatever it says:
	 * a failure is the sink's, which the end of the recording reports. */
	if ((rerr = pk_recorder_switch(rec, next)) == -EINVAL) {
		cli_error("record", NULL);
		pk_data_writer_abort(next);
		return rerr;
	}
	*w = next;
	/* The old file is whole whatever came after its drain: keep it. */
	if ((err = record_out_name(out, o, old)) < 0) {
		pk_data_writer_abort(old);
		return err;
	}
	if ((err = pk_data_writer_finish(old)) < 0)
		return cli_error("record", NULL), err;
	record_out_done(out, o, true);
	return rerr;
}

int record_out_cmdline(struct record_out *out, int argc, char **argv)
{
	ssize_t n = readlink("/proc/self/exe", out->exe, sizeof(out->exe) - 1);

	if (n <= 0)	/* perf's perf_exe() says "perf" then */
		n = (ssize_t)(stpcpy(out->exe, "perfkit") - out->exe);
	out->exe[n] = 0;
	if (!(out->argv = calloc((size_t)argc + 2, sizeof(*out->argv))))
		return -ENOMEM;
	out->argv[0] = out->exe;
	memcpy(out->argv + 1, argv, (size_t)argc * sizeof(*argv));
	out->argc = argc + 1;
	return 0;
}

void record_out_free(struct record_out *out, const struct record_opts *o)
{
	free(out->argv);
	out->argv = NULL;
	for (int i = 0; out->files && i < o->switch_max_files; i++)
		free(out->files[i].name);
	free(out->files);
	out->files = NULL;
}
