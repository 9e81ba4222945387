/* SPDX-License-Identifier: MIT */
/*
 * names.c - the small closed sets around records, for people and for
 * messages: record type names, sample field names, callchain context
 * markers, and the fields of a PERF_SAMPLE_DATA_SRC word.
 */
#include "perfkit.h"

#include <stddef.h>

#define X(name, value) [value] = #name,
static const char *const type_names[] = {
#include "record_types.def"
};
#undef X

#define X(name, bit) [bit] = #name,
static const char *const field_names[] = {
#include "sample_fields.def"
};
#undef X

const char *pk_record_type_name(uint32_t type)
{
	return type < sizeof(type_names) / sizeof(type_names[0]) ? type_names[type] : NULL;
}

const char *pk_sample_field_name(uint64_t bit)
{
	int n;

	if (!bit || (bit & (bit - 1)))
		return NULL;
	n = __builtin_ctzll(bit);
	return (size_t)n < sizeof(field_names) / sizeof(field_names[0]) ? field_names[n] : NULL;
}

/* The kernel puts these values into a callchain to say that the entries
 * after them belong to that context; they sit in the top 4095 values of
 * the address space, where no instruction can be. */
static const struct {
	uint64_t marker;
	const char *name;
} contexts[] = {
	{ PERF_CONTEXT_HV, "hv" },
	{ PERF_CONTEXT_KERNEL, "kernel" },
	{ PERF_CONTEXT_USER, "user" },
	{ PERF_CONTEXT_GUEST, "guest" },
	{ PERF_CONTEXT_GUEST_KERNEL, "guest-kernel" },
	{ PERF_CONTEXT_GUEST_USER, "guest-user" },
};

const char *pk_record_context_name(uint64_t ip)
{
	if (ip < (uint64_t)PERF_CONTEXT_MAX)
		return NULL;
	for (size_t i = 0; i < sizeof(contexts) / sizeof(contexts[0]); i++)
		if (contexts[i].marker == ip)
			return contexts[i].name;
	return "unknown";
}

/* Shifts and widths from union perf_mem_data_src and the PERF_MEM_*_SHIFT
 * constants; decoded by shifting rather than through the UAPI's bit-field
 * union, whose layout depends on the compiler's bit-field order. */
static uint32_t bits(uint64_t v, unsigned shift, unsigned width)
{
	return (uint32_t)((v >> shift) & ((1ULL << width) - 1));
}

struct pk_data_src pk_record_data_src(uint64_t v)
{
	struct pk_data_src d = {
		.mem_op = bits(v, PERF_MEM_OP_SHIFT, 5),
		.mem_lvl = bits(v, PERF_MEM_LVL_SHIFT, 14),
		.mem_snoop = bits(v, PERF_MEM_SNOOP_SHIFT, 5),
		.mem_lock = bits(v, PERF_MEM_LOCK_SHIFT, 2),
		.mem_dtlb = bits(v, PERF_MEM_TLB_SHIFT, 7),
		.mem_lvl_num = bits(v, PERF_MEM_LVLNUM_SHIFT, 4),
		.mem_remote = bits(v, PERF_MEM_REMOTE_SHIFT, 1),
		.mem_snoopx = bits(v, PERF_MEM_SNOOPX_SHIFT, 2),
		.mem_blk = bits(v, PERF_MEM_BLK_SHIFT, 3),
		.mem_hops = bits(v, PERF_MEM_HOPS_SHIFT, 3),
	};

	return d;
}
