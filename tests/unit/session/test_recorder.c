/* SPDX-License-Identifier: MIT */
/*
 * test_recorder.c - the recorder without a kernel: a fake kernel behind the
 * sys seam (perf_event_open hands out fds, IOC_ID answers ids, mmap hands
 * out memory that stands for the ring) and a sysfs with one online CPU.
 * Checked: perf record's sample layout for each option (a table), the
 * cycles -> cpu-clock fallback, conflicting targets refused, and the pump
 * over hand-written rings: records reach the callback decoded, with a
 * FINISHED_ROUND after each pass; losses, throttling and the sample time
 * span are counted; DWARF stacks are cut to dyn_size; a failing sink stops
 * delivery but not counting; and the writer gets every byte.
 */
#include <errno.h>
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

#include "perfkit.h"
#include "session/session.h"
#include "sys/sys.h"

#define FD0 700
#define ID0 5000

static struct {
	int nr_open;
	struct perf_event_attr attr[16];
	bool refuse_hw;			/* ENOENT for PERF_TYPE_HARDWARE: no PMU */
	void *map[4];
	size_t map_len[4];
	int nr_map;
	int cb_calls, cb_fail_at, nr_rounds;
	uint32_t cb_pids[16];
	uint16_t cb_sizes[16];
	uint32_t cb_types[16];
	bool cb_decoded[16];
} k;

static char root[400];

static int fake_open(struct perf_event_attr *a, pid_t pid, int cpu, int group_fd, unsigned long flags)
{
	(void)pid, (void)cpu, (void)group_fd, (void)flags;
	if (k.refuse_hw && a->type == PERF_TYPE_HARDWARE) {
		errno = ENOENT;
		return -1;
	}
	assert_true(k.nr_open < 16);
	k.attr[k.nr_open] = *a;
	return FD0 + k.nr_open++;
}

static int fake_close(int fd)
{
	assert_true(fd >= FD0 && fd < FD0 + k.nr_open);
	return 0;
}

static int fake_ioctl(int fd, unsigned long req, unsigned long arg)
{
	if (req == PERF_EVENT_IOC_ID) {
		uint64_t id = ID0 + (uint64_t)(fd - FD0);

		memcpy((void *)arg, &id, sizeof(id));
	}
	return 0;
}

static void *fake_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	void *p = NULL;

	(void)addr, (void)prot, (void)flags, (void)fd, (void)off;
	assert_true(k.nr_map < 4);
	assert_int_equal(posix_memalign(&p, (size_t)sysconf(_SC_PAGESIZE), len), 0);
	memset(p, 0, len);
	k.map_len[k.nr_map] = len;
	k.map[k.nr_map++] = p;
	return p;
}

static int fake_munmap(void *addr, size_t len)
{
	(void)len;
	free(addr);
	return 0;
}

static const struct pk__sys_ops ops = {
	.perf_event_open = fake_open, .close = fake_close, .ioctl = fake_ioctl,
	.mmap = fake_mmap, .munmap = fake_munmap,
};

static int group_setup(void **state)
{
	char dir[512], path[600];
	FILE *f;

	(void)state;
	snprintf(root, sizeof(root), "%s/pk-recorder-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	assert_non_null(mkdtemp(root));
	snprintf(dir, sizeof(dir), "%s/devices", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/devices/system", root);
	mkdir(dir, 0755);
	snprintf(dir, sizeof(dir), "%s/devices/system/cpu", root);
	mkdir(dir, 0755);
	snprintf(path, sizeof(path), "%s/online", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("0\n", f);
	fclose(f);
	setenv("PERFKIT_SYSFS_ROOT", root, 1);
	return 0;
}

static int group_teardown(void **state)
{
	char cmd[512];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	return system(cmd);
}

static int setup(void **state)
{
	(void)state;
	memset(&k, 0, sizeof(k));
	k.cb_fail_at = -1;
	pk__sys_set_ops(&ops);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	pk__sys_set_ops(NULL);
	return 0;
}

static struct pk_recorder_opts task_opts(void)
{
	static const pid_t self[1] = { 1234 };
	struct pk_recorder_opts o = { .size = sizeof(o), .tids = self, .nr_tids = 1, .no_build_ids = true };

	return o;
}

/* ---- the layout: each option's sample_type and attr bits, as perf record's ---- */

/* One event: no id in its records, as perf's (see layout_ids). */
#define BASE (PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD)

struct lcase {
	const char *name;
	struct pk_recorder_opts o;	/* over task_opts: only the fields set here */
	uint64_t sample_type;
	bool mmap_data, exclude_callchain_user, inherit, freq;
	uint64_t period_or_freq;
	size_t pages;
};

static const struct lcase lcases[] = {
	{ "defaults", { 0 }, BASE, false, false, true, true, 4000, 128 },
	{ "-g", { .callgraph = PK_CALLGRAPH_FP }, BASE | PERF_SAMPLE_CALLCHAIN, false, false, true,
	  true, 4000, 128 },
	{ "--call-graph dwarf", { .callgraph = PK_CALLGRAPH_DWARF },
	  BASE | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER, true, true,
	  true, true, 4000, 2048 },
	{ "--call-graph lbr", { .callgraph = PK_CALLGRAPH_LBR },
	  BASE | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK, false, false, true, true, 4000, 128 },
	{ "-d", { .data_addr = true }, BASE | PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC, true, false, true, true, 4000, 128 },
	{ "-R", { .raw = true }, BASE | PERF_SAMPLE_RAW | PERF_SAMPLE_CPU, false, false, true, true, 4000, 128 },
	{ "-b", { .branch_type = PERF_SAMPLE_BRANCH_ANY }, BASE | PERF_SAMPLE_BRANCH_STACK, false, false,
	  true, true, 4000, 128 },
	{ "--intr-regs", { .intr_regs = 0x3 }, BASE | PERF_SAMPLE_REGS_INTR, false, false, true, true,
	  4000, 128 },
	{ "--phys-data", { .phys_data = true }, BASE | PERF_SAMPLE_PHYS_ADDR, false, false, true, true,
	  4000, 128 },
	/* --no-buffering: a wake-up at every sample, the layout otherwise the default. */
	{ "--no-buffering", { .no_buffering = true }, BASE, false, false, true, true, 4000, 128 },
	{ "--sample-cpu", { .sample_cpu = true }, BASE | PERF_SAMPLE_CPU, false, false, true, true, 4000,
	  128 },
	/* perf inherits on CPUs too (the kernel ignores it without a task). */
	{ "-C 0", { .cpu_list = "0" }, BASE | PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER, false, false, true, true, 4000, 128 },
	/* A fixed period is no field of the sample (the kernel would sample a
	 * software event at every event with it), unless -P asks. */
	{ "-c 1000 --no-inherit -m 8", { .period = 1000, .no_inherit = true, .pages = 8 },
	  BASE & ~(uint64_t)PERF_SAMPLE_PERIOD, false, false, false, false, 1000, 8 },
	{ "-c 1000 -P", { .period = 1000, .sample_period = true }, BASE, false, false, true, false, 1000, 128 },
	{ "-F 99", { .freq = 99 }, BASE, false, false, true, true, 99, 128 },
	/* perf per thread: no inherit, and no sample times unless -T. */
	{ "--per-thread", { .per_thread = true }, BASE & ~(uint64_t)PERF_SAMPLE_TIME, false, false,
	  false, true, 4000, 128 },
	{ "--per-thread -T", { .per_thread = true, .timestamp = true }, BASE, false, false, false, true,
	  4000, 128 },
};

static struct pk_recorder_opts merge(const struct pk_recorder_opts *d)
{
	struct pk_recorder_opts o = task_opts();

	o.callgraph = d->callgraph;
	o.data_addr = d->data_addr;
	o.raw = d->raw;
	o.branch_type = d->branch_type;
	o.intr_regs = d->intr_regs;
	o.sample_cpu = d->sample_cpu;
	o.phys_data = d->phys_data;
	o.no_buffering = d->no_buffering;
	o.period = d->period;
	o.sample_period = d->sample_period;
	o.freq = d->freq;
	o.no_inherit = d->no_inherit;
	o.pages = d->pages;
	o.per_thread = d->per_thread;
	o.timestamp = d->timestamp;
	if (d->cpu_list) {
		o.cpu_list = d->cpu_list;
		o.tids = NULL;
		o.nr_tids = 0;
	}
	return o;
}

static void test_layout(void **state)
{
	(void)state;
	/* The rate an event takes unasked, as perf record's default. */
	assert_int_equal(pk_recorder_default_freq(), 4000);
	for (size_t i = 0; i < sizeof(lcases) / sizeof(lcases[0]); i++) {
		const struct lcase *c = &lcases[i];
		struct pk_recorder_opts o = merge(&c->o);
		struct pk_recorder *r;
		const struct perf_event_attr *a, *t;

		print_message("# %s\n", c->name);
		k.nr_open = k.nr_map = 0;
		assert_int_equal(pk_recorder_new("task-clock", &o, &r), 0);
		a = &k.attr[0];
		/* For CPUs the sideband is perf's dummy:HG, opened after the event. */
		t = c->o.cpu_list ? &k.attr[1] : a;
		assert_int_equal(a->sample_type, c->sample_type);
		assert_int_equal(t->mmap && t->mmap2 && t->comm && t->task && t->sample_id_all, 1);
		assert_int_equal(t->ksymbol && t->bpf_event, 1);
		assert_int_equal(t->mmap_data, c->mmap_data);
		assert_int_equal(a->exclude_callchain_user, c->exclude_callchain_user);
		assert_int_equal(a->inherit, c->inherit);
		assert_int_equal(a->freq, c->freq);
		assert_int_equal(a->sample_period, c->period_or_freq);
		assert_int_equal(pk_recorder_pages(r), c->pages);
		assert_int_equal(pk_recorder_nr_rings(r), 1);
		if (c->o.cpu_list) {
			assert_int_equal(pk_events_nr(pk_recorder_events(r)), 2);
			assert_string_equal(pk_events_desc(pk_recorder_events(r), 1)->name, "dummy:HG");
			assert_false(a->mmap || a->comm || a->task || a->ksymbol);
			assert_int_equal(t->config, PERF_COUNT_SW_DUMMY);
			assert_int_equal(t->sample_period, 1);
			assert_false(t->freq);
			assert_int_equal(t->sample_type, c->sample_type & ~(uint64_t)PERF_SAMPLE_PERIOD);
			/* perf's immediate dummy: enabled from its open, the event at the start. */
			assert_false(t->disabled || t->enable_on_exec);
			assert_true(a->disabled);
		}
		if (c->o.callgraph == PK_CALLGRAPH_DWARF)
			assert_int_equal(a->sample_stack_user, 8192);
		assert_int_equal(a->wakeup_events, c->o.no_buffering ? 1 : 0);
		assert_false(a->watermark);
		assert_false(pk_recorder_fell_back(r));
		pk_recorder_free(r);
	}
}

/* Overwrite, as perf 6.1: every event writes backward, the one carrying
 * the sideband too (no event added); for CPUs the dummy:HG that
 * carries it writes backward as well and is opened enabled. */
static void test_layout_overwrite(void **state)
{
	struct pk_recorder_opts o = task_opts();
	struct pk_recorder *r;

	(void)state;
	o.overwrite = true;
	assert_int_equal(pk_recorder_new("task-clock", &o, &r), 0);
	assert_int_equal(pk_events_nr(pk_recorder_events(r)), 1);
	assert_true(k.attr[0].write_backward);
	assert_true(k.attr[0].mmap && k.attr[0].comm && k.attr[0].task);
	pk_recorder_free(r);

	k.nr_open = k.nr_map = 0;
	o.tids = NULL;
	o.nr_tids = 0;
	o.cpu_list = "0";
	assert_int_equal(pk_recorder_new("task-clock", &o, &r), 0);
	assert_int_equal(pk_events_nr(pk_recorder_events(r)), 2);
	assert_string_equal(pk_events_desc(pk_recorder_events(r), 1)->name, "dummy:HG");
	assert_true(k.attr[0].write_backward && k.attr[0].disabled);
	assert_false(k.attr[0].mmap);
	assert_true(k.attr[1].write_backward && k.attr[1].mmap && k.attr[1].comm);
	assert_false(k.attr[1].disabled);
	pk_recorder_free(r);
}

/* --transaction and --all-cgroups add their sample fields to every event
 * (the CPU target's dummy too); --all-cgroups and --buildid-mmap set the
 * cgroup and build_id bits on the event carrying the side band only. */
static void test_layout_rec13(void **state)
{
	struct pk_recorder_opts o = task_opts();
	const uint64_t both = PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_CGROUP;
	struct pk_recorder *r;

	(void)state;
	assert_int_equal(pk_recorder_new("task-clock", &o, &r), 0);
	assert_false(k.attr[0].sample_type & both);
	assert_false(k.attr[0].cgroup || k.attr[0].build_id);
	pk_recorder_free(r);

	k.nr_open = k.nr_map = 0;
	o.transaction = o.all_cgroups = o.buildid_mmap = true;
	assert_int_equal(pk_recorder_new("task-clock", &o, &r), 0);
	assert_int_equal(k.attr[0].sample_type & both, both);
	assert_true(k.attr[0].cgroup && k.attr[0].build_id);
	pk_recorder_free(r);

	k.nr_open = k.nr_map = 0;
	o.tids = NULL;
	o.nr_tids = 0;
	o.cpu_list = "0";
	assert_int_equal(pk_recorder_new("task-clock", &o, &r), 0);
	assert_int_equal(k.attr[0].sample_type & both, both);
	assert_int_equal(k.attr[1].sample_type & both, both);
	assert_false(k.attr[0].cgroup || k.attr[0].build_id);
	assert_true(k.attr[1].cgroup && k.attr[1].build_id);
	pk_recorder_free(r);
}

/* No hardware PMU: the default cycles becomes cpu-clock, and says so; a
 * cycles the user asked for is refused instead. */
static void test_fallback(void **state)
{
	struct pk_recorder_opts o = task_opts();
	struct pk_recorder *r;

	(void)state;
	k.refuse_hw = true;
	assert_int_equal(pk_recorder_new(NULL, &o, &r), 0);
	assert_true(pk_recorder_fell_back(r));
	/* Named from its attr as perf names it: precise_ip 3 kept from
	 * cycles' highest level ("cpu-clock:pppH" where exclude_guest stays). */
	assert_int_equal(strncmp(pk_recorder_event_name(r, 0), "cpu-clock:ppp", 13), 0);
	assert_int_equal(pk_evlist_attr(pk_recorder_evlist(r), 0)->type, PERF_TYPE_SOFTWARE);
	assert_int_equal(pk_evlist_attr(pk_recorder_evlist(r), 0)->precise_ip, 3);
	pk_recorder_free(r);
	/* An explicit cycles falls back too, as in perf 6.1, keeping its
	 * modifiers (named from the attr: perf's "cpu-clock:uH"); the events
	 * beside it are left as they are. */
	assert_int_equal(pk_recorder_new("cycles:u,task-clock", &o, &r), 0);
	assert_true(pk_recorder_fell_back(r));
	assert_string_equal(pk_recorder_event_name(r, 0), "cpu-clock:uH");
	assert_string_equal(pk_recorder_event_name(r, 1), "task-clock");
	assert_null(pk_recorder_event_name(r, 2));
	assert_int_equal(pk_evlist_attr(pk_recorder_evlist(r), 0)->config, PERF_COUNT_SW_CPU_CLOCK);
	assert_int_equal(pk_evlist_attr(pk_recorder_evlist(r), 0)->exclude_kernel, 1);
	assert_int_equal(pk_evlist_attr(pk_recorder_evlist(r), 1)->config, PERF_COUNT_SW_TASK_CLOCK);
	pk_recorder_free(r);
	/* Other hardware events have no fallback: the kernel's refusal stands. */
	assert_int_equal(pk_recorder_new("instructions", &o, &r), -ENOENT);
}

static void test_targets(void **state)
{
	struct pk_recorder_opts o = task_opts();
	struct pk_recorder *r;

	(void)state;
	o.cpu_list = "0";
	assert_int_equal(pk_recorder_new("task-clock", &o, &r), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "2 of them"));
	o = task_opts();
	o.cpu_list = "0-";
	o.nr_tids = 0;
	assert_int_equal(pk_recorder_new("task-clock", &o, &r), -EINVAL);
	o = task_opts();
	assert_int_equal(pk_recorder_new("task-clock,", &o, &r), -EINVAL);
	assert_true(pk_last_error()->column > 0);
}

/* ---- the pump over a hand-written ring ---- */

struct ring {
	struct perf_event_mmap_page *page;
	unsigned char *data;
	uint64_t head;
};

static struct ring ring_of(int map)
{
	struct ring g = { k.map[map], (unsigned char *)k.map[map] + sysconf(_SC_PAGESIZE), 0 };

	g.head = g.page->data_head;
	return g;
}

static void put(struct ring *g, const void *rec)
{
	const struct perf_event_header *h = rec;

	memcpy(g->data + g->head, rec, h->size);
	g->head += h->size;
	__atomic_store_n(&g->page->data_head, g->head, __ATOMIC_RELEASE);
}

/* A sample in the task layout of one event (no id): IP, TID, TIME, PERIOD. */
static void put_sample(struct ring *g, uint32_t pid, uint64_t time)
{
	struct { struct perf_event_header h; uint64_t ip; uint32_t pid, tid; uint64_t time, period; }
		s = { { PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, sizeof(s) }, 0x401000, pid, pid + 1,
		      time, 100 };

	put(g, &s);
}

/* LOST (id, lost), LOST_SAMPLES (lost), THROTTLE (time, id, stream_id), each
 * with the sample_id trailer of the task layout (TID, TIME). */
static void put_losses(struct ring *g)
{
	struct { struct perf_event_header h; uint64_t id, lost; uint32_t pid, tid; uint64_t time; }
		lost = { { PERF_RECORD_LOST, 0, sizeof(lost) }, ID0, 5, 1, 1, 10 };
	struct { struct perf_event_header h; uint64_t lost; uint32_t pid, tid; uint64_t time; }
		ls = { { PERF_RECORD_LOST_SAMPLES, 0, sizeof(ls) }, 2, 1, 1, 10 };
	struct { struct perf_event_header h; uint64_t time, id, stream; uint32_t pid, tid;
		 uint64_t t2; }
		th = { { PERF_RECORD_THROTTLE, 0, sizeof(th) }, 10, ID0, ID0, 1, 1, 10 };

	put(g, &lost);
	put(g, &ls);
	put(g, &th);
}

static int cb(void *arg, const struct perf_event_header *h, const struct pk_record *rec)
{
	int n = k.cb_calls++;

	(void)arg;
	if (h->type == PK_DATA_RECORD_FINISHED_ROUND) {
		assert_null(rec);
		k.nr_rounds++;
	}
	if (n < 16) {
		k.cb_types[n] = h->type;
		k.cb_sizes[n] = h->size;
		k.cb_decoded[n] = rec != NULL;
		k.cb_pids[n] = rec && rec->type == PERF_RECORD_SAMPLE ? rec->sample.pid : 0;
	}
	return n == k.cb_fail_at ? -EIO : 0;
}

static void test_pump_callback(void **state)
{
	struct pk_recorder_opts o = task_opts();
	struct pk_recorder_stats st = { .size = sizeof(st) };
	struct pk_recorder *r;
	struct ring g;

	(void)state;
	o.pages = 1;
	assert_int_equal(pk_recorder_new("task-clock", &o, &r), 0);
	assert_int_equal(pk_recorder_set_callback(r, cb, NULL), 0);
	g = ring_of(0);
	put_sample(&g, 42, 300);
	put_losses(&g);
	put_sample(&g, 43, 200);
	assert_int_equal(pk_recorder_drain(r), 0);
	assert_int_equal(k.cb_calls, 6);	/* five records and the round */
	assert_int_equal(k.cb_pids[0], 42);
	assert_int_equal(k.cb_pids[4], 43);
	assert_int_equal(k.cb_types[1], PERF_RECORD_LOST);
	assert_true(k.cb_decoded[1] && k.cb_decoded[3]);
	assert_int_equal(k.cb_types[5], PK_DATA_RECORD_FINISHED_ROUND);
	assert_int_equal(pk_recorder_drain(r), 0);
	assert_int_equal(k.cb_calls, 6);	/* an empty pass: no round */
	pk_recorder_stats(r, &st);
	assert_int_equal(st.size, sizeof(st));
	assert_int_equal(st.records, 5);
	assert_int_equal(st.samples, 2);
	assert_int_equal(st.lost, 5);
	assert_int_equal(st.lost_samples, 2);
	assert_int_equal(st.throttled, 1);
	assert_int_equal(st.first_time, 200);
	assert_int_equal(st.last_time, 300);
	assert_int_equal(st.sink_error, 0);
	assert_int_equal(g.page->data_tail, g.head);	/* every byte given back */
	pk_recorder_free(r);
}

/* A sink that fails stops delivery at once; the rings are still emptied and
 * counted, and every later call says what went wrong. */
static void test_pump_sink_error(void **state)
{
	struct pk_recorder_opts o = task_opts();
	struct pk_recorder_stats st = { .size = sizeof(st) };
	struct pk_recorder *r;
	struct ring g;

	(void)state;
	o.pages = 1;
	assert_int_equal(pk_recorder_new("task-clock", &o, &r), 0);
	assert_int_equal(pk_recorder_set_callback(r, cb, NULL), 0);
	k.cb_fail_at = 1;
	g = ring_of(0);
	for (int i = 0; i < 4; i++)
		put_sample(&g, 42, 100 + (uint64_t)i);
	assert_int_equal(pk_recorder_drain(r), -EIO);
	assert_int_equal(k.cb_calls, 2);
	put_sample(&g, 42, 500);
	assert_int_equal(pk_recorder_drain(r), -EIO);
	assert_int_equal(k.cb_calls, 2);
	pk_recorder_stats(r, &st);
	assert_int_equal(st.samples, 5);
	assert_int_equal(st.last_time, 500);
	assert_int_equal(st.sink_error, -EIO);
	assert_int_equal(g.page->data_tail, g.head);
	pk_recorder_free(r);
}

/* DWARF: a sample's user stack is cut to the dyn_size the kernel copied
 * before it reaches the sinks. */
static void test_pump_dwarf_trim(void **state)
{
	struct pk_recorder_opts o = task_opts();
	struct pk_recorder *r;
	unsigned char rec[1024] = { 0 };
	uint64_t v[8] = { 0x401000, 42 | (43ULL << 32), 100, 1, 0, PERF_SAMPLE_REGS_ABI_64 };
	size_t n = sizeof(struct perf_event_header), nregs;
	struct ring g;

	(void)state;
	o.pages = 1;
	o.callgraph = PK_CALLGRAPH_DWARF;
	assert_int_equal(pk_recorder_new("task-clock", &o, &r), 0);
	assert_int_equal(pk_recorder_set_callback(r, cb, NULL), 0);
	/* IP, TID, TIME, PERIOD, CALLCHAIN nr 0, REGS_USER abi + regs,
	 * STACK_USER size, 256 bytes, dyn_size 16. */
	memcpy(rec + n, v, 6 * 8);
	n += 6 * 8;
	nregs = (size_t)__builtin_popcountll(pk_regs_dwarf_mask());
	n += nregs * 8;
	v[0] = 256;
	memcpy(rec + n, v, 8);
	n += 8 + 256;
	v[0] = 16;
	memcpy(rec + n, v, 8);
	n += 8;
	((struct perf_event_header *)rec)->type = PERF_RECORD_SAMPLE;
	((struct perf_event_header *)rec)->size = (uint16_t)n;
	g = ring_of(0);
	put(&g, rec);
	assert_int_equal(pk_recorder_drain(r), 0);
	assert_int_equal(k.cb_calls, 2);
	assert_int_equal(k.cb_sizes[0], n - 256 + 16);
	assert_true(k.cb_decoded[0]);
	assert_int_equal(k.cb_pids[0], 42);
	pk_recorder_free(r);
}

/* The writer gets every record and a FINISHED_ROUND after each pass. */
static void test_pump_writer(void **state)
{
	struct pk_recorder_opts o = task_opts();
	struct pk_recorder *r;
	struct pk_data_writer *w;
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char path[512];
	struct ring g;
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "%s/pk-recorder-data-XXXXXX", tmp);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	o.pages = 1;
	assert_int_equal(pk_recorder_new("task-clock", &o, &r), 0);
	assert_int_equal(pk_data_writer_create(path, &w), 0);
	assert_int_equal(pk_recorder_set_writer(r, w), 0);
	assert_int_equal(pk__recorder_describe(r), 0);
	g = ring_of(0);
	put_sample(&g, 42, 300);
	put_sample(&g, 42, 301);
	assert_int_equal(pk_recorder_drain(r), 0);
	assert_int_equal(pk_data_writer_size(w), 2 * 40 + 8);	/* 40-byte samples, a round */
	put_sample(&g, 42, 302);
	assert_int_equal(pk_recorder_finish(r), 0);
	assert_int_equal(pk_data_writer_size(w), 3 * 40 + 2 * 8);
	assert_true(pk_data_writer_finish(w) >= 0);
	pk_recorder_free(r);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_layout, setup, teardown),
		cmocka_unit_test_setup_teardown(test_layout_overwrite, setup, teardown),
		cmocka_unit_test_setup_teardown(test_layout_rec13, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fallback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_targets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pump_callback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pump_sink_error, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pump_dwarf_trim, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pump_writer, setup, teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
