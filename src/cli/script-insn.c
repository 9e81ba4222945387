/* SPDX-License-Identifier: MIT */
/*
 * script-insn.c - perf script 6.1's -F insn and insnlen without Intel PT:
 * the bytes at a user-space sample's ip, read from its DSO's file (perf's
 * thread__memcpy; the kernel's text has no file here, so no bytes), and
 * the length of the x86-64 instruction they start with (perf's
 * insn_decode, here x86-insn.c), printed " ilen: N" and " insn: xx ...".
 */
#include "script-fields.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_INSN 16	/* perf's sample->insn */
/* The vDSO's image as perf record keeps it in the build-id cache
 * (<dir>/[vdso]/<build-id>/vdso; perfkit's cache, then perf's ~/.debug),
 * opened; -1 when neither has it. */
static int open_vdso(const struct pk_dso *d)
{
	char dir[4096], path[4200], hex[41] = "";
	const char *home = getenv("HOME");
	int fd = -1;

	for (size_t i = 0; i < d->build_id_size && i < 20; i++)
		snprintf(hex + 2 * i, 3, "%02x", d->build_id[i]);
	for (int which = 0; d->build_id_size && fd < 0 && which < 2; which++) {
		if (which ? !home || (size_t)snprintf(dir, sizeof(dir), "%s/.debug", home) >= sizeof(dir) :
			    !cli_buildid_dir(dir, sizeof(dir)))
			continue;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s/%s/vdso", dir, d->name, hex) < sizeof(path))
			fd = open(path, O_RDONLY | O_CLOEXEC);
	}
	return fd;
}

size_t script_code_read(struct script_ctx *c, uint32_t pid, uint64_t ip, uint8_t *buf, size_t len)
{
	struct pk_location loc = { .size = sizeof(loc) };
	uint16_t mode = ip >= 0xffff800000000000ull ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	ssize_t n;
	int fd;

	if (mode == PERF_RECORD_MISC_KERNEL || !ip ||
	    pk_maps_resolve(pk_resolver_maps(c->res), pid, ip, mode, &loc) < 0 || !loc.dso)
		return 0;
	/* a file by its path; the vDSO by its image in the build-id cache */
	if (loc.dso->name[0] == '/')
		fd = open(loc.dso->name, O_RDONLY | O_CLOEXEC);
	else
		fd = strcmp(loc.dso->name, "[vdso]") ? -1 : open_vdso(loc.dso);
	if (fd < 0)
		return 0;
	n = pread(fd, buf, len, (off_t)loc.map_ip);
	close(fd);
	return n > 0 ? (size_t)n : 0;
}

void script_print_insn(FILE *f, struct script_ctx *c, const struct script_type *t, const struct pk_sample *s,
		       uint32_t pid)
{
	uint8_t buf[MAX_INSN];
	size_t n;
	int len;

	if (!(t->fields & (SF_INSN | SF_INSNLEN)))
		return;
	n = script_code_read(c, pid, s->ip, buf, MAX_INSN);
	len = n ? script_insn_len(buf, n) : -1;
	if (len < 0)
		len = 0;
	if (t->fields & SF_INSNLEN)
		fprintf(f, " ilen: %d", len);
	if ((t->fields & SF_INSN) && len) {
		fputs(" insn:", f);
		for (int i = 0; i < len; i++)
			fprintf(f, " %02x", buf[i]);
	}
}
