/* SPDX-License-Identifier: MIT */
/*
 * sysfake.h - fixtures shared by the sys layer's unit tests: fake sysfs
 * trees built with mkdtemp (with and without a hardware PMU), a fake kernel
 * installed through the pk__sys_set_ops seam, and a substring assertion
 * that names the table row it is checking.
 */
#ifndef PK_TEST_SYSFAKE_H
#define PK_TEST_SYSFAKE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>

#include "perfkit.h"
#include "sys/sys.h"

/*
 * Both trees: CPUs 0-3 possible, 0-2 online; the software PMU (type 1) and
 * an uncore PMU "uncore_imc" (type 42).  root_hw also has a "cpu" PMU.
 */
extern char root_hw[256], root_nohw[256];

/* put - write `text` to <root>/<rel>, creating directories. */
void put(const char *root, const char *rel, const char *text);

/* cmocka group setup/teardown: build both trees under $TMPDIR, remove them. */
int sysfake_group_setup(void **state);
int sysfake_group_teardown(void **state);

/* What the fake kernel does, and what it saw on its last call. */
struct sysfake {
	int err;		/* errno to fail with, or 0 to succeed (fd 42) */
	uint32_t accept_size;	/* E2BIG, writing this size back, for any other size */
	uint32_t write_size;	/* what err == E2BIG writes into attr->size */
	int retry_err;		/* errno for every call after the first, or 0 */
	int calls, closes, last_closed;
	unsigned char seen[512];	/* the attr bytes of the last call */
	uint32_t seen_size;
	pid_t pid;
	int cpu, group_fd;
	unsigned long flags;
};
extern struct sysfake fake;

/* cmocka setup/teardown: reset `fake`, install it (perf_event_open and
 * close) and point PERFKIT_SYSFS_ROOT at root_hw; undo both. */
int sysfake_setup(void **state);
int sysfake_teardown(void **state);

/* The table row being checked ("row 3 (EINVAL): "), or "". */
extern const char *row_label;

/* assert_contains - fail, naming row_label, unless `needle` is in `hay`. */
void assert_contains(const char *hay, const char *needle);

#endif
