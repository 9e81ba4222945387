/* SPDX-License-Identifier: MIT */
/*
 * fuzz_elf.c - libFuzzer target for the elf layer: each input is an ELF
 * image opened from memory (libelf gets its own copy), then asked for its
 * function symbols, its PLT entries, the file offset of "main", its
 * build-id and its .gnu_debuglink; the raw input also goes through the build-id note
 * parser as /sys/kernel/notes would.  Answers are checked against their
 * contracts.  fuzz_replay_elf runs the committed corpus (fuzz/corpus/elf).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"
#include "elf/elf.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static volatile size_t sink;

static int sym(void *arg, const struct pk__elf_sym *s)
{
	(void)arg;
	if (!s->name[0])
		abort();	/* unnamed symbols are skipped */
	sink += strlen(s->name) + (size_t)s->value;
	return 0;
}

static int plt(void *arg, const struct pk__elf_plt *p)
{
	(void)arg;
	if (!p->name || !p->size)
		abort();	/* "" for no symbol; no entry of size 0 */
	sink += strlen(p->name) + (size_t)p->vaddr;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pk__elf *e;
	uint8_t id[20];
	char name[256];
	uint64_t off;
	uint32_t crc;
	int n;

	n = pk__elf_notes_build_id(data, size, id);
	if (n == 0 || n > 20)
		abort();
	if (pk__elf_open_mem(data, size, "fuzz", &e) < 0)
		return 0;
	pk__elf_symbols(e, sym, NULL);
	pk__elf_plt_entries(e, plt, NULL);
	if (pk__elf_symbol_offset(e, "main", &off, NULL) == 0)
		sink += (size_t)off;
	n = pk__elf_build_id(e, id);
	if (n == 0 || n > 20)
		abort();
	if (pk__elf_debuglink(e, name, sizeof(name), &crc) == 0)
		sink += strlen(name) + crc;
	pk__elf_close(e);
	return 0;
}
