/* SPDX-License-Identifier: MIT */
/*
 * stack-health.c - counts, over a recording's resolved samples, the call
 * stacks that were cut and why (pk_stack_health_*): a --call-graph dwarf
 * copy too small for the stack, a frame-pointer chain that ends early or
 * in junk, a chain as long as the stack limit, and the DSOs whose
 * addresses resolve to no symbol (stripped, no debug info, or another
 * build-id), each with the number of samples it touches.  Whether a
 * stack reached its root is judged by the outermost frame's symbol.  A
 * repeat of a recent chain (the resolver's chain_id, kept in a small
 * table by id) has what its frames came to counted again without
 * looking at them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit/health.h"

struct dso_count {
	struct pk_stack_health_dso pub;
	uint64_t last_seq;	/* the sample that last counted it unresolved: once per sample */
};

/* What the frames of chain chain_id (pk_resolved_sample) came to,
 * replayed for a repeat of it instead of looking at each frame: the DSOs
 * its frames counted (each once), fp_cut's answer, and count_dwarf's
 * judgement of its user part. */
struct chain_kept {
	uint64_t chain_id;	/* 0: none kept */
	const struct pk_dso **hits;
	size_t nr_hits, cap_hits;
	const struct pk_dso *fp_blame;
	bool fp_known;
	bool dwarf_known;
	bool dwarf_whole;	/* no user frames, or the outermost a root */
	const struct pk_dso *dwarf_last;	/* else the outermost user frame's DSO */
};

/* Chains kept, by id: ids are handed out one after another, so the
 * chains of a recording's recent samples rarely share a slot. */
#define CHAIN_SLOTS 64

struct pk_stack_health {
	struct pk_stack_health_figures fig;
	struct dso_count *dsos;	/* every DSO met with a problem */
	size_t nr_dsos, cap;
	size_t last_dso;	/* the entry dso_entry found last */
	uint64_t seq;		/* samples fed, 1-based, for last_seq */
	uint64_t n;		/* how many samples the one being added stands for */
	bool dso_hit;		/* the sample being added touched a DSO with problems */
	bool sorted;
	struct chain_kept *cur;	/* the sample's chain's, NULL when not kept */
	struct chain_kept kept[CHAIN_SLOTS];
};

int pk_stack_health_new(struct pk_stack_health **out)
{
	struct pk_stack_health *h = calloc(1, sizeof(*h));

	if (!h)
		return -ENOMEM;
	h->fig.size = sizeof(h->fig);
	h->fig.max_stack = 127;
	*out = h;
	return 0;
}

void pk_stack_health_free(struct pk_stack_health *h)
{
	if (!h)
		return;
	free(h->dsos);
	for (size_t i = 0; i < CHAIN_SLOTS; i++)
		free(h->kept[i].hits);
	free(h);
}

void pk_stack_health_set_max_stack(struct pk_stack_health *h, unsigned int max)
{
	h->fig.max_stack = max ? max : 1;
}

/* The functions a whole stack starts from: an unwinding that reaches one
 * of them was not cut.  glibc's start-up and thread entry points, the
 * raw clone a thread begins in, and ld.so's _dl_start_user, which runs
 * the libraries' constructors before the program's _start.  And GCC's
 * crtbegin.o functions, which every program links and which have no
 * unwind tables (nothing a build flag fixes): the constructor and
 * destructor runners ld.so calls at start and exit. */
static bool is_root(const struct pk_frame *f)
{
	static const char *const roots[] = {
		"_start", "__libc_start_main", "__libc_start_call_main", "clone", "clone3",
		"__clone", "__clone3", "start_thread", "thread_start", "__GI___clone3", "_dl_start_user",
		"__do_global_dtors_aux", "frame_dummy", "register_tm_clones", "deregister_tm_clones",
	};
	const char *s = f->loc.sym;

	if (!s)
		return false;
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		size_t n = strlen(roots[i]);

		/* Versioned names count too: __libc_start_main@@GLIBC_2.34. */
		if (!strncmp(s, roots[i], n) && (s[n] == '\0' || s[n] == '@'))
			return true;
	}
	return false;
}

/* A DSO whose symbols are worth asking for: a file or the kernel, not
 * [vdso], anonymous memory or a JIT's map. */
static bool is_file(const struct pk_dso *d)
{
	return d && (d->kernel || d->name[0] == '/');
}

static struct dso_count *dso_entry(struct pk_stack_health *h, const struct pk_dso *d)
{
	/* a chain's frames mostly share their DSO: the last one found first */
	if (h->last_dso < h->nr_dsos && h->dsos[h->last_dso].pub.dso == d)
		return &h->dsos[h->last_dso];
	for (size_t i = 0; i < h->nr_dsos; i++)
		if (h->dsos[i].pub.dso == d)
			return &h->dsos[h->last_dso = i];
	if (h->nr_dsos == h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 16;
		struct dso_count *n = realloc(h->dsos, cap * sizeof(*n));

		if (!n)
			return NULL;
		h->dsos = n;
		h->cap = cap;
	}
	h->sorted = false;
	h->dsos[h->nr_dsos] = (struct dso_count){ .pub.dso = d };
	h->last_dso = h->nr_dsos;
	return &h->dsos[h->nr_dsos++];
}

/* An address of this sample in `loc`: its DSO counted once per sample
 * when it resolves to no symbol there. */
static int count_location(struct pk_stack_health *h, const struct pk_location *loc)
{
	struct dso_count *e;

	if (loc->sym || !is_file(loc->dso))
		return 0;
	if (!(e = dso_entry(h, loc->dso)))
		return -ENOMEM;
	e->pub.problems |= loc->dso->build_id_mismatch ? PK_STACK_HEALTH_BUILD_ID : PK_STACK_HEALTH_NO_SYMBOLS;
	if (e->last_seq != h->seq) {
		e->last_seq = h->seq;
		e->pub.nr_samples += h->n;
	}
	h->dso_hit = true;
	return 0;
}

/* The user frames of rs: [*first, *first + *nr). */
static void user_part(const struct pk_resolved_sample *rs, size_t *first, size_t *nr)
{
	size_t i = 0;

	while (i < rs->nr_frames && rs->frames[i].cpumode != PERF_RECORD_MISC_USER)
		i++;
	*first = i;
	while (i < rs->nr_frames && rs->frames[i].cpumode == PERF_RECORD_MISC_USER)
		i++;
	*nr = i - *first;
}

/*
 * A frame-pointer chain's user part: cut when a caller maps to nothing
 * (the frame pointer was junk; the frame before it is where it was lost)
 * or when it ends after one or two frames in a file, short of a root.
 * Returns the DSO to blame, or NULL when the chain looks whole.
 */
static const struct pk_dso *fp_cut(const struct pk_resolved_sample *rs)
{
	size_t first, nr;

	user_part(rs, &first, &nr);
	if (!nr)
		return NULL;	/* a kernel thread's, or a chain without user part */
	for (size_t i = first + 1; i < first + nr; i++)
		if (!rs->frames[i].loc.dso)
			return rs->frames[i - 1].loc.dso;
	const struct pk_frame *last = &rs->frames[first + nr - 1];

	if (nr <= 2 && is_file(last->loc.dso) && !last->loc.dso->kernel && !is_root(last))
		return last->loc.dso;
	return NULL;
}

static uint64_t next_pow2_above(uint64_t v)
{
	uint64_t p = 1;

	while (p <= v && p < (UINT64_C(1) << 62))
		p <<= 1;
	return p;
}

/* A frame with the whole stack in hand that unwinding could not pass:
 * its file, `last`, has no unwind table for it (as with .eh_frame
 * stripped). */
static int blame_unwind(struct pk_stack_health *h, const struct pk_dso *last)
{
	struct dso_count *e;

	if (!is_file(last) || last->kernel)
		return 0;	/* JIT code or anonymous memory: no file to fix */
	if (!(e = dso_entry(h, last)))
		return -ENOMEM;
	h->fig.nr_unwind_cut += h->n;
	e->pub.problems |= PK_STACK_HEALTH_NO_UNWIND_TABLE;
	e->pub.nr_unwind_cut += h->n;
	h->dso_hit = true;
	return 0;
}

/* A --call-graph dwarf sample: when the unwinding did not reach a root,
 * either the copy was full, so a bigger copy would have gone further,
 * or the stack was all there and a frame's file lacks unwind tables. */
static int count_dwarf(struct pk_stack_health *h, const struct perf_event_attr *attr,
		       const struct pk_sample *smp, const struct pk_resolved_sample *rs)
{
	/* The kernel copies less than asked when the stack ends sooner (the
	 * copy is then the whole stack) and, near perf's cap, to fit the
	 * record in its 16-bit size: a copy is full when it is what was
	 * asked for or within a kilobyte of the cap, and all of it valid. */
	uint64_t asked = attr->sample_stack_user;
	bool full = smp->stack.dyn_size == smp->stack.size &&
		    (smp->stack.size >= asked ||
		     (asked + 1024 > PK_STACK_HEALTH_MAX_DWARF_SIZE && smp->stack.size + 1024 > asked));
	struct chain_kept kept, *k = h->cur ? h->cur : &kept;
	size_t first, nr;
	uint64_t suggest;

	h->fig.nr_dwarf += h->n;
	if (smp->stack.size > h->fig.dwarf_size)
		h->fig.dwarf_size = smp->stack.size;
	if (!smp->stack.dyn_size)
		return 0;	/* nothing unwound */
	if (k == &kept || !k->dwarf_known) {
		user_part(rs, &first, &nr);
		k->dwarf_whole = !nr || is_root(&rs->frames[first + nr - 1]);
		k->dwarf_last = nr ? rs->frames[first + nr - 1].loc.dso : NULL;
		k->dwarf_known = true;
	}
	if (k->dwarf_whole)
		return 0;	/* nothing unwound, or the stack whole */
	if (!full)
		return blame_unwind(h, k->dwarf_last);
	h->fig.nr_dwarf_cut += h->n;
	suggest = next_pow2_above(smp->stack.size);
	if (suggest > PK_STACK_HEALTH_MAX_DWARF_SIZE)
		suggest = PK_STACK_HEALTH_MAX_DWARF_SIZE;
	if (suggest > h->fig.dwarf_suggest)
		h->fig.dwarf_suggest = suggest;
	return 0;
}

/* d, whose DSO entry the frames of the chain being kept counted, noted
 * once; out of memory the chain is not kept. */
static void note_hit(struct pk_stack_health *h, const struct pk_dso *d)
{
	struct chain_kept *k = h->cur;

	for (size_t i = 0; i < k->nr_hits; i++)
		if (k->hits[i] == d)
			return;
	if (k->nr_hits == k->cap_hits) {
		size_t cap = k->cap_hits ? k->cap_hits * 2 : 8;
		const struct pk_dso **n = realloc(k->hits, cap * sizeof(*n));

		if (!n) {
			k->chain_id = 0;
			h->cur = NULL;
			return;
		}
		k->hits = n;
		k->cap_hits = cap;
	}
	k->hits[k->nr_hits++] = d;
}

/* The frames of rs counted (count_location each), or, for a repeat of the
 * chain kept, the DSOs they counted the last time counted again. */
static int count_frames(struct pk_stack_health *h, const struct pk_resolved_sample *rs, bool repeat)
{
	struct dso_count *e;
	int err;

	if (repeat) {
		for (size_t i = 0; i < h->cur->nr_hits; i++) {
			if (!(e = dso_entry(h, h->cur->hits[i])))
				return -ENOMEM;
			if (e->last_seq != h->seq) {
				e->last_seq = h->seq;
				e->pub.nr_samples += h->n;
			}
			h->dso_hit = true;
		}
		return 0;
	}
	for (size_t i = 0; i < rs->nr_frames; i++) {
		const struct pk_location *loc = &rs->frames[i].loc;

		if ((err = count_location(h, loc)) < 0)
			return err;
		if (h->cur && !loc->sym && is_file(loc->dso))
			note_hit(h, loc->dso);
	}
	return 0;
}

/* fp_cut's answer for rs, kept with its chain. */
static const struct pk_dso *fp_cut_kept(struct pk_stack_health *h, const struct pk_resolved_sample *rs)
{
	struct chain_kept *k = h->cur;

	if (!k)
		return fp_cut(rs);
	if (!k->fp_known) {
		k->fp_blame = fp_cut(rs);
		k->fp_known = true;
	}
	return k->fp_blame;
}

static int add_sample(struct pk_stack_health *h, const struct perf_event_attr *attr,
		      const struct pk_sample *smp, const struct pk_resolved_sample *rs)
{
	bool dwarf = (attr->sample_type & PERF_SAMPLE_STACK_USER) && (smp->fields & PERF_SAMPLE_STACK_USER) &&
		     smp->stack.size;
	int err;

	/* A repeat of a chain kept, or a new one to keep (none: 0). */
	struct chain_kept *k = rs->chain_id ? &h->kept[rs->chain_id % CHAIN_SLOTS] : NULL;
	bool repeat = k && k->chain_id == rs->chain_id;

	if (k && !repeat) {
		k->chain_id = rs->chain_id;
		k->nr_hits = 0;
		k->fp_known = false;
		k->dwarf_known = false;
	}
	h->cur = k;
	h->seq++;
	h->dso_hit = false;
	h->fig.nr_samples += h->n;
	if (rs->nr_frames)
		h->fig.nr_chains += h->n;
	if (dwarf && (err = count_dwarf(h, attr, smp, rs)) < 0)
		return err;
	/* an LBR call stack's user part comes from the branch records, not
	 * from frame pointers: nothing to judge them by */
	bool lbr = (attr->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
		   (attr->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK);

	if (!dwarf && !lbr && (attr->sample_type & PERF_SAMPLE_CALLCHAIN)) {
		const struct pk_dso *d = fp_cut_kept(h, rs);
		struct dso_count *e;

		if (d) {
			h->fig.nr_fp_cut += h->n;
			if (!(e = dso_entry(h, d)))
				return -ENOMEM;
			e->pub.problems |= PK_STACK_HEALTH_NO_FRAME_POINTER;
			e->pub.nr_fp_cut += h->n;
			h->dso_hit = true;
		}
	}
	if (rs->nr_frames >= h->fig.max_stack)
		h->fig.nr_max_stack += h->n;
	if ((err = count_location(h, &rs->loc)) < 0 || (err = count_frames(h, rs, repeat)) < 0)
		return err;
	if (h->dso_hit)
		h->fig.nr_dso_samples += h->n;
	return 0;
}

int pk_stack_health_add_n(struct pk_stack_health *h, const struct perf_event_attr *attr,
			  const struct pk_sample *smp, const struct pk_resolved_sample *rs, uint64_t nr_samples)
{
	int err;

	h->n = nr_samples;
	if ((err = add_sample(h, attr, smp, rs)) < 0 && h->cur)
		h->cur->chain_id = 0;	/* what was kept may be part of it */
	return err;
}

int pk_stack_health_add(struct pk_stack_health *h, const struct perf_event_attr *attr,
			const struct pk_sample *smp, const struct pk_resolved_sample *rs)
{
	int err;

	h->n = 1;
	err = add_sample(h, attr, smp, rs);

	if (err < 0 && h->cur)
		h->cur->chain_id = 0;	/* what was kept may be part of it */
	return err;
}

int pk_stack_health_get(const struct pk_stack_health *h, struct pk_stack_health_figures *out)
{
	if (out->size < sizeof(*out))
		return -EINVAL;
	*out = h->fig;
	out->nr_dsos = h->nr_dsos;
	return 0;
}

static int by_samples(const void *a, const void *b)
{
	const struct pk_stack_health_dso *x = &((const struct dso_count *)a)->pub;
	const struct pk_stack_health_dso *y = &((const struct dso_count *)b)->pub;

	uint64_t nx = x->nr_samples + x->nr_fp_cut + x->nr_unwind_cut;
	uint64_t ny = y->nr_samples + y->nr_fp_cut + y->nr_unwind_cut;

	if (nx != ny)
		return nx > ny ? -1 : 1;
	return strcmp(x->dso->name, y->dso->name);
}

int pk_stack_health_dso(struct pk_stack_health *h, size_t i, struct pk_stack_health_dso *out)
{
	if (i >= h->nr_dsos)
		return -ERANGE;
	if (!h->sorted) {
		qsort(h->dsos, h->nr_dsos, sizeof(*h->dsos), by_samples);
		h->sorted = true;
	}
	*out = h->dsos[i].pub;
	return 0;
}
