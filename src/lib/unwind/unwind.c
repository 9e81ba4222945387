/* SPDX-License-Identifier: MIT */
/*
 * unwind.c - DWARF unwinding of sampled user stacks with elfutils libdwfl.
 * Each process gets one Dwfl, attached once, whose modules (the mapped
 * files) are reported when a frame first lands in them and kept, so libdw's
 * per-module CFI stays cached from sample to sample; perf 6.1 builds a new
 * Dwfl for every sample.  The sample being unwound is the process's
 * `cur`, read by the thread callbacks: registers from the sample, memory
 * from the stack copy or, outside it, from the mapped file.
 */
#include "perfkit.h"
#include "symbols/symbols.h"
#include "sys/sys.h"
#include "unwind/unwind.h"

#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *debuginfo_path;	/* NULL: libdwfl's default (/usr/lib/debug) */

/* Whether an ELF file has a .debug_frame (or an old-style .zdebug_frame)
 * section; true when that cannot be told. */
static bool has_debug_frame(Elf *e)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr sh;

	if (!e || elf_getshdrstrndx(e, &shstrndx) != 0)
		return true;
	while ((scn = elf_nextscn(e, scn))) {
		const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;

		if (!name || !strcmp(name, ".debug_frame") || !strcmp(name, ".zdebug_frame"))
			return true;
	}
	return false;
}

/*
 * Whether the debug file libdwfl's build-id search would take first
 * (/usr/lib/debug/.build-id/xx/rest.debug, holding the module's build-id)
 * is there without .debug_frame.  Opening it reads the section headers
 * alone: nothing is inflated.
 */
static bool debug_file_lacks_frame(Dwfl_Module *mod)
{
	const unsigned char *id, *fid;
	char path[sizeof("/usr/lib/debug/.build-id/xx/.debug") + 2 * 64];
	GElf_Addr vaddr;
	int len = dwfl_module_build_id(mod, &id, &vaddr), flen, fd;
	bool lacks = false;
	Elf *e;

	if (len < 2 || len > 64)
		return false;
	/* libdwfl's default debuginfo_path; the layout is the symbol loader's */
	pk__debug_build_id_path(id, (size_t)len, "/usr/lib/debug", path, sizeof(path));
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	if ((e = elf_begin(fd, ELF_C_READ_MMAP, NULL))) {
		flen = (int)dwelf_elf_gnu_build_id(e, (const void **)&fid);
		lacks = flen == len && !memcmp(fid, id, (size_t)len) && !has_debug_frame(e);
		elf_end(e);
	}
	close(fd);
	return lacks;
}

/*
 * libdwfl's standard debug file search, less a debug file that cannot
 * change what the unwinder asks of it.  The unwinder reads a module's
 * DWARF for one thing, the .debug_frame CFI (dwfl_module_dwarf_cfi, when
 * .eh_frame has no row for a pc; libdwfl's own frame walk asks the same),
 * and libdw takes that from the file its DWARF comes from.  When neither
 * the module's file nor the debug file the search finds first (by
 * build-id) holds .debug_frame, the answer is no CFI whether the debug
 * file is handed over or not; handing it over would cost libdw's opening
 * it, which inflates every compressed section first (Debian's libc6-dbg
 * files: 80M instructions for ld.so's, asked for the one pc of _start that
 * .eh_frame does not cover).  So it is not searched for then.  With a
 * debuginfo_path of the caller's own, the standard search runs as it is.
 *
 * Nor does the search reach debuginfod unless DEBUGINFOD_URLS names a
 * server.  When the standard search finds no file on this machine for a
 * module with a build-id, elfutils 0.188 asks its debuginfod client, whose
 * first use dlopens libdebuginfod.so.1 whatever the variable says (the
 * variable is read later, by debuginfod_begin).  In the static CLI that
 * loads libdebuginfod, libcurl, gnutls, krb5 and some 30 more shared
 * libraries, a second libc.so.6 and a second libelf among them, into the
 * process (milliseconds, megabytes of memory, and two libcs in one
 * process), for a server that would not be asked.  So with the variable
 * unset or empty, the same local search is made by debuginfo.c; with it
 * set, the user has asked for debuginfod, as perf's libdw unwinder gives
 * it.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
			  const char *file_name, const char *debuglink_file, GElf_Word debuglink_crc,
			  char **debuginfo_file_name)
{
	const char *urls = getenv("DEBUGINFOD_URLS");
	Dwarf_Addr bias;

	if (!debuginfo_path && !has_debug_frame(dwfl_module_getelf(mod, &bias)) && debug_file_lacks_frame(mod))
		return -1;
	if (!debuginfo_path && (!urls || !*urls))
		return pk__unwind_find_debuginfo(mod, file_name, debuglink_file, debuglink_crc,
						 debuginfo_file_name);
	return dwfl_standard_find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
					    debuglink_crc, debuginfo_file_name);
}

static const Dwfl_Callbacks offline = {
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
	.debuginfo_path = &debuginfo_path,
};

int pk_unwinder_new(struct pk_unwinder **out)
{
	struct pk_unwinder *u = pk__calloc(1, sizeof(*u));

	if (!u || !(u->procs = pk__calloc(64, sizeof(*u->procs))) || pk__unwind_rules_new(u) < 0) {
		if (u)
			free(u->procs);
		free(u);
		return pk__error_nomem("the unwinder");
	}
	u->cap = 64;
	*out = u;
	return 0;
}

/* End p's Dwfl (its modules describe maps that changed); the maps forget
 * their modules. */
static void end_dwfl(struct uproc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	p->dwfl = NULL;
	p->attached = false;
	p->gen++;
	for (size_t i = 0; i < p->nr; i++) {
		p->maps[i].tried = false;
		p->maps[i].mod = NULL;
	}
}

static void proc_clear(struct uproc *p)
{
	for (size_t i = 0; i < p->nr; i++) {
		free(p->maps[i].path);
		if (p->maps[i].fd >= 0)
			close(p->maps[i].fd);
	}
	p->nr = 0;
	end_dwfl(p);
}

void pk_unwinder_free(struct pk_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->cap; i++) {
		if (u->procs[i]) {
			proc_clear(u->procs[i]);
			free(u->procs[i]->maps);
			free(u->procs[i]);
		}
	}
	free(u->procs);
	pk__unwind_rules_free(u);
	pk__unwind_traces_free(u);
	free(u);
}

static struct uproc **slot(struct uproc **procs, size_t cap, uint32_t pid)
{
	size_t i = (pid * 2654435761u) & (cap - 1);

	while (procs[i] && procs[i]->pid != pid)
		i = (i + 1) & (cap - 1);
	return &procs[i];
}

static struct uproc *find(struct pk_unwinder *u, uint32_t pid)
{
	return *slot(u->procs, u->cap, pid);
}

static struct uproc *get(struct pk_unwinder *u, uint32_t pid)
{
	struct uproc **s;

	if ((u->nr + 1) * 2 > u->cap) {	/* keep it half empty */
		size_t cap = u->cap * 2;
		struct uproc **n = pk__calloc(cap, sizeof(*n));

		if (!n)
			return NULL;
		for (size_t i = 0; i < u->cap; i++)
			if (u->procs[i])
				*slot(n, cap, u->procs[i]->pid) = u->procs[i];
		free(u->procs);
		u->procs = n;
		u->cap = cap;
	}
	s = slot(u->procs, u->cap, pid);
	if (!*s) {
		if (!(*s = pk__calloc(1, sizeof(**s))))
			return NULL;
		(*s)->pid = pid;
		u->nr++;
	}
	return *s;
}

/* Make room for `more` maps. */
static int reserve(struct uproc *p, size_t more)
{
	if (p->nr + more > p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 32;
		struct umap *m;

		while (cap < p->nr + more)
			cap *= 2;
		if (!(m = pk__reallocarray(p->maps, cap, sizeof(*m))))
			return -ENOMEM;
		p->maps = m;
		p->cap = cap;
	}
	return 0;
}

/* A map that reaches past [start, end) on both sides becomes two: the
 * part from its start to `end`, trimmed by cut(), and the part after.
 * Needs room for one more map. */
static int split(struct uproc *p, uint64_t start, uint64_t end)
{
	for (size_t i = 0; i < p->nr; i++) {
		struct umap *m = &p->maps[i], hi;

		if (m->start >= start || m->end <= end)
			continue;
		hi = *m;
		if (!(hi.path = pk__strdup(m->path)))
			return -ENOMEM;
		hi.fd = -1;
		hi.pgoff += end - m->start;
		hi.start = end;
		m->end = end;
		memmove(&p->maps[i + 2], &p->maps[i + 1], (p->nr - i - 1) * sizeof(hi));
		p->maps[i + 1] = hi;
		p->nr++;
		p->gen++;	/* the maps changed */
		break;
	}
	return 0;
}

/* Cut [start, end) out of the maps: drop those inside it, trim those that
 * overlap it (after split()). */
static void cut(struct uproc *p, uint64_t start, uint64_t end)
{
	size_t k = 0;

	for (size_t i = 0; i < p->nr; i++) {
		struct umap *m = &p->maps[i];

		if (m->end > start && m->start < end) {
			if (m->start < start) {
				m->end = start;
			} else if (m->end > end) {
				m->pgoff += end - m->start;
				m->start = end;
			} else {
				free(m->path);
				if (m->fd >= 0)
					close(m->fd);
				continue;
			}
		}
		if (k != i)	/* moved down only past a map dropped */
			p->maps[k] = *m;
		k++;
	}
	p->nr = k;
}

struct span {
	uint64_t start, end;
	bool met;
};

static int meets_module(Dwfl_Module *mod, void **userdata, const char *name, Dwarf_Addr low, void *arg)
{
	struct span *s = arg;
	Dwarf_Addr high;

	(void)userdata;
	(void)name;
	dwfl_module_info(mod, NULL, NULL, &high, NULL, NULL, NULL, NULL);
	s->met = low < s->end && high > s->start;
	return s->met ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/*
 * Whether a new mapping of [start, end) changes what p's Dwfl holds: it
 * covers part of a module's address range (that file is unmapped there,
 * or another is mapped over it), or of a map whose module was looked up.
 * A mapping elsewhere (ld.so mapping a library while the process is
 * sampled, a file mapped for data) leaves every module as it was: the
 * Dwfl, its open files and their CFI are kept (a 12-process gcc profile
 * ended and rebuilt them about 400 times, opening cc1 again each time).
 */
static bool changes_modules(struct uproc *p, uint64_t start, uint64_t end)
{
	struct span s = { start, end, false };

	if (!p->dwfl)
		return false;
	for (size_t i = 0; i < p->nr; i++)
		if (p->maps[i].tried && p->maps[i].start < end && p->maps[i].end > start)
			return true;
	dwfl_getmodules(p->dwfl, meets_module, &s, 0);
	return s.met;
}

int pk_unwinder_map(struct pk_unwinder *u, uint32_t pid, uint64_t start, uint64_t end,
		    uint64_t pgoff, const char *path)
{
	struct uproc *p;
	size_t i;
	char *copy;
	bool stale;
	int dso;

	if (end <= start || !path || !*path)
		return pk__error(-EINVAL, "a mapping for the unwinder", "the range or the path is empty");
	if ((dso = pk__unwind_path_id(u, path)) < 0)
		return dso;
	if (!(p = get(u, pid)))
		return pk__error_nomem("the unwinder's maps");
	stale = changes_modules(p, start, end);
	if (reserve(p, 2) < 0 || split(p, start, end) < 0 || !(copy = pk__strdup(path)))
		return pk__error_nomem("the unwinder's maps");
	cut(p, start, end);
	for (i = p->nr; i > 0 && p->maps[i - 1].start > start; i--)
		p->maps[i] = p->maps[i - 1];
	p->maps[i] = (struct umap){ .start = start, .end = end, .pgoff = pgoff, .path = copy, .fd = -1,
				  .dso = (uint32_t)dso };
	p->nr++;
	p->gen++;	/* a word read outside the stack may come from the new map */
	if (stale)
		end_dwfl(p);	/* its modules describe the old maps */
	return 0;
}

void pk_unwinder_forget(struct pk_unwinder *u, uint32_t pid)
{
	struct uproc *p = find(u, pid);

	if (!p)
		return;
	proc_clear(p);
	free(p->maps);	/* a process that exited keeps nothing */
	p->maps = NULL;
	p->cap = 0;
}

void pk_unwinder_release(struct pk_unwinder *u, uint32_t pid)
{
	struct uproc *p = find(u, pid);

	if (!p)
		return;
	for (size_t i = 0; i < p->nr; i++) {
		if (p->maps[i].fd >= 0)
			close(p->maps[i].fd);
		p->maps[i].fd = -1;
	}
	end_dwfl(p);
}

struct umap *pk__unwind_map_of(struct uproc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->nr;

	/* maps do not overlap: the one that holds addr is the answer */
	if (p->last < p->nr && addr >= p->maps[p->last].start && addr < p->maps[p->last].end)
		return &p->maps[p->last];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < p->maps[mid].start) {
			hi = mid;
		} else if (addr >= p->maps[mid].end) {
			lo = mid + 1;
		} else {
			p->last = mid;
			return &p->maps[mid];
		}
	}
	return NULL;
}

/* A file mapping becomes a libdwfl module loaded at the map's start less
 * its file offset (the file's load base), once per Dwfl; only absolute
 * paths of files that still exist do. */
/* Only x86_64 ELF files are unwound: a module of another machine would
 * give libdwfl that machine's register set (its fuzz target found one
 * that trips an assertion inside libdw). */
static bool x86_64(Dwfl_Module *mod)
{
	Dwarf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	GElf_Ehdr eh;

	return elf && gelf_getehdr(elf, &eh) && eh.e_machine == EM_X86_64;
}

bool pk__unwind_report_module(struct uproc *p, uint64_t addr)
{
	struct umap *m = pk__unwind_map_of(p, addr);
	Dwfl_Module *mod;
	Dwarf_Addr base, low;

	if (!m || m->path[0] != '/')
		return false;
	if (m->tried)
		return m->mod != NULL;
	m->tried = true;
	p->gen++;	/* a module reported may change libdwfl's module at any address */
	base = m->start - m->pgoff;
	mod = dwfl_addrmodule(p->dwfl, addr);
	if (mod) {
		dwfl_module_info(mod, NULL, &low, NULL, NULL, NULL, NULL, NULL);
		if (low == base)
			return (m->mod = x86_64(mod) ? mod : NULL) != NULL;
	}
	dwfl_report_begin_add(p->dwfl);
	mod = dwfl_report_elf(p->dwfl, m->path, m->path, -1, base, false);
	dwfl_report_end(p->dwfl, NULL, NULL);
	m->mod = mod && dwfl_addrmodule(p->dwfl, addr) == mod && x86_64(mod) ? mod : NULL;
	return m->mod != NULL;
}

/* A word of the process's memory that is not on the stack copy: read from
 * the file mapped there (read-only data, as perf does). */
bool pk__unwind_read_file_word(struct uproc *p, uint64_t addr, Dwarf_Word *out)
{
	struct umap *m = pk__unwind_map_of(p, addr);

	if (!m || addr + sizeof(*out) > m->end || m->path[0] != '/')
		return false;
	if (m->fd < 0 && (m->fd = open(m->path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	return pread(m->fd, out, sizeof(*out), (off_t)(addr - m->start + m->pgoff)) == sizeof(*out);
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	struct uproc *p = arg;
	struct sample_state *s = &p->cur;

	(void)dwfl;
	if (addr + sizeof(*result) < addr)
		return false;
	if (addr >= s->sp && addr + sizeof(*result) <= s->sp + s->stack_size) {
		memcpy(result, s->stack + (addr - s->sp), sizeof(*result));
		return true;
	}
	return pk__unwind_read_file_word(p, addr, result);
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct uproc *p = arg;

	(void)dwfl;
	if (*thread_argp)	/* one thread: the sample's */
		return 0;
	*thread_argp = p;
	return (pid_t)p->cur.tid;
}

/* The value of perf register `bit` in the sample, if it has it. */
bool pk__unwind_reg(const struct sample_state *s, int bit, uint64_t *v)
{
	if (!(s->mask & (1ull << bit)))
		return false;
	*v = s->regs[__builtin_popcountll(s->mask & ((1ull << bit) - 1))];
	return true;
}

/* The registers of the frame the fast path stopped at (p->cur.resume);
 * its pc, a return address less one, is the initial frame's, which
 * libdwfl looks up as it is and keeps as it is. */
static bool set_resume_registers(Dwfl_Thread *thread, const struct sample_state *s)
{
	for (unsigned int d = 0; d < 16; d++) {
		Dwarf_Word w = s->resume_regs[d];

		if ((s->resume_set & (1u << d)) && !dwfl_thread_state_registers(thread, (int)d, 1, &w))
			return false;
	}
	dwfl_thread_state_register_pc(thread, s->resume_pc);
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *thread_arg)
{
	struct uproc *p = thread_arg;
	uint64_t v;

	if (p->cur.resume)
		return set_resume_registers(thread, &p->cur);
	for (unsigned int d = 0; d < 17; d++) {
		Dwarf_Word w;

		if (!pk__unwind_reg(&p->cur, dwarf_to_perf[d], &v))
			continue;
		w = v;
		if (!dwfl_thread_state_registers(thread, (int)d, 1, &w))
			return false;
	}
	if (!pk__unwind_reg(&p->cur, PERF_REG_IP, &v))
		return false;
	dwfl_thread_state_register_pc(thread, v);
	return true;
}

static const Dwfl_Thread_Callbacks thread_callbacks = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

/* One frame: keep its pc (a caller's return address less one, so it
 * points into the call); stop after the first whose module is not known
 * (its address came from the callee's CFI, but its own CFI is not there,
 * or is another build's: perf keeps that frame too), or when ips is full. */
static int frame(Dwfl_Frame *state, void *arg)
{
	struct uproc *p = arg;
	struct sample_state *s = &p->cur;
	Dwarf_Addr pc;
	bool activation, known;

	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	known = pk__unwind_report_module(p, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	if (!activation)
		pc--;
	s->ips[s->nr++] = pc;
	return !known || s->nr == s->max ? DWARF_CB_ABORT : DWARF_CB_OK;
}

/* The process's Dwfl, made on first use; attached to our thread
 * callbacks once it has a module, whose ELF tells libdwfl the machine. */
static int attach(struct uproc *p, uint64_t ip, bool *known)
{
	if (!p->dwfl && !(p->dwfl = dwfl_begin(&offline)))
		return pk__error_nomem("libdwfl's state for process %u", p->pid);
	*known = pk__unwind_report_module(p, ip);
	if (*known && !p->attached) {
		/* The machine comes from the IP's module (x86_64, checked), never
		 * from whichever module libdwfl would take first. */
		Dwarf_Addr bias;
		Elf *elf = dwfl_module_getelf(pk__unwind_map_of(p, ip)->mod, &bias);

		if (!dwfl_attach_state(p->dwfl, elf, (pid_t)p->pid, &thread_callbacks, p)) {
			*known = false;	/* not an ELF libdwfl can unwind: no frames */
			return 0;
		}
		p->attached = true;
	}
	return 0;
}

int pk_unwinder_unwind(struct pk_unwinder *u, uint32_t pid, uint32_t tid, const uint64_t *regs,
		       uint64_t regs_mask, const void *stack, size_t stack_size, uint64_t *ips,
		       size_t max, size_t *nr)
{
	const struct reg_layout *l;
	struct uproc *p;
	uint64_t ip;
	bool known = false;
	int err;

	*nr = 0;
	if (!(regs_mask & (1ull << PERF_REG_IP)) || !(regs_mask & (1ull << PERF_REG_SP)) || !max)
		return pk__error(-EINVAL, "unwinding a sample",
				 "%s", max ? "the sample's registers lack IP or SP" : "no room for frames");
	p = find(u, pid);
	if (!p || !p->nr)
		return 0;	/* no maps known: nothing can be unwound */
	l = pk__unwind_layout(u, regs_mask);
	ip = regs[l->pos[DWARF_REG_IP]];
	/* resume_regs are read only where resume_set says */
	p->cur.tid = tid ? tid : pid;
	p->cur.regs = regs;
	p->cur.mask = regs_mask;
	p->cur.stack = stack;
	p->cur.stack_size = stack ? stack_size : 0;
	p->cur.sp = regs[l->pos[DWARF_REG_SP]];
	p->cur.stack_words = p->cur.stack_size >= 8 && p->cur.sp + p->cur.stack_size >= p->cur.sp ?
			     p->cur.stack_size - 7 : 0;
	p->cur.ips = ips;
	p->cur.max = max;
	p->cur.nr = 0;
	p->cur.resume = false;
	p->cur.resume_set = 0;
	/* A repeat of an unwinding kept in this generation needs neither
	 * the module at ip (known then, and still) nor libdwfl's state. */
	if (p->attached && pk__unwind_replay(u, p, ip, l))
		known = true;
	else if ((err = attach(p, ip, &known)) < 0)
		return err;
	else if (known && !pk__unwind_fast(u, p, ip))
		dwfl_getthread_frames(p->dwfl, (pid_t)p->cur.tid, frame, p);
	else if (!known)
		ips[p->cur.nr++] = ip;	/* perf's libunwind keeps the sample's ip, unwound or not */
	*nr = p->cur.nr;
	p->cur.regs = NULL;	/* the caller's, valid for this call alone */
	p->cur.stack = NULL;
	p->cur.stack_size = 0;
	p->cur.stack_words = 0;
	p->cur.ips = NULL;
	return 0;
}
