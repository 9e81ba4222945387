/* SPDX-License-Identifier: MIT */
/*
 * script-fields.h - perf script's optional fields (script-fields.c: misc,
 * weight, registers, branch stacks, physical address, page sizes) and its
 * split of PERF_SAMPLE_READ samples into one line per counter
 * (script-read.c).
 */
#ifndef PK_CLI_SCRIPT_FIELDS_H
#define PK_CLI_SCRIPT_FIELDS_H

#include "script.h"

/*
 * script_fields_check - perf's check of the optional fields of type `t`
 * against event `name`'s attr `a`: a field whose sample bit the event lacks
 * is refused (message, CLI_EXIT_EVENT) when -F asked for it by name, and
 * dropped otherwise.  Returns 0 or CLI_EXIT_EVENT.
 */
int script_fields_check(struct script_type *t, const struct perf_event_attr *a, const char *name);

/* script_print_misc - perf's misc column: K, U, H, G, g and the record's
 * own letter (M for MMAP data, E for COMM exec, S/Sp for a switch out),
 * padded to six columns.  `rec_type` is the PERF_RECORD_* printed. */
void script_print_misc(FILE *f, uint16_t misc, uint32_t rec_type);

/* script_print_weight - perf's weight column (WEIGHT, or WEIGHT_STRUCT's
 * var1), when t asks for it. */
void script_print_weight(FILE *f, const struct script_type *t, const struct pk_sample *s);

/*
 * script_print_tail - what perf prints after the ip and sym of a sample,
 * as t asks: iregs, uregs, brstack/brstacksym/brstackoff (addresses looked
 * up in process `pid`'s maps, `cpumode` first), phys_addr and the page
 * sizes.
 */
void script_print_tail(FILE *f, struct script_ctx *c, const struct script_type *t,
		       const struct perf_event_attr *a, const struct pk_sample *s, uint32_t pid,
		       uint16_t cpumode);

/* ---- script-fields2.c: tod and data_src ---------------------------------- */

/* script_fields2_setup - the file's CLOCK_DATA into c, for -F tod; perf's
 * refusal (message, CLI_EXIT_EVENT) when a type of the file's events
 * prints tod and the file has none (perf record -k writes it).  0 or
 * CLI_EXIT_EVENT. */
int script_fields2_setup(struct script_ctx *c, struct pk_data_reader *r, const struct script_opts *o);

/* script_print_tod - perf's tod column: the wall-clock time of sampling
 * clock time `time`, "YYYY-MM-DD HH:MM:SS.uuuuuu " (nanoseconds with --ns)
 * in the local time zone. */
void script_print_tod(FILE *f, const struct script_ctx *c, uint64_t time);

/* script_print_bpf_output - perf's bpf-output field: sample s's raw data
 * as a hex and character dump, 8 bytes a line, and "BPF string:" with it
 * when it is printable bytes ended by NULs. */
void script_print_bpf_output(FILE *f, const struct pk_sample *s);

/* script_print_data_src - perf's data_src column: the word in hex and
 * decoded (|OP ...|LVL ...|SNP ...|TLB ...|LCK ...|BLK ...), padded to
 * the widest such line printed so far (kept in c). */
void script_print_data_src(FILE *f, struct script_ctx *c, uint64_t data_src);

/* ---- script-insn.c: insn and insnlen ------------------------------------ */

/* script_insn_len - the length of the x86-64 instruction the `n` bytes at
 * `b` start with, or -1 when they hold no whole instruction. */
int script_insn_len(const uint8_t *b, size_t n);

/* script_code_read - up to `len` bytes of code at address `ip` of process
 * `pid` from its DSO's file (perf's dso__data_read_offset; the vDSO's
 * image from the build-id cache): how many were read, 0 when there are
 * none to read (the kernel, memory without a file). */
size_t script_code_read(struct script_ctx *c, uint32_t pid, uint64_t ip, uint8_t *buf, size_t len);

/* script_print_insn - perf's " ilen: N" and " insn: xx ..." for sample s
 * of process `pid`, as t asks: the bytes at its ip from its DSO's file,
 * as long as the instruction there (none in the kernel). */
void script_print_insn(FILE *f, struct script_ctx *c, const struct script_type *t, const struct pk_sample *s,
		       uint32_t pid);

/* ---- script-brstackinsn.c: brstackinsn and brstackinsnlen --------------- */

/* script_print_brstackinsn - perf's brstackinsn (and brstackinsnlen) for
 * sample s of process `pid`, as t asks: each block between two branches
 * of its branch stack, oldest first, instruction by instruction from its
 * DSO's file, each function's name where a block enters it, the branch
 * flags and cycles on each block's last instruction. */
void script_print_brstackinsn(FILE *f, struct script_ctx *c, const struct script_type *t,
			      const struct pk_sample *s, uint32_t pid);

/* script_insn_is_branch - perf's arch_is_branch for the `n` bytes at b:
 * whether the x86-64 instruction they start with transfers control
 * (jumps, calls, returns, interrupts, system calls), or true when no
 * whole instruction decodes (perf's -1). */
bool script_insn_is_branch(const uint8_t *b, int n);

/* The counters' last values, to split PERF_SAMPLE_READ samples as perf does. */
struct script_reads;

/* script_reads_new - the state for reader `r`'s events and their ids.
 * Returns 0 or -ENOMEM. */
int script_reads_new(const struct pk_data_reader *r, struct script_reads **out);

/* script_reads_free - free it; NULL is a no-op. */
void script_reads_free(struct script_reads *sr);

/*
 * script_print_read - perf script's lines for the PERF_SAMPLE_READ sample
 * `rec`: one per counter it reads (the leader's alone or its group's), as
 * a sample of that counter's event whose period is the counter's growth
 * since its last sample, and none for a counter that did not grow or
 * whose id no event of the file has.  Returns 0, -EINVAL for read values
 * that do not parse, -ENOMEM, or the printer's error.
 */
int script_print_read(FILE *f, struct script_ctx *c, struct script_reads *sr,
		      const struct pk_data_reader *r, const struct perf_event_attr *a,
		      const struct pk_record *rec);

/*
 * script_print_member - perf script's line for one counter of the
 * PERF_SAMPLE_READ sample `rec`: a sample of reader r's event `ev`, with
 * the counter's `id` and its growth `period` (what script_print_read
 * prints for each; -D's dump splits the sample itself).  Returns 0 or the
 * printer's error.
 */
int script_print_member(FILE *f, struct script_ctx *c, const struct pk_data_reader *r,
			const struct pk_record *rec, size_t ev, uint64_t id, uint64_t period);

#endif
