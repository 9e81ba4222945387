/* SPDX-License-Identifier: MIT */
/*
 * buildid.c - GNU build-ids: from an ELF file's NT_GNU_BUILD_ID note (via
 * libelf), the running kernel's from /sys/kernel/notes, and the vDSO's
 * from this process's own mapping of it.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

/* Find the GNU build-id note in a buffer of ELF notes. */
static int from_notes(const unsigned char *p, size_t len, uint8_t id[20])
{
	size_t off = 0;

	while (off + 12 <= len) {
		uint32_t namesz, descsz, type;

		memcpy(&namesz, p + off, 4);
		memcpy(&descsz, p + off + 4, 4);
		memcpy(&type, p + off + 8, 4);
		off += 12;
		if (namesz > len - off)
			break;
		{
			size_t name_end = off + ((namesz + 3) & ~3u);

			if (name_end > len || descsz > len - name_end)
				break;
			if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + off, "GNU", 4) &&
			    descsz && descsz <= 20) {
				memcpy(id, p + name_end, descsz);
				return (int)descsz;
			}
			off = name_end + ((descsz + 3) & ~3u);
		}
	}
	return -ENOENT;
}

int pk_build_id_read(const char *path, uint8_t id[20])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -ENOENT;
	Elf *e;
	Elf_Scn *scn = NULL;

	if (fd < 0)
		return -ENOENT;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF) {
		if (e)
			elf_end(e);
		close(fd);
		return -EINVAL;
	}
	while (ret < 0 && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL)))
			continue;
		ret = from_notes(d->d_buf, d->d_size, id);
	}
	elf_end(e);
	close(fd);
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
	return n > 0 ? from_notes(buf, (size_t)n, id) : -ENOENT;
}

int pk_build_id_vdso(uint8_t id[20])
{
	/* The vDSO is one image for every process of this kernel: read ours. */
	const unsigned char *base = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)base;

	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_phentsize != sizeof(ElfW(Phdr)))
		return -ENOENT;
	for (size_t i = 0; i < eh->e_phnum; i++) {
		const ElfW(Phdr) *ph = (const ElfW(Phdr) *)(base + eh->e_phoff) + i;

		if (ph->p_type == PT_NOTE) {
			int n = from_notes(base + ph->p_offset, ph->p_filesz, id);

			if (n > 0)
				return n;
		}
	}
	return -ENOENT;
}
