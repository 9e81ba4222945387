/* SPDX-License-Identifier: MIT */
/*
 * diff-verbose.c - what perf diff -v writes on standard error as it opens
 * a file: perf's header processing reports each DSO of the BUILD_ID
 * feature ("build id event received for NAME: ID [SIZE]", for the cpu
 * modes it keeps) and a CPU_PMU_CAPS or PMU_CAPS feature without
 * capabilities; and the files perf opens twice, first to see whether all
 * of them have branch stacks (its check before -c cycles and --stream).
 */
#include "diff.h"

#include <string.h>

/* perf's __event_process_build_id keeps kernel, guest kernel, user and
 * guest user build ids and drops the others silently. */
static bool kept_mode(uint16_t misc)
{
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
	case PERF_RECORD_MISC_GUEST_KERNEL:
	case PERF_RECORD_MISC_USER:
	case PERF_RECORD_MISC_GUEST_USER:
		return true;
	default:
		return false;
	}
}

static void build_ids(FILE *f, struct pk_data_reader *r)
{
	const struct pk_feature_build_ids *b;
	struct pk_feature *feat = NULL;

	if (pk_data_reader_decode(r, PK_DATA_FEAT_BUILD_ID, &feat) == 0 && (b = pk_feature_build_ids(feat)))
		for (uint32_t i = 0; i < b->nr; i++) {
			const struct pk_feature_build_id *id = &b->ids[i];
			char hex[2 * sizeof(id->id) + 1] = "";

			if (!kept_mode(id->misc))
				continue;
			for (size_t k = 0; k < id->size && k < sizeof(id->id); k++)
				snprintf(hex + 2 * k, 3, "%02x", id->id[k]);
			cli_message(f, "build id event received for %s: %s [%u]\n", id->filename ? id->filename : "",
				    hex, (unsigned int)id->size);
		}
	pk_feature_free(feat);
}

/* The PMU capability features, as perf's process_cpu_pmu_caps and
 * process_pmu_caps report an empty one. */
static void pmu_caps(FILE *f, struct pk_data_reader *r, unsigned int id)
{
	const struct pk_feature_pmu_caps *c;
	struct pk_feature *feat = NULL;

	if (pk_data_reader_decode(r, id, &feat) == 0 && (c = pk_feature_pmu_caps(feat))) {
		if (id == PK_DATA_FEAT_CPU_PMU_CAPS && (!c->nr || !c->pmus[0].nr_caps))
			fputs("cpu pmu capabilities not available\n", f);
		else if (id == PK_DATA_FEAT_PMU_CAPS && !c->nr)
			fputs("pmu capabilities not available\n", f);
		for (uint32_t i = 0; id == PK_DATA_FEAT_PMU_CAPS && i < c->nr; i++)
			if (!c->pmus[i].nr_caps)
				cli_message(f, "%s pmu capabilities not available\n",
					    c->pmus[i].pmu ? c->pmus[i].pmu : "");
	}
	pk_feature_free(feat);
}

void diff_verbose_header(FILE *f, struct pk_data_reader *r)
{
	/* in perf's order: the features by their ids */
	build_ids(f, r);
	pmu_caps(f, r, PK_DATA_FEAT_CPU_PMU_CAPS);
	pmu_caps(f, r, PK_DATA_FEAT_PMU_CAPS);
}

int diff_brstack_check(const struct diff_opts *o, bool *all)
{
	*all = false;
	for (size_t i = 0; i < o->nr_files; i++) {
		struct pk_data_reader *r = NULL;
		bool has;

		if (pk_data_reader_open(o->paths[i], &r) < 0)
			return 0;	/* diff_file_read says why, as before */
		if (o->verbose > 0)
			diff_verbose_header(stderr, r);
		has = pk_data_reader_has_feature(r, PK_DATA_FEAT_BRANCH_STACK);
		pk_data_reader_free(r);
		if (!has)
			return 0;	/* perf stops at the first file without */
	}
	*all = true;
	return 0;
}
