/* SPDX-License-Identifier: MIT */
/*
 * buildid.c - GNU build-ids: an ELF file's NT_GNU_BUILD_ID note, the
 * running kernel's from /sys/kernel/notes, and the vDSO's from this
 * process's own mapping of it (the ELF reading is the elf layer's); and
 * the build-ids a perf.data file's BUILD_ID feature lists, handed to the
 * maps.
 */
#include "perfkit.h"
#include "elf/elf.h"
#include "sys/sys.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

int pk_build_id_read(const char *path, uint8_t id[20])
{
	struct pk__elf *e;
	int ret = pk__elf_open(path, &e);

	if (ret < 0) {
		int mapped = ret == -EINVAL ? -EINVAL : -ENOENT;

		/* The contract promises ENOENT; keep the record's code in step. */
		if (mapped != ret)
			pk__error(mapped, "read a build-id", "%s: %s", path, strerror(-ret));
		return mapped;
	}
	ret = pk__elf_build_id(e, id);
	pk__elf_close(e);
	if (ret < 0)
		return pk__error(ret, "read a build-id", "%s has no GNU build-id note", path);
	return ret;
}

int pk_build_id_kernel(uint8_t id[20])
{
	unsigned char buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return pk__error(-ENOENT, "read the kernel's build-id", "/sys/kernel/notes: %s",
				 strerror(errno));
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return pk__error(-ENOENT, "read the kernel's build-id", "/sys/kernel/notes: %s",
				 n < 0 ? strerror(errno) : "empty");
	n = pk__elf_notes_build_id(buf, (size_t)n, id);
	if (n < 0)
		return pk__error(-ENOENT, "read the kernel's build-id",
				 "/sys/kernel/notes has no GNU build-id note");
	return (int)n;
}

int pk_build_id_vdso(uint8_t id[20])
{
	/* The vDSO is one image for every process of this kernel: read ours. */
	const void *base = (const void *)getauxval(AT_SYSINFO_EHDR);
	int ret = base ? pk__elf_mapped_build_id(base, id) : -ENOENT;

	if (ret < 0)
		return pk__error(-ENOENT, "read the vDSO's build-id", "%s",
				 base ? "the vDSO has no GNU build-id note" : "this process has no vDSO");
	return ret;
}

/* A BUILD_ID feature entry (perf's struct perf_record_header_build_id):
 * a record header, the pid, 20 bytes of id with its size in the 21st when
 * misc has PERF_RECORD_MISC_BUILD_ID_SIZE (else 20), 3 reserved bytes, and
 * the NUL-padded file name up to the header's size. */
#define BID_NAME_AT 36
#define MISC_BUILD_ID_SIZE (1u << 15)

int pk_maps_set_build_ids(struct pk_maps *m, const void *section, size_t len)
{
	const unsigned char *p = section;
	size_t off = 0;
	int nr = 0;

	while (len - off >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		uint16_t mode;
		const char *name;
		size_t size = 20;
		int ret;

		memcpy(&h, p + off, sizeof(h));
		if (h.size < BID_NAME_AT + 1 || h.size > len - off)
			return pk__error(-EINVAL, "read the BUILD_ID feature", "the entry at byte %zu "
					 "has a size of %u (%zu bytes left)", off, h.size, len - off);
		if (h.misc & MISC_BUILD_ID_SIZE)
			size = p[off + 12 + 20];
		name = (const char *)p + off + BID_NAME_AT;
		mode = h.misc & PERF_RECORD_MISC_CPUMODE_MASK;
		/* The name must end inside the entry; guests and modules by path pass. */
		if (memchr(name, '\0', h.size - BID_NAME_AT) && size && size <= 20 &&
		    (mode == PERF_RECORD_MISC_USER ||
		     (mode == PERF_RECORD_MISC_KERNEL && name[0] == '['))) {
			if ((ret = pk_maps_set_build_id(m, name, p + off + 12, size)) < 0)
				return ret;
			nr++;
		}
		off += h.size;
	}
	return nr;
}
