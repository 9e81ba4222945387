/* SPDX-License-Identifier: MIT */
/*
 * srcline-test.h - what the source-line tests share: a file's executable
 * segment mapped into a pk_maps as the loader maps it (an MMAP2 record),
 * and a compressed copy's handle checked unit by unit against the plain
 * file's DWARF.  Header-only; include it after cmocka.h, elfutils/libdw.h,
 * perfkit.h and elf/elf.h.
 */
#ifndef PERFKIT_TESTS_SRCLINE_TEST_H
#define PERFKIT_TESTS_SRCLINE_TEST_H

#include <stdint.h>
#include <sys/mman.h>

/* Map file's executable segment as process pid's; its start and length. */
static inline void map_exec(struct pk_maps *m, uint32_t pid, const char *file, uint64_t *start, uint64_t *len)
{
	struct pk__elf *e;
	struct pk__elf_seg segs[8];
	struct pk_record r = { .size = sizeof(r), .type = PERF_RECORD_MMAP2 };
	int nr;

	*start = *len = 0;
	assert_int_equal(pk__elf_open(file, &e), 0);
	nr = pk__elf_load_segments(e, segs, 8);
	pk__elf_close(e);
	for (int i = 0; i < nr && i < 8; i++) {
		if (!(segs[i].flags & 1))	/* PF_X */
			continue;
		*start = (0x555555554000ull + segs[i].vaddr) & ~0xfffull;
		*len = segs[i].filesz + (segs[i].vaddr & 0xfff);
		r.mmap2 = (struct pk_rec_mmap2){ .pid = pid, .tid = pid, .addr = *start, .len = *len,
						 .pgoff = segs[i].offset & ~0xfffull,
						 .prot = PROT_READ | PROT_EXEC, .filename = file };
		assert_int_equal(pk_maps_process(m, &r), 0);
		return;
	}
	fail_msg("%s has no executable segment", file);
}

/* Every unit's DIE of dw at the plain file's offsets, named as there; how
 * many units. */
static inline size_t same_units(Dwarf *plain, Dwarf *dw)
{
	Dwarf_Off off = 0, next;
	Dwarf_Die cu, zcu;
	size_t hsize, units = 0;

	while (dwarf_nextcu(plain, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		assert_non_null(dwarf_offdie(plain, off + hsize, &cu));
		assert_non_null(dwarf_offdie(dw, off + hsize, &zcu));
		assert_true(!dwarf_diename(&cu) == !dwarf_diename(&zcu));
		if (dwarf_diename(&cu))
			assert_string_equal(dwarf_diename(&cu), dwarf_diename(&zcu));
		units++;
		off = next;
	}
	return units;
}

#endif
