/* SPDX-License-Identifier: MIT */
/*
 * test_features_host.c - the machine's description in the files the writer
 * makes is gathered once per process and kept, and a change the next file
 * must show is seen: on a copy of the sysfs/numa fixture tree
 * ($PERFKIT_SYSFS_ROOT), a CPU taken offline (the online list changes)
 * brings the caches read anew, a PMU appearing is in the next file's
 * PMU_MAPPINGS, and NUMA's MemFree is the value at each file; what
 * uname(2) or sysconf(3) cannot tell (a fake kernel through the sys seam)
 * is left out of the file, not written wrong.  Threads
 * writing files at once while the machine changes each get a whole
 * description (run under ASan, a description freed while in use fails).
 * A pipe-mode stream checks the description's key once, not per feature.
 * PMU_MAPPINGS and PMU_CAPS list PMUs and caps in their directories'
 * readdir(3) order, as perf 6.1 writes them.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>
#include <dirent.h>

#include "perfkit.h"
#include "sys/sys.h"
#include "tmpdir.h"

static char dir[200], root[300];

/* Write `text` to root/rel, making its directories; replaced whole
 * (rename), so that a thread reading it sees the old text or the new. */
static void put_file(const char *rel, const char *text)
{
	char path[600], tmp[620], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(rename(tmp, path), 0);
}

/* A finished file at `path` with one event and one record. */
static void write_file(const char *path)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .sample_period = 1000 };
	struct perf_event_header round = { .type = PK_DATA_RECORD_FINISHED_ROUND, .size = 8 };
	struct pk_data_writer *w;
	uint64_t id = 1;

	assert_int_equal(pk_data_writer_create(path, &w), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "cpu-clock", &id, 1), 0);
	assert_int_equal(pk_data_writer_write(w, &round, sizeof(round)), 0);
	assert_int_equal(pk_data_writer_finish(w), 0);
}

static struct pk_feature *decode(struct pk_data_reader *r, unsigned int id)
{
	struct pk_feature *f = NULL;

	assert_int_equal(pk_data_reader_decode(r, id, &f), 0);
	return f;
}

/* What a file says of the machine: its first cache's size, node 0's
 * MemFree and whether PMU_MAPPINGS names `pmu` (with type 42). */
struct seen {
	char cache0[32];
	uint64_t free_kb;
	bool has_pmu;
};

static void read_file(const char *path, const char *pmu, struct seen *s)
{
	struct pk_data_reader *r;
	struct pk_feature *f;
	const struct pk_feature_pmu_mappings *m;

	assert_int_equal(pk_data_reader_open(path, &r), 0);
	f = decode(r, PK_DATA_FEAT_CACHE);
	snprintf(s->cache0, sizeof(s->cache0), "%s", pk_feature_cache(f)->caches[0].size);
	pk_feature_free(f);
	f = decode(r, PK_DATA_FEAT_NUMA_TOPOLOGY);
	s->free_kb = pk_feature_numa_topology(f)->nodes[0].mem_free_kb;
	pk_feature_free(f);
	s->has_pmu = false;
	if (pk_data_reader_has_feature(r, PK_DATA_FEAT_PMU_MAPPINGS)) {
		f = decode(r, PK_DATA_FEAT_PMU_MAPPINGS);
		m = pk_feature_pmu_mappings(f);
		for (uint32_t i = 0; i < m->nr; i++)
			s->has_pmu |= !strcmp(m->pmus[i].name, pmu) && m->pmus[i].type == 42;
		pk_feature_free(f);
	}
	pk_data_reader_free(r);
}

static int setup(void **state)
{
	const char *fixtures = getenv("PERFKIT_FIXTURES");
	char cmd[800];

	(void)state;
	if (!fixtures)
		return -1;
	snprintf(root, sizeof(root), "%s/sysfs", dir);
	snprintf(cmd, sizeof(cmd), "cp -R '%s/sysfs/numa' '%s'", fixtures, root);
	if (system(cmd) != 0 || setenv("PERFKIT_SYSFS_ROOT", root, 1))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unsetenv("PERFKIT_SYSFS_ROOT");
	return tmp_rmtree(root) == 0 ? 0 : -1;
}

static void test_hotplug_seen(void **state)
{
	char path[300];
	struct seen s;

	(void)state;
	snprintf(path, sizeof(path), "%s/a.data", dir);
	put_file("devices/system/cpu/online", "0-1\n");
	write_file(path);
	read_file(path, "newpmu", &s);
	assert_string_equal(s.cache0, "32K");
	assert_int_equal(s.free_kb, 400);
	assert_false(s.has_pmu);
	/* MemFree is a moment's value: read for every file. */
	put_file("devices/system/node/node0/meminfo",
		 "Node 0 MemTotal:        1000 kB\nNode 0 MemFree:          300 kB\n");
	write_file(path);
	read_file(path, "newpmu", &s);
	assert_int_equal(s.free_kb, 300);
	/* CPU 1 goes offline and CPU 0's cache reads differently: seen. */
	put_file("devices/system/cpu/cpu0/cache/index0/size", "48K\n");
	put_file("devices/system/cpu/online", "0\n");
	write_file(path);
	read_file(path, "newpmu", &s);
	assert_string_equal(s.cache0, "48K");
	/* A PMU appears (a module loaded): in the next file's mappings. */
	put_file("bus/event_source/devices/newpmu/type", "42\n");
	write_file(path);
	read_file(path, "newpmu", &s);
	assert_true(s.has_pmu);
	assert_int_equal(unlink(path), 0);
}

/* ---- what the machine will not tell --------------------------------------- */

static int uname_fails(struct utsname *u)
{
	(void)u;
	errno = EFAULT;
	return -1;
}

/* No CPU count: sysconf(3) gives -1 without errno (no value known). */
static long sysconf_no_cpus(int name)
{
	return name == _SC_NPROCESSORS_CONF || name == _SC_NPROCESSORS_ONLN ? -1 : sysconf(name);
}

/* uname(2) and the CPU count failing leave their features out of a file
 * that is still written and read (no 4294967295 CPUs, no empty host
 * name); the next file, with them working again, has them back. */
static void test_unknown_left_out(void **state)
{
	static const struct pk__sys_ops ops = { .uname = uname_fails, .sysconf = sysconf_no_cpus };
	static const unsigned int gone[] = { PK_DATA_FEAT_HOSTNAME, PK_DATA_FEAT_OSRELEASE, PK_DATA_FEAT_ARCH,
					     PK_DATA_FEAT_NRCPUS, PK_DATA_FEAT_CPU_TOPOLOGY, PK_DATA_FEAT_CACHE };
	struct pk_data_reader *r;
	char path[300];

	(void)state;
	snprintf(path, sizeof(path), "%s/u.data", dir);
	pk__sys_set_ops(&ops);
	write_file(path);
	pk__sys_set_ops(NULL);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		assert_false(pk_data_reader_has_feature(r, gone[i]));
	assert_true(pk_data_reader_has_feature(r, PK_DATA_FEAT_VERSION));
	assert_true(pk_data_reader_has_feature(r, PK_DATA_FEAT_EVENT_DESC));
	assert_true(pk_data_reader_has_feature(r, PK_DATA_FEAT_NUMA_TOPOLOGY));
	pk_data_reader_free(r);
	write_file(path);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++)
		assert_true(pk_data_reader_has_feature(r, gone[i]));
	pk_data_reader_free(r);
	assert_int_equal(unlink(path), 0);
}

/* ---- pipe mode: the key once a stream ----------------------------------------- */

static int nr_uname;

static int uname_counted(struct utsname *u)
{
	nr_uname++;
	return uname(u);
}

/* A pipe-mode stream of one event and one record into `path`. */
static void write_pipe(const char *path)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a), .sample_period = 1000 };
	struct perf_event_header round = { .type = PK_DATA_RECORD_FINISHED_ROUND, .size = 8 };
	struct pk_data_writer *w;
	uint64_t id = 1;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

	assert_true(fd >= 0);
	assert_int_equal(pk_data_writer_create_pipe(fd, &w), 0);
	assert_int_equal(pk_data_writer_add_event(w, &a, "cpu-clock", &id, 1), 0);
	assert_int_equal(pk_data_writer_write(w, &round, sizeof(round)), 0);
	assert_int_equal(pk_data_writer_finish(w), 0);
	close(fd);
}

/* Pipe mode sends each feature as a record of its own: the machine's key
 * (uname(2) among its reads) is checked once for the stream, not once a
 * feature, and the stream still names the host. */
static void test_pipe_key_once(void **state)
{
	static const struct pk__sys_ops ops = { .uname = uname_counted };
	struct pk_data_reader *r;
	char path[300];

	(void)state;
	snprintf(path, sizeof(path), "%s/p.data", dir);
	write_pipe(path);	/* the description gathered, kept */
	pk__sys_set_ops(&ops);
	nr_uname = 0;
	write_pipe(path);
	pk__sys_set_ops(NULL);
	assert_int_equal(nr_uname, 1);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	assert_true(pk_data_reader_has_feature(r, PK_DATA_FEAT_HOSTNAME));
	assert_true(pk_data_reader_has_feature(r, PK_DATA_FEAT_CPU_TOPOLOGY));
	pk_data_reader_free(r);
	assert_int_equal(unlink(path), 0);
}

/* ---- several threads at once ------------------------------------------------ */

#define THREADS 3
#define FILES 6

struct job {
	int n;
	int bad;	/* files whose cache size was neither value */
};

static void *writer_thread(void *arg)
{
	struct job *j = arg;
	char path[300];

	for (int i = 0; i < FILES; i++) {
		struct seen s;

		snprintf(path, sizeof(path), "%s/t%d.data", dir, j->n);
		write_file(path);
		read_file(path, "none", &s);
		j->bad += strcmp(s.cache0, "32K") && strcmp(s.cache0, "64K");
		unlink(path);
	}
	return NULL;
}

static void test_threads(void **state)
{
	pthread_t t[THREADS];
	struct job jobs[THREADS];

	(void)state;
	for (int i = 0; i < THREADS; i++) {
		jobs[i] = (struct job){ .n = i };
		assert_int_equal(pthread_create(&t[i], NULL, writer_thread, &jobs[i]), 0);
	}
	/* The machine changes while they write: each change replaces the kept
	 * description, which threads may still hold. */
	for (int i = 0; i < 2 * FILES; i++) {
		put_file("devices/system/cpu/cpu0/cache/index0/size", i % 2 ? "32K\n" : "64K\n");
		put_file("devices/system/cpu/online", i % 2 ? "0-1\n" : "0\n");
	}
	for (int i = 0; i < THREADS; i++) {
		assert_int_equal(pthread_join(t[i], NULL), 0);
		assert_int_equal(jobs[i].bad, 0);
	}
}

/* Directory `rel`'s entry names (but . and ..) in readdir(3)'s order,
 * joined by spaces into out. */
static void dir_names(const char *rel, char *out, size_t len)
{
	char path[600];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	assert_non_null(d = opendir(path));
	out[0] = '\0';
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			snprintf(out + strlen(out), len - strlen(out), "%s%s", out[0] ? " " : "", de->d_name);
	closedir(d);
}

/* perf 6.1 writes PMU_MAPPINGS and PMU_CAPS in the order readdir(3)
 * lists the PMU directory and each caps directory (perf report --header
 * shows them so); the snapshot's lists are sorted by name.  Made in an
 * order that is not the names' (zeta before alpha): most file systems
 * list them in creation or hash order. */
static void test_pmu_order(void **state)
{
	static const char *pmus[] = { "zeta", "alpha", "mid", "beta" };
	static const char *caps[] = { "max_precise", "branches", "pmu_name", "zz_last" };
	char path[300], rel[200], want[400], got[400] = "", want_caps[400], got_caps[400] = "";
	struct pk_data_reader *r;
	struct pk_feature *f;

	(void)state;
	for (size_t i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), "bus/event_source/devices/%s/type", pmus[i]);
		put_file(rel, i == 0 ? "42\n" : i == 1 ? "43\n" : i == 2 ? "44\n" : "45\n");
		snprintf(rel, sizeof(rel), "bus/event_source/devices/zeta/caps/%s", caps[i]);
		put_file(rel, "1\n");
	}
	dir_names("bus/event_source/devices", want, sizeof(want));
	dir_names("bus/event_source/devices/zeta/caps", want_caps, sizeof(want_caps));
	if (!strcmp(want, "alpha beta mid zeta"))
		print_message("# this file system lists names sorted: the order is not told apart\n");
	snprintf(path, sizeof(path), "%s/o.data", dir);
	write_file(path);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	f = decode(r, PK_DATA_FEAT_PMU_MAPPINGS);
	for (uint32_t i = 0; i < pk_feature_pmu_mappings(f)->nr; i++)
		snprintf(got + strlen(got), sizeof(got) - strlen(got), "%s%s", i ? " " : "",
			 pk_feature_pmu_mappings(f)->pmus[i].name);
	pk_feature_free(f);
	f = decode(r, PK_DATA_FEAT_PMU_CAPS);
	assert_int_equal(pk_feature_pmu_caps(f)->nr, 1);
	assert_string_equal(pk_feature_pmu_caps(f)->pmus[0].pmu, "zeta");
	for (uint32_t i = 0; i < pk_feature_pmu_caps(f)->pmus[0].nr_caps; i++)
		snprintf(got_caps + strlen(got_caps), sizeof(got_caps) - strlen(got_caps), "%s%s", i ? " " : "",
			 pk_feature_pmu_caps(f)->pmus[0].caps[i].name);
	pk_feature_free(f);
	pk_data_reader_free(r);
	assert_string_equal(got, want);
	assert_string_equal(got_caps, want_caps);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest unit[] = {
		cmocka_unit_test_setup_teardown(test_hotplug_seen, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_left_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pipe_key_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pmu_order, setup, teardown),
	};
	int ret;

	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "perfkit-features-host"));
	ret = cmocka_run_group_tests(unit, NULL, NULL);
	tmp_rmtree(dir);
	return ret;
}
