/* SPDX-License-Identifier: MIT */
/*
 * buildid.c - GNU build-ids: an ELF file's NT_GNU_BUILD_ID note, the
 * running kernel's from /sys/kernel/notes, and the vDSO's from this
 * process's own mapping of it; the ELF reading is the elf layer's.
 */
#include "perfkit.h"
#include "elf/elf.h"
#include "sys/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/auxv.h>
#include <unistd.h>

int pk_build_id_read(const char *path, uint8_t id[20])
{
	struct pk__elf *e;
	int ret = pk__elf_open(path, &e);

	if (ret < 0)
		return ret == -EINVAL ? -EINVAL : -ENOENT;
	ret = pk__elf_build_id(e, id);
	pk__elf_close(e);
	return ret;
}

int pk_build_id_kernel(uint8_t id[20])
{
	unsigned char buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -ENOENT;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? pk__elf_notes_build_id(buf, (size_t)n, id) : -ENOENT;
}

int pk_build_id_vdso(uint8_t id[20])
{
	/* The vDSO is one image for every process of this kernel: read ours. */
	return pk__elf_mapped_build_id((const void *)getauxval(AT_SYSINFO_EHDR), id);
}
