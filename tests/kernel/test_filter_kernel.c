/* SPDX-License-Identifier: MIT */
/*
 * test_filter_kernel.c - tracepoint filters through the library: counting
 * this thread's write(2) calls with syscalls:sys_enter_write, a filter on
 * the count field keeps exactly the calls it names; a filter that does not
 * parse, or one on a software event, is refused with -EINVAL, and a second
 * filter with -EEXIST (the kernel keeps the first).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"

static struct pk_evlist *open_events(const char *spec)
{
	struct pk_events *ev;
	struct pk_evlist *l;
	struct pk_target t = { .size = sizeof(t) };
	int err = pk_events_parse(spec, NULL, &ev);

	if (err < 0)
		return NULL;	/* no tracefs here */
	assert_int_equal(pk_evlist_new(ev, &t, &l), 0);
	pk_events_free(ev);
	if (pk_evlist_open(l) < 0) {
		pk_evlist_free(l);
		return NULL;	/* tracepoints need privilege here */
	}
	return l;
}

static void test_filter_keeps_what_it_names(void **state)
{
	struct pk_evlist *l = open_events("syscalls:sys_enter_write,task-clock");
	struct pk_count c = { .size = sizeof(c) };
	char buf[8] = "1234567";
	int fd;

	(void)state;
	if (!l)
		skip();
	fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	assert_true(fd >= 0);
	/* A filter that does not parse is refused, and leaves none behind. */
	assert_int_equal(pk_evlist_filter(l, 0, "no_such_field == 1"), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "filter"));
	assert_int_equal(pk_evlist_filter(l, 0, "count == 7"), 0);
	assert_int_equal(pk_evlist_enable(l), 0);
	for (int i = 0; i < 5; i++)
		assert_int_equal(write(fd, buf, 7), 7);
	for (int i = 0; i < 4; i++)
		assert_int_equal(write(fd, buf, 3), 3);
	assert_int_equal(pk_evlist_disable(l), 0);
	assert_int_equal(pk_evlist_read(l, 0, &c), 0);
	assert_int_equal(c.value, 5);
	/* The kernel keeps the first filter; the error says so. */
	assert_int_equal(pk_evlist_filter(l, 0, "count == 3"), -EEXIST);
	assert_non_null(strstr(pk_last_error()->why, "already has a filter"));
	/* A software event takes no filter; indexes are checked. */
	assert_int_equal(pk_evlist_filter(l, 1, "count == 7"), -EINVAL);
	assert_int_equal(pk_evlist_filter(l, 2, "1"), -ERANGE);
	close(fd);
	pk_evlist_free(l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_filter_keeps_what_it_names),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
