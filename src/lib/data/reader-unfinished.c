/* SPDX-License-Identifier: MIT */
/*
 * reader-unfinished.c - files whose header says the data section is 0
 * bytes long.  perf record writes its header before the first record and
 * the data size when it finishes, so perf's own such files were never
 * finished (the workload did not start, perf was killed): perf 6.1 warns
 * and reads no records.  perfkit reads their records to the end of the
 * file (a last record cut by it left out) and no feature section: the
 * feature table, written last, is not there; records are.  A file that
 * was finished with no records at all also says 0 (pk_data_writer_finish
 * with nothing written): its feature table lies right at the data offset,
 * and when a whole one does, it is read as in any other file.
 */
#include "reader-int.h"

#include <string.h>

/* Whether a feature table lies at the data offset: one entry per feature
 * bit, each section after the table and inside the file. */
static bool table_at_data(struct pk_data_reader *r)
{
	uint64_t nr = 0, end;

	for (unsigned int id = 0; id < 256; id++)
		nr += (r->flags[id / 64] >> (id % 64)) & 1;
	end = r->data_offset + 16 * nr;
	if (end > r->file_size)
		return false;
	for (uint64_t i = 0; i < nr; i++) {
		unsigned char e[16];
		uint64_t off, size;

		if (pk__reader_read_at(r, e, sizeof(e), r->data_offset + 16 * i, "the feature section table"))
			return false;
		off = pk__reader_u64(r, e);
		size = pk__reader_u64(r, e + 8);
		if (off < end || off > r->file_size || size > r->file_size - off)
			return false;
	}
	return true;
}

bool pk__reader_size_zero(struct pk_data_reader *r)
{
	r->unfinished = true;
	if (table_at_data(r))
		return true;
	r->data_end = r->data_end_said = r->file_size;
	for (unsigned int id = 0; id < 256; id++) {
		if (!(r->flags[id / 64] & (1ULL << (id % 64))))
			continue;
		if (!r->nr_feat_cut++)
			r->feat_cut_first = id;
	}
	memset(r->flags, 0, sizeof(r->flags));
	return false;
}

bool pk_data_reader_unfinished(const struct pk_data_reader *r, uint64_t *tail)
{
	if (tail)
		*tail = r->unfinished_tail;
	return r->unfinished;
}

bool pk_data_reader_feature_listed(const struct pk_data_reader *r, unsigned int id)
{
	return id < 256 && (r->flags_said[id / 64] & (1ULL << (id % 64)));
}
