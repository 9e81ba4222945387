/* SPDX-License-Identifier: MIT */
/*
 * uprobe-count.c - count the calls of a function with a uprobe: the event
 * "uprobe:<this executable>:parse_line" puts a breakpoint on the function's
 * first instruction (the uprobe PMU, no tracefs needed) and counts each
 * time this thread runs it.  The function must be a real symbol (not
 * static-inlined away): hence noinline and external linkage.
 */
#include <perfkit.h>
#include <stdio.h>
#include <unistd.h>

static volatile unsigned long sink;

void parse_line(int n);

__attribute__((noinline)) void parse_line(int n)
{
	sink += (unsigned long)n;
}

int main(void)
{
	char exe[4096], spec[4200];
	struct pk_target self = { .size = sizeof(self) };
	struct pk_count c = { .size = sizeof(c) };
	struct pk_events *ev;
	struct pk_evlist *l = NULL;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0 || (size_t)n >= sizeof(exe) - 1)
		return perror("/proc/self/exe"), 1;
	exe[n] = '\0';
	snprintf(spec, sizeof(spec), "uprobe:%s:parse_line", exe);
	if (pk_events_parse(spec, NULL, &ev) < 0 || pk_evlist_new(ev, &self, &l) < 0 ||
	    pk_evlist_open(l) < 0) {
		fprintf(stderr, "%s: %s\n", spec, pk_last_error()->why);
		return 1;
	}
	pk_events_free(ev);
	pk_evlist_enable(l);
	for (int i = 0; i < 1000; i++)
		parse_line(i);
	pk_evlist_disable(l);
	parse_line(-1);				/* not counted: disabled */
	if (pk_evlist_read(l, 0, &c) < 0)
		return fprintf(stderr, "%s\n", pk_last_error()->why), 1;
	printf("parse_line called %llu times\n", (unsigned long long)c.value);
	pk_evlist_free(l);
	return 0;
}
