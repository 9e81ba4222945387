/* SPDX-License-Identifier: MIT */
/*
 * fuzz_btf.c - libFuzzer target for the BTF type-name lookup
 * (pk__btf_type_name, record/btf.c), which names the BPF functions of a
 * program loaded with BTF in the KSYMBOL records perfkit record writes.
 * Input: a little-endian u32 type id, then the BTF blob.  The property
 * checked, with abort() on a violation: a name found is a NUL-terminated
 * string inside the blob's bytes.  fuzz_replay_btf runs the committed
 * corpus (fuzz/corpus/btf, seeds from a kernel's BTF of a program loaded
 * by tests/cli/bpf-load.c) as a unit test.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"
#include "record/record.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t id;
	uint8_t *blob;
	const char *name;

	if (size < 4)
		return 0;
	id = (uint32_t)data[0] | (uint32_t)data[1] << 8 | (uint32_t)data[2] << 16 |
	     (uint32_t)data[3] << 24;
	/* A copy of its own size, so ASan sees any read past the blob. */
	if (!(blob = malloc(size - 4 ? size - 4 : 1)))
		return 0;
	memcpy(blob, data + 4, size - 4);
	name = pk__btf_type_name(blob, size - 4, id);
	if (name && (name < (const char *)blob || name >= (const char *)blob + size - 4 ||
		     !memchr(name, 0, (size_t)((const char *)blob + size - 4 - name))))
		abort();
	free(blob);
	return 0;
}
