/* SPDX-License-Identifier: MIT */
/*
 * tool.c - perf's tool events (duration_time, user_time, system_time):
 * their names and descriptions, and parsing one into an event whose attr is
 * the software dummy event perf 6.1 gives them.  The evlist measures them
 * itself (counter/tool.c); the kernel never sees them.
 */
#include "parse.h"

#include <errno.h>
#include <string.h>

static const struct {
	const char *name;
	const char *desc;
} tools[] = {
	[PK_TOOL_DURATION_TIME] = { "duration_time", "Wall-clock time while counting, in ns" },
	[PK_TOOL_USER_TIME] = { "user_time", "User CPU time of the command, in ns" },
	[PK_TOOL_SYSTEM_TIME] = { "system_time", "System CPU time of the command, in ns" },
};

enum pk_tool_event pk__tool_find(const char *name)
{
	/* Exact names only: perf's lexer matches them as keywords. */
	for (int t = PK_TOOL_DURATION_TIME; t <= PK_TOOL_SYSTEM_TIME; t++)
		if (!strcmp(name, tools[t].name))
			return (enum pk_tool_event)t;
	return PK_TOOL_NONE;
}

const char *pk__tool_name(enum pk_tool_event t)
{
	return t > PK_TOOL_NONE && t <= PK_TOOL_SYSTEM_TIME ? tools[t].name : NULL;
}

const char *pk__tool_desc(enum pk_tool_event t)
{
	return t > PK_TOOL_NONE && t <= PK_TOOL_SYSTEM_TIME ? tools[t].desc : NULL;
}

int pk__parse_add_tool(struct pk__parser *p, const struct pk__span *s, const struct pk__parts *x,
		       enum pk_tool_event t)
{
	struct pk__event *d = pk__parse_add(p, s->start);
	int err;

	if (!d)
		return pk__error_nomem("the event list");
	d->a.attr.type = PERF_TYPE_SOFTWARE;
	d->a.attr.config = PERF_COUNT_SW_DUMMY;
	d->desc.source = PK_SRC_TOOL;
	d->desc.pmu = "tool";
	d->desc.tool = t;
	/* Modifiers are accepted and kept in the name, as perf does; they
	 * change nothing in what is measured. */
	if (x->mods_len && (err = pk__parse_mods(p, s, x->mods, x->mods_len, d, false, true)) < 0)
		return err;
	d->desc.name = pk__parse_own_copy(p, p->spec + s->start, s->end - s->start);
	if (!d->desc.name)
		return pk__error_nomem("an event name");
	return pk__parse_set_canonical(p, d, tools[t].name, false);
}

int pk__tool_check_group(const struct pk__parser *p, const struct pk__span *gs, size_t first)
{
	for (size_t k = first; p->ev->nr - first > 1 && k < p->ev->nr; k++) {
		const struct pk__event *d = &p->ev->ev[k];

		if (d->desc.tool == PK_TOOL_NONE)
			continue;
		pk__parse_error(p, gs, (size_t)(d->desc.column - 1), -EINVAL,
				"%s is measured by the tool, not the kernel: it cannot be in a {group}",
				tools[d->desc.tool].name);
		pk__error_hint("list it outside the braces: {task-clock,page-faults},%s",
			       tools[d->desc.tool].name);
		return -EINVAL;
	}
	return 0;
}
