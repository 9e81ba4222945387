/* SPDX-License-Identifier: MIT */
/*
 * export.c - the exporter object behind every export format: it interns
 * the strings, frames and stacks of the samples it is given (a stack is a
 * node of an address trie, so a million samples of a few thousand stacks
 * cost a few thousand nodes), keeps each sample as a small fixed record
 * for the writers that need every one (speedscope's timeline, pprof's
 * labels), builds the call tree merged by frame label that folded stacks
 * and flame graphs draw, and dispatches to the format's writer.
 */
#include "perfkit.h"
#include "sys/sys.h"
#include "analysis/export-int.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* ---- id tables ------------------------------------------------------------- */

typedef bool (*id_eq)(const void *ctx, uint32_t id, const void *key);

static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 0x100000001b3ull;	/* FNV-1a */
	return h;
}

/* The slot of `key` (holding its id + 1, or 0 when absent). */
static uint32_t *idtab_find(const struct pk__idtab *t, uint64_t hash, id_eq eq, const void *ctx,
			    const void *key)
{
	size_t mask = t->cap - 1, i = mix(hash) & mask;

	while (t->slots[i] && !eq(ctx, t->slots[i] - 1, key))
		i = (i + 1) & mask;
	return &t->slots[i];
}

/* Keep the table at most half full for `nr` + 1 ids, rehashing by `rehash`. */
static int idtab_grow(struct pk__idtab *t, size_t nr, uint64_t (*rehash)(const void *ctx, uint32_t id),
		      const void *ctx)
{
	size_t cap = t->cap ? t->cap : 256;
	uint32_t *old = t->slots;
	size_t old_cap = t->cap;

	if (t->slots && (nr + 1) * 2 <= t->cap)
		return 0;
	while ((nr + 1) * 2 > cap)
		cap *= 2;
	if (!(t->slots = pk__calloc(cap, sizeof(*t->slots)))) {
		t->slots = old;
		return pk__error_nomem("an exporter's table");
	}
	t->cap = cap;
	for (size_t i = 0; i < old_cap; i++) {
		size_t j;

		if (!old[i])
			continue;
		j = mix(rehash(ctx, old[i] - 1)) & (cap - 1);
		while (t->slots[j])
			j = (j + 1) & (cap - 1);
		t->slots[j] = old[i];
	}
	free(old);
	return 0;
}

static int grow(void **arr, size_t *cap, size_t nr, size_t elem)
{
	size_t c = *cap ? *cap * 2 : 64;
	void *p;

	if (nr < *cap)
		return 0;
	if (!(p = pk__reallocarray(*arr, c, elem)))
		return pk__error_nomem("an exporter's arrays");
	*arr = p;
	*cap = c;
	return 0;
}

/* ---- strings --------------------------------------------------------------- */

static uint64_t str_hash(const char *s)
{
	return hash_bytes(0xcbf29ce484222325ull, s, strlen(s));
}

static bool str_eq(const void *ctx, uint32_t id, const void *key)
{
	return !strcmp(((const struct pk_exporter *)ctx)->strs[id], key);
}

static uint64_t str_rehash(const void *ctx, uint32_t id)
{
	return str_hash(((const struct pk_exporter *)ctx)->strs[id]);
}

/* The id of string `s` (0 for NULL or ""), or a negative errno. */
static int64_t intern(struct pk_exporter *ex, const char *s)
{
	uint32_t *slot;
	int err;

	if (!s || !*s)
		return 0;
	if ((err = idtab_grow(&ex->str_tab, ex->nr_strs, str_rehash, ex)) < 0 ||
	    (err = grow((void **)&ex->strs, &ex->cap_strs, ex->nr_strs, sizeof(*ex->strs))) < 0)
		return err;
	slot = idtab_find(&ex->str_tab, str_hash(s), str_eq, ex, s);
	if (*slot)
		return *slot - 1;
	if (!(ex->strs[ex->nr_strs] = pk__strdup(s)))
		return pk__error_nomem("an exporter's strings");
	*slot = (uint32_t)ex->nr_strs + 1;
	return (int64_t)ex->nr_strs++;
}

/* ---- frames and stacks ----------------------------------------------------- */

/* A frame's identity is every field but its label, which follows from
 * them (so a known frame is found before its label is made). */
static uint64_t frame_hash(const struct pk__xframe *f)
{
	uint64_t v[] = { (uint64_t)f->name << 32 | f->dso, (uint64_t)f->build_id << 32 | f->file,
			 (uint64_t)f->line << 32 | f->kind, f->addr, f->map_start, f->map_end, f->map_pgoff,
			 f->file_offset };
	uint64_t h = 0;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		h = mix(h ^ v[i]) + i;	/* word by word: a frame is hashed per sample */
	return h;
}

static bool frame_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct pk__xframe *a = &((const struct pk_exporter *)ctx)->frames[id], *b = key;

	return a->name == b->name && a->dso == b->dso && a->build_id == b->build_id && a->file == b->file &&
	       a->line == b->line && a->kind == b->kind && a->addr == b->addr && a->map_start == b->map_start &&
	       a->map_end == b->map_end && a->map_pgoff == b->map_pgoff && a->file_offset == b->file_offset;
}

static uint64_t frame_rehash(const void *ctx, uint32_t id)
{
	return frame_hash(&((const struct pk_exporter *)ctx)->frames[id]);
}

/* What folded stacks call a frame: its name, else "[dso]" by the DSO's last
 * path component, else "[unknown]" (stackcollapse-perf's names); ';' is
 * the separator, so it becomes ':'. */
static int64_t frame_label(struct pk_exporter *ex, const struct pk_export_frame *f)
{
	const char *base = f->dso ? strrchr(f->dso, '/') : NULL;
	char *s;
	int64_t id;

	if (f->name && *f->name)
		s = pk__strdup(f->name);
	else if (f->dso && *f->dso && (!base || base[1]))
		s = asprintf(&s, "[%s]", base ? base + 1 : f->dso) < 0 ? NULL : s;
	else
		s = pk__strdup("[unknown]");
	if (!s)
		return pk__error_nomem("a frame's name");
	for (char *p = s; *p; p++)
		if (*p == ';')
			*p = ':';
		else if (*p == '\n')
			*p = ' ';
	id = intern(ex, s);
	free(s);
	return id;
}

/* Whether the caller's string `s` is string `id` (NULL and "" are 0). */
static bool same_str(const struct pk_exporter *ex, uint32_t id, const char *s)
{
	return (!s || !*s) ? !id : id && !strcmp(ex->strs[id], s);
}

/* Whether frame `id` is the caller's frame f. */
static bool same_frame(const struct pk_exporter *ex, uint32_t id, const struct pk_export_frame *f)
{
	const struct pk__xframe *x = &ex->frames[id];

	return x->addr == f->addr && x->line == f->line && x->kind == f->kind && x->file_offset == f->file_offset &&
	       x->map_start == f->map_start && x->map_end == f->map_end && x->map_pgoff == f->map_pgoff &&
	       same_str(ex, x->name, f->name) && same_str(ex, x->dso, f->dso) &&
	       same_str(ex, x->build_id, f->build_id) && same_str(ex, x->file, f->file);
}

static uint32_t *recent_slot(const struct pk_exporter *ex, const struct pk_export_frame *f)
{
	return &ex->recent[mix(f->addr ^ f->file_offset ^ f->kind) & (PK__EXPORT_RECENT - 1)];
}

static int64_t add_frame_new(struct pk_exporter *ex, const struct pk_export_frame *f);

/* The id of frame f: a recent one when it matches, else interned. */
static int64_t add_frame(struct pk_exporter *ex, const struct pk_export_frame *f)
{
	uint32_t *r = recent_slot(ex, f);
	int64_t id;

	if (*r && same_frame(ex, *r, f))
		return *r;
	if ((id = add_frame_new(ex, f)) > 0)
		*r = (uint32_t)id;
	return id;
}

static int64_t add_frame_new(struct pk_exporter *ex, const struct pk_export_frame *f)
{
	struct pk__xframe x = { .line = f->line, .kind = f->kind, .addr = f->addr,
				.map_start = f->map_start, .map_end = f->map_end,
				.map_pgoff = f->map_pgoff, .file_offset = f->file_offset };
	int64_t ids[4], label;
	uint32_t *slot;
	int err;

	if ((ids[0] = intern(ex, f->name)) < 0 || (ids[1] = intern(ex, f->dso)) < 0 ||
	    (ids[2] = intern(ex, f->build_id)) < 0 || (ids[3] = intern(ex, f->file)) < 0)
		return pk__error_nomem("a frame");
	x.name = (uint32_t)ids[0], x.dso = (uint32_t)ids[1], x.build_id = (uint32_t)ids[2];
	x.file = (uint32_t)ids[3];
	if ((err = idtab_grow(&ex->frame_tab, ex->nr_frames, frame_rehash, ex)) < 0 ||
	    (err = grow((void **)&ex->frames, &ex->cap_frames, ex->nr_frames, sizeof(x))) < 0)
		return err;
	slot = idtab_find(&ex->frame_tab, frame_hash(&x), frame_eq, ex, &x);
	if (*slot)
		return *slot - 1;
	if ((label = frame_label(ex, f)) < 0)
		return label;
	x.label = (uint32_t)label;
	ex->frames[ex->nr_frames] = x;
	*slot = (uint32_t)ex->nr_frames + 1;
	return (int64_t)ex->nr_frames++;
}

static uint64_t node_hash(uint32_t parent, uint32_t frame)
{
	return ((uint64_t)parent << 32) | frame;
}

static bool node_eq(const void *ctx, uint32_t id, const void *key)
{
	const struct pk__xnode *n = &((const struct pk_exporter *)ctx)->nodes[id], *k = key;

	return n->parent == k->parent && n->frame == k->frame;
}

static uint64_t node_rehash(const void *ctx, uint32_t id)
{
	const struct pk__xnode *n = &((const struct pk_exporter *)ctx)->nodes[id];

	return node_hash(n->parent, n->frame);
}

static int64_t add_node(struct pk_exporter *ex, uint32_t parent, uint32_t frame)
{
	struct pk__xnode k = { .parent = parent, .frame = frame, .depth = ex->nodes[parent].depth + 1 };
	uint32_t *slot;
	int err;

	if ((err = idtab_grow(&ex->node_tab, ex->nr_nodes, node_rehash, ex)) < 0 ||
	    (err = grow((void **)&ex->nodes, &ex->cap_nodes, ex->nr_nodes, sizeof(k))) < 0)
		return err;
	slot = idtab_find(&ex->node_tab, node_hash(parent, frame), node_eq, ex, &k);
	if (*slot)
		return *slot - 1;
	ex->nodes[ex->nr_nodes] = k;
	*slot = (uint32_t)ex->nr_nodes + 1;
	return (int64_t)ex->nr_nodes++;
}

int pk__export_path(const struct pk_exporter *ex, uint32_t node, uint32_t **out, size_t *nr)
{
	size_t n = ex->nodes[node].depth;
	uint32_t *p = pk__calloc(n ? n : 1, sizeof(*p));

	if (!p)
		return pk__error_nomem("a stack");
	for (size_t i = n; i > 0; i--, node = ex->nodes[node].parent)
		p[i - 1] = ex->nodes[node].frame;
	*out = p;
	*nr = n;
	return 0;
}

/* ---- the object -------------------------------------------------------------- */

static int copy_events(struct pk_exporter *ex, const struct pk_export_opts *o)
{
	static const char *const keys[] = { "pid", "tid", "comm", "cpu" };

	if (!(ex->events = pk__calloc(o->nr_events, sizeof(*ex->events))) ||
	    !(ex->ev_name = pk__calloc(o->nr_events, sizeof(*ex->ev_name))) ||
	    !(ex->ev_unit = pk__calloc(o->nr_events, sizeof(*ex->ev_unit))))
		return pk__error_nomem("an exporter");
	for (size_t k = 0; k < 4; k++) {
		int64_t id = intern(ex, keys[k]);

		if (id < 0)
			return (int)id;
		ex->label_key[k] = (uint32_t)id;
	}
	for (size_t i = 0; i < o->nr_events; i++) {
		int64_t name = intern(ex, o->events[i].name ? o->events[i].name : "samples");
		int64_t unit = intern(ex, o->events[i].unit ? o->events[i].unit : "count");

		if (name < 0 || unit < 0)
			return -ENOMEM;
		ex->events[i].name = ex->strs[name];
		ex->events[i].unit = ex->strs[unit];
		ex->ev_name[i] = (uint32_t)name;
		ex->ev_unit[i] = (uint32_t)unit;
	}
	return 0;
}

int pk_exporter_new(const struct pk_export_opts *opts, struct pk_exporter **out)
{
	struct pk_exporter *ex;
	int err;

	*out = NULL;
	if (!opts || opts->size < sizeof(*opts) || (unsigned)opts->format > PK_EXPORT_FLAMEGRAPH ||
	    !opts->nr_events || !opts->events)
		return pk__error(-EINVAL, "an exporter", "bad options (size, format or no events)");
	if (!(ex = pk__calloc(1, sizeof(*ex))))
		return pk__error_nomem("an exporter");
	ex->opts = *opts;
	ex->opts.title = NULL;
	if (!(ex->strs = pk__calloc(64, sizeof(*ex->strs))) || !(ex->strs[0] = pk__strdup("")) ||
	    !(ex->nodes = pk__calloc(64, sizeof(*ex->nodes))) ||
	    !(ex->frames = pk__calloc(64, sizeof(*ex->frames))) ||
	    !(ex->recent = pk__calloc(PK__EXPORT_RECENT, sizeof(*ex->recent)))) {
		pk_exporter_free(ex);
		return pk__error_nomem("an exporter");
	}
	ex->cap_strs = ex->cap_nodes = ex->cap_frames = 64;
	ex->nr_strs = ex->nr_nodes = ex->nr_frames = 1;
	if ((err = idtab_grow(&ex->str_tab, 1, str_rehash, ex)) < 0 ||
	    (err = copy_events(ex, opts)) < 0 ||
	    (opts->title && (err = (int)intern(ex, opts->title)) < 0)) {
		pk_exporter_free(ex);
		return err;
	}
	ex->opts.title = opts->title ? ex->strs[err] : "Flame Graph";
	*out = ex;
	return 0;
}

int pk_exporter_add(struct pk_exporter *ex, const struct pk_export_sample *s)
{
	struct pk__xsample x;
	const char *comm;
	uint32_t node = 0;
	int64_t id;
	int err = 0;

	uint32_t stack = s->size >= sizeof(*s) ? s->stack : 0;

	if (s->size < offsetof(struct pk_export_sample, stack) || s->ev >= ex->opts.nr_events ||
	    stack >= ex->nr_nodes || (!stack && (!s->nr_frames || !s->frames)))
		return pk__error(-EINVAL, "an export sample", "bad size, event %u, stack %u or no frames", s->ev,
				 stack);
	node = stack;	/* a stack the caller has given before: its frames are known */
	for (size_t i = stack ? 0 : s->nr_frames; i > 0; i--) {
		if ((id = add_frame(ex, &s->frames[i - 1])) < 0 || (id = add_node(ex, node, (uint32_t)id)) < 0)
			return (int)id;
		node = (uint32_t)id;
	}
	comm = s->comm ? s->comm : "[unknown]";
	/* a thread's samples come in runs: its comm is the last one's */
	id = strcmp(ex->strs[ex->last_comm], comm) ? intern(ex, comm) : ex->last_comm;
	if (id < 0 || (err = grow((void **)&ex->samples, &ex->cap_samples, ex->nr_samples, sizeof(x))) < 0)
		return id < 0 ? (int)id : err;
	ex->last_comm = (uint32_t)id;
	ex->last_stack = node;
	x = (struct pk__xsample){ .node = node, .ev = s->ev, .pid = s->pid, .tid = s->tid,
				  .comm = (uint32_t)id, .cpu = s->cpu, .weight = s->weight,
				  .time = s->time, .has_time = s->has_time };
	ex->samples[ex->nr_samples++] = x;
	ex->total += s->weight;
	return 0;
}

int pk_exporter_write(struct pk_exporter *ex, FILE *f)
{
	int err;

	switch (ex->opts.format) {
	case PK_EXPORT_FOLDED: err = pk__export_folded(ex, f); break;
	case PK_EXPORT_PPROF: err = pk__export_pprof(ex, f); break;
	case PK_EXPORT_SPEEDSCOPE: err = pk__export_speedscope(ex, f); break;
	default: err = pk__export_flamegraph(ex, f); break;
	}
	if (!err && (fflush(f) || ferror(f)))
		err = pk__error(-EIO, "writing a profile", "the output stream failed");
	return err;
}

uint32_t pk_exporter_last_stack(const struct pk_exporter *ex)
{
	return ex->last_stack;
}

uint64_t pk_exporter_nr_samples(const struct pk_exporter *ex)
{
	return ex->nr_samples;
}

uint64_t pk_exporter_total_weight(const struct pk_exporter *ex)
{
	return ex->total;
}

void pk_exporter_free(struct pk_exporter *ex)
{
	if (!ex)
		return;
	for (size_t i = 0; i < ex->nr_strs; i++)
		free(ex->strs[i]);
	free(ex->strs);
	free(ex->str_tab.slots);
	free(ex->frames);
	free(ex->frame_tab.slots);
	free(ex->recent);
	free(ex->nodes);
	free(ex->node_tab.slots);
	free(ex->samples);
	free(ex->events);
	free(ex->ev_name);
	free(ex->ev_unit);
	free(ex);
}
