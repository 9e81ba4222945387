/* SPDX-License-Identifier: MIT */
/*
 * regs.c - register sets for PERF_SAMPLE_REGS_USER/INTR: parsing perf's
 * register lists ("AX,BX,IP") into sample_regs masks, naming bits, and the
 * set perf samples for DWARF unwinding.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <errno.h>
#include <string.h>
#include <strings.h>

static const struct {
	const char *name;
	int bit;
} regs[] = {
#define X(name, bit) { name, bit },
#include "regs.def"
#undef X
};

#define NR_REGS (sizeof(regs) / sizeof(regs[0]))

uint64_t pk_regs_dwarf_mask(void)
{
	/* perf's PERF_REGS_MASK on x86-64: every register but the segment
	 * registers DS, ES, FS and GS, which user-space unwinding never needs. */
	uint64_t all = (1ULL << NR_REGS) - 1;

	return all & ~(1ULL << 12 | 1ULL << 13 | 1ULL << 14 | 1ULL << 15);
}

const char *pk_regs_name(int bit)
{
	for (size_t i = 0; i < NR_REGS; i++)
		if (regs[i].bit == bit)
			return regs[i].name;
	return NULL;
}

int pk_regs_parse(const char *list, uint64_t *mask)
{
	const char *p = list;

	pk__error_clear();
	*mask = 0;
	if (!list || !*list)
		return pk__error(-EINVAL, "register list", "%s", "the list is empty");
	while (*p) {
		size_t n = strcspn(p, ",");
		bool found = false;

		for (size_t i = 0; i < NR_REGS && !found; i++)
			if (strlen(regs[i].name) == n && !strncasecmp(regs[i].name, p, n)) {
				*mask |= 1ULL << regs[i].bit;
				found = true;
			}
		if (!found) {
			pk__error(-EINVAL, "register list", "'%.*s' is not an x86-64 register perf samples",
				  (int)n, p);
			pk__error_column((int)(p - list) + 1);
			pk__error_hint("%s", "registers are AX BX CX DX SI DI BP SP IP FLAGS CS SS DS ES FS GS "
				       "R8-R15");
			return -EINVAL;
		}
		p += n;
		p += *p == ',';
	}
	return 0;
}
