/* SPDX-License-Identifier: MIT */
/*
 * fuzz_record.c - libFuzzer target for the record decoder.  An input is an
 * attr in six u64s (sample_type, read_format, sample_regs_user,
 * sample_regs_intr, branch_sample_type, and flags whose bit 0 is
 * sample_id_all) followed by records as a ring holds them.  Each record is
 * copied into a heap block of exactly its header's size (so ASan sees any
 * read past it), decoded, its event ID looked up, and every pointer of the
 * result walked, and a sample's fast peek (pk_sample_peek) compared with
 * its full decode; a failure must leave a message naming an offset.  The same
 * function is linked into the record replay test (tests/unit/record), which
 * runs the committed corpus in tests/fixtures/records on any compiler.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static volatile uint64_t sink;

static void touch(const void *p, uint64_t len)
{
	const unsigned char *b = p;
	uint64_t sum = 0;

	for (uint64_t i = 0; i < len; i++)
		sum += b[i];
	sink += sum;
}

static void walk_sample(const struct pk_sample *s)
{
	touch(s->read.data, s->read.len);
	touch(s->callchain.ips, s->callchain.nr * 8);
	for (uint64_t i = 0; i < s->callchain.nr; i++)
		sink += pk_record_context_name(s->callchain.ips[i]) != NULL;
	touch(s->raw.data, s->raw.size);
	touch(s->branch.entries, s->branch.nr * sizeof(*s->branch.entries));
	touch(s->regs_user.regs, (uint64_t)s->regs_user.nr * 8);
	touch(s->regs_intr.regs, (uint64_t)s->regs_intr.nr * 8);
	touch(s->stack.data, s->stack.size);
	touch(s->aux.data, s->aux.size);
}

static void walk(const struct pk_record *r, const struct perf_event_attr *a)
{
	struct pk_count c[4] = { { .size = sizeof(c[0]) } };

	switch (r->type) {
	case PERF_RECORD_SAMPLE:
		walk_sample(&r->sample);
		if (r->sample.read.data)
			sink += pk_count_parse(a->read_format, r->sample.read.data, r->sample.read.len, c, 4);
		break;
	case PERF_RECORD_MMAP:
		sink += strlen(r->mmap.filename);
		break;
	case PERF_RECORD_MMAP2:
		sink += strlen(r->mmap2.filename);
		touch(r->mmap2.build_id, r->mmap2.build_id ? 20 : 0);
		break;
	case PERF_RECORD_COMM:
		sink += strlen(r->comm.comm);
		break;
	case PERF_RECORD_READ:
		sink += pk_count_parse(a->read_format, r->read.values.data, r->read.values.len, c, 4);
		break;
	case PERF_RECORD_NAMESPACES:
		touch(r->namespaces.links, r->namespaces.nr * sizeof(*r->namespaces.links));
		break;
	case PERF_RECORD_KSYMBOL:
		sink += strlen(r->ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		touch(r->bpf_event.tag, 8);
		break;
	case PERF_RECORD_CGROUP:
		sink += strlen(r->cgroup.path);
		break;
	case PERF_RECORD_TEXT_POKE:
		touch(r->text_poke.old_bytes, r->text_poke.old_len);
		touch(r->text_poke.new_bytes, r->text_poke.new_len);
		break;
	}
}

/* The fast peek reads only the leading fields: wherever the full decode
 * succeeds it must too, with the same values; when it fails it must say
 * where. */
static void check_peek(const struct perf_event_header *h, const struct perf_event_attr *a,
		       const struct pk_record *r)
{
	struct pk_sample_peek pk = { .size = sizeof(pk) };
	int rc = pk_sample_peek(h, a, &pk);

	if (rc < 0 && (rc != -EINVAL || !strstr(pk_last_error()->why, "at offset ")))
		abort();
	if (!r)
		return;
	if (rc != 0 || pk.ip != r->sample.ip || pk.pid != r->sample.pid || pk.tid != r->sample.tid ||
	    pk.time != r->sample.time || pk.addr != r->sample.addr || pk.cpu != r->sample.cpu ||
	    pk.period != r->sample.period || pk.id != r->id.id)
		abort();
	sink += pk.fields;
}

static void one(const unsigned char *p, size_t len, const struct perf_event_attr *a)
{
	struct perf_event_header *h = malloc(len);
	struct pk_record r = { .size = sizeof(r) };
	uint64_t id;
	int rc;

	if (!h)
		abort();
	memcpy(h, p, len);
	if (h->size > len)
		h->size = (uint16_t)len;	/* claiming more than there is: cut */
	rc = pk_record_decode(h, a, &r);
	if (rc == 0)
		walk(&r, a);
	if (h->type == PERF_RECORD_SAMPLE)
		check_peek(h, a, rc == 0 ? &r : NULL);
	else if (rc < 0 && (rc != -EINVAL || !strstr(pk_last_error()->why, "at offset ")))
		abort();	/* every failure names its offset */
	rc = pk_record_event_id(h, a, &id);
	if (rc == 0)
		sink += id;
	free(h);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perf_event_attr a = { .size = sizeof(a) };
	uint64_t w[6];
	size_t pos = sizeof(w);

	if (size < sizeof(w))
		return 0;
	memcpy(w, data, sizeof(w));
	a.sample_type = w[0];
	a.read_format = w[1];
	a.sample_regs_user = w[2];
	a.sample_regs_intr = w[3];
	a.branch_sample_type = w[4];
	a.sample_id_all = w[5] & 1;
	while (size - pos >= sizeof(struct perf_event_header)) {
		struct perf_event_header h;
		size_t len;

		memcpy(&h, data + pos, sizeof(h));
		len = h.size < sizeof(h) ? sizeof(h) : h.size;
		if (len > size - pos)
			len = size - pos;
		one(data + pos, len, &a);
		pos += len;
	}
	return 0;
}
