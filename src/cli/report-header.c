/* SPDX-License-Identifier: MIT */
/*
 * report-header.c - perf's header block of a perf.data file, as perf 6.1's
 * perf report --header/--header-only/-I and perf script --header print it:
 * the header's offsets, then each feature section the file has, in bit
 * order, decoded by the library's typed decoders (features.h) and written
 * in perf's words (the facts from perf's util/header.c print_* functions;
 * the attr of each event in perf_event_attr__fprintf's field order, which
 * pk_attr_format keeps), then the features it lacks.
 */
#include "report-header.h"
#include "report.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* ---- the features, one printer each ------------------------------------------ */

struct hdr {
	FILE *f;
	struct pk_data_reader *r;
};

static void print_string(const struct hdr *h, const struct pk_feature *ft)
{
	static const char *const label[] = {
		[PK_DATA_FEAT_HOSTNAME] = "hostname", [PK_DATA_FEAT_OSRELEASE] = "os release",
		[PK_DATA_FEAT_VERSION] = "perf version", [PK_DATA_FEAT_ARCH] = "arch",
		[PK_DATA_FEAT_CPUDESC] = "cpudesc", [PK_DATA_FEAT_CPUID] = "cpuid",
	};
	const char *s = pk_feature_string(ft);

	fprintf(h->f, "# %s : %s\n", label[pk_feature_id(ft)], s ? s : "");
}

static void print_nrcpus(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_nrcpus *n = pk_feature_nrcpus(ft);

	fprintf(h->f, "# nrcpus online : %u\n# nrcpus avail : %u\n", n->online, n->available);
}

static void print_total_mem(const struct hdr *h, const struct pk_feature *ft)
{
	uint64_t kb = 0;

	pk_feature_u64(ft, &kb);
	fprintf(h->f, "# total memory : %" PRIu64 " kB\n", kb);
}

/* Each argument then a space; a quote inside one shows as \' (perf's way). */
static void print_cmdline(const struct hdr *h, const struct pk_feature *ft)
{
	uint32_t nr = 0;
	char *const *argv = pk_feature_cmdline(ft, &nr);

	fputs("# cmdline : ", h->f);
	for (uint32_t i = 0; i < nr; i++) {
		for (const char *p = argv[i]; *p; p++)
			if (*p == '\'')
				fputs("\\'", h->f);
			else
				fputc(*p, h->f);
		fputc(' ', h->f);
	}
	fputc('\n', h->f);
}

/* pk_attr_format's "  label   value" lines as perf's ", label = value";
 * a value never holds a space, a label may ("{ sample_period, ... }"). */
static void print_attr(FILE *f, const struct perf_event_attr *attr)
{
	char small[2048], *buf = small, *line, *next;
	int n = pk_attr_format(attr, small, sizeof(small));

	if (n < 0)
		return;
	if ((size_t)n >= sizeof(small)) {
		if (!(buf = malloc((size_t)n + 1)))
			return;
		pk_attr_format(attr, buf, (size_t)n + 1);
	}
	for (line = buf; *line; line = next) {
		char *nl = strchr(line, '\n'), *sp, *end;

		next = nl ? nl + 1 : line + strlen(line);
		if (nl)
			*nl = '\0';
		while (*line == ' ')
			line++;
		if (!(sp = strrchr(line, ' ')))
			continue;
		for (end = sp; end > line && end[-1] == ' '; end--)
			;
		fprintf(f, ", %.*s = %s", (int)(end - line), line, sp + 1);
	}
	if (buf != small)
		free(buf);
}

static void print_event_desc(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_event_desc *d = pk_feature_event_desc(ft);

	for (uint32_t i = 0; i < d->nr; i++) {
		const struct pk_feature_event *e = &d->events[i];

		fprintf(h->f, "# event : name = %s, ", e->name);
		if (e->nr_ids) {
			fputs(", id = {", h->f);
			for (uint32_t j = 0; j < e->nr_ids; j++)
				fprintf(h->f, "%s %" PRIu64, j ? "," : "", e->ids[j]);
			fputs(" }", h->f);
		}
		print_attr(h->f, e->attr);
		fputc('\n', h->f);
	}
}

static void print_lists(FILE *f, const char *label, char **lists, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		fprintf(f, "# sibling %s : %s\n", label, lists[i]);
}

static void print_cpu_topology(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_cpu_topology *t = pk_feature_cpu_topology(ft);
	bool dies = t->have_dies && t->nr_dies;

	print_lists(h->f, "sockets", t->sockets, t->nr_sockets);
	if (dies)
		print_lists(h->f, "dies   ", t->dies, t->nr_dies);
	print_lists(h->f, "threads", t->threads, t->nr_threads);
	if (!t->nr_cpus) {
		fprintf(h->f, "# Core ID%s and Socket ID information is not available\n",
			dies ? ", Die ID" : "");
		return;
	}
	for (uint32_t i = 0; i < t->nr_cpus; i++) {
		const struct pk_feature_cpu *c = &t->cpus[i];

		if (dies)
			fprintf(h->f, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i, c->core_id,
				c->die_id, c->socket_id);
		else
			fprintf(h->f, "# CPU %u: Core ID %d, Socket ID %d\n", i, c->core_id, c->socket_id);
	}
}

static void print_numa_topology(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_numa_topology *t = pk_feature_numa_topology(ft);

	for (uint32_t i = 0; i < t->nr; i++) {
		const struct pk_feature_numa_node *n = &t->nodes[i];

		fprintf(h->f, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n",
			n->node, n->mem_total_kb, n->mem_free_kb);
		fprintf(h->f, "# node%u cpu list : %s\n", n->node, n->cpus);
	}
}

static void print_flag_line(const struct hdr *h, const struct pk_feature *ft)
{
	switch (pk_feature_id(ft)) {
	case PK_DATA_FEAT_BRANCH_STACK: fputs("# contains samples with branch stack\n", h->f); break;
	case PK_DATA_FEAT_AUXTRACE: fputs("# contains AUX area data (e.g. instruction trace)\n", h->f); break;
	default: fputs("# contains stat data\n", h->f); break;
	}
}

static void print_pmu_mappings(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_pmu_mappings *m = pk_feature_pmu_mappings(ft);

	if (!m->nr) {
		fputs("# pmu mappings: not available\n", h->f);
		return;
	}
	for (uint32_t i = 0; i < m->nr; i++)
		fprintf(h->f, "%s%s = %u", i ? ", " : "# pmu mappings: ", m->pmus[i].name, m->pmus[i].type);
	fputc('\n', h->f);
}

/* perf names a group's members by the file's event names. */
static void print_group_desc(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_group_desc *g = pk_feature_group_desc(ft);

	for (uint32_t i = 0; i < g->nr; i++) {
		const struct pk_feature_group *grp = &g->groups[i];

		if (grp->nr_members < 2)
			continue;
		/* perf writes "{anon_group}" for an unnamed {a,b} and shows no name. */
		fprintf(h->f, "# group: %s{",
			grp->name && strcmp(grp->name, "{anon_group}") ? grp->name : "");
		for (uint32_t k = 0; k < grp->nr_members; k++) {
			const char *name = pk_data_reader_name(h->r, grp->leader_idx + k);

			fprintf(h->f, "%s%s", k ? "," : "", name ? name : "unknown");
		}
		fputs("}\n", h->f);
	}
}

static void print_cache(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_cache *c = pk_feature_cache(ft);

	fputs("# CPU cache info:\n", h->f);
	for (uint32_t i = 0; i < c->nr; i++)
		fprintf(h->f, "#  L%u %-15s %8s [%s]\n", c->caches[i].level, c->caches[i].type,
			c->caches[i].size, c->caches[i].map);
}

static void print_sample_time(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_sample_time *t = pk_feature_sample_time(ft);

	fprintf(h->f, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n", t->first_ns / 1000000000,
		t->first_ns % 1000000000 / 1000);
	fprintf(h->f, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n", t->last_ns / 1000000000,
		t->last_ns % 1000000000 / 1000);
	fprintf(h->f, "# sample duration : %10.3f ms\n", (double)(t->last_ns - t->first_ns) / 1e6);
}

static bool bit_set(const uint64_t *bits, uint64_t i)
{
	return bits[i / 64] >> (i % 64) & 1;
}

/* One memory node: its size (perf's unit_number__scnprintf: stop at G, and
 * while the quotient is above 1) and its blocks as ranges "0-23,32-199". */
static void print_mem_node(FILE *f, const struct pk_feature_mem_node *n, uint64_t block_size)
{
	static const char unit[] = "BKMG";
	uint64_t weight = 0, size;
	int u = 0;
	bool first = true;

	for (uint64_t i = 0; i < n->nr_bits; i++)
		weight += bit_set(n->bits, i);
	for (size = block_size * weight; size / 1024 > 1 && u < 3; u++)
		size /= 1024;
	fprintf(f, "#  %3" PRIu64 " [%" PRIu64 "%c]: ", n->node, size, unit[u]);
	for (uint64_t i = 0; i < n->nr_bits; i++) {
		uint64_t j = i;

		if (!bit_set(n->bits, i))
			continue;
		while (j + 1 < n->nr_bits && bit_set(n->bits, j + 1))
			j++;
		if (j == i)
			fprintf(f, "%s%" PRIu64, first ? "" : ",", i);
		else
			fprintf(f, "%s%" PRIu64 "-%" PRIu64, first ? "" : ",", i, j);
		first = false;
		i = j;
	}
	fputc('\n', f);
}

static void print_mem_topology(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_mem_topology *m = pk_feature_mem_topology(ft);

	fprintf(h->f, "# memory nodes (nr %d, block size 0x%" PRIx64 "):\n", (int)m->nr, m->block_size);
	for (uint64_t i = 0; i < m->nr; i++)
		print_mem_node(h->f, &m->nodes[i], m->block_size);
}

/* CLOCKID holds the clock's resolution in ns; perf prints it times 1000. */
static void print_clockid(const struct hdr *h, const struct pk_feature *ft)
{
	uint64_t res = 0;

	pk_feature_u64(ft, &res);
	fprintf(h->f, "# clockid frequency: %" PRIu64 " MHz\n", res * 1000);
}

static void print_dir_format(const struct hdr *h, const struct pk_feature *ft)
{
	uint64_t version = 0;

	pk_feature_u64(ft, &version);
	fprintf(h->f, "# directory data version : %" PRIu64 "\n", version);
}

/* BTF objects by id, as perf's tree holds them. */
static void print_bpf_btf(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_btfs *b = pk_feature_btfs(ft);
	uint64_t last = 0;

	for (uint32_t done = 0; done < b->nr; done++) {
		uint64_t next = UINT64_MAX;

		for (uint32_t i = 0; i < b->nr; i++)
			if ((done == 0 || b->btfs[i].id > last) && b->btfs[i].id < next)
				next = b->btfs[i].id;
		if (next == UINT64_MAX)
			break;
		fprintf(h->f, "# btf info of id %" PRIu64 "\n", next);
		last = next;
	}
}

/* One program's lines (__bpf_event__print_bpf_prog_info): one line for a
 * single function, else a head line and a sub_prog line per function. */
static void print_bpf_prog(FILE *f, const struct pk_feature_bpf_prog *p, const struct pk_feature_btfs *btfs)
{
	struct pk_feature_bpf_func fn = { .size = sizeof(fn) };
	int n = pk_feature_bpf_prog_func(p, btfs, 0, &fn);

	if (n == 1) {
		fprintf(f, "# bpf_prog_info %u: %s addr 0x%" PRIx64 " size %u\n", (unsigned int)p->id, fn.name,
			fn.addr, (unsigned int)fn.len);
		return;
	}
	if (n <= 0)
		return;
	fprintf(f, "# bpf_prog_info %u:\n", (unsigned int)p->id);
	for (int i = 0; i < n && pk_feature_bpf_prog_func(p, btfs, (uint32_t)i, &fn) > 0; i++)
		fprintf(f, "# \tsub_prog %d: %s addr 0x%" PRIx64 " size %u\n", i, fn.name, fn.addr,
			(unsigned int)fn.len);
}

/* The programs by id, as perf's tree holds them, named with the file's
 * BTF.  perf reads no program info from a file of the other byte order. */
static void print_bpf_prog_info(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_bpf_progs *ps = pk_feature_bpf_progs(ft);
	struct pk_feature *bt = NULL;
	uint64_t last = 0;

	if (pk_data_reader_swapped(h->r))
		return;
	if (pk_data_reader_has_feature(h->r, PK_DATA_FEAT_BPF_BTF) &&
	    pk_data_reader_decode(h->r, PK_DATA_FEAT_BPF_BTF, &bt) < 0)
		bt = NULL;
	for (uint32_t done = 0; done < ps->nr; done++) {
		const struct pk_feature_bpf_prog *next = NULL;

		for (uint32_t i = 0; i < ps->nr; i++)
			if ((done == 0 || ps->progs[i].id > last) && ps->progs[i].info &&
			    (!next || ps->progs[i].id < next->id))
				next = &ps->progs[i];
		if (!next)
			break;
		print_bpf_prog(h->f, next, bt ? pk_feature_btfs(bt) : NULL);
		last = next->id;
	}
	pk_feature_free(bt);
}

static void print_compressed(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_compressed *c = pk_feature_compressed(ft);

	fprintf(h->f, "# compressed : %s, level = %d, ratio = %d\n", c->type == 1 ? "Zstd" : "Unknown",
		(int)c->level, (int)c->ratio);
}

static void print_caps_of(FILE *f, const struct pk_feature_pmu_caps_of *p)
{
	const char *pmu = p->pmu ? p->pmu : "cpu";

	if (!p->nr_caps) {
		fprintf(f, "# %s pmu capabilities: not available\n", pmu);
		return;
	}
	fprintf(f, "# %s pmu capabilities: ", pmu);
	for (uint32_t i = 0; i < p->nr_caps; i++)
		fprintf(f, "%s%s=%s", i ? ", " : "", p->caps[i].name, p->caps[i].value);
	fputc('\n', f);
}

static void print_pmu_caps(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_pmu_caps *c = pk_feature_pmu_caps(ft);

	for (uint32_t i = 0; i < c->nr; i++)
		print_caps_of(h->f, &c->pmus[i]);
}

static const char *clock_name(int32_t id)
{
	switch (id) {
	case CLOCK_MONOTONIC: return "monotonic";
	case CLOCK_MONOTONIC_RAW: return "monotonic_raw";
	case CLOCK_REALTIME: return "realtime";
	case CLOCK_BOOTTIME: return "boottime";
	case CLOCK_TAI: return "tai";
	default: return "(not found)";
	}
}

/* The reference pair: time of day (local, to the microsecond) and the clock. */
static void print_clock_data(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_clock_data *c = pk_feature_clock_data(ft);
	time_t sec = (time_t)(c->tod_ns / 1000000000);
	int usec = (int)(c->tod_ns % 1000000000 / 1000);
	char date[64], tstr[96];
	struct tm tm;

	if (!localtime_r(&sec, &tm)) {
		snprintf(tstr, sizeof(tstr), "<error>");
	} else {
		strftime(date, sizeof(date), "%F %T", &tm);
		snprintf(tstr, sizeof(tstr), "%s.%06d", date, usec);
	}
	fprintf(h->f, "# clockid: %s (%u)\n", clock_name(c->clockid), (unsigned int)c->clockid);
	fprintf(h->f, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", tstr, (long)sec, usec,
		(long)(c->clock_ns / 1000000000), (long)(c->clock_ns % 1000000000), clock_name(c->clockid));
}

static void print_hybrid_topology(const struct hdr *h, const struct pk_feature *ft)
{
	const struct pk_feature_hybrid_topology *t = pk_feature_hybrid_topology(ft);

	fputs("# hybrid cpu system:\n", h->f);
	for (uint32_t i = 0; i < t->nr; i++)
		fprintf(h->f, "# %s cpu list : %s\n", t->pmus[i].pmu, t->pmus[i].cpus);
}

typedef void (*feat_printer)(const struct hdr *h, const struct pk_feature *ft);

/* perf 6.1's feat_ops: which features print (TRACING_DATA and BUILD_ID do
 * not) and which only with -I. */
static const struct {
	feat_printer print;
	bool full_only;
} printers[PK_DATA_FEAT_LAST] = {
	[PK_DATA_FEAT_HOSTNAME] = { print_string, false },
	[PK_DATA_FEAT_OSRELEASE] = { print_string, false },
	[PK_DATA_FEAT_VERSION] = { print_string, false },
	[PK_DATA_FEAT_ARCH] = { print_string, false },
	[PK_DATA_FEAT_NRCPUS] = { print_nrcpus, false },
	[PK_DATA_FEAT_CPUDESC] = { print_string, false },
	[PK_DATA_FEAT_CPUID] = { print_string, false },
	[PK_DATA_FEAT_TOTAL_MEM] = { print_total_mem, false },
	[PK_DATA_FEAT_CMDLINE] = { print_cmdline, false },
	[PK_DATA_FEAT_EVENT_DESC] = { print_event_desc, false },
	[PK_DATA_FEAT_CPU_TOPOLOGY] = { print_cpu_topology, true },
	[PK_DATA_FEAT_NUMA_TOPOLOGY] = { print_numa_topology, true },
	[PK_DATA_FEAT_BRANCH_STACK] = { print_flag_line, false },
	[PK_DATA_FEAT_PMU_MAPPINGS] = { print_pmu_mappings, false },
	[PK_DATA_FEAT_GROUP_DESC] = { print_group_desc, false },
	[PK_DATA_FEAT_AUXTRACE] = { print_flag_line, false },
	[PK_DATA_FEAT_STAT] = { print_flag_line, false },
	[PK_DATA_FEAT_CACHE] = { print_cache, true },
	[PK_DATA_FEAT_SAMPLE_TIME] = { print_sample_time, false },
	[PK_DATA_FEAT_MEM_TOPOLOGY] = { print_mem_topology, true },
	[PK_DATA_FEAT_CLOCKID] = { print_clockid, false },
	[PK_DATA_FEAT_DIR_FORMAT] = { print_dir_format, false },
	[PK_DATA_FEAT_BPF_PROG_INFO] = { print_bpf_prog_info, false },
	[PK_DATA_FEAT_BPF_BTF] = { print_bpf_btf, false },
	[PK_DATA_FEAT_COMPRESSED] = { print_compressed, false },
	[PK_DATA_FEAT_CPU_PMU_CAPS] = { print_pmu_caps, false },
	[PK_DATA_FEAT_CLOCK_DATA] = { print_clock_data, false },
	[PK_DATA_FEAT_HYBRID_TOPOLOGY] = { print_hybrid_topology, true },
	[PK_DATA_FEAT_PMU_CAPS] = { print_pmu_caps, false },
};

/* perf's name of a feature: its HEADER_ name ("CPU_TOPOLOGY"). */
static void upper_name(unsigned int id, char *buf, size_t len)
{
	const char *n = pk_data_reader_feature_name(id);
	size_t i = 0;

	for (; n && n[i] && i + 1 < len; i++)
		buf[i] = (char)toupper((unsigned char)n[i]);
	buf[i] = '\0';
}

/* ---- the block ---------------------------------------------------------------- */

static int print_features(const struct hdr *h, bool full)
{
	for (unsigned int id = 1; id < PK_DATA_FEAT_LAST; id++) {
		struct pk_feature *ft;
		char name[32];
		int err;

		if (!printers[id].print || !pk_data_reader_has_feature(h->r, id))
			continue;
		if (printers[id].full_only && !full) {
			upper_name(id, name, sizeof(name));
			fprintf(h->f, "# %s info available, use -I to display\n", name);
			continue;
		}
		if ((err = pk_data_reader_decode(h->r, id, &ft)) < 0)
			return err;
		printers[id].print(h, ft);
		pk_feature_free(ft);
	}
	return 0;
}

/* The first lines: when the file was written (its modification time, as
 * perf's fstat gives it) and where its parts are. */
static int print_layout(const struct hdr *h, const struct pk_data_layout *l, const char *path,
			const char *cmd)
{
	struct stat st;
	char when[64];

	if ((strcmp(path, "-") ? stat(path, &st) : fstat(0, &st)) < 0) {
		cli_message(stderr, "perfkit %s: cannot stat %s: %s\n", cmd, path, strerror(errno));
		return CLI_EXIT_EVENT;
	}
	if (!ctime_r(&st.st_mtime, when))
		snprintf(when, sizeof(when), "?\n");
	fprintf(h->f, "# captured on    : %s", when);
	fprintf(h->f, "# header version : %u\n", l->version);
	fprintf(h->f, "# data offset    : %" PRIu64 "\n", l->data_offset);
	fprintf(h->f, "# data size      : %" PRIu64 "\n", l->data_size);
	fprintf(h->f, "# feat offset    : %" PRIu64 "\n", l->feat_offset);
	return 0;
}

int report_header_print(FILE *f, struct pk_data_reader *r, const char *path, bool full, const char *cmd)
{
	struct pk_data_layout l = { .size = sizeof(l) };
	const struct hdr h = { f, r };
	bool pipe;
	int err;

	if (pk_data_reader_layout(r, &l) < 0)
		return cli_error(cmd, NULL);
	pipe = l.data_offset == 0;	/* a pipe-mode stream has no layout */
	fputs("# ========\n", f);
	if ((err = print_layout(&h, &l, path, cmd)))
		return err;
	if (!pipe && print_features(&h, full) < 0)
		return cli_error(cmd, NULL);
	if (!pipe) {
		fputs("# missing features: ", f);
		for (unsigned int id = 1; id < PK_DATA_FEAT_LAST; id++) {
			char name[32];

			if (pk_data_reader_feature_listed(r, id))
				continue;
			upper_name(id, name, sizeof(name));
			fprintf(f, "%s ", name);
		}
		fputc('\n', f);
	}
	fputs("# ========\n#\n", f);
	/* perf prints a stream's features as their records come, after the block. */
	if (pipe && print_features(&h, full) < 0)
		return cli_error(cmd, NULL);
	return 0;
}

int report_info(const struct report_opts *o, struct pk_data_reader *r)
{
	int rc = -1;

	if (o->stats)
		rc = report_stats(stdout, r);
	else if ((o->header || o->header_only) && !o->quiet &&
		 (rc = report_header_print(stdout, r, o->input, o->show_info, "report")) == 0)
		rc = o->header_only ? 0 : -1;
	else if (o->header_only)
		rc = 0;
	if (rc != -1)
		pk_data_reader_free(r);
	return rc;
}
