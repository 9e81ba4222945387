/* SPDX-License-Identifier: MIT */
/*
 * test_sample.c - PERF_RECORD_SAMPLE through the decoder: every PERF_SAMPLE_*
 * field alone, then in combinations (all at once with WEIGHT and with
 * WEIGHT_STRUCT, group READ, branch stack with and without hw_idx, regs
 * with ABI_NONE and ABI_64, an empty user stack, RAW with and without
 * padding in its size), each built byte by byte in the kernel's write order
 * (perf_output_sample) by this file's own writer, every field checked, every
 * cut refused; then the lies a sample can tell (huge callchain and branch
 * counts, dyn_size past size, a bad regs ABI, unknown sample_type bits),
 * DATA_SRC decoded into its fields, and the fast peek (pk_sample_peek)
 * checked against the full decode on every layout above.
 */
#include <errno.h>

#include "recwriter.h"

/* The values every sample carries; variants change a few. */
struct ref {
	uint64_t regs_user_abi, regs_intr_abi;
	uint64_t stack_size;
	uint32_t raw_size;		/* the size written ... */
	uint32_t raw_len;		/* ... of which this much is data, the rest padding */
};

static const uint64_t chain[] = { PERF_CONTEXT_KERNEL, 0xffffffff81001234ULL, PERF_CONTEXT_USER,
				  0x401000 };
static const unsigned char rawbytes[12] = "tracepoint!";
static const unsigned char stackbytes[16] = "0123456789abcdef";
static const unsigned char auxbytes[8] = { 9, 8, 7, 6, 5, 4, 3, 2 };

#define DATA_SRC (PERF_MEM_S(OP, LOAD) | PERF_MEM_S(LVL, HIT) | PERF_MEM_S(LVL, L3) | \
		  PERF_MEM_S(SNOOP, HITM) | PERF_MEM_S(LOCK, LOCKED) | PERF_MEM_S(TLB, MISS) | \
		  PERF_MEM_S(TLB, L2) | PERF_MEM_S(LVLNUM, L3) | PERF_MEM_S(REMOTE, REMOTE) | \
		  PERF_MEM_S(SNOOPX, PEER) | PERF_MEM_S(BLK, ADDR) | PERF_MEM_S(HOPS, 2))
#define WEIGHT_WORD 0x0003000200000001ULL
#define RF_ONE (PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING | PERF_FORMAT_ID | \
		PERF_FORMAT_LOST)
#define RF_GROUP (PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_ID)

static void w_read(struct w *w, uint64_t rf)
{
	if (rf & PERF_FORMAT_GROUP) {
		w_u64(w, 2), w_u64(w, 1000);
		w_u64(w, 10), w_u64(w, 0x2222);
		w_u64(w, 20), w_u64(w, 0x2223);
	} else {
		w_u64(w, 42), w_u64(w, 1000), w_u64(w, 900), w_u64(w, 0x2222), w_u64(w, 1);
	}
}

static void w_regs(struct w *w, uint64_t abi, uint64_t mask, uint64_t base)
{
	w_u64(w, abi);
	if (abi)
		for (int i = 0; i < __builtin_popcountll(mask); i++)
			w_u64(w, base + (uint64_t)i);
}

/* The sample body for `a`, in the order of perf_output_sample(). */
static void w_sample(struct w *w, const struct perf_event_attr *a, const struct ref *r)
{
	uint64_t st = a->sample_type;

	if (st & PERF_SAMPLE_IDENTIFIER)
		w_u64(w, 0x2222);
	if (st & PERF_SAMPLE_IP)
		w_u64(w, 0xffffffff81000000ULL);
	if (st & PERF_SAMPLE_TID)
		w_u32(w, 100), w_u32(w, 101);
	if (st & PERF_SAMPLE_TIME)
		w_u64(w, 123456789);
	if (st & PERF_SAMPLE_ADDR)
		w_u64(w, 0xdead000);
	if (st & PERF_SAMPLE_ID)
		w_u64(w, 0x2222);
	if (st & PERF_SAMPLE_STREAM_ID)
		w_u64(w, 0x3333);
	if (st & PERF_SAMPLE_CPU)
		w_u32(w, 3), w_u32(w, 0);
	if (st & PERF_SAMPLE_PERIOD)
		w_u64(w, 100000);
	if (st & PERF_SAMPLE_READ)
		w_read(w, a->read_format);
	if (st & PERF_SAMPLE_CALLCHAIN) {
		w_u64(w, 4);
		w_bytes(w, chain, sizeof(chain));
	}
	if (st & PERF_SAMPLE_RAW) {
		w_u32(w, r->raw_size), w_bytes(w, rawbytes, r->raw_len);
		w_pad8(w);
	}
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		w_u64(w, 2);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX)
			w_u64(w, 7);
		for (uint64_t i = 0; i < 2; i++)
			w_u64(w, 0x1000 + i), w_u64(w, 0x2000 + i), w_u64(w, 1 | (5ULL << 4) | ((uint64_t)PERF_BR_CALL << 20));
	}
	if (st & PERF_SAMPLE_REGS_USER)
		w_regs(w, r->regs_user_abi, a->sample_regs_user, 0x100);
	if (st & PERF_SAMPLE_STACK_USER) {
		w_u64(w, r->stack_size);
		if (r->stack_size)
			w_bytes(w, stackbytes, 16), w_u64(w, 8);
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		w_u64(w, WEIGHT_WORD);
	if (st & PERF_SAMPLE_DATA_SRC)
		w_u64(w, DATA_SRC);
	if (st & PERF_SAMPLE_TRANSACTION)
		w_u64(w, 0x500000003ULL);
	if (st & PERF_SAMPLE_REGS_INTR)
		w_regs(w, r->regs_intr_abi, a->sample_regs_intr, 0x200);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		w_u64(w, 0x12345000);
	if (st & PERF_SAMPLE_CGROUP)
		w_u64(w, 0x99);
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		w_u64(w, 4096);
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		w_u64(w, 2097152);
	if (st & PERF_SAMPLE_AUX)
		w_u64(w, 8), w_bytes(w, auxbytes, 8);
}

/* `want` if the field is present, else the decoder must leave 0. */
#define FIELD(bit, got, want) assert_int_equal((got), (st & (bit)) ? (uint64_t)(want) : 0)

static void check_read(const struct pk_sample *s, uint64_t rf)
{
	struct pk_count c[2] = { { .size = sizeof(c[0]) } };

	assert_int_equal(pk_count_parse(rf, s->read.data, s->read.len, c, 2), s->read.nr);
	if (rf & PERF_FORMAT_GROUP) {
		assert_int_equal(s->read.nr, 2);
		assert_int_equal(c[0].enabled, 1000);
		assert_int_equal(c[1].value, 20);
		assert_int_equal(c[1].id, 0x2223);
	} else {
		assert_int_equal(s->read.nr, 1);
		assert_int_equal(c[0].value, 42);
		assert_int_equal(c[0].running, 900);
		assert_int_equal(c[0].lost, 1);
	}
}

static void check_regs(const struct pk_sample_regs *g, uint64_t abi, uint64_t mask, uint64_t base)
{
	assert_int_equal(g->abi, abi);
	if (!abi) {
		assert_int_equal(g->nr, 0);
		assert_null(g->regs);
		return;
	}
	assert_int_equal(g->mask, mask);
	assert_int_equal(g->nr, __builtin_popcountll(mask));
	for (uint32_t i = 0; i < g->nr; i++)
		assert_int_equal(g->regs[i], base + i);
}

static void check_branch(const struct pk_sample *s, const struct perf_event_attr *a)
{
	bool hw = a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX;

	assert_int_equal(s->branch.nr, 2);
	assert_int_equal(s->branch.has_hw_idx, hw);
	assert_int_equal(s->branch.hw_idx, hw ? 7 : 0);
	assert_int_equal(s->branch.entries[1].from, 0x1001);
	assert_int_equal(s->branch.entries[1].to, 0x2001);
	assert_int_equal(s->branch.entries[1].mispred, 1);
	assert_int_equal(s->branch.entries[1].cycles, 5);
	assert_int_equal(s->branch.entries[1].type, PERF_BR_CALL);
	assert_int_equal(s->branch.entries[1].abort, 0);
	assert_int_equal(s->branch.entries[0].from, 0x1000);
}

static void check_varlen(const struct pk_sample *s, const struct perf_event_attr *a,
			 const struct ref *r)
{
	uint64_t st = a->sample_type;

	if (st & PERF_SAMPLE_READ)
		check_read(s, a->read_format);
	else
		assert_null(s->read.data);
	FIELD(PERF_SAMPLE_CALLCHAIN, s->callchain.nr, 4);
	if (st & PERF_SAMPLE_CALLCHAIN)
		assert_memory_equal(s->callchain.ips, chain, sizeof(chain));
	FIELD(PERF_SAMPLE_RAW, s->raw.size, r->raw_size);
	if (st & PERF_SAMPLE_RAW)
		assert_memory_equal(s->raw.data, rawbytes, r->raw_len);
	if (st & PERF_SAMPLE_BRANCH_STACK)
		check_branch(s, a);
	else
		assert_null(s->branch.entries);
	check_regs(&s->regs_user, (st & PERF_SAMPLE_REGS_USER) ? r->regs_user_abi : 0,
		   a->sample_regs_user, 0x100);
	check_regs(&s->regs_intr, (st & PERF_SAMPLE_REGS_INTR) ? r->regs_intr_abi : 0,
		   a->sample_regs_intr, 0x200);
	FIELD(PERF_SAMPLE_STACK_USER, s->stack.size, r->stack_size);
	if ((st & PERF_SAMPLE_STACK_USER) && r->stack_size) {
		assert_memory_equal(s->stack.data, stackbytes, 16);
		assert_int_equal(s->stack.dyn_size, 8);
	} else {
		assert_null(s->stack.data);
		assert_int_equal(s->stack.dyn_size, 0);
	}
	FIELD(PERF_SAMPLE_AUX, s->aux.size, 8);
	if (st & PERF_SAMPLE_AUX)
		assert_memory_equal(s->aux.data, auxbytes, 8);
}

static void check_sample(const struct pk_record *rec, const struct perf_event_attr *a,
			 const struct ref *r)
{
	const struct pk_sample *s = &rec->sample;
	uint64_t st = a->sample_type;

	assert_int_equal(s->fields, st);
	FIELD(PERF_SAMPLE_IDENTIFIER, s->identifier, 0x2222);
	FIELD(PERF_SAMPLE_IP, s->ip, 0xffffffff81000000ULL);
	FIELD(PERF_SAMPLE_TID, s->pid, 100);
	FIELD(PERF_SAMPLE_TID, s->tid, 101);
	FIELD(PERF_SAMPLE_TIME, s->time, 123456789);
	FIELD(PERF_SAMPLE_ADDR, s->addr, 0xdead000);
	FIELD(PERF_SAMPLE_ID, s->id, 0x2222);
	FIELD(PERF_SAMPLE_STREAM_ID, s->stream_id, 0x3333);
	FIELD(PERF_SAMPLE_CPU, s->cpu, 3);
	FIELD(PERF_SAMPLE_PERIOD, s->period, 100000);
	FIELD(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, s->weight.full, WEIGHT_WORD);
	FIELD(PERF_SAMPLE_WEIGHT_STRUCT, s->weight.var1, 1);
	FIELD(PERF_SAMPLE_WEIGHT_STRUCT, s->weight.var2, 2);
	FIELD(PERF_SAMPLE_WEIGHT_STRUCT, s->weight.var3, 3);
	FIELD(PERF_SAMPLE_DATA_SRC, s->data_src, DATA_SRC);
	FIELD(PERF_SAMPLE_DATA_SRC, s->mem.mem_lvl_num, PERF_MEM_LVLNUM_L3);
	FIELD(PERF_SAMPLE_TRANSACTION, s->transaction, 0x500000003ULL);
	FIELD(PERF_SAMPLE_PHYS_ADDR, s->phys_addr, 0x12345000);
	FIELD(PERF_SAMPLE_CGROUP, s->cgroup, 0x99);
	FIELD(PERF_SAMPLE_DATA_PAGE_SIZE, s->data_page_size, 4096);
	FIELD(PERF_SAMPLE_CODE_PAGE_SIZE, s->code_page_size, 2097152);
	check_varlen(s, a, r);
	/* The identity is copied out for every record alike. */
	assert_int_equal(rec->id.fields, st & PK_SAMPLE_ID_FIELDS);
	assert_int_equal(rec->id.time, s->time);
	assert_int_equal(rec->id.tid, s->tid);
	assert_int_equal(rec->id.cpu, s->cpu);
	FIELD(PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER, rec->id.id, 0x2222);
}

#define ALL_BUT_WEIGHT ((PERF_SAMPLE_MAX - 1) & ~(uint64_t)(PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
#define REF_DEFAULT { .regs_user_abi = PERF_SAMPLE_REGS_ABI_64, .regs_intr_abi = PERF_SAMPLE_REGS_ABI_64, \
		      .stack_size = 16, .raw_size = 12, .raw_len = 12 }

struct scase {
	const char *name;
	uint64_t sample_type, read_format, branch_sample_type;
	struct ref ref;
};

static const struct scase scases[] = {
	{ "all, WEIGHT", ALL_BUT_WEIGHT | PERF_SAMPLE_WEIGHT, RF_ONE, 0, REF_DEFAULT },
	{ "all, WEIGHT_STRUCT, group read, hw_idx", ALL_BUT_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT,
	  RF_GROUP, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX, REF_DEFAULT },
	{ "group READ", PERF_SAMPLE_READ | PERF_SAMPLE_TIME, RF_GROUP, 0, REF_DEFAULT },
	{ "branch stack with hw_idx", PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_IP, 0,
	  PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX, REF_DEFAULT },
	{ "regs ABI_NONE", PERF_SAMPLE_REGS_USER | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PERIOD, 0, 0,
	  { .regs_user_abi = 0, .regs_intr_abi = 0 } },
	{ "regs ABI_32", PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER, 0, 0,
	  { .regs_user_abi = PERF_SAMPLE_REGS_ABI_32, .stack_size = 16 } },
	{ "empty user stack", PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT, 0, 0, { .stack_size = 0 } },
	{ "RAW padded after its size", PERF_SAMPLE_RAW | PERF_SAMPLE_CPU, 0, 0,
	  { .raw_size = 5, .raw_len = 5 } },
	{ "RAW empty", PERF_SAMPLE_RAW | PERF_SAMPLE_ADDR, 0, 0, { .raw_size = 4, .raw_len = 4 } },
};

#define PEEKABLE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | \
		  PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU | \
		  PERF_SAMPLE_PERIOD)

/*
 * The fast peek agrees with the full decode on every leading field, and
 * needs exactly the bytes of those fields: a record cut anywhere before
 * their end is refused with an offset, one cut after it still peeks.
 */
static void check_peek(const struct w *w, const struct perf_event_attr *a, const struct pk_record *rec)
{
	size_t need = sizeof(struct perf_event_header) +
		      8 * (size_t)__builtin_popcountll(a->sample_type & PEEKABLE);
	struct pk_sample_peek pk = { .size = sizeof(pk) };

	assert_int_equal(pk_sample_peek((const void *)w->buf, a, &pk), 0);
	assert_int_equal(pk.fields, a->sample_type & PEEKABLE);
	assert_int_equal(pk.ip, rec->sample.ip);
	assert_int_equal(pk.pid, rec->sample.pid);
	assert_int_equal(pk.tid, rec->sample.tid);
	assert_int_equal(pk.time, rec->sample.time);
	assert_int_equal(pk.addr, rec->sample.addr);
	assert_int_equal(pk.cpu, rec->sample.cpu);
	assert_int_equal(pk.period, rec->sample.period);
	assert_int_equal(pk.id, rec->id.id);
	for (size_t cut = 8; cut < w->len; cut += 8) {
		struct perf_event_header *h = malloc(cut);

		assert_non_null(h);
		memcpy(h, w->buf, cut);
		h->size = (uint16_t)cut;
		if (cut < need) {
			assert_int_equal(pk_sample_peek(h, a, &pk), -EINVAL);
			assert_non_null(strstr(pk_last_error()->why, "at offset "));
		} else {
			assert_int_equal(pk_sample_peek(h, a, &pk), 0);
			assert_int_equal(pk.fields, a->sample_type & PEEKABLE);
		}
		free(h);
	}
}

static void run(const char *name, const struct perf_event_attr *a, const struct ref *r)
{
	struct pk_record rec = { .size = sizeof(rec) };
	struct w w;

	print_message("# %s (sample_type 0x%llx)\n", name, (unsigned long long)a->sample_type);
	w_begin(&w, PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP);
	w_sample(&w, a, r);
	w_end(&w);
	assert_int_equal(pk_record_decode((void *)w.buf, a, &rec), 0);
	assert_int_equal(rec.type, PERF_RECORD_SAMPLE);
	assert_int_equal(rec.misc, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP);
	assert_int_equal(rec.len, w.len);
	check_sample(&rec, a, r);
	check_truncations(&w, a);
	check_peek(&w, a, &rec);
}

static struct perf_event_attr attr_for(uint64_t st, uint64_t rf, uint64_t bst)
{
	struct perf_event_attr a = {
		.sample_type = st, .read_format = rf, .branch_sample_type = bst,
		.sample_regs_user = 0x7, .sample_regs_intr = 0x8005,
	};

	return a;
}

/* Each field on its own: the record is the header and that field only. */
static void test_each_field(void **state)
{
	const struct ref r = REF_DEFAULT;

	(void)state;
	for (int bit = 0; (1ULL << bit) < PERF_SAMPLE_MAX; bit++) {
		uint64_t st = 1ULL << bit;
		struct perf_event_attr a = attr_for(st, RF_ONE, PERF_SAMPLE_BRANCH_ANY);

		assert_non_null(pk_sample_field_name(st));
		run(pk_sample_field_name(st), &a, &r);
	}
}

static void test_combinations(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(scases) / sizeof(scases[0]); i++) {
		struct perf_event_attr a = attr_for(scases[i].sample_type, scases[i].read_format,
						    scases[i].branch_sample_type);

		run(scases[i].name, &a, &scases[i].ref);
	}
}

/* ---- samples that lie ---- */

static void expect_einval(const struct w *w, const struct perf_event_attr *a, const char *part,
			  const char *offset)
{
	struct pk_record rec = { .size = sizeof(rec) };

	assert_int_equal(pk_record_decode((const void *)w->buf, a, &rec), -EINVAL);
	if (!strstr(pk_last_error()->why, part) || !strstr(pk_last_error()->why, offset))
		fail_msg("expected \"%s\" and \"%s\" in: %s", part, offset, pk_last_error()->why);
	assert_non_null(strstr(pk_last_error()->what, "PERF_RECORD_SAMPLE"));
}

static void test_lies(void **state)
{
	struct perf_event_attr a = attr_for(PERF_SAMPLE_IP | PERF_SAMPLE_CALLCHAIN, 0, 0);
	struct w w;

	(void)state;
	w_begin(&w, PERF_RECORD_SAMPLE, 0);
	w_u64(&w, 1), w_u64(&w, UINT64_MAX), w_u64(&w, PERF_CONTEXT_USER);
	w_end(&w);
	expect_einval(&w, &a, "CALLCHAIN says 18446744073709551615 entries", "at offset 16:");

	w_begin(&w, PERF_RECORD_SAMPLE, 0);
	w_u64(&w, 1), w_u64(&w, 1ULL << 61), w_u64(&w, PERF_CONTEXT_USER);
	w_end(&w);
	expect_einval(&w, &a, "CALLCHAIN says 2305843009213693952 entries of 8 bytes, but only 8",
		      "at offset 16:");

	a = attr_for(PERF_SAMPLE_BRANCH_STACK, 0, PERF_SAMPLE_BRANCH_HW_INDEX);
	w_begin(&w, PERF_RECORD_SAMPLE, 0);
	w_u64(&w, 0x0aaaaaaaaaaaaaabULL), w_u64(&w, 0), w_u64(&w, 1), w_u64(&w, 2), w_u64(&w, 3);
	w_end(&w);
	expect_einval(&w, &a, "BRANCH_STACK says 768614336404564651 entries of 24 bytes", "at offset 8:");

	a = attr_for(PERF_SAMPLE_STACK_USER, 0, 0);
	w_begin(&w, PERF_RECORD_SAMPLE, 0);
	w_u64(&w, 8), w_u64(&w, 0), w_u64(&w, 9);
	w_end(&w);
	expect_einval(&w, &a, "dyn_size 9 exceeds the 8 bytes copied", "at offset 24:");

	w_begin(&w, PERF_RECORD_SAMPLE, 0);
	w_u64(&w, 1ULL << 40), w_u64(&w, 0);
	w_end(&w);
	expect_einval(&w, &a, "STACK_USER data needs 1099511627776 bytes, but only 8", "at offset 16:");

	a = attr_for(PERF_SAMPLE_TIME | PERF_SAMPLE_REGS_INTR, 0, 0);
	w_begin(&w, PERF_RECORD_SAMPLE, 0);
	w_u64(&w, 5), w_u64(&w, 3), w_u64(&w, 0), w_u64(&w, 0), w_u64(&w, 0);
	w_end(&w);
	expect_einval(&w, &a, "REGS_INTR abi 3 is not", "at offset 16:");

	a = attr_for(PERF_SAMPLE_RAW, 0, 0);
	w_begin(&w, PERF_RECORD_SAMPLE, 0);
	w_u32(&w, 0xfffffff0), w_u32(&w, 0);
	w_end(&w);
	expect_einval(&w, &a, "RAW data needs 4294967280 bytes, but only 4 are left before the end "
		      "of the record", "at offset 12:");

	a = attr_for(PERF_SAMPLE_IP | (1ULL << 40), 0, 0);
	w_begin(&w, PERF_RECORD_SAMPLE, 0);
	w_u64(&w, 1);
	w_end(&w);
	expect_einval(&w, &a, "sample_type 0x10000000001 has bits this version of perfkit cannot "
		      "lay out (0x10000000000)", "at offset 8:");
}

/* A sample decoded with the attr of another event fails rather than
 * making up fields: here the attr wants more fields than were written. */
static void test_wrong_attr(void **state)
{
	struct perf_event_attr writer = attr_for(PERF_SAMPLE_IP | PERF_SAMPLE_TID, 0, 0);
	struct perf_event_attr reader = attr_for(PERF_SAMPLE_IP | PERF_SAMPLE_TID |
						 PERF_SAMPLE_TIME, 0, 0);
	const struct ref r = REF_DEFAULT;
	struct pk_record rec = { .size = sizeof(rec) };
	struct w w;

	(void)state;
	w_begin(&w, PERF_RECORD_SAMPLE, 0);
	w_sample(&w, &writer, &r);
	w_end(&w);
	assert_int_equal(pk_record_decode((void *)w.buf, &reader, &rec), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "at offset 24: TIME needs 8 bytes, but only 0"));
}

/* A peek is for samples only, and never trusts a size below the header's. */
static void test_peek_refuses(void **state)
{
	struct perf_event_attr a = attr_for(PERF_SAMPLE_IP | PERF_SAMPLE_TID, 0, 0);
	struct pk_sample_peek pk = { .size = sizeof(pk) };
	struct w w;

	(void)state;
	w_begin(&w, PERF_RECORD_MMAP, 0);
	w_u32(&w, 1), w_u32(&w, 1), w_u64(&w, 0x1000), w_u64(&w, 0x1000), w_u64(&w, 0);
	w_str(&w, "/bin/true");
	w_end(&w);
	assert_int_equal(pk_sample_peek((void *)w.buf, &a, &pk), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "SAMPLE"));
	w_begin(&w, PERF_RECORD_SAMPLE, 0);
	w_u64(&w, 0x401000), w_u32(&w, 7), w_u32(&w, 8);
	w_end(&w);
	((struct perf_event_header *)w.buf)->size = 4;
	assert_int_equal(pk_sample_peek((void *)w.buf, &a, &pk), -EINVAL);
	((struct perf_event_header *)w.buf)->size = (uint16_t)w.len;
	assert_int_equal(pk_sample_peek((void *)w.buf, &a, &pk), 0);
	assert_int_equal(pk.ip, 0x401000);
	assert_int_equal(pk.pid, 7);
	assert_int_equal(pk.tid, 8);
	/* A peek whose size was never set is refused and left alone. */
	pk.size = 0;
	pk.ip = 1;
	assert_int_equal(pk_sample_peek((void *)w.buf, &a, &pk), -EINVAL);
	assert_non_null(strstr(pk_last_error()->why, "sizeof(struct pk_sample_peek)"));
	assert_int_equal(pk.ip, 1);
}

static void test_data_src(void **state)
{
	struct pk_data_src d = pk_record_data_src(DATA_SRC);
	struct pk_data_src none = pk_record_data_src(0);
	struct pk_data_src full = pk_record_data_src(UINT64_MAX);

	(void)state;
	assert_int_equal(d.mem_op, PERF_MEM_OP_LOAD);
	assert_int_equal(d.mem_lvl, PERF_MEM_LVL_HIT | PERF_MEM_LVL_L3);
	assert_int_equal(d.mem_snoop, PERF_MEM_SNOOP_HITM);
	assert_int_equal(d.mem_lock, PERF_MEM_LOCK_LOCKED);
	assert_int_equal(d.mem_dtlb, PERF_MEM_TLB_MISS | PERF_MEM_TLB_L2);
	assert_int_equal(d.mem_lvl_num, PERF_MEM_LVLNUM_L3);
	assert_int_equal(d.mem_remote, PERF_MEM_REMOTE_REMOTE);
	assert_int_equal(d.mem_snoopx, PERF_MEM_SNOOPX_PEER);
	assert_int_equal(d.mem_blk, PERF_MEM_BLK_ADDR);
	assert_int_equal(d.mem_hops, PERF_MEM_HOPS_2);
	assert_int_equal(none.mem_op | none.mem_lvl | none.mem_hops, 0);
	/* Every field at its widest: each width is exactly the UAPI's. */
	assert_int_equal(full.mem_op, 0x1f);
	assert_int_equal(full.mem_lvl, 0x3fff);
	assert_int_equal(full.mem_snoop, 0x1f);
	assert_int_equal(full.mem_lock, 0x3);
	assert_int_equal(full.mem_dtlb, 0x7f);
	assert_int_equal(full.mem_lvl_num, 0xf);
	assert_int_equal(full.mem_remote, 1);
	assert_int_equal(full.mem_snoopx, 3);
	assert_int_equal(full.mem_blk, 7);
	assert_int_equal(full.mem_hops, 7);
}

/* The UAPI's own bit-field union agrees with the decoder, field by field. */
static void test_data_src_matches_uapi(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed < 2000; seed++) {
		union perf_mem_data_src u = { .val = seed * 0x9e3779b97f4a7c15ULL };
		struct pk_data_src d = pk_record_data_src(u.val);

		assert_int_equal(d.mem_op, u.mem_op);
		assert_int_equal(d.mem_lvl, u.mem_lvl);
		assert_int_equal(d.mem_snoop, u.mem_snoop);
		assert_int_equal(d.mem_lock, u.mem_lock);
		assert_int_equal(d.mem_dtlb, u.mem_dtlb);
		assert_int_equal(d.mem_lvl_num, u.mem_lvl_num);
		assert_int_equal(d.mem_remote, u.mem_remote);
		assert_int_equal(d.mem_snoopx, u.mem_snoopx);
		assert_int_equal(d.mem_blk, u.mem_blk);
		assert_int_equal(d.mem_hops, u.mem_hops);
	}
}

/* A user stack cut to its dyn_size: the fields after it move up unchanged. */
static void w_stack_sample(struct w *w, uint64_t size, uint64_t dyn)
{
	w->len = 0;
	w_u32(w, PERF_RECORD_SAMPLE);
	w_u16(w, PERF_RECORD_MISC_USER);
	w_u16(w, 0);
	w_u64(w, 42);			/* IDENTIFIER */
	w_u64(w, 0x401000);		/* IP */
	w_u64(w, size);			/* STACK_USER: size */
	for (uint64_t i = 0; i < size; i++)
		w_u8(w, i < dyn ? (uint8_t)(i + 1) : 0xaa);
	if (size)
		w_u64(w, dyn);		/* dyn_size */
	w_u64(w, 777);			/* WEIGHT */
	w_u64(w, 0x55);			/* DATA_SRC */
	((struct perf_event_header *)w->buf)->size = (uint16_t)w->len;
}

static void test_trim_stack(void **state)
{
	struct perf_event_attr a;
	struct w w;
	_Alignas(8) unsigned char out[8192];
	struct pk_record r = { .size = sizeof(r) };
	int n;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_STACK_USER |
			PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
	w_stack_sample(&w, 4096, 12);
	n = pk_sample_trim_stack((const void *)w.buf, &a, out);
	assert_int_equal(n, 8 + 8 + 8 + 8 + 16 + 8 + 8 + 8);	/* 12 bytes kept as 16 */
	assert_int_equal(((struct perf_event_header *)out)->size, n);
	assert_int_equal(pk_record_decode((const void *)out, &a, &r), 0);
	assert_int_equal(r.sample.identifier, 42);
	assert_int_equal(r.sample.ip, 0x401000);
	assert_int_equal(r.sample.stack.size, 16);
	assert_int_equal(r.sample.stack.dyn_size, 12);
	assert_memory_equal(r.sample.stack.data, w.buf + 32, 12);
	assert_int_equal(r.sample.weight.full, 777);
	assert_int_equal(r.sample.data_src, 0x55);
	/* Nothing to cut: all of the stack valid, an empty stack, no stack
	 * field, another record type. */
	w_stack_sample(&w, 64, 64);
	assert_int_equal(pk_sample_trim_stack((const void *)w.buf, &a, out), 0);
	w_stack_sample(&w, 64, 60);	/* 60 rounds up to 64: nothing gained */
	assert_int_equal(pk_sample_trim_stack((const void *)w.buf, &a, out), 0);
	w_stack_sample(&w, 0, 0);
	assert_int_equal(pk_sample_trim_stack((const void *)w.buf, &a, out), 0);
	a.sample_type &= ~(uint64_t)PERF_SAMPLE_STACK_USER;
	assert_int_equal(pk_sample_trim_stack((const void *)w.buf, &a, out), 0);
	a.sample_type |= PERF_SAMPLE_STACK_USER;
	((struct perf_event_header *)w.buf)->type = PERF_RECORD_MMAP;
	assert_int_equal(pk_sample_trim_stack((const void *)w.buf, &a, out), 0);
	/* A stack size that runs past the record is refused, not copied. */
	w_stack_sample(&w, 64, 8);
	memcpy(w.buf + 24, &(uint64_t){ 4096 }, 8);
	assert_int_equal(pk_sample_trim_stack((const void *)w.buf, &a, out), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_each_field),
		cmocka_unit_test(test_combinations),
		cmocka_unit_test(test_lies),
		cmocka_unit_test(test_wrong_attr),
		cmocka_unit_test(test_peek_refuses),
		cmocka_unit_test(test_data_src),
		cmocka_unit_test(test_data_src_matches_uapi),
		cmocka_unit_test(test_trim_stack),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
