/* SPDX-License-Identifier: MIT */
/*
 * script-events.c - perf script 6.1's lines for the side-band records its
 * --show-switch-events, --show-lost-events, --show-namespace-events,
 * --show-cgroup-events, --show-bpf-events, --show-text-poke-events and
 * --show-round-events ask for (perf_event__fprintf's text, after the
 * sample's start fields), --per-event-dump's PATH.EVNAME.dump files with
 * perf's closing "Wrote" lines, and the flags perf takes that change
 * nothing perfkit does (-a, -v, the demangling ones) or list what it has
 * (-l: perfkit runs no trace scripts); the others go to script-switch.c.
 */
#include "script-filter.h"
#include "report-dump.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define BIT(t) (1u << (t))

int script_events_option(struct script_filter *f, int id, const char *arg)
{
	(void)arg;
	switch (id) {
	case SOPT_SHOW_SWITCH: f->show |= BIT(PERF_RECORD_SWITCH) | BIT(PERF_RECORD_SWITCH_CPU_WIDE); return 0;
	case SOPT_SHOW_LOST: f->show |= BIT(PERF_RECORD_LOST); return 0;
	case SOPT_SHOW_NS: f->show |= BIT(PERF_RECORD_NAMESPACES); return 0;
	case SOPT_SHOW_CGROUP: f->show |= BIT(PERF_RECORD_CGROUP); return 0;
	case SOPT_SHOW_BPF: f->show |= BIT(PERF_RECORD_KSYMBOL) | BIT(PERF_RECORD_BPF_EVENT); return 0;
	case SOPT_SHOW_POKE:	/* perf shows the KSYMBOL records with the pokes */
		f->show |= BIT(PERF_RECORD_KSYMBOL) | BIT(PERF_RECORD_TEXT_POKE);
		return 0;
	case SOPT_SHOW_ROUND: f->show_round = true; return 0;
	case SOPT_PER_EVENT_DUMP: f->per_event_dump = true; return 0;
	case 'v': f->verbose++; return 0;
	case 'l':
		/* perf lists its Perl and Python scripts; perfkit runs none */
		fputs("List of available trace scripts:\n", stdout);
		return -1;
	case 'a': case SOPT_DEMANGLE: case SOPT_NO_DEMANGLE: case SOPT_DEMANGLE_KERNEL: case SOPT_ITRACE:
		return 0;
	default: return script_switch_option(f, id, arg);
	}
}

bool script_events_shows(const struct script_filter *f, uint32_t type)
{
	return type < 32 && (f->show & BIT(type));
}

/* perf_event__fprintf_switch. */
static void print_switch(FILE *out, const struct pk_record *d)
{
	const char *in_out = !d->switch_.out ? "IN         " : !d->switch_.preempt ? "OUT        " : "OUT preempt";

	if (d->type == PERF_RECORD_SWITCH)
		fprintf(out, " %s\n", in_out);
	else
		fprintf(out, " %s  %s pid/tid: %5d/%-5d\n", in_out, d->switch_.out ? "next" : "prev",
			(int)d->switch_.next_prev_pid, (int)d->switch_.next_prev_tid);
}

void script_events_body(FILE *out, const struct pk_record *d, struct pk_resolver *res)
{
	static const char *const names[] = {
		[PERF_RECORD_LOST] = "LOST", [PERF_RECORD_SWITCH] = "SWITCH",
		[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE", [PERF_RECORD_NAMESPACES] = "NAMESPACES",
		[PERF_RECORD_KSYMBOL] = "KSYMBOL", [PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
		[PERF_RECORD_CGROUP] = "CGROUP", [PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
	};

	fprintf(out, "PERF_RECORD_%s", d->type < sizeof(names) / sizeof(names[0]) && names[d->type] ?
		names[d->type] : "UNKNOWN");
	switch (d->type) {
	case PERF_RECORD_LOST:
		fprintf(out, " lost %" PRIu64 "\n", d->lost.lost);
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		print_switch(out, d);
		break;
	case PERF_RECORD_KSYMBOL:
		fprintf(out, " addr %" PRIx64 " len %u type %u flags 0x%x name %s\n", d->ksymbol.addr,
			d->ksymbol.len, d->ksymbol.ksym_type, d->ksymbol.flags, d->ksymbol.name);
		break;
	case PERF_RECORD_TEXT_POKE:
		report_dump_text_poke(out, d, res);
		break;
	default:
		if (!report_dump_kernel_rec(out, d, true))
			fputc('\n', out);
	}
}

void script_events_round(FILE *out)
{
	fputs("PERF_RECORD_FINISHED_ROUND\n", out);
}

int script_events_open(struct script_filter *f, struct pk_data_reader *r, const char *path)
{
	size_t nr = pk_data_reader_nr_events(r);

	if (!f->per_event_dump)
		return 0;
	if (!(f->files = calloc(nr ? nr : 1, sizeof(*f->files))) ||
	    !(f->nr_samples = calloc(nr ? nr : 1, sizeof(*f->nr_samples))) ||
	    !(f->names = calloc(nr ? nr : 1, sizeof(*f->names))))
		return cli_usage("script", "out of memory");
	for (; f->nr_files < nr; f->nr_files++) {
		const char *ev = pk_data_reader_name(r, f->nr_files);
		char **name = &f->names[f->nr_files];

		if (asprintf(name, "%s.%s.dump", path, ev ? ev : "unknown") < 0) {
			*name = NULL;
			return cli_usage("script", "out of memory");
		}
		if (!(f->files[f->nr_files] = fopen(*name, "w"))) {
			cli_message(stderr, "perfkit script: cannot create %s: %s\n", *name, strerror(errno));
			free(*name);
			*name = NULL;
			return CLI_EXIT_EVENT;
		}
	}
	return 0;
}

void script_events_close(struct script_filter *f)
{
	for (size_t i = 0; i < f->nr_files; i++) {
		struct stat st = { 0 };

		fflush(f->files[i]);
		fstat(fileno(f->files[i]), &st);
		printf("[ perf script: Wrote %.3f MB %s (%" PRIu64 " samples) ]\n",
		       (double)st.st_size / 1024.0 / 1024.0, f->names[i], f->nr_samples[i]);
		fclose(f->files[i]);
		free(f->names[i]);
	}
	free(f->files);
	free(f->nr_samples);
	free(f->names);
	f->files = NULL;
	f->nr_samples = NULL;
	f->names = NULL;
	f->nr_files = 0;
}
