/* SPDX-License-Identifier: MIT */
/*
 * test_tracepoint.c - tracepoint globbing, ordering and misses against a
 * tracefs-shaped tree built in a temporary directory (with the control
 * files real tracefs keeps beside the tracepoints), plus the permission
 * errors a non-root user meets, exercised from a child that drops to
 * nobody.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfkit.h"
#include "event/event.h"
#include "tmpdir.h"

static char root[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	assert_true(snprintf(path, sizeof(path), "%s/%s", root, rel) < (int)sizeof(path));
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void dir(const char *rel)
{
	char path[PATH_MAX];

	assert_true(snprintf(path, sizeof(path), "%s/%s", root, rel) < (int)sizeof(path));
	assert_int_equal(mkdir(path, 0755), 0);
}

static void tp(const char *sys, const char *name, const char *id)
{
	char rel[256];

	snprintf(rel, sizeof(rel), "events/%s/%s", sys, name);
	dir(rel);
	snprintf(rel, sizeof(rel), "events/%s/%s/id", sys, name);
	put(rel, id);
	snprintf(rel, sizeof(rel), "events/%s/%s/format", sys, name);
	put(rel, "name: x\n");
}

static int setup(void **state)
{
	(void)state;
	if (!tmp_mkdtemp(root, sizeof(root), "perfkit-tp"))
		return -1;
	chmod(root, 0755);
	dir("events");
	put("events/enable", "0\n");
	put("events/header_page", "field: u64 timestamp;\n");
	put("events/header_event", "# compressed entry header\n");
	dir("events/sched");
	put("events/sched/enable", "0\n");
	put("events/sched/filter", "none\n");
	tp("sched", "sched_switch", "316\n");
	tp("sched", "sched_wakeup", "318\n");
	tp("sched", "sched_waking", "317\n");
	tp("sched", "sched_process_exec", "311\n");
	dir("events/syscalls");
	tp("syscalls", "sys_enter_openat", "601\n");
	tp("syscalls", "sys_enter_open", "600\n");
	tp("syscalls", "sys_exit_open", "602\n");
	dir("events/irq");
	tp("irq", "irq_handler_entry", "10\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmp_rmtree(root) == 0 ? 0 : -1;
}

struct want { const char *sys, *name; uint64_t id; };

static void expect(const char *sys, const char *ev, const struct want *w, size_t nr)
{
	struct pk__tp *tps;
	size_t n;

	assert_int_equal(pk__tp_expand(root, sys, ev, &tps, &n), 0);
	assert_int_equal(n, nr);
	for (size_t i = 0; i < nr; i++) {
		assert_string_equal(tps[i].sys, w[i].sys);
		assert_string_equal(tps[i].name, w[i].name);
		assert_int_equal(tps[i].id, w[i].id);
	}
	pk__tp_free(tps, n);
}

static void test_expand(void **state)
{
	static const struct want exact[] = { { "sched", "sched_switch", 316 } };
	/* sorted by name (strcmp): "wakeup" < "waking" */
	static const struct want wake[] = {
		{ "sched", "sched_wakeup", 318 }, { "sched", "sched_waking", 317 },
	};
	/* control files (enable, filter) are not tracepoints */
	static const struct want sched_all[] = {
		{ "sched", "sched_process_exec", 311 }, { "sched", "sched_switch", 316 },
		{ "sched", "sched_wakeup", 318 }, { "sched", "sched_waking", 317 },
	};
	static const struct want open[] = {
		{ "syscalls", "sys_enter_open", 600 }, { "syscalls", "sys_enter_openat", 601 },
	};
	/* sorted by subsystem, then name */
	static const struct want s_star[] = {
		{ "sched", "sched_process_exec", 311 }, { "sched", "sched_switch", 316 },
		{ "sched", "sched_wakeup", 318 }, { "sched", "sched_waking", 317 },
		{ "syscalls", "sys_enter_open", 600 }, { "syscalls", "sys_enter_openat", 601 },
		{ "syscalls", "sys_exit_open", 602 },
	};
	static const struct want q[] = { { "irq", "irq_handler_entry", 10 } };

	(void)state;
	expect("sched", "sched_switch", exact, 1);
	expect("sched", "sched_wak*", wake, 2);
	expect("sched", "*", sched_all, 4);
	expect("syscalls", "sys_enter_open*", open, 2);
	expect("*", "sys_enter_open*", open, 2);
	expect("s*", "*", s_star, 7);
	expect("i?q", "irq_handler_[e]ntry", q, 1);
}

static void miss(const char *sys, const char *ev, const char *hint_has)
{
	struct pk__tp *tps = (struct pk__tp *)1;
	size_t n = 99;
	const struct pk_error *e;

	assert_int_equal(pk__tp_expand(root, sys, ev, &tps, &n), -ENOENT);
	assert_null(tps);
	assert_int_equal(n, 0);
	e = pk_last_error();
	print_message("# %s:%s -> %s / hint: %s\n", sys, ev, e->why, e->hint);
	assert_int_equal(e->code, -ENOENT);
	assert_non_null(strstr(e->why, sys));
	if (!strstr(e->hint, hint_has))
		fail_msg("hint '%s' lacks '%s'", e->hint, hint_has);
}

static void test_misses(void **state)
{
	(void)state;
	miss("sched", "sched_swich", "'sched:sched_switch'");
	miss("shced", "sched_switch", "'sched:sched_switch'");
	miss("syscalls", "sys_enter_opne", "'syscalls:sys_enter_open'");
	miss("sched", "enable", "sched:");	/* a control file is no tracepoint */
	miss("nosuch*", "*", "did you mean");
}

static void test_subsystem(void **state)
{
	(void)state;
	assert_true(pk__tracefs_is_system(root, "sched"));
	assert_true(pk__tracefs_is_system(root, "irq"));
	assert_false(pk__tracefs_is_system(root, "nosuch"));
	assert_false(pk__tracefs_is_system(root, "enable"));
	assert_false(pk__tracefs_is_system(root, ".."));
	assert_false(pk__tracefs_is_system(root, "sched/sched_switch"));
	assert_false(pk__tracefs_is_system(root, ""));
}

static void test_tracefs_dir(void **state)
{
	char buf[PATH_MAX], small[8];

	(void)state;
	assert_int_equal(pk__tracefs_find(root, buf, sizeof(buf)), 0);
	assert_string_equal(buf, root);
	assert_int_equal(pk__tracefs_find(root, small, sizeof(small)), -ENAMETOOLONG);
	assert_int_equal(pk__tracefs_find("/nonexistent/tracefs", buf, sizeof(buf)), -ENOENT);
	assert_non_null(strstr(pk_last_error()->why, "/nonexistent/tracefs/events"));
	/* no events/ under the directory: not tracefs */
	assert_int_equal(pk__tracefs_find("/tmp", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(pk__tp_expand("/nonexistent/tracefs", "sched", "*",
				       &(struct pk__tp *){ NULL }, &(size_t){ 0 }), -ENOENT);
	assert_non_null(strstr(pk_last_error()->hint, "mount -t tracefs nodev /sys/kernel/tracing"));
}

/*
 * Run `check` in a child that has dropped to nobody, so root can watch
 * permission errors too; the child reports through its exit status.
 */
static void as_nobody(int (*check)(void))
{
	pid_t pid = fork();
	int status;

	assert_true(pid >= 0);
	if (pid == 0) {
		if (geteuid() == 0 && (setgid(65534) < 0 || setuid(65534) < 0))
			_exit(100);
		_exit(check());
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
}

static char locked[PATH_MAX];

static int check_denied(void)
{
	char buf[PATH_MAX];
	struct pk__tp *tps;
	size_t n;

	if (pk__tp_expand(locked, "sched", "*", &tps, &n) != -EACCES)
		return 1;
	if (!strstr(pk_last_error()->hint, "mode=755"))
		return 2;
	if (pk__tracefs_find(locked, buf, sizeof(buf)) != -EACCES)
		return 3;
	return 0;
}

static void test_permission_denied(void **state)
{
	(void)state;
	/* Like a default tracefs mount: the top directory is root's alone. */
	assert_true(snprintf(locked, sizeof(locked), "%s/locked", root) < (int)sizeof(locked));
	assert_int_equal(mkdir(locked, 0700), 0);
	dir("locked/events");
	dir("locked/events/sched");
	as_nobody(check_denied);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_expand),
		cmocka_unit_test(test_misses),
		cmocka_unit_test(test_subsystem),
		cmocka_unit_test(test_tracefs_dir),
		cmocka_unit_test(test_permission_denied),
	};

	return cmocka_run_group_tests_name("tracepoint", tests, setup, teardown);
}
