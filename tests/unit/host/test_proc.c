/* SPDX-License-Identifier: MIT */
/*
 * test_proc.c - what the host layer reads from /proc: status fields and
 * maps lines (tables, malformed lines included), and this process's own
 * thread group, thread name and executable mapping read live.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "host/host.h"

static const char status[] =
	"Name:\tbash\n"
	"Umask:\t0022\n"
	"State:\tS (sleeping)\n"
	"Tgid:\t4242\n"
	"Ngid:\t0\n"
	"Pid:\t4243\n"
	"PPid:\t   17\n"
	"TracerPid:\t0\n"
	"Cpus_allowed_list:\t0-1\n"
	"Empty:\n"
	"NoNewline:\t9";

static void test_status_fields(void **state)
{
	static const struct {
		const char *key;
		size_t len;
		int err;
		const char *value;
	} t[] = {
		{ "Tgid", 32, 0, "4242" },
		{ "Pid", 32, 0, "4243" },		/* not PPid's or TracerPid's line */
		{ "PPid", 32, 0, "17" },		/* leading blanks dropped */
		{ "Name", 32, 0, "bash" },
		{ "State", 32, 0, "S (sleeping)" },
		{ "Cpus_allowed_list", 32, 0, "0-1" },
		{ "Empty", 32, 0, "" },
		{ "NoNewline", 32, 0, "9" },		/* the last line needs no newline */
		{ "Tgi", 32, -ENOENT, NULL },		/* a prefix is not the key */
		{ "Nothere", 32, -ENOENT, NULL },
		{ "State", 4, -ENAMETOOLONG, NULL },	/* does not fit: nothing copied */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char out[32] = "unchanged";
		int err = pk__host_status_field(status, t[i].key, out, t[i].len);

		if (err != t[i].err || (t[i].value && strcmp(out, t[i].value)))
			fail_msg("%s: got %d '%s', want %d '%s'", t[i].key, err, out, t[i].err,
				 t[i].value ? t[i].value : "");
	}
}

static void test_maps_lines(void **state)
{
	static const struct {
		const char *line;
		int err;
		uint64_t start, end, pgoff, ino;
		unsigned maj, min;
		const char *perms, *path;
	} t[] = {
		{ "55d0c8a00000-55d0c8a21000 r-xp 00002000 fe:01 1310746    /usr/bin/bash\n", 0,
		  0x55d0c8a00000, 0x55d0c8a21000, 0x2000, 1310746, 0xfe, 1, "r-xp", "/usr/bin/bash" },
		{ "7ffd1c9e8000-7ffd1ca09000 rw-p 00000000 00:00 0                          [stack]\n", 0,
		  0x7ffd1c9e8000, 0x7ffd1ca09000, 0, 0, 0, 0, "rw-p", "[stack]" },
		{ "7f0000000000-7f0000001000 rw-s 00000000 00:01 5 /memfd:x (deleted)\n", 0,
		  0x7f0000000000, 0x7f0000001000, 0, 5, 0, 1, "rw-s", "/memfd:x (deleted)" },
		{ "7f0000000000-7f0000001000 ---p 00000000 00:00 0\n", 0,	/* anonymous */
		  0x7f0000000000, 0x7f0000001000, 0, 0, 0, 0, "---p", "" },
		{ "ffffffffff600000-ffffffffff601000 --xp 00000000 00:00 0", 0,	/* no newline */
		  0xffffffffff600000, 0xffffffffff601000, 0, 0, 0, 0, "--xp", "" },
		{ "", -EINVAL, 0, 0, 0, 0, 0, 0, NULL, NULL },
		{ "garbage\n", -EINVAL, 0, 0, 0, 0, 0, 0, NULL, NULL },
		{ "1000-0fff r-xp 0 00:00 0\n", -EINVAL, 0, 0, 0, 0, 0, 0, NULL, NULL },	/* backwards */
		{ "1000 r-xp 0 00:00 0\n", -EINVAL, 0, 0, 0, 0, 0, 0, NULL, NULL },	/* no end */
		{ "1000-2000 r-x 0 00:00 0\n", -EINVAL, 0, 0, 0, 0, 0, 0, NULL, NULL },	/* 3 perms */
		{ "1000-2000 rZxp 0 00:00 0\n", -EINVAL, 0, 0, 0, 0, 0, 0, NULL, NULL },
		{ "1000-2000 r-xp 0 0000 0\n", -EINVAL, 0, 0, 0, 0, 0, 0, NULL, NULL },	/* no colon */
		{ "1000-2000 r-xp 0 00:00\n", -EINVAL, 0, 0, 0, 0, 0, 0, NULL, NULL },	/* no inode */
		{ "1000-2000 r-xp 0 00:00 x\n", -EINVAL, 0, 0, 0, 0, 0, 0, NULL, NULL },
		{ "1000-2000 r-xp 0 100000000:0 1\n", -EINVAL, 0, 0, 0, 0, 0, 0, NULL, NULL },
		{ "1-fffffffffffffffff r-xp 0 00:00 1\n", -EINVAL, 0, 0, 0, 0, 0, 0, NULL, NULL },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		char line[256];
		struct pk__host_map m;
		int err;

		snprintf(line, sizeof(line), "%s", t[i].line);
		err = pk__host_maps_parse(line, &m);
		if (err != t[i].err)
			fail_msg("'%s': got %d, want %d", t[i].line, err, t[i].err);
		if (err)
			continue;
		if (m.start != t[i].start || m.end != t[i].end || m.pgoff != t[i].pgoff ||
		    m.ino != t[i].ino || m.maj != t[i].maj || m.min != t[i].min ||
		    strcmp(m.perms, t[i].perms) || strcmp(m.path, t[i].path))
			fail_msg("'%s': got %" PRIx64 "-%" PRIx64 " %s %" PRIx64 " %x:%x %" PRIu64 " '%s'",
				 t[i].line, m.start, m.end, m.perms, m.pgoff, m.maj, m.min, m.ino, m.path);
	}
}

struct handshake {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pid_t tid;
	bool done;
};

static void *report_tid(void *arg)
{
	struct handshake *h = arg;

	pthread_mutex_lock(&h->lock);
	h->tid = (pid_t)syscall(SYS_gettid);
	pthread_cond_signal(&h->cond);
	while (!h->done)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
	return NULL;
}

static void test_tgid(void **state)
{
	struct handshake h = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, false };
	pthread_t th;

	(void)state;
	assert_int_equal(pthread_create(&th, NULL, report_tid, &h), 0);
	pthread_mutex_lock(&h.lock);
	while (!h.tid)
		pthread_cond_wait(&h.cond, &h.lock);
	assert_int_not_equal(h.tid, getpid());
	/* A second thread belongs to this process, as does the main thread. */
	assert_int_equal(pk_pid_tgid(h.tid), getpid());
	assert_int_equal(pk_pid_tgid(getpid()), getpid());
	h.done = true;
	pthread_cond_signal(&h.cond);
	pthread_mutex_unlock(&h.lock);
	pthread_join(th, NULL);
	assert_int_equal(pk_pid_tgid(INT_MAX - 1), -ESRCH);
	assert_non_null(strstr(pk_last_error()->why, "no such process"));
	assert_int_equal(pk_pid_tgid(0), -ESRCH);
}

static void test_comm_and_status(void **state)
{
	char comm[32];
	long ppid;

	(void)state;
	assert_int_equal(prctl(PR_SET_NAME, "pk-host-test"), 0);
	assert_int_equal(pk__host_comm(getpid(), getpid(), comm, sizeof(comm)), 0);
	assert_string_equal(comm, "pk-host-test");	/* the newline is gone */
	assert_int_equal(pk__host_comm(INT_MAX - 1, INT_MAX - 1, comm, sizeof(comm)), -ESRCH);
	assert_int_equal(pk__host_status_long(getpid(), "PPid", &ppid), 0);
	assert_int_equal(ppid, getppid());
	assert_int_equal(pk__host_status_long(getpid(), "Name", &ppid), -EINVAL);
	assert_int_equal(pk__host_status_long(INT_MAX - 1, "PPid", &ppid), -ESRCH);
}

struct find_exe {
	char exe[PATH_MAX];
	int nr, found_x;
};

static int note_map(void *arg, const struct pk__host_map *m)
{
	struct find_exe *f = arg;

	f->nr++;
	if (!strcmp(m->path, f->exe) && m->perms[2] == 'x')
		f->found_x++;
	return 0;
}

static int stop_at_third(void *arg, const struct pk__host_map *m)
{
	(void)m;
	return ++*(int *)arg == 3 ? 42 : 0;
}

static void test_own_maps(void **state)
{
	struct find_exe f = { .nr = 0, .found_x = 0 };
	ssize_t n = readlink("/proc/self/exe", f.exe, sizeof(f.exe) - 1);
	int calls = 0;

	(void)state;
	assert_true(n > 0);
	f.exe[n] = '\0';
	assert_int_equal(pk__host_maps_read(getpid(), note_map, &f), 0);
	assert_true(f.nr > 5);
	assert_int_equal(f.found_x, 1);		/* this test's own text mapping */
	assert_int_equal(pk__host_maps_read(getpid(), stop_at_third, &calls), 42);
	assert_int_equal(calls, 3);
	assert_int_equal(pk__host_maps_read(INT_MAX - 1, note_map, &f), -ESRCH);
	assert_non_null(strstr(pk_last_error()->what, "maps"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_status_fields),
		cmocka_unit_test(test_maps_lines),
		cmocka_unit_test(test_tgid),
		cmocka_unit_test(test_comm_and_status),
		cmocka_unit_test(test_own_maps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
