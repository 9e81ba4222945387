/* SPDX-License-Identifier: MIT */
/*
 * record-threads.c - `perfkit record --threads[=SPEC]`: perf's parallel
 * streaming mode, whose output is a directory (PATH/data with the header
 * and the synthesized records, PATH/data.N with the records of ring N, a
 * ring per CPU, an overwrite ring sharing its CPU's), written by the library's directory writer
 * (pk_data_writer_create_dir).  SPEC is perf's: cpu (the default), core,
 * package, numa, or masks MAP/AFFINITY[:MAP/AFFINITY...] of CPU lists;
 * it is checked as perf checks it.  The options perf refuses or ignores
 * in this mode are refused or ignored here with perf's words.
 */
#include "record.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* A CPU list: N or N-M, separated by commas. */
static bool cpu_list_ok(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len) {
		size_t start = i;

		while (i < len && isdigit((unsigned char)s[i]))
			i++;
		if (i == start)
			return false;
		if (i < len && s[i] == '-') {
			start = ++i;
			while (i < len && isdigit((unsigned char)s[i]))
				i++;
			if (i == start)
				return false;
		}
		if (i < len && s[i++] != ',')
			return false;
		if (i == len && s[len - 1] == ',')
			return false;
	}
	return len > 0;
}

/* MAP/AFFINITY[:MAP/AFFINITY...], each a CPU list. */
static bool user_spec_ok(const char *arg)
{
	for (const char *p = arg; *p;) {
		const char *end = strchrnul(p, ':'), *slash = memchr(p, '/', (size_t)(end - p));

		if (!slash || !cpu_list_ok(p, (size_t)(slash - p)) ||
		    !cpu_list_ok(slash + 1, (size_t)(end - slash - 1)))
			return false;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return false;
	}
	return *arg != 0;
}

int record_threads_parse(struct record_opts *o, const char *arg)
{
	static const char *const tags[] = { "cpu", "core", "package", "numa" };

	o->threads = true;
	if (!arg)
		return 0;
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (!strcmp(arg, tags[i]))
			return 0;
	if (user_spec_ok(arg))
		return 0;
	return cli_usage("record", "--threads takes cpu, core, package, numa or CPU masks "
			 "MAP/AFFINITY[:MAP/AFFINITY...] (0-3/0:4-7/4), not '%s'", arg);
}

int record_threads_check(struct record_opts *o)
{
	if (!o->threads)
		return 0;
	if (!strcmp(o->output, "-"))
		return cli_usage("record", "--threads writes a directory (PATH/data, PATH/data.N): it does "
				 "not go with -o -, a stream");
	if (o->r.per_thread) {
		fprintf(stderr, "--per-thread option is mutually exclusive to parallel streaming mode.\n");
		return CLI_EXIT_USAGE;
	}
	/* perf warns and goes on without them. */
	if (o->switch_event) {
		fprintf(stderr, "WARNING: --switch-output-event option is not available in parallel "
			"streaming mode.\n");
		free(o->switch_event);
		o->switch_event = NULL;
		o->switch_output = o->switch_signal = false;
	} else if (o->switch_output) {
		fprintf(stderr, "WARNING: --switch-output option is not available in parallel streaming "
			"mode.\n");
		o->switch_output = o->switch_signal = false;
		o->switch_size = 0;
		o->switch_secs = 0;
	}
	if (o->timestamp_filename) {
		fprintf(stderr, "WARNING: --timestamp-filename option is not available in parallel "
			"streaming mode.\n");
		o->timestamp_filename = false;
	}
	return 0;
}

/* Whether some event writes backward: its rings then follow the normal
 * ones, one more per CPU, and share their data.N as in perf. */
static bool any_overwrite(const struct record_opts *o, const struct pk_recorder *rec)
{
	const struct pk_events *ev = pk_recorder_events(rec);

	for (size_t i = 0; i < pk_events_nr(ev); i++)
		if (pk_events_desc(ev, i)->overwrite == 1 ||
		    (o->r.overwrite && pk_events_desc(ev, i)->overwrite != 0))
			return true;
	return false;
}

int record_threads_writer(const struct record_opts *o, struct pk_recorder *rec, struct pk_data_writer **w)
{
	size_t nr = pk_recorder_nr_rings(rec);

	if (any_overwrite(o, rec) && nr % 2 == 0)
		nr /= 2;
	if (pk_data_writer_create_dir(o->output, nr, w) < 0)
		return cli_error("record", NULL);
	return 0;
}
