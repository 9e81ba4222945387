/* SPDX-License-Identifier: MIT */
/*
 * count.c - the counting example of the perf_event_open(2) man page, done
 * with libperfkit: count an event around one printf of this thread, in user
 * space only.  The man page counts instructions; give another event as the
 * first argument where the machine has no PMU ("./count task-clock:u").
 */
#include <perfkit.h>
#include <stdio.h>

int main(int argc, char **argv)
{
	const char *event = argc > 1 ? argv[1] : "instructions:u";	/* :u = exclude_kernel, exclude_hv */
	struct pk_target self = { .size = sizeof(self) };		/* no threads, no cpus: this thread, any CPU */
	struct pk_count c = { .size = sizeof(c) };
	struct pk_events *ev;
	struct pk_evlist *l = NULL;

	/* Parse, then open disabled (as the man page's attr.disabled = 1). */
	if (pk_events_parse(event, NULL, &ev) < 0 || pk_evlist_new(ev, &self, &l) < 0 ||
	    pk_evlist_open(l) < 0) {
		fprintf(stderr, "%s: %s\n", event, pk_last_error()->why);
		pk_events_free(ev);
		pk_evlist_free(l);
		return 1;
	}
	pk_events_free(ev);			/* the evlist keeps its own copy */

	pk_evlist_reset(l);			/* ioctl(fd, PERF_EVENT_IOC_RESET, 0) */
	pk_evlist_enable(l);			/* ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) */
	printf("Measuring %s for this printf\n", event);
	pk_evlist_disable(l);			/* ioctl(fd, PERF_EVENT_IOC_DISABLE, 0) */

	if (pk_evlist_read(l, 0, &c) < 0)	/* read(fd, &count, sizeof(count)), scaled */
		return fprintf(stderr, "read: %s\n", pk_last_error()->why), 1;
	printf("Used %llu %s\n", (unsigned long long)c.value, event);
	pk_evlist_free(l);			/* close(fd) */
	return 0;
}
