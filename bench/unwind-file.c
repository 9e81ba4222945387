/* SPDX-License-Identifier: MIT */
/*
 * unwind-file.c - bench/unwind.sh's perfkit side: read a perf.data file
 * recorded with --call-graph dwarf, unwind every sample with the library's
 * unwinder, and print each sample's frames as `perf script -F ip` prints
 * them (file offsets inside mapped files), so the two outputs can be
 * compared as well as timed.
 * usage: unwind-file FILE
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "perfkit.h"

struct fmap {
	uint32_t pid;
	uint64_t start, end, pgoff;
};

static struct fmap maps[4096];
static size_t nr_maps;

static uint64_t relative(uint32_t pid, uint64_t ip)
{
	for (size_t i = nr_maps; i-- > 0;)
		if (maps[i].pid == pid && ip >= maps[i].start && ip < maps[i].end)
			return ip - maps[i].start + maps[i].pgoff;
	return ip;
}

static void one(struct pk_unwinder *u, const struct pk_record *rec)
{
	uint64_t ips[128];
	size_t nr;

	if (rec->type == PERF_RECORD_MMAP2 && rec->mmap2.filename[0] == '/') {
		const struct pk_rec_mmap2 *m = &rec->mmap2;

		pk_unwinder_map(u, m->pid, m->addr, m->addr + m->len, m->pgoff, m->filename);
		if (nr_maps < 4096)
			maps[nr_maps++] = (struct fmap){ m->pid, m->addr, m->addr + m->len, m->pgoff };
	} else if (rec->type == PERF_RECORD_SAMPLE) {
		const struct pk_sample *s = &rec->sample;

		if (pk_unwinder_unwind(u, s->pid, s->tid, s->regs_user.regs, s->regs_user.mask, s->stack.data,
				       s->stack.dyn_size, ips, 128, &nr) < 0)
			nr = 0;
		putchar('\n');
		for (size_t i = 0; i < nr; i++)
			printf("\t%16" PRIx64 "\n", relative(s->pid, ips[i]));
		putchar('\n');
	}
}

int main(int argc, char **argv)
{
	struct pk_data_reader *r;
	struct pk_unwinder *u;
	const struct perf_event_header *h;
	int n;

	if (argc != 2 || pk_data_reader_open(argv[1], &r) < 0 || pk_unwinder_new(&u) < 0) {
		fprintf(stderr, "usage: unwind-file FILE (a perf.data file)\n");
		return 2;
	}
	while ((n = pk_data_reader_next(r, &h)) == 1) {
		struct pk_record rec = { .size = sizeof(rec) };
		const struct perf_event_attr *attr = pk_data_reader_attr_of(r, h);

		if (h->type < 64 && pk_record_decode(h, attr ? attr : pk_data_reader_attr(r, 0), &rec) == 0)
			one(u, &rec);
	}
	pk_unwinder_free(u);
	pk_data_reader_free(r);
	return n < 0;
}
