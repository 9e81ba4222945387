/* SPDX-License-Identifier: MIT */
/*
 * dlfilter-test.c - a perf script dlfilter for test_script_dlfilter.sh,
 * built by the test against src/cli/perf-dlfilter.h and loaded by both
 * perf script and perfkit script.  --dlarg DSO --dlarg OUT: filter_event_early
 * drops every third sample by time (before anything is resolved);
 * filter_event keeps the samples whose ip resolve_ip finds in an object
 * whose name contains DSO, and drops those the other filters already
 * hide (al->filtered); stop writes to OUT the counts and a checksum of what
 * the callbacks answered (symbols, their extent and binding, comms, attr
 * types, argument count).
 * With DSO "fail5" filter_event keeps four samples, then fails (returns -1).
 */
#include "perf-dlfilter.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct perf_dlfilter_fns perf_dlfilter_fns;

struct counts {
	unsigned long early, dropped, kept, syms, insns, calls, ends, globals;
	unsigned long long sum;
	const char *dso, *out;
	int argc;
};

static unsigned long long hash(const char *s)
{
	unsigned long long h = 5381;

	while (s && *s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

int start(void **data, void *ctx)
{
	struct counts *c = calloc(1, sizeof(*c));
	char **argv;

	if (!c)
		return -1;
	argv = perf_dlfilter_fns.args(ctx, &c->argc);
	if (c->argc != 2) {
		free(c);
		return -1;	/* the host calls stop all the same, with no data */
	}
	c->dso = argv[0];
	c->out = argv[1];
	*data = c;
	return 0;
}

int filter_event_early(void *data, const struct perf_dlfilter_sample *s, void *ctx)
{
	struct counts *c = data;

	(void)ctx;
	if (s->time % 3 == 0) {
		c->early++;
		return 1;
	}
	return 0;
}

int filter_event(void *data, const struct perf_dlfilter_sample *s, void *ctx)
{
	struct counts *c = data;
	const struct perf_dlfilter_al *al = perf_dlfilter_fns.resolve_ip(ctx);
	struct perf_event_attr *attr = perf_dlfilter_fns.attr(ctx);
	__u32 len = 0;

	if (!al || !attr)
		return -1;
	if (!strcmp(c->dso, "fail5"))	/* keeps the first four, then fails */
		return ++c->calls == 5 ? -1 : 0;
	c->sum = c->sum * 31 + hash(al->sym) + hash(al->comm) + hash(s->event) + attr->type + al->symoff;
	c->syms += al->sym != NULL;
	/* the symbol's extent and binding, as perf's (0 without a symbol) */
	c->sum = c->sum * 31 + (al->sym_end - al->sym_start) * 7 + al->sym_binding;
	c->ends += al->sym && al->sym_end > al->sym_start && al->addr >= al->sym_start && al->addr < al->sym_end;
	c->globals += al->sym && al->sym_binding == 1;	/* STB_GLOBAL */
	if (perf_dlfilter_fns.insn(ctx, &len) && len)
		c->insns++;
	if (al->filtered || !al->dso || !strstr(al->dso, c->dso)) {
		c->dropped++;
		return 1;
	}
	c->kept++;
	return 0;
}

int stop(void *data, void *ctx)
{
	struct counts *c = data;
	FILE *f = c ? fopen(c->out, "w") : NULL;

	(void)ctx;
	if (f) {
		fprintf(f, "early %lu dropped %lu kept %lu syms %lu (%lu inside [sym_start, sym_end), %lu global) insns %lu sum %llx\n",
			c->early, c->dropped, c->kept, c->syms, c->ends, c->globals, c->insns, c->sum);
		fclose(f);
	}
	free(c);
	return 0;
}

const char *filter_description(const char **long_description)
{
	*long_description = "every third sample by time, then those outside DSO";
	return "perfkit's test filter";
}
