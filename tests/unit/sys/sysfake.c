/* SPDX-License-Identifier: MIT */
/*
 * sysfake.c - the fixtures behind sysfake.h: fake sysfs trees, a fake
 * perf_event_open/close for the seam, and assert_contains.
 */
#include "sysfake.h"
#include "tmpdir.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

char root_hw[256], root_nohw[256];
struct sysfake fake;
const char *row_label = "";

void put(const char *root, const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void make_tree(char *root, bool hw)
{
	assert_non_null(tmp_mkdtemp(root, sizeof(root_hw), "perfkit-sys"));
	put(root, "bus/event_source/devices/software/type", "1\n");
	put(root, "bus/event_source/devices/uncore_imc/type", "42\n");
	if (hw)
		put(root, "bus/event_source/devices/cpu/type", "4\n");
	put(root, "devices/system/cpu/possible", "0-3\n");
	put(root, "devices/system/cpu/online", "0-2\n");
}

int sysfake_group_setup(void **state)
{
	(void)state;
	make_tree(root_hw, true);
	make_tree(root_nohw, false);
	return 0;
}

int sysfake_group_teardown(void **state)
{
	int a = tmp_rmtree(root_hw), b = tmp_rmtree(root_nohw);

	(void)state;
	return a == 0 && b == 0 ? 0 : -1;
}

/* Behaves like the kernel's perf_copy_attr as far as size goes: a size it
 * does not accept is answered with E2BIG and its own size written back. */
static int fake_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		     unsigned long flags)
{
	uint32_t n = attr->size < sizeof(fake.seen) ? attr->size : sizeof(fake.seen);

	fake.calls++;
	fake.seen_size = attr->size;
	memset(fake.seen, 0, sizeof(fake.seen));
	memcpy(fake.seen, attr, n > sizeof(*attr) ? n : sizeof(*attr));
	fake.pid = pid;
	fake.cpu = cpu;
	fake.group_fd = group_fd;
	fake.flags = flags;
	if (fake.calls > 1 && fake.retry_err) {
		errno = fake.retry_err;
		return -1;
	}
	if (fake.accept_size && attr->size != fake.accept_size) {
		attr->size = fake.accept_size;
		errno = E2BIG;
		return -1;
	}
	if (fake.err) {
		if (fake.err == E2BIG)
			attr->size = fake.write_size;
		errno = fake.err;
		return -1;
	}
	return 42;
}

static int fake_close(int fd)
{
	fake.closes++;
	fake.last_closed = fd;
	return 0;
}

static const struct pk__sys_ops fake_ops = {
	.perf_event_open = fake_open,
	.close = fake_close,
};

int sysfake_setup(void **state)
{
	(void)state;
	memset(&fake, 0, sizeof(fake));
	pk__error_clear();
	pk__sys_set_ops(&fake_ops);
	setenv("PERFKIT_SYSFS_ROOT", root_hw, 1);
	return 0;
}

int sysfake_teardown(void **state)
{
	(void)state;
	pk__sys_set_ops(NULL);
	unsetenv("PERFKIT_SYSFS_ROOT");
	return 0;
}

void assert_contains(const char *hay, const char *needle)
{
	if (!strstr(hay, needle))
		fail_msg("%sexpected \"%s\" in \"%s\"", row_label, needle, hay);
}
