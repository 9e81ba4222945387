/* SPDX-License-Identifier: MIT */
/*
 * unwind.h - the unwind layer's internal interface: a process's mappings
 * and libdwfl state (unwind.c), shared with the fast path that evaluates
 * cached CFI rules itself (cfi.c), and falls back to libdwfl's unwinder for
 * any frame whose rules it does not take.
 */
#ifndef PK_UNWIND_INTERNAL_H
#define PK_UNWIND_INTERNAL_H

#include <elfutils/libdwfl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* perf's PERF_REG_X86_* bits for DWARF's x86_64 registers 0..16: rax rdx
 * rcx rbx rsi rdi rbp rsp r8..r15, and the return address (rip). */
static const int dwarf_to_perf[17] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8 };
#define PERF_REG_IP 8
#define PERF_REG_SP 7
#define DWARF_REG_SP 7
#define DWARF_REG_IP 16	/* the return address column */

struct umap {
	uint64_t start, end, pgoff;
	char *path;
	int fd;			/* for reads outside the stack copy; -1 until needed */
	uint32_t dso;		/* the path's number in the unwinder's rule cache */
	bool tried;		/* mod looked up in the current Dwfl */
	Dwfl_Module *mod;	/* its module there, or NULL */
};

struct sample_state {
	uint32_t tid;
	const uint64_t *regs;
	uint64_t mask;
	const unsigned char *stack;
	size_t stack_size;
	uint64_t sp;
	/* The addresses from sp whose word the stack copy holds: addr - sp
	 * below this (0 when none, or when sp + stack_size wraps). */
	uint64_t stack_words;
	uint64_t *ips;
	size_t max, nr;
	/* Where libdwfl takes over from the fast path (resume): that frame's
	 * registers by DWARF number, those in resume_set known, and its pc
	 * less one (a return address points past the call). */
	bool resume;
	uint32_t resume_set;
	uint64_t resume_pc;
	uint64_t resume_regs[17];
};

struct uproc {
	uint32_t pid;
	struct umap *maps;	/* sorted by start, not overlapping */
	size_t nr, cap;
	size_t last;		/* the map found last: a chain's frames mostly share one */
	Dwfl *dwfl;		/* NULL until the first unwind, or after the maps changed */
	bool attached;		/* dwfl_attach_state done on dwfl */
	/* Bumped whenever what a frame's module and rule depend on may
	 * change: the maps, the Dwfl, a module reported; the unwinder's frame
	 * memo keeps an answer for this generation alone. */
	uint64_t gen;
	struct sample_state cur;
};

struct pk__unwind_rule;
struct pk__unwind_memo;
struct pk__unwind_trace;

/* What an unwinding by the fast path took from its sample, recorded for
 * replay.c.  The frames come from the values it used (each frame's CFA
 * base, each return address), and each of those is a sample register's
 * (in `consumed`), a stack word read (in `needed`), or fixed by those
 * (a CFA plus an offset, a word of a mapped file, which does not
 * change), so another sample with the same ip, stack pointer, registers
 * in `consumed` and needed words at the same offsets unwinds to the same
 * frames. */
#define PK__TRACE_READS 96
#define PK__TRACE_FRAMES 32
#define PK__FROM_SAMPLE (-1)	/* a src: the sample's register */
#define PK__FROM_FIXED (-2)	/* a src: fixed by the values used before it */
struct pk__unwind_rec {
	int16_t src[17];	/* where each register's value came from: a
				 * read's index, or one of the two above */
	uint32_t consumed;	/* the sample's registers whose values were used */
	uint32_t nr_reads;	/* stack words read; only the first TRACE_READS kept */
	uint64_t needed[(PK__TRACE_READS + 63) / 64];	/* the reads used, a bit each */
	uint32_t offs[PK__TRACE_READS];	/* each one's address less sp */
	uint64_t vals[PK__TRACE_READS];
};

/* Where the registers of a sample's regs_mask are: pos[d] is the index
 * in the sample's values of DWARF register d, for the registers in set
 * (0 for the others, whose values are never read). */
struct reg_layout {
	uint64_t mask;
	uint32_t set;
	uint8_t pos[17];
};

struct pk_unwinder {
	struct uproc **procs;	/* open addressing on pid */
	size_t cap, nr;
	char **paths;		/* the rule cache's DSOs, by number; open addressing */
	uint32_t *path_slots;	/* on the path's hash: number + 1, 0 empty */
	size_t nr_paths, cap_paths;
	/* The rules, by number in chunks of cfi.c's RULE_CHUNK, and their
	 * index: open addressing on (dso, pc), number + 1, 0 empty. */
	struct pk__unwind_rule **rule_chunks;
	size_t nr_chunks;
	uint32_t *rule_slots;
	size_t nr_rules, cap_rules;
	/* The parts of .eh_frame rows those rules hold for (from the pc a
	 * rule was read at to its row's end), by the DSO and the 4 KiB pages
	 * each covers (cfi.c's row_find): nodes, and their index on (dso,
	 * page), open addressing, each the head of its page's list. */
	struct pk__unwind_row *rows;
	size_t nr_rows, cap_rows;
	struct pk__unwind_page *pages;
	size_t nr_pages, cap_pages;
	/* A frame's rule by (process, generation, pc, initial frame or
	 * not), direct-mapped. */
	struct pk__unwind_memo *memo;
	struct reg_layout layout;	/* of the last sample's regs_mask */
	/* The last unwinding kept per (process, ip), direct-mapped, each made
	 * on first use (replay.c). */
	struct pk__unwind_trace **traces;
};

/* The layout of regs_mask's registers, worked out when the mask is not
 * the last sample's. */
const struct reg_layout *pk__unwind_layout(struct pk_unwinder *u, uint64_t regs_mask);

/* The mapping holding addr, or NULL. */
struct umap *pk__unwind_map_of(struct uproc *p, uint64_t addr);

/* Make sure libdwfl has the file mapped at addr as a module of p->dwfl;
 * false when no file mapping holds addr or libdwfl cannot read it. */
bool pk__unwind_report_module(struct uproc *p, uint64_t addr);

/* A word of memory that is not on the stack copy, from the mapped file. */
bool pk__unwind_read_file_word(struct uproc *p, uint64_t addr, Dwarf_Word *out);

/* The value of perf register `bit` in the sample, if it has it. */
bool pk__unwind_reg(const struct sample_state *s, int bit, uint64_t *v);

/* The number of `path` in u's rule cache, added when new; -ENOMEM. */
int pk__unwind_path_id(struct pk_unwinder *u, const char *path);

/* Unwind p->cur with the cached rules.  Returns 1 when done (p->cur.ips
 * and nr filled as libdwfl's unwinder would, callee-saved registers kept
 * as perf's libunwind keeps them), 0 when a frame needs what only libdwfl
 * does (no CFI there, an expression, a signal frame): then the frames
 * before it stay in p->cur.ips and, past the first frame, p->cur.resume
 * holds that frame's registers for libdwfl to go on from. */
int pk__unwind_fast(struct pk_unwinder *u, struct uproc *p, uint64_t ip);

/* Whether the sample in p->cur (its ip `ip`, its registers' layout l)
 * repeats one whose unwinding was kept: if so, p->cur.ips and nr hold
 * the frames the fast path would give, and nothing else changed. */
bool pk__unwind_replay(struct pk_unwinder *u, struct uproc *p, uint64_t ip, const struct reg_layout *l);

/* Keep the unwinding of p->cur just done by the fast path, which read
 * what rec says, for pk__unwind_replay; the last one kept at its slot
 * makes way.  Out of memory, or past what a trace holds, nothing is
 * kept. */
void pk__unwind_keep(struct pk_unwinder *u, struct uproc *p, uint64_t ip, const struct reg_layout *l,
		     const struct pk__unwind_rec *rec);

/* Free the kept unwindings. */
void pk__unwind_traces_free(struct pk_unwinder *u);

/* Make u's frame memo (the rule cache starts empty); -ENOMEM. */
int pk__unwind_rules_new(struct pk_unwinder *u);

/* Free the rule cache and the frame memo. */
void pk__unwind_rules_free(struct pk_unwinder *u);

/* A libdwfl find_debuginfo callback's search for mod's debug file
 * (debuginfo.c): libdwfl's standard search with its default places, less
 * its debuginfod client.  file_name, link and crc are what libdwfl passes
 * the callback.  Returns an open fd with *debuginfo_file_name malloc'd,
 * else -1 (errno 0 when nothing was found). */
int pk__unwind_find_debuginfo(Dwfl_Module *mod, const char *file_name, const char *link, GElf_Word crc,
			      char **debuginfo_file_name);

#endif
