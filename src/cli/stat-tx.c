/* SPDX-License-Identifier: MIT */
/*
 * stat-tx.c - perf stat -T's and --smi-cost's figures (perf 6.1's
 * stat-shadow.c): the share of cycles spent in transactions and in aborted
 * ones, the cycles per transaction and per elision, from the events perf
 * names exactly cpu/cycles-t/, cpu/cycles-ct/, cpu/tx-start/ and
 * cpu/el-start/; and on msr/smi/, the share of cycles lost to SMIs and
 * their number.
 */
#include "stat.h"

#include <string.h>

enum tx_kind { TX_NONE, TX_CYCLES_IN_TX, TX_CYCLES_IN_TX_CP, TX_START, TX_EL_START, TX_SMI,
	       TX_APERF };

/* perf matches these by the event's name as written. */
static enum tx_kind tx_kind(const struct result *r)
{
	static const char *const names[] = { NULL, "cpu/cycles-t/", "cpu/cycles-ct/", "cpu/tx-start/",
					     "cpu/el-start/", "msr/smi/", "msr/aperf/" };

	for (int k = TX_CYCLES_IN_TX; k <= TX_APERF; k++)
		if (!strcmp(r->d->name, names[k]))
			return (enum tx_kind)k;
	return TX_NONE;
}

static bool is_cycles(const struct result *r)
{
	return r->attr->type == PERF_TYPE_HARDWARE && r->attr->config == PERF_COUNT_HW_CPU_CYCLES;
}

/* perf's context for its shadow counts: the same privilege filter and
 * cgroup.  The value of the first counted event of r[i]'s context that
 * `want` picks, in *v; false when none counted. */
static bool ctx_value(const struct result *r, size_t nr, size_t i, const double *vals,
		      bool (*want)(const struct result *), double *v)
{
	const struct perf_event_attr *a = r[i].attr;

	for (size_t j = 0; j < nr; j++) {
		const struct perf_event_attr *b = r[j].attr;

		if (r[j].err || !want(&r[j]) || !stat_cgroup_same(&r[i], &r[j]) ||
		    a->exclude_user != b->exclude_user || a->exclude_kernel != b->exclude_kernel ||
		    a->exclude_hv != b->exclude_hv || a->exclude_idle != b->exclude_idle)
			continue;
		*v = vals[j];
		return true;
	}
	return false;
}

static bool is_in_tx(const struct result *r)
{
	return tx_kind(r) == TX_CYCLES_IN_TX;
}

static bool is_aperf(const struct result *r)
{
	return tx_kind(r) == TX_APERF;
}

static int figure(struct pk_metric *m, const char *format, const char *unit, double v)
{
	*m = (struct pk_metric){ .size = sizeof(*m), .value = v, .format = format, .unit = unit };
	return 1;
}

/* perf's print_smi_cost: nothing without cycles or aperf; the cycles aperf
 * counted beyond cycles (frozen during SMIs) as a share, once an SMI came. */
static int smi_figures(const struct result *r, size_t nr, size_t i, const double *vals,
		       double cycles, struct pk_metric m[2])
{
	double aperf = 0, smi = vals[i];

	if (!ctx_value(r, nr, i, vals, is_aperf, &aperf) || !aperf || !cycles)
		return 0;
	figure(&m[0], "%8.1f%%", "SMI cycles%", smi ? (aperf - cycles) / aperf * 100.0 : 0);
	figure(&m[1], "%4.0f", "SMI#", smi);
	return 2;
}

int stat_tx_figures(const struct result *r, size_t nr, size_t i, const double *vals,
		    struct pk_metric m[2])
{
	double avg = vals[i], cycles = 0, in_tx = 0;
	bool have_cycles = ctx_value(r, nr, i, vals, is_cycles, &cycles);
	bool have_in_tx = ctx_value(r, nr, i, vals, is_in_tx, &in_tx);

	switch (tx_kind(&r[i])) {
	case TX_CYCLES_IN_TX:
		/* perf prints no number where it has no cycles (its NULL format). */
		if (!have_cycles || !cycles)
			return 0;
		return figure(&m[0], "%7.2f%%", "transactional cycles", 100.0 * avg / cycles);
	case TX_CYCLES_IN_TX_CP:
		if (!have_cycles || !cycles)
			return 0;
		if (in_tx < avg)	/* perf's clamp: checkpointed cycles are in tx too */
			in_tx = avg;
		return figure(&m[0], "%7.2f%%", "aborted cycles", 100.0 * (in_tx - avg) / cycles);
	case TX_START:
		if (!have_in_tx)
			return 0;
		return figure(&m[0], "%8.0f", "cycles / transaction", avg ? in_tx / avg : 0);
	case TX_EL_START:
		/* perf prints this one even without cycles-t counted: 0 then */
		return figure(&m[0], "%8.0f", "cycles / elision", avg ? in_tx / avg : 0);
	case TX_SMI:
		return smi_figures(r, nr, i, vals, cycles, m);
	case TX_APERF:
	case TX_NONE:
		break;
	}
	return -1;
}
