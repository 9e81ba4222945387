/* SPDX-License-Identifier: MIT */
/*
 * test_symbols_oracle.c - pk_maps_resolve against perf 6.1: perf records
 * the workload (user code in a PIE, libc and ld.so through their debug
 * files, the kernel through kallsyms, forked children); every sample of
 * the file is resolved by following the file's MMAP/MMAP2/COMM/FORK
 * records in time order, and its (dso, symbol) must be the one
 * `perf script -F ip,sym,dso` prints for it; also for a program rebuilt
 * after the recording, which both resolve from the build-id cache.  Skipped without perf or
 * without root (kernel samples need kallsyms addresses).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "perfkit.h"
#include "tmpdir.h"

#define MAX_SAMPLES 200000

struct got {
	char dso[512], sym[512];
	uint64_t ip;
};

static int by_ip(const void *a, const void *b)
{
	const struct got *x = a, *y = b;
	int c;

	if (x->ip != y->ip)
		return x->ip < y->ip ? -1 : 1;
	c = strcmp(x->dso, y->dso);
	return c ? c : strcmp(x->sym, y->sym);
}

static int run(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

struct rec {
	uint64_t time;
	size_t seq;
	const struct perf_event_attr *attr;
	struct perf_event_header *h;
};

/* Time order, as perf's ordered events deliver them; file order on ties. */
static int by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static void resolve_one(struct pk_maps *m, const struct pk_record *rec, struct got *g)
{
	struct pk_location loc = { .size = sizeof(loc) };

	pk_maps_resolve(m, rec->sample.pid, rec->sample.ip, rec->misc & PERF_RECORD_MISC_CPUMODE_MASK,
			&loc);
	g->ip = rec->sample.ip;
	snprintf(g->dso, sizeof(g->dso), "%s", loc.dso ? loc.dso->name : "[unknown]");
	snprintf(g->sym, sizeof(g->sym), "%s", loc.sym ? loc.sym : "[unknown]");
}

/* Resolve every sample of the file, records taken in time order (perf
 * script's); returns how many. */
static size_t resolve_file(const char *path, const char *cache, struct got *out, size_t max,
			   struct pk_maps **keep)
{
	struct pk_data_reader *r;
	struct pk_maps *m;
	const struct perf_event_header *h;
	struct rec *recs = calloc(1u << 20, sizeof(*recs));
	size_t n = 0, nr = 0, len;
	const void *ids;
	int ret;

	assert_non_null(recs);
	assert_int_equal(pk_data_reader_open(path, &r), 0);
	assert_int_equal(pk_maps_new(&m), 0);
	/* The file's build-ids, as perf report checks files against them. */
	assert_int_equal(pk_data_reader_feature(r, PK_DATA_FEAT_BUILD_ID, &ids, &len), 0);
	assert_true(pk_maps_set_build_ids(m, ids, len) > 0);
	assert_int_equal(pk_maps_set_buildid_cache(m, cache), 0);
	while ((ret = pk_data_reader_next(r, &h)) == 1) {
		struct pk_record rec = { .size = sizeof(rec) };
		const struct perf_event_attr *attr = pk_data_reader_attr_of(r, h);

		if (pk_record_decode(h, attr, &rec) != 0)
			continue;
		assert_true(nr < (1u << 20));
		recs[nr] = (struct rec){ rec.type == PERF_RECORD_SAMPLE ? rec.sample.time : rec.id.time,
					 nr, attr, malloc(h->size) };
		assert_non_null(recs[nr].h);
		memcpy(recs[nr++].h, h, h->size);
	}
	assert_int_equal(ret, 0);
	qsort(recs, nr, sizeof(*recs), by_time);
	for (size_t i = 0; i < nr; i++) {
		struct pk_record rec = { .size = sizeof(rec) };

		assert_int_equal(pk_record_decode(recs[i].h, recs[i].attr, &rec), 0);
		if (rec.type != PERF_RECORD_SAMPLE)
			assert_int_equal(pk_maps_process(m, &rec), 0);
		else {
			assert_true(n < max);
			resolve_one(m, &rec, &out[n++]);
		}
		free(recs[i].h);
	}
	free(recs);
	if (keep)
		*keep = m;
	else
		pk_maps_free(m);
	pk_data_reader_free(r);
	return n;
}

/* "ffffffff8c2a8b1e do_syscall_64+0x5e ([kernel.kallsyms])": perf's line. */
static int parse_perf(char *line, struct got *g)
{
	char *p = line, *open, *close, *plus;

	g->ip = strtoull(p, &p, 16);
	p += strspn(p, " \t");
	open = strrchr(p, '(');
	close = strrchr(p, ')');
	if (!open || !close || close < open)
		return -1;
	*close = '\0';
	snprintf(g->dso, sizeof(g->dso), "%s", open + 1);
	while (open > p && open[-1] == ' ')
		open--;
	*open = '\0';
	plus = strrchr(p, '+');
	if (plus && plus[1] == '0' && plus[2] == 'x')
		*plus = '\0';
	snprintf(g->sym, sizeof(g->sym), "%s", p);
	return 0;
}

static const char *plt_program;	/* argv[1]: the PLT workload */
static const char *rebuilt_v1, *rebuilt_v2;	/* argv[2], argv[3]: one program, two builds */
static const char *plt_stripped;	/* argv[4]: the PLT workload linked stripped */
static const char *label_program;	/* argv[5]: time under untyped labels, or "" */
static const char *cxx_program;	/* argv[6]: the C++ workload, when built */
/* How often perf samples.  A child of the workload's "children N" runs
 * about 100 us: at -F 4000 (250 us) only the slower ones are sampled, 22
 * to 400 samples in all depending on the machine and its load (too few,
 * on one CI run), so its test samples every 50 us. */
static const char *sample_rate = "-F 4000";

/* Resolve the file without a build-id cache: how many samples of DSO
 * `dso` get a symbol, and whether that DSO is flagged as mismatched. */
static size_t count_resolved(const char *path, const char *dso, bool *flagged)
{
	static struct got got[MAX_SAMPLES];
	struct pk_maps *m;
	size_t n = resolve_file(path, NULL, got, MAX_SAMPLES, &m), nr = 0;

	for (size_t i = 0; i < n; i++)
		nr += !strcmp(got[i].dso, dso) && strcmp(got[i].sym, "[unknown]");
	*flagged = false;
	for (size_t i = 0; i < pk_maps_nr_dsos(m); i++)
		if (!strcmp(pk_maps_dso(m, i)->name, dso))
			*flagged = pk_maps_dso(m, i)->build_id_mismatch;
	pk_maps_free(m);
	return nr;
}

/* What perf printed for the samples of one recording. */
struct tally {
	size_t kernel;	/* resolved in the kernel */
	size_t named;	/* whose symbol is the name asked for */
	size_t plt;	/* in PLT entries: "name@plt" */
	size_t samples, resolved;	/* all, and those perf gave a symbol */
};

/* Record `args` of the workload (or of `program`) with perf and compare
 * every sample's (dso, symbol) with perf script's; returns the tally,
 * counting in named the samples whose symbol is `name`.  With `rebuilt`,
 * program runs as DIR/prog with its build-id cache in DIR/.debug, and is
 * then replaced by `rebuilt` (a new file, as a linker writes one) before
 * perf script and pk_maps_resolve, both told of the cache, read the file;
 * *without then counts the samples of DIR/prog that resolve without the
 * cache, and *flagged whether its DSO says build_id_mismatch. */
static struct tally compare_rebuilt(const char *program, const char *args, const char *name,
				    const char *rebuilt, size_t *without, bool *flagged)
{
	struct tally t = { 0 };
	char dir[4096], cmd[16384], line[4096], env[4200] = "", prog[4200], cache[4200];
	const char *workload = getenv("PERFKIT_WORKLOAD");
	static struct got ours[MAX_SAMPLES], perfs[MAX_SAMPLES];
	size_t n, i = 0, mismatches = 0, resolved = 0;
	FILE *f;

	if (geteuid() != 0 || !workload || run("perf version >/dev/null 2>&1") != 0)
		skip();
	assert_non_null(tmp_mkdtemp(dir, sizeof(dir), "sym-oracle"));
	snprintf(prog, sizeof(prog), "%s", program ? program : workload);
	if (rebuilt) {
		snprintf(prog, sizeof(prog), "%s/prog", dir);
		/* perf's cache is HOME/.debug (no system perfconfig moving it). */
		snprintf(env, sizeof(env), "HOME=%s PERF_CONFIG_NOSYSTEM=1 ", dir);
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", program, prog);
		assert_int_equal(run(cmd), 0);
	}
	snprintf(cmd, sizeof(cmd), "%sperf record -q %s -o %s/perf.data -- %s %s "
		 ">/dev/null 2>&1", env, sample_rate, dir, prog, args);
	assert_int_equal(run(cmd), 0);
	if (rebuilt) {
		snprintf(cmd, sizeof(cmd), "cp '%s' '%s.new' && mv '%s.new' '%s'", rebuilt, prog,
			 prog, prog);
		assert_int_equal(run(cmd), 0);
		snprintf(cache, sizeof(cache), "%s/.debug", dir);
		snprintf(cmd, sizeof(cmd), "%s/perf.data", dir);
		*without = count_resolved(cmd, prog, flagged);
		n = resolve_file(cmd, cache, ours, MAX_SAMPLES, NULL);
	} else {
		snprintf(cmd, sizeof(cmd), "%s/perf.data", dir);
		n = resolve_file(cmd, NULL, ours, MAX_SAMPLES, NULL);
	}
	assert_true(n > 100);
	snprintf(cmd, sizeof(cmd), "%sperf script -i %s/perf.data -F ip,sym,dso 2>/dev/null",
		 env, dir);
	assert_non_null(f = popen(cmd, "r"));
	while (fgets(line, sizeof(line), f)) {
		struct got g;

		line[strcspn(line, "\n")] = '\0';
		if (parse_perf(line, &g) < 0)
			continue;
		assert_true(i < n);
		perfs[i++] = g;
		resolved += strcmp(g.sym, "[unknown]") != 0;
		t.kernel += strcmp(g.sym, "[unknown]") && !strcmp(g.dso, "[kernel.kallsyms]");
		t.named += name && !strcmp(g.sym, name);
	}
	pclose(f);
	assert_int_equal(i, n);
	/* perf script sorts by time, the file is in ring order: compare the
	 * two as multisets of (ip, dso, sym). */
	qsort(ours, n, sizeof(*ours), by_ip);
	qsort(perfs, n, sizeof(*perfs), by_ip);
	for (i = 0; i < n; i++) {
		assert_int_equal(perfs[i].ip, ours[i].ip);
		/* perf's "name@plt" entries, made up from .rela.plt, are compared too. */
		t.plt += strstr(perfs[i].sym, "@plt") != NULL;
		if (!strcmp(perfs[i].dso, ours[i].dso) && !strcmp(perfs[i].sym, ours[i].sym))
			continue;
		/* perf 6.1 adds the "name@plt" symbols to the tree that holds
		 * the zero-size symbol before .plt (_init), whose end it has
		 * already stretched over .plt; which of the two its tree walk
		 * meets first depends on the tree's shape, so a PLT address is
		 * "_init" in one binary and "name@plt" in another (the PLT
		 * workload below).  perfkit names the PLT entry every time. */
		if (!strcmp(perfs[i].dso, ours[i].dso) && strstr(ours[i].sym, "@plt") &&
		    !strcmp(perfs[i].sym, "_init")) {
			print_message("# %llx: perf _init, ours %s: perf's tree walk\n",
				      (unsigned long long)perfs[i].ip, ours[i].sym);
			continue;
		}
		if (mismatches++ < 10)
			print_message("# %llx: perf %s (%s), ours %s (%s)\n",
				      (unsigned long long)perfs[i].ip, perfs[i].sym, perfs[i].dso,
				      ours[i].sym, ours[i].dso);
	}
	assert_int_equal(tmp_rmtree(dir), 0);
	print_message("# %s: %zu samples, %zu resolved by perf (%zu in the kernel), %zu differ, "
		      "%zu in PLT entries\n", args, n, resolved, t.kernel, mismatches, t.plt);
	assert_int_equal(mismatches, 0);
	t.samples = n;
	t.resolved = resolved;
	return t;
}

/* As compare_rebuilt, for a program with symbols: most samples get one. */
static struct tally compare(const char *program, const char *args, const char *name)
{
	struct tally t = compare_rebuilt(program, args, name, NULL, NULL, NULL);

	assert_true(t.resolved > t.samples / 2);
	return t;
}

static size_t same_as_perf_script(const char *args)
{
	return compare(NULL, args, NULL).kernel;
}

/* C++: perf 6.1 shows demangled names without their parameters. */
static void cxx_code(void **state)
{
	(void)state;
	if (!cxx_program)
		skip();
	assert_true(compare(cxx_program, "", "ns::W<long>::spin").named > 50);
}

/* PLT entries: perf 6.1 names them "labs@plt" from the program's
 * .rela.plt, and "@plt" for libc's own IRELATIVE entries. */
static void plt_entries(void **state)
{
	struct tally t;

	(void)state;
	if (!plt_program)
		skip();
	t = compare(plt_program, "30000000", "labs@plt");
	assert_true(t.named > 5);
	assert_true(t.plt > t.named);
}

/* A stripped program: its .dynsym defines only an object (environ, copy
 * relocated), which is enough for perf 6.1 to make up the PLT entries'
 * names; the samples in its own code have no symbol for either.  (How
 * many land in PLT entries is up to skid: test_resolve checks every entry.) */
static void plt_entries_stripped(void **state)
{
	struct tally t;

	(void)state;
	if (!plt_stripped)
		skip();
	t = compare_rebuilt(plt_stripped, "30000000", "labs@plt", NULL, NULL, NULL);
	assert_true(t.resolved > 0 && t.resolved < t.samples);	/* libc's, not main's */
}

/* Untyped labels (STT_NOTYPE) in .text, as hand-written assembly has them
 * (ld.so's _start and _dl_start_user): perf 6.1 names them, global or
 * local, each reaching to the next symbol (they have no size). */
static void label_symbols(void **state)
{
	(void)state;
	if (!label_program || !label_program[0])
		skip();
	assert_true(compare(label_program, "300000", "pk_label_global").named > 50);
	assert_true(compare(label_program, "300000", "pk_label_local").named > 50);
}

static void user_code(void **state)
{
	(void)state;
	same_as_perf_script("hot 300");
}

static void kernel_code(void **state)
{
	(void)state;
	/* Fresh pages: page faults and clearing pages in the kernel. */
	assert_true(same_as_perf_script("pages 100000") > 20);
}

static void forked_children(void **state)
{
	(void)state;
	sample_rate = "-c 50000";
	same_as_perf_script("children 500");
	sample_rate = "-F 4000";
}

/* A program rebuilt after the recording (another build-id, its function
 * renamed): perf report and pk_maps_resolve find the one that ran in the
 * build-id cache perf record filled; without the cache it is refused. */
static void rebuilt_program(void **state)
{
	size_t without = 0;
	bool flagged = false;
	struct tally t;

	(void)state;
	if (!rebuilt_v1 || !rebuilt_v2)
		skip();
	t = compare_rebuilt(rebuilt_v1, "", "spin_v1", rebuilt_v2, &without, &flagged);
	assert_true(t.resolved > t.samples / 2);
	assert_true(t.named > 50);
	assert_int_equal(without, 0);
	assert_true(flagged);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(user_code),
		cmocka_unit_test(kernel_code),
		cmocka_unit_test(forked_children),
		cmocka_unit_test(cxx_code),
		cmocka_unit_test(plt_entries),
		cmocka_unit_test(plt_entries_stripped),
		cmocka_unit_test(label_symbols),
		cmocka_unit_test(rebuilt_program),
	};

	plt_program = argc > 1 ? argv[1] : NULL;
	rebuilt_v1 = argc > 2 ? argv[2] : NULL;
	rebuilt_v2 = argc > 3 ? argv[3] : NULL;
	plt_stripped = argc > 4 ? argv[4] : NULL;
	label_program = argc > 5 ? argv[5] : NULL;
	cxx_program = argc > 6 ? argv[6] : NULL;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
