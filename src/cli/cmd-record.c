/* SPDX-License-Identifier: MIT */
/*
 * cmd-record.c - `perfkit record`: sample a command (or -p/-a/-C targets)
 * into a perf.data file perf reads.  The options, the signals, the poll
 * loop and the messages are here; the recording itself (perf record's
 * sample layout, synthesis, the ring -> file pump, build-ids, loss counts)
 * is the library's pk_recorder.  The file is whole whatever ends the run:
 * the command exiting, Ctrl-C or any other terminating signal, --duration,
 * or a full disk; after SIGKILL its partial file still reads.  With -o -
 * the recording streams perf's pipe format to stdout instead.
 */
#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct session {
	struct record_opts *o;
	struct pk_recorder *rec;
	struct pk_data_writer *w;
	struct pk_workload *wl;
	bool wl_is_target;	/* the command is what is sampled (not -p/-t/-a/-C with a command) */
	bool ended_command;	/* --duration ended the command: its signal is ours */
	int write_err;		/* a flush of the file failed (pk_data_writer_tick) */
	char **filters;		/* --filter per event (record_filters) */
	size_t nr_filters;
	char *cgroup_buf;	/* -G's names (record_cgroups) */
	const char **cgroups;	/* ... one per event */
	struct record_swevent swev;	/* --switch-output-event */
	double enable_at;	/* -D: when to enable the events, 0 = not pending */
	struct cli_control ctl;	/* --control, fd -1 without */
	bool stop_asked;	/* --control stop came */
	struct record_out out;	/* --switch-output, --timestamp-filename */
	double switched_at;	/* when the current file began */
	bool switch_failed;	/* --switch-output could not begin the next file */
};

static volatile sig_atomic_t snapshot_request;

static void on_usr2(int sig)
{
	(void)sig;
	snapshot_request = 1;
}

/* "SIGINT", or "signal 40" for one without an abbreviation.  Static buffer. */
static const char *sig_name(int sig)
{
	static char buf[32];
	const char *abbrev = sigabbrev_np(sig);

	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

/*
 * After SIGINT/SIGTERM the command got the signal too; one that has not
 * ended a moment later is ended as perf ends it, with SIGTERM, and then
 * with SIGKILL, so the recording stops when the user asked.
 */
static int end_command(struct pk_workload *wl, double since)
{
	double t = cli_now() - since;
	int status = pk_workload_try_wait(wl);

	if (status != -EAGAIN || t < 0.25)
		return status;
	pk_workload_kill(wl, t < 1.25 ? SIGTERM : SIGKILL);
	return -EAGAIN;
}

/* One --control command; returns true for "stop". */
static bool control_command(struct session *s, const char *cmd)
{
	bool quiet = s->o->quiet;

	if (!strcmp(cmd, "enable")) {
		s->enable_at = 0;	/* enabled now: a pending -D is done */
		pk_recorder_enable(s->rec);
		if (!quiet)
			fprintf(stderr, "Events enabled\n");
	} else if (!strcmp(cmd, "disable")) {
		pk_recorder_stop(s->rec);
		if (!quiet)
			fprintf(stderr, "Events disabled\n");
	} else if (!strcmp(cmd, "snapshot")) {
		if (s->o->r.overwrite)
			pk_recorder_snapshot(s->rec);
		else
			fprintf(stderr, "perfkit record: --control: snapshot writes what the rings hold "
				"with --overwrite; without it every record is written already\n");
	} else if (!strcmp(cmd, "ping")) {
		/* Acknowledged once every BPF program loaded so far is read. */
		pk_recorder_sync(s->rec);
	} else if (strcmp(cmd, "stop")) {
		cli_message(stderr, "perfkit record: --control: unknown command '%s' (enable, disable, "
			    "snapshot, stop, ping)\n", cmd);
		return false;
	}
	cli_control_ack("record", &s->ctl);
	return !strcmp(cmd, "stop");
}

/* -D's time and --control's commands, once per pass; true for "stop". */
static bool control_pass(struct session *s)
{
	bool stop = false;

	if (s->enable_at && cli_now() >= s->enable_at) {
		s->enable_at = 0;
		pk_recorder_enable(s->rec);
		if (!s->o->quiet)
			fprintf(stderr, "Events enabled\n");
	}
	for (const char *cmd; s->ctl.fd >= 0 && (cmd = cli_control_next(&s->ctl, 0));)
		stop |= control_command(s, cmd);
	return stop;
}

/* How long a poll may wait: 100 ms, less when -D's time comes sooner. */
static int poll_ms(const struct session *s)
{
	double left = s->enable_at ? (s->enable_at - cli_now()) * 1000 : 100;

	return s->ctl.fd >= 0 ? 10 : left <= 0 ? 0 : left < 100 ? (int)left + 1 : 100;
}

/*
 * --switch-output (SIGUSR2, a size, a time) and --max-size, after a drain.
 * Returns 1 to stop (the size limit), 0, or a negative errno (the switch
 * failed: stop, finish says what the file kept).
 */
static int output_pass(struct session *s, bool usr2)
{
	struct record_opts *o = s->o;
	struct pk_recorder_stats st = { .size = sizeof(st) };
	uint64_t bytes = pk_data_writer_size(s->w);

	if (o->switch_output && (usr2 || (o->switch_size && bytes >= o->switch_size) ||
				 (o->switch_secs && cli_now() - s->switched_at >= o->switch_secs))) {
		int err;

		struct pk_data_writer *old = s->w;

		pk_recorder_stats(s->rec, &st);
		s->switched_at = cli_now();
		err = record_out_switch(&s->out, o, s->rec, &s->w, st.wakeups);
		/* After the switch's drain: its samples were the old file's.  A
		 * switch that never began leaves them all to the file kept. */
		pk_recorder_stats(s->rec, &st);
		if (s->w != old)
			s->out.samples = st.samples;
		if (err < 0) {
			s->switch_failed = true;
			fprintf(stderr, "perfkit record: --switch-output could not go on to the next file: "
				"recording stopped; the files written so far are whole\n");
		}
		return err;
	}
	if (o->max_size && bytes >= o->max_size) {
		if (!o->quiet)
			fprintf(stderr, "[ perfkit record: size limit reached (%llu KB), stopping session ]\n",
				(unsigned long long)(bytes >> 10));
		return 1;
	}
	return 0;
}

/* Poll and drain until the command ends, Ctrl-C, --duration or an error. */
static int run(struct session *s)
{
	double t0 = cli_now(), stop_at = 0;
	int status = 0;

	for (;;) {
		int err;
		bool usr2;

		pk_recorder_poll(s->rec, poll_ms(s));
		/* --control stop ends the recording as --duration does. */
		s->stop_asked |= control_pass(s);
		err = pk_recorder_drain(s->rec);
		/* Records reach the file at least once a second, so a recorder
		 * killed outright leaves a file that reads. */
		if (err >= 0 && (err = pk_data_writer_tick(s->w)) < 0)
			s->write_err = err;
		usr2 = snapshot_request || record_swevent_fired(&s->swev);
		snapshot_request = 0;
		/* SIGUSR2: write what the overwrite rings hold now (a switch does
		 * too); with a size or time switch it does nothing, as in perf. */
		if (usr2 && !s->o->switch_signal && s->o->r.overwrite)
			err = pk_recorder_snapshot(s->rec);
		if (err >= 0 && (err = output_pass(s, usr2 && s->o->switch_signal)) > 0)
			s->stop_asked = true;
		if (err < 0)
			break;	/* the file keeps what was written; finish says why */
		if (s->wl && (status = pk_workload_try_wait(s->wl)) != -EAGAIN)
			break;
		if (s->wl && cli_stop_signal()) {
			if (!stop_at)
				stop_at = cli_now();
			if ((status = end_command(s->wl, stop_at)) != -EAGAIN)
				break;
		}
		if (!s->wl && (cli_stop_signal() || pk_recorder_hangup(s->rec)))
			break;
		if (s->stop_asked || (s->o->duration && cli_now() - t0 >= s->o->duration)) {
			if (s->wl) {
				/* Stopped as asked: not the command's failure. */
				pk_workload_kill(s->wl, SIGTERM);
				pk_workload_wait(s->wl);
				s->ended_command = true;
				status = 0;
			}
			break;
		}
	}
	return status < 0 ? 0 : status;
}

/* The target: the command, or -p/-t (parsed here), or -a/-C as given. */
static int set_target(struct session *s, struct pk_recorder_opts *ro)
{
	struct cli_target *t = &s->o->target;
	int err;

	/* With -p/-t/-a/-C a command only says how long to record, as in perf. */
	s->wl_is_target = s->wl && !cli_target_given(t);
	if (s->wl_is_target)
		ro->workload = pk_workload_pid(s->wl);
	/* The recorder reads the processes' threads itself. */
	if ((err = cli_target_build("record", t, false, false)))
		return err;
	ro->pids = t->pids ? t->threads : NULL;
	ro->nr_pids = t->pids ? t->nr_threads : 0;
	ro->tids = t->tids ? t->threads : NULL;
	ro->nr_tids = t->tids ? t->nr_threads : 0;
	ro->all_cpus = t->all_cpus;
	ro->cpu_list = t->cpu_list;
	return 0;
}

/* What the user should know about how the events were opened. */
static void say_opened(const struct session *s)
{
	const struct pk_events *ev = pk_recorder_events(s->rec);
	const struct pk_evlist *l = pk_recorder_evlist(s->rec);

	if (pk_recorder_fell_back(s->rec) && !s->o->quiet)
		fprintf(stderr, "perfkit record: cycles cannot be sampled here (no hardware PMU?); "
			"sampling cpu-clock instead, as perf does\n");
	if (s->o->verbose) {
		cli_print_attrs(stderr, l, ev);
		fprintf(stderr, "mmap size %zuB, %zu rings\n",
			(pk_recorder_pages(s->rec) + 1) * (size_t)sysconf(_SC_PAGESIZE),
			pk_recorder_nr_rings(s->rec));
		fprintf(stderr, "mmap flush: %zu\n", pk_recorder_mmap_flush(s->rec));
	}
	for (size_t i = 0; !s->o->quiet && i < pk_events_nr(ev); i++)
		if (pk_evlist_fallback(l, i))
			fprintf(stderr, "perfkit record: %s: %s\n", pk_events_desc(ev, i)->name,
				pk_evlist_fallback(l, i));
}

static bool streaming(const struct session *s)
{
	return !strcmp(s->o->output, "-");
}

/*
 * -o -: perf's pipe format on stdout, on a descriptor of its own; stdout
 * itself becomes stderr, before the command is forked, so the command's
 * output goes to stderr (as perf does) and nothing but the stream reaches
 * the reader.  A terminal is refused: the stream is binary.
 */
static int open_stream(struct session *s)
{
	int fd;

	if (isatty(STDOUT_FILENO))
		return cli_usage("record", "-o - writes a binary stream to stdout, which is a terminal: "
				 "pipe it (| perf report -i -) or redirect it (> FILE)");
	fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		fprintf(stderr, "perfkit record: -o -: cannot take over stdout: %s\n", strerror(errno));
		if (fd >= 0)
			close(fd);
		return CLI_EXIT_EVENT;
	}
	if (pk_data_writer_create_pipe(fd, &s->w) < 0) {
		close(fd);
		return cli_error("record", NULL);
	}
	return 0;
}

/* -F max: the kernel's limit, kernel.perf_event_max_sample_rate, said as
 * perf says it. */
static int freq_max(const struct record_opts *o, unsigned *freq)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	unsigned v = 0;
	int ok = f && fscanf(f, "%u", &v) == 1 && v > 0;

	if (f)
		fclose(f);
	if (!ok) {
		fprintf(stderr, "perfkit record: -F max: cannot read "
			"/proc/sys/kernel/perf_event_max_sample_rate: %s\n",
			f ? "not a number" : strerror(errno));
		return CLI_EXIT_EVENT;
	}
	if (!o->quiet)
		fprintf(stderr, "info: Using a maximum frequency rate of %u Hz\n", v);
	*freq = v;
	return 0;
}

/* perf's record_opts__config_freq: a rate over the kernel's limit (which
 * the kernel itself lowers when sampling interrupts take too long) is
 * lowered to it with a warning, or refused with --strict-freq. */
static int freq_limit(const struct record_opts *o, struct pk_recorder_opts *ro)
{
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");
	unsigned max = 0, want = ro->freq ? ro->freq : pk_recorder_default_freq();
	int ok = f && fscanf(f, "%u", &max) == 1 && max > 0;

	if (f)
		fclose(f);
	if (!ok || ro->period || want <= max)
		return 0;	/* nothing to say: the kernel answers for itself */
	if (o->strict_freq) {
		fprintf(stderr, "perfkit record: -F %u is over the kernel's maximum sample rate, %u Hz: "
			"use a lower -F, or raise kernel.perf_event_max_sample_rate "
			"(sysctl -w kernel.perf_event_max_sample_rate=%u)\n", want, max, want);
		return CLI_EXIT_USAGE;
	}
	if (!o->quiet)
		fprintf(stderr, "perfkit record: warning: %u samples a second is over the kernel's "
			"maximum, %u (kernel.perf_event_max_sample_rate, which the kernel lowers when "
			"sampling interrupts take too long): sampling at %u; --strict-freq refuses "
			"instead\n", want, max, max);
	ro->freq = max;
	return 0;
}

static int setup(struct session *s, int argc, char **argv)
{
	struct record_opts *o = s->o;
	struct pk_recorder_opts ro = o->r;
	int err;

	if ((err = record_out_check(o)))
		return err;
	cli_tracefs_need(o->events ? o->events : "cycles");
	if (streaming(s) && (err = open_stream(s)))
		return err;
	if (o->control && cli_control_open("record", o->control, &s->ctl) < 0)
		return CLI_EXIT_USAGE;
	if (record_out_cmdline(&s->out, argc, argv) < 0)
		return cli_message(stderr, "perfkit record: out of memory\n"), CLI_EXIT_EVENT;
	s->switched_at = cli_now();
	if ((err = record_filters(o, &s->filters, &s->nr_filters)))
		return err;
	ro.filters = (const char *const *)s->filters;
	ro.nr_filters = s->nr_filters;
	if ((err = record_cgroups(o, &ro, &s->cgroup_buf, &s->cgroups)))
		return err;
	if (o->freq_max ? (err = freq_max(o, &ro.freq)) : (err = freq_limit(o, &ro)))
		return err;
	ro.pages = o->pages;
	ro.sample_id = streaming(s);	/* as perf records for a pipe */
	if (!o->no_cache && !(ro.buildid_dir = cli_buildid_dir(o->cache_dir, sizeof(o->cache_dir))) &&
	    !o->quiet)
		fprintf(stderr, "perfkit record: warning: the build-id cache directory's name is too "
			"long; no build-id cache\n");
	if (o->argv && pk_workload_start(o->argv, &s->wl) < 0)
		return cli_error("record", NULL);
	if ((err = set_target(s, &ro)))
		return err;
	if (pk_recorder_new(o->events, &ro, &s->rec) < 0)
		return cli_error("record", o->events);
	if ((err = record_swevent_open(&s->swev, o, s->wl_is_target ? pk_workload_pid(s->wl) : 0)))
		return err;
	say_opened(s);
	/* The file (and the old one, kept as .old at the end as perf does) is
	 * checked here, before anything is recorded. */
	if (!s->w && o->threads && (err = record_threads_writer(o, s->rec, &s->w)))
		return err;
	if (!s->w && (pk_data_writer_create(o->output, &s->w) < 0 ||
		      (!o->timestamp_filename && pk_data_writer_keep_old(s->w) < 0)))
		return cli_error("record", NULL);
	if (pk_data_writer_set_cmdline(s->w, s->out.argc, s->out.argv) < 0 || pk_recorder_set_writer(s->rec, s->w) < 0)
		return cli_error("record", NULL);
	return 0;
}

static void teardown(struct session *s)
{
	pk_data_writer_abort(s->w);
	pk_recorder_free(s->rec);
	pk_workload_free(s->wl);
	cli_target_free(&s->o->target);
	for (size_t i = 0; i < s->nr_filters; i++)
		free(s->filters[i]);
	free(s->filters);
	free(s->cgroup_buf);
	free(s->cgroups);
	record_swevent_close(&s->swev);
	cli_control_close(&s->ctl);
	record_out_free(&s->out, s->o);
	record_free_opts(s->o);
}

/* Why the recording ended, when it was not the command's own end. */
static void say_ended(const struct session *s)
{
	if (s->o->quiet)
		return;
	if (cli_stop_signal() && streaming(s))
		fprintf(stderr, "perfkit record: stopped by %s; the stream carries everything recorded "
			"until then\n", sig_name(cli_stop_signal()));
	else if (cli_stop_signal())
		fprintf(stderr, "perfkit record: stopped by %s; %s keeps everything recorded until then\n",
			sig_name(cli_stop_signal()), s->o->output);
	else if (s->wl && !s->ended_command && pk_workload_signal(s->wl))
		fprintf(stderr, "perfkit record: the command was killed by %s (%s)\n",
			sig_name(pk_workload_signal(s->wl)), strsignal(pk_workload_signal(s->wl)));
}

/* After pk_recorder_finish: what stopped the writing, or the build-ids. */
static void say_finish_error(const struct session *s, const struct pk_recorder_stats *st, int err)
{
	if (st->sink_error) {	/* say what stopped us; what was captured is still saved */
		fprintf(stderr, "perfkit record: writing %s stopped: %s\n", s->o->output,
			strerror(-st->sink_error));
		if (st->sink_error == -ENOSPC)
			fprintf(stderr, "  hint: the disk is full: free space, or record less "
				"(-F, -m, -z, --duration)\n");
	} else if (err < 0) {
		fprintf(stderr, "perfkit record: out of memory for the build-id table; %s has none\n",
			s->o->output);
	}
}

/* perf's summary, and what was lost on the way. */
static void say_summary(const struct session *s, const struct pk_recorder_stats *st, uint64_t bytes)
{
	const char *tail = s->o->timestamp_filename ? ".<timestamp>" : "";
	uint64_t samples = st->samples - s->out.samples;	/* this file's */

	fprintf(stderr, "[ perfkit record: Woken up %llu times to write data ]\n",
		(unsigned long long)(st->wakeups - s->out.wakeups));
	if (s->o->timestamp_filename && s->out.name[0])
		fprintf(stderr, "[ perfkit record: Dump %s ]\n", s->out.name);
	if (st->lost)
		fprintf(stderr, "perfkit record: %llu samples were lost: the rings filled up; "
			"use a bigger -m or a lower -F\n", (unsigned long long)st->lost);
	if (st->lost_samples)
		fprintf(stderr, "perfkit record: the kernel could not take %llu samples (LOST_SAMPLES)\n",
			(unsigned long long)st->lost_samples);
	if (st->throttled)
		fprintf(stderr, "perfkit record: the kernel throttled sampling %llu times: it was using "
			"too much CPU (kernel.perf_event_max_sample_rate, "
			"kernel.perf_cpu_time_max_percent); use a lower -F\n",
			(unsigned long long)st->throttled);
	if (st->sink_error)
		fprintf(stderr, "[ perfkit record: Captured %llu samples; wrote the %.3f MB of them that "
			"fit in %s%s ]\n", (unsigned long long)samples, bytes / 1048576.0, s->o->output, tail);
	else
		fprintf(stderr, "[ perfkit record: Captured and wrote %.3f MB %s%s (%llu samples) ]\n",
			bytes / 1048576.0, s->o->output, tail, (unsigned long long)samples);
}

/* The last drain, the file's end, the messages.  Returns the exit status. */
static int finish(struct session *s, int status)
{
	struct pk_recorder_stats st = { .size = sizeof(st) };
	int err = pk_recorder_finish(s->rec), sig;
	bool named;
	uint64_t bytes = pk_data_writer_size(s->w);

	pk_recorder_stats(s->rec, &st);
	if (!st.sink_error)
		st.sink_error = s->write_err;	/* a flush of the file failed */
	if (st.sink_error != -EPIPE)
		say_finish_error(s, &st, err);
	/* --timestamp-filename (and the last file of --switch-output). */
	named = s->o->timestamp_filename && record_out_name(&s->out, s->o, s->w) == 0;
	err = pk_data_writer_finish(s->w);
	s->w = NULL;
	if (named && err >= 0)
		record_out_done(&s->out, s->o, false);
	/* -o -: the reader went away.  perf dies of the SIGPIPE; we stop, say
	 * so, and exit with the status that death would give. */
	if (err == -EPIPE || st.sink_error == -EPIPE) {
		if (!s->o->quiet)
			fprintf(stderr, "perfkit record: the reader of the stream went away (broken pipe); "
				"recording stopped after %llu samples\n", (unsigned long long)st.samples);
		return 128 + SIGPIPE;
	}
	if (err > 0)	/* records past the full disk (and a few to make room) were cut */
		bytes -= (uint64_t)err;
	/* A stream that stopped on its sink's error (said above) ends with
	 * that error again; the recorder's thread, not this one, recorded it. */
	if (err < 0) {
		if (err != st.sink_error)
			cli_error("record", NULL);
		return CLI_EXIT_EVENT;
	}
	if (!s->o->quiet)
		say_summary(s, &st, bytes);
	if (st.buildid_cache_failed && !s->o->quiet)
		fprintf(stderr, "perfkit record: warning: %llu of the binaries could not be put into the "
			"build-id cache (the recording is whole); the first: %s\n",
			(unsigned long long)st.buildid_cache_failed, pk_recorder_warning(s->rec));
	if (st.sink_error || s->switch_failed)
		return status ? status : CLI_EXIT_EVENT;
	/* Stopped by a signal: the file is whole.  As perf, Ctrl-C exits 0 and
	 * any other signal 128+signal, whatever it did to the command. */
	if ((sig = cli_stop_signal()))
		return sig == SIGINT ? 0 : 128 + sig;
	return status;
}

/*
 * Every signal whose default would kill the recorder and lose the file
 * (the hang-up of an ssh session, a timeout's SIGALRM, a closed pipe...)
 * stops the recording as Ctrl-C does; with --overwrite, SIGUSR2 writes a
 * snapshot instead, and with --switch-output it switches (or, switching
 * by size or time, is ignored as perf ignores it).  A SIGHUP ignored
 * already (nohup) stays ignored.
 * Installed before setup, so a signal while the events open or the
 * processes are read stops the recording before it starts.
 */
static void catch_signals(bool usr2)
{
	static const int stops[] = { SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE,
				     SIGXCPU, SIGXFSZ, SIGVTALRM, SIGPROF, SIGIO, SIGPWR, SIGSTKFLT };
	struct sigaction su = { .sa_handler = on_usr2 };

	cli_stop_reset();
	for (size_t i = 0; i < sizeof(stops) / sizeof(stops[0]); i++)
		cli_stop_catch(stops[i]);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		cli_stop_catch(sig);
	if (usr2) {
		snapshot_request = 0;
		sigaction(SIGUSR2, &su, NULL);
	}
}

int cmd_record(int argc, char **argv)
{
	struct record_opts o = { .output = "perf.data", .r = { .size = sizeof(o.r) } };
	struct session s = { .o = &o, .ctl = { .fd = -1, .ack = -1 } };
	int err, status;

	err = record_parse_opts(argc, argv, &o);
	if (err || o.dry_run) {
		err = err ? err : record_dry_run(&o);
		record_free_opts(&o);
		return err < 0 ? 0 : err;
	}
	catch_signals(o.r.overwrite || o.switch_output);
	if ((err = setup(&s, argc, argv))) {
		teardown(&s);
		return err;
	}
	cli_stop_forward(s.wl, false);
	if ((err = record_realtime(&o))) {
		teardown(&s);
		return err;
	}
	if (pk_recorder_start(s.rec) < 0 || (s.wl && pk_workload_go(s.wl) < 0)) {
		cli_error("record", NULL);
		teardown(&s);
		return CLI_EXIT_EVENT;
	}
	if (!o.quiet && pk_recorder_warning(s.rec))
		fprintf(stderr, "perfkit record: %s\n", pk_recorder_warning(s.rec));
	/* -D: from the start of the command (or of the recording). */
	if (o.delay_ms)
		s.enable_at = cli_now() + o.delay_ms / 1000.0;
	else if (o.r.start_disabled && !o.quiet)
		fprintf(stderr, "Events disabled\n");
	status = run(&s);
	cli_stop_forward(NULL, false);
	say_ended(&s);
	status = finish(&s, status);
	teardown(&s);
	return status;
}
