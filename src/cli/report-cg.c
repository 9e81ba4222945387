/* SPDX-License-Identifier: MIT */
/*
 * report-cg.c - report's call-graph options as perf 6.1 takes them: the
 * -g string (print type, order, threshold, print limit, the key that
 * matches frames: function, address or srcline; the value printed:
 * percent, period or count; each word shortened as perf allows) and what the file decides once open (graphs
 * when its samples carry call chains, Children by default with them,
 * caller order with Children or -G; -g without chains refused in perf's
 * words, ignored in a pipe, where perf decides on sample type 0: no
 * Children, graphs when the samples bring chains).
 */
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* Whether `word` is `name` or a start of it (perf's strncmp(word, name, strlen(word))). */
static bool abbrev(const char *word, const char *name)
{
	return !strncmp(word, name, strlen(word));
}

/* perf's callchain key words, tried in its order (so "s" is srcline, "f" function). */
static bool cg_key(struct report_opts *o, const char *w)
{
	static const struct {
		const char *name;
		enum pk_callchain_key key;
	} keys[] = {
		{ "function", PK_CALLCHAIN_KEY_FUNCTION }, { "address", PK_CALLCHAIN_KEY_ADDRESS },
		{ "srcline", PK_CALLCHAIN_KEY_SRCLINE },
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (abbrev(w, keys[i].name)) {
			o->cg.key = keys[i].key;
			return true;
		}
	return false;
}

static bool cg_word(struct report_opts *o, const char *w)
{
	static const struct {
		const char *name;
		enum pk_callchain_mode mode;
	} modes[] = {
		{ "graph", PK_CALLCHAIN_GRAPH_ABS }, { "flat", PK_CALLCHAIN_FLAT },
		{ "fractal", PK_CALLCHAIN_GRAPH_REL }, { "folded", PK_CALLCHAIN_FOLDED },
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (abbrev(w, modes[i].name)) {
			o->cg.mode = modes[i].mode;
			return true;
		}
	if (abbrev(w, "caller") || abbrev(w, "callee")) {
		o->cg.caller = abbrev(w, "caller");
		o->order_set = true;
		return true;
	}
	if (cg_key(o, w))
		return true;
	/* perf's value words, tried in its order ("p" is percent) */
	if (abbrev(w, "percent") || abbrev(w, "period") || abbrev(w, "count")) {
		o->cg.value = abbrev(w, "percent") ? REPORT_CG_PERCENT
			      : abbrev(w, "period") ? REPORT_CG_PERIOD : REPORT_CG_COUNT;
		return true;
	}
	return false;
}

int report_cg_parse(struct report_opts *o, const char *arg)
{
	const char *p = arg ? arg : "";
	int numbers = 0;

	o->cg_given = true;
	o->cg_none = false;
	while (*p) {
		size_t len = strcspn(p, ",");
		const char *start = p;
		char w[32], *end;

		snprintf(w, sizeof(w), "%.*s", (int)(len < sizeof(w) ? len : sizeof(w) - 1), p);
		p += len + (p[len] == ',');
		if (!len)
			continue;
		if (len < sizeof(w) && abbrev(w, "none")) {
			o->cg_none = true;
			return 0;
		}
		if (len < sizeof(w) && cg_word(o, w))
			continue;
		if (numbers == 0)
			o->cg.min_percent = strtod(w, &end);
		else
			o->cg.print_limit = (uint32_t)strtoul(w, &end, 0);
		if (end == w || *end || numbers++ == 2 || len >= sizeof(w))
			return cli_usage("report", "bad -g word '%.*s' (print type graph, flat, fractal, "
					 "folded or none; caller or callee; function, address or srcline; "
					 "percent, period or count; a threshold; a print limit)",
					 (int)len, start);
	}
	return 0;
}

bool report_is_pipe(const struct pk_data_reader *r)
{
	struct pk_data_layout l = { .size = sizeof(l) };

	return pk_data_reader_layout(r, &l) == 0 && !l.data_offset;
}

int report_cg_setup(struct report_opts *o, struct pk_data_reader *r)
{
	uint64_t type = 0;

	for (size_t i = 0; i < pk_data_reader_nr_events(r); i++)
		type |= pk_data_reader_attr(r, i)->sample_type;
	if (!(type & PERF_SAMPLE_CALLCHAIN) && o->cg_given && !o->cg_none &&
	    !report_is_pipe(r)) {
		/* perf 6.1's words, after its first comment line, then no
		 * table and status 0 (its cmd_report clears the error) */
		if (!o->quiet && !o->header)
			fputs("# To display the perf.data header info, please use --header/--header-only "
			      "options.\n#\n", stdout);
		cli_message(stderr, "Error:\nSelected -g or --branch-history.\nBut no callchain or "
			    "branch data.\nDid you call 'perf record' without -g or -b?\n");
		return -1;
	}
	if (report_is_pipe(r)) {
		/* perf decides before a pipe's attrs arrive, on sample type 0:
		 * Children off, call graphs on (shown when samples bring
		 * chains), caller order kept from Children's default. */
		o->callchain = !o->cg_none;
		o->children = false;
		if ((o->children_opt != 0 && !o->order_set) || o->inverted)
			o->cg.caller = true;
		return 0;
	}
	o->callchain = (type & PERF_SAMPLE_CALLCHAIN) && !o->cg_none;
	/* perf: Children on by default, and silently off without call chains;
	 * --mem-mode turns them off after they set caller order. */
	o->children = (type & PERF_SAMPLE_CALLCHAIN) && o->children_opt != 0;
	if ((o->children && !o->order_set) || o->inverted)
		o->cg.caller = true;
	o->children &= !o->mem_mode;
	return 0;
}
