/* SPDX-License-Identifier: MIT */
/*
 * script-dlfilter.c - perf script 6.1's --dlfilter: a shared object built
 * against perf's perf_dlfilter.h (perf-dlfilter.h here, the same ABI)
 * sees each sample and drops it by returning non-zero: filter_event_early
 * before the --time and -C filters and before the sample is resolved,
 * filter_event after the other filters passed it.  Its start gets the
 * --dlarg arguments (args), its stop runs at the end, and the callbacks
 * perf fills into its perf_dlfilter_fns answer from the resolver:
 * resolve_ip, resolve_addr (page faults), resolve_address, insn and
 * object_code (from the object's file; nothing from the kernel's text,
 * which has none here), srcline and attr; sym_end and sym_binding are
 * the symbol's end and ELF binding, as perf's.  --list-dlfilters lists the
 * .so files in the current directory that have a filter, as perf does
 * (perfkit installs no filters of its own).
 */
#include "script-filter.h"
#include "script-fields.h"
#include "perf-dlfilter.h"

#include <dirent.h>
#include <errno.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct script_dlfilter {
	void *handle;
	char *file;
	int (*start)(void **data, void *ctx);
	int (*stop)(void *data, void *ctx);
	int (*filter)(void *data, const struct perf_dlfilter_sample *s, void *ctx);
	int (*early)(void *data, const struct perf_dlfilter_sample *s, void *ctx);
	void *data;			/* what start set */
	bool valid, in_start_stop;	/* inside a filter call; inside start or stop */
	/* the sample being filtered */
	struct script_filter *f;
	struct pk_resolver *res;
	struct perf_event_attr attr;
	const struct pk_record *rec;
	const struct pk_resolved_sample *r;	/* NULL until resolved */
	struct pk_resolved_sample own;		/* resolved here for the early filter */
	struct perf_dlfilter_sample ds;
	struct perf_dlfilter_al ip_al, addr_al;
	uint8_t insn[16];
	char *srcfile;
};

static const struct perf_dlfilter_fns host_fns;

/* ---- the callbacks -------------------------------------------------------- */

static const struct pk_resolved_sample *resolved(struct script_dlfilter *d)
{
	if (!d->r) {
		d->own = (struct pk_resolved_sample){ .size = sizeof(d->own) };
		if (pk_resolver_resolve(d->res, d->rec, &d->own) < 0)
			return NULL;
		d->r = &d->own;
	}
	return d->r;
}

/* perf's al_to_d_al. */
static void to_al(const struct pk_location *loc, uint64_t ip, struct perf_dlfilter_al *al)
{
	*al = (struct perf_dlfilter_al){ .size = sizeof(*al), .addr = loc->addr, .is_kernel_ip = ip >> 63 };
	if (loc->dso) {
		al->dso = script_dso_name(loc->dso);	/* perf's long name under --show-kernel-path */
		al->is_64_bit = 1;	/* x86-64's objects and kernel */
		al->buildid_size = (__u32)loc->dso->build_id_size;
		al->buildid = al->buildid_size ? (__u8 *)loc->dso->build_id : NULL;
	}
	if (loc->sym) {
		al->sym = loc->sym;
		al->sym_start = loc->sym_start;
		al->sym_end = loc->sym_end;
		al->sym_binding = loc->sym_binding;
		al->symoff = (__u32)loc->symoff;
	}
}

static const struct perf_dlfilter_al *cb_resolve_ip(void *ctx)
{
	struct script_dlfilter *d = ctx;
	const struct pk_resolved_sample *r;

	if (!d->valid)
		return NULL;
	if (d->ip_al.size)
		return &d->ip_al;
	if (!(r = resolved(d)))
		return NULL;
	to_al(&r->loc, d->ds.ip, &d->ip_al);
	d->ip_al.comm = r->comm ? r->comm : ":-1";
	d->ip_al.filtered = script_filter_hides(d->f, r, d->ds.ip);
	return &d->ip_al;
}

static const struct perf_dlfilter_al *cb_resolve_addr(void *ctx)
{
	struct script_dlfilter *d = ctx;
	struct pk_location loc = { .size = sizeof(loc) };
	const struct pk_resolved_sample *r;

	if (!d->valid || !d->ds.addr_correlates_sym)
		return NULL;
	if (d->addr_al.size)
		return &d->addr_al;
	if (!(r = resolved(d)))
		return NULL;
	pk_maps_resolve_data(pk_resolver_maps(d->res), r->pid, d->ds.addr, r->cpumode, &loc);
	to_al(&loc, d->ds.addr, &d->addr_al);
	return &d->addr_al;
}

static char **cb_args(void *ctx, int *argc)
{
	struct script_dlfilter *d = ctx;

	if (!argc)
		return NULL;
	*argc = 0;
	if (!d->valid && !d->in_start_stop)
		return NULL;
	*argc = d->f->nr_dlargs;
	return d->f->dlargs;
}

static __s32 cb_resolve_address(void *ctx, __u64 address, struct perf_dlfilter_al *out)
{
	struct script_dlfilter *d = ctx;
	struct pk_location loc = { .size = sizeof(loc) };
	struct perf_dlfilter_al al;
	const struct pk_resolved_sample *r;
	__u32 size;

	if (!d->valid || !out || !(r = resolved(d)))
		return -1;
	pk_maps_resolve_data(pk_resolver_maps(d->res), r->pid, address, r->cpumode, &loc);
	to_al(&loc, address, &al);
	size = out->size;
	memcpy(out, &al, size < sizeof(al) ? size : sizeof(al));
	out->size = size;
	return 0;
}

/* Up to len bytes at ip from the file of the object that maps it. */
static __s32 read_code(struct script_dlfilter *d, uint64_t ip, void *buf, uint32_t len)
{
	struct pk_location loc = { .size = sizeof(loc) };
	const struct pk_resolved_sample *r = resolved(d);
	ssize_t n;
	int fd;

	if (!r || ip >> 63 || pk_maps_resolve(pk_resolver_maps(d->res), r->pid, ip, PERF_RECORD_MISC_USER, &loc) < 0 ||
	    !loc.dso || loc.dso->name[0] != '/' || (fd = open(loc.dso->name, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = pread(fd, buf, len, (off_t)loc.map_ip);
	close(fd);
	return n < 0 ? -1 : (__s32)n;
}

static const __u8 *cb_insn(void *ctx, __u32 *len)
{
	struct script_dlfilter *d = ctx;
	__s32 n;
	int ilen;

	if (!len)
		return NULL;
	*len = 0;
	if (!d->valid || !d->ds.ip || (n = read_code(d, d->ds.ip, d->insn, sizeof(d->insn))) <= 0 ||
	    (ilen = script_insn_len(d->insn, (size_t)n)) <= 0)
		return NULL;
	*len = (__u32)ilen;
	return d->insn;
}

static const char *cb_srcline(void *ctx, __u32 *line)
{
	struct script_dlfilter *d = ctx;
	struct pk_srcline sl = { .size = sizeof(sl) };
	const struct pk_resolved_sample *r;

	if (!d->valid || !line)
		return NULL;
	*line = 0;
	if (!(r = resolved(d)) || !r->loc.dso ||
	    pk_maps_srcline(pk_resolver_maps(d->res), &r->loc, &sl) < 0 || !sl.file)
		return NULL;
	free(d->srcfile);
	d->srcfile = strdup(sl.file);
	*line = sl.line;
	return d->srcfile;
}

static struct perf_event_attr *cb_attr(void *ctx)
{
	struct script_dlfilter *d = ctx;

	return d->valid ? &d->attr : NULL;
}

static __s32 cb_object_code(void *ctx, __u64 ip, void *buf, __u32 len)
{
	struct script_dlfilter *d = ctx;

	return d->valid ? read_code(d, ip, buf, len) : -1;
}

static const struct perf_dlfilter_fns host_fns = {
	.resolve_ip = cb_resolve_ip, .resolve_addr = cb_resolve_addr, .args = cb_args,
	.resolve_address = cb_resolve_address, .insn = cb_insn, .srcline = cb_srcline,
	.attr = cb_attr, .object_code = cb_object_code,
};

/* ---- loading ---------------------------------------------------------------- */

/* perf's find_dlfilter: a name without a slash is tried in the current
 * directory ("./NAME", so dlopen does not search its own path). */
static char *find_file(const char *name)
{
	char *path;

	if (strchr(name, '/') || access(name, R_OK) < 0)
		return strdup(name);
	if (asprintf(&path, "./%s", name) < 0)
		return NULL;
	return path;
}

/* The long description's lines under the name (-v). */
static void print_long(const char *desc)
{
	while (desc) {
		const char *nl = strchr(desc, '\n');
		int len = nl ? (int)(nl - desc) : (int)strlen(desc);

		printf("%39s%.*s\n", "", len, desc);
		desc = nl ? nl + 1 : NULL;
	}
}

/* perf's list_filters for one directory. */
static void list_dir(const char *dir, bool verbose)
{
	DIR *dp = opendir(dir);
	struct dirent *e;

	while (dp && (e = readdir(dp))) {
		size_t n = strlen(e->d_name);
		char path[4096];
		const char *(*desc_fn)(const char **);
		const char *desc = NULL, *long_desc = NULL;
		void *h;

		if (e->d_type == DT_DIR || n < 4 || strcmp(e->d_name + n - 3, ".so") ||
		    (size_t)snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) >= sizeof(path) ||
		    !(h = dlopen(path, RTLD_NOW)))
			continue;
		if (dlsym(h, "filter_event") || dlsym(h, "filter_event_early")) {
			if ((desc_fn = (const char *(*)(const char **))dlsym(h, "filter_description")))
				desc = desc_fn(&long_desc);
			printf("  %-36s %s\n", e->d_name, desc ? desc : "");
			if (verbose)
				print_long(long_desc);
		}
		dlclose(h);
	}
	if (dp)
		closedir(dp);
}

int script_dlfilter_option(struct script_filter *f, int id, const char *arg)
{
	char **args;

	switch (id) {
	case SOPT_LIST_DLFILTERS:
		printf("List of available dlfilters:\n");
		list_dir(".", f->verbose > 0);
		return -1;
	case SOPT_DLFILTER: f->dlfilter_path = arg; return 0;
	case SOPT_DLARG:
		if (!(args = realloc(f->dlargs, sizeof(*args) * (size_t)(f->nr_dlargs + 1))))
			return cli_usage("script", "out of memory");
		f->dlargs = args;
		if (!(args[f->nr_dlargs] = strdup(arg)))
			return cli_usage("script", "out of memory");
		f->nr_dlargs++;
		return 0;
	default: return 0;
	}
}

int script_dlfilter_open(struct script_filter *f)
{
	struct script_dlfilter *d;
	struct perf_dlfilter_fns *fns;

	if (!f->dlfilter_path)
		return 0;
	if (!(d = calloc(1, sizeof(*d))) || !(d->file = find_file(f->dlfilter_path))) {
		free(d);
		return cli_usage("script", "out of memory");
	}
	f->dlfilter = d;
	d->f = f;
	if (!(d->handle = dlopen(d->file, RTLD_NOW))) {
		cli_message(stderr, "dlopen failed for: '%s'\n", d->file);
		return CLI_EXIT_EVENT;
	}
	*(void **)&d->start = dlsym(d->handle, "start");
	*(void **)&d->stop = dlsym(d->handle, "stop");
	*(void **)&d->filter = dlsym(d->handle, "filter_event");
	*(void **)&d->early = dlsym(d->handle, "filter_event_early");
	if ((fns = dlsym(d->handle, "perf_dlfilter_fns")))
		memcpy(fns, &host_fns, sizeof(*fns));
	if (d->start) {
		int rc;

		d->in_start_stop = true;
		rc = d->start(&d->data, d);
		d->in_start_stop = false;
		if (rc) {
			cli_message(stderr, "perfkit script: the dlfilter's start failed (%d)\n", rc);
			return CLI_EXIT_EVENT;
		}
	}
	return 0;
}

/* perf's dlfilter__do_filter_event's copy of the sample. */
static void fill_sample(struct script_dlfilter *d, const struct pk_record *rec, const char *event)
{
	const struct pk_sample *s = &rec->sample;
	const struct perf_event_attr *a = &d->attr;
	struct perf_dlfilter_sample *ds = &d->ds;
	bool fault = a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_PAGE_FAULTS ||
						      a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
						      a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ);

	*ds = (struct perf_dlfilter_sample){
		.size = sizeof(*ds), .ip = s->ip, .pid = (__s32)s->pid, .tid = (__s32)s->tid, .time = s->time,
		.addr = s->addr, .id = s->id, .stream_id = s->stream_id,
		.period = s->fields & PERF_SAMPLE_PERIOD ? s->period : a->sample_period,
		.weight = s->weight.full, .transaction = s->transaction,
		.cpu = s->fields & PERF_SAMPLE_CPU ? (__s32)s->cpu : -1,
		.data_src = s->data_src, .phys_addr = s->phys_addr, .data_page_size = s->data_page_size,
		.code_page_size = s->code_page_size, .cgroup = s->cgroup,
		.cpumode = (__u8)(rec->misc & PERF_RECORD_MISC_CPUMODE_MASK), .misc = rec->misc,
		.addr_correlates_sym = (a->sample_type & PERF_SAMPLE_ADDR) && fault,
		.raw_size = s->raw.size, .raw_data = s->raw.data,
		.brstack_nr = s->branch.nr, .brstack = s->branch.entries,
		.raw_callchain_nr = s->callchain.nr, .raw_callchain = (const __u64 *)s->callchain.ips,
		.event = event, .machine_pid = 0, .vcpu = -1,
	};
	if (a->sample_type & PERF_SAMPLE_WEIGHT_STRUCT) {
		ds->weight = s->weight.var1;
		ds->ins_lat = s->weight.var2;
		ds->p_stage_cyc = s->weight.var3;
	}
	if (!(s->fields & PERF_SAMPLE_TID))
		ds->pid = ds->tid = -1;
}

/* One call of the filter (early or not) on rec; r: its resolution, or NULL. */
static int call_filter(struct script_dlfilter *d, bool early, struct pk_resolver *res,
		       const struct perf_event_attr *attr, const char *event, const struct pk_record *rec,
		       const struct pk_resolved_sample *r)
{
	int rc;

	d->res = res;
	d->attr = *attr;
	d->rec = rec;
	d->r = r;
	d->ip_al.size = d->addr_al.size = 0;
	fill_sample(d, rec, event);
	d->valid = true;
	rc = (early ? d->early : d->filter)(d->data, &d->ds, d);
	d->valid = false;
	if (rc < 0) {	/* perf stops there */
		cli_message(stderr, "perfkit script: the dlfilter's %s failed (%d)\n",
			    early ? "filter_event_early" : "filter_event", rc);
		return -1;
	}
	return rc;
}

int script_dlfilter_early(struct script_filter *f, struct pk_resolver *res, const struct perf_event_attr *attr,
			  const char *event, const struct pk_record *rec)
{
	struct script_dlfilter *d = f->dlfilter;
	int rc;

	if (!d || !d->early)
		return 1;
	rc = call_filter(d, true, res, attr, event, rec, NULL);
	return rc < 0 ? -ECANCELED : !rc;
}

int script_dlfilter_filter(struct script_filter *f, struct pk_resolver *res, const struct perf_event_attr *attr,
			   const struct pk_record *rec, const struct pk_resolved_sample *r)
{
	struct script_dlfilter *d = f->dlfilter;
	int rc;

	if (!d || !d->filter)
		return 1;
	rc = call_filter(d, false, res, attr, f->cur_name, rec, r);
	return rc < 0 ? -ECANCELED : !rc;
}

void script_dlfilter_close(struct script_filter *f)
{
	struct script_dlfilter *d = f->dlfilter;

	if (!d)
		return;
	if (d->handle && d->stop) {
		d->in_start_stop = true;
		d->stop(d->data, d);
		d->in_start_stop = false;
	}
	if (d->handle)
		dlclose(d->handle);
	free(d->srcfile);
	free(d->file);
	free(d);
	f->dlfilter = NULL;
}
