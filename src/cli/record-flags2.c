/* SPDX-License-Identifier: MIT */
/*
 * record-flags2.c - the rest of perf record 6.1's flags: -u (a user's
 * processes, as perf's thread map by uid), -r (SCHED_FIFO for the
 * recorder), --all-cgroups, --transaction, --buildid-all, --buildid-mmap
 * and --synth (into the recorder's options), and the flags whose effect
 * is perf's machinery rather than the file (--aio, --affinity,
 * --num-thread-synthesize, --proc-map-timeout, --clang-*, --debuginfod,
 * --vmlinux): their values are checked as perf checks them.  The AUX-area
 * flags (-S, --aux-sample) and --kcore end with perf's message, as perf
 * does on a machine without an AUX PMU or /proc/kcore.
 */
#include "record.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <sched.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* A message for perfkit record (no usage hint) and `status`. */
static int __attribute__((format(printf, 2, 3))) fail(int status, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "perfkit record: ");
	va_start(ap, fmt);
	cli_vmessage(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return status;
}

/*
 * --synth: perf's parse_synth_opt.  A list of no/none, all, task, mmap
 * (task and its maps), cgroup; "no" or "all" anywhere decides at once.
 * What is left out is what the recorder must not synthesize.
 */
static int parse_synth(struct record_opts *o, const char *arg)
{
	enum { TASK = 1, MMAP = 2, CGROUP = 4, ALL = 7 };
	char buf[256], *save = NULL, *p;
	unsigned set = 0;

	if (strlen(arg) >= sizeof(buf))
		return cli_usage("record", "Invalid synth option: %s", arg);
	strcpy(buf, arg);
	for (p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (!strcasecmp(p, "no") || !strcasecmp(p, "none")) {
			set = 0;
			break;
		}
		if (!strcasecmp(p, "all")) {
			set = ALL;
			break;
		}
		if (!strcasecmp(p, "task"))
			set |= TASK;
		else if (!strcasecmp(p, "mmap"))
			set |= TASK | MMAP;
		else if (!strcasecmp(p, "cgroup"))
			set |= CGROUP;
		else
			return cli_usage("record", "Invalid synth option: %s (give no, all, task, mmap or "
					 "cgroup, or a list of them)", arg);
	}
	o->r.no_synth = (set & TASK ? 0 : PK_RECORDER_NO_SYNTH_TASK) |
			(set & MMAP ? 0 : PK_RECORDER_NO_SYNTH_MMAP) |
			(set & CGROUP ? 0 : PK_RECORDER_NO_SYNTH_CGROUP);
	return 0;
}

/* --aio[=N]: perf's control blocks, 1 when not given, at most 4 (a larger
 * N is taken as 4, as perf takes it). */
static int parse_aio(struct record_opts *o, const char *arg)
{
	uint64_t n = 1;

	if (arg && cli_num_u64("record", "--aio", arg, 0, 1u << 30, &n) < 0)
		return CLI_EXIT_USAGE;
	o->aio = n == 0 ? 1 : n > 4 ? 4 : (unsigned)n;
	return 0;
}

/* --affinity: node or cpu; perf ignores anything else (the system's
 * affinity stays), and so does perfkit. */
static void parse_affinity(struct record_opts *o, const char *arg)
{
	if (!strcasecmp(arg, "node") || !strcasecmp(arg, "cpu"))
		o->affinity = arg;
}

/* --vmlinux: perf refuses a path that is not a readable file. */
static int check_vmlinux(const char *arg)
{
	struct stat st;

	if (stat(arg, &st) < 0 || !S_ISREG(st.st_mode) || access(arg, R_OK) < 0)
		return fail(CLI_EXIT_USAGE, "Invalid file: %s", arg);
	return 0;
}

/* The flags that only say what perf's AUX-area machinery should do. */
static int aux_flag(int id)
{
	/* perfkit opens no AUX-area event (Intel PT, CoreSight, ARM SPE), so
	 * there is never one to snapshot or sample: perf's message on a
	 * machine without such a PMU. */
	return fail(CLI_EXIT_USAGE, "%s",
			id == 'S' ? "No AUX area tracing to snapshot" : "No AUX area event to sample");
}

int record_flags2_option(struct record_opts *o, int id, const char *arg)
{
	uint64_t n;

	switch (id) {
	case 'u': o->uid = arg; break;
	case 'r':
		if (cli_num_u64("record", "-r", arg, 0, 99, &n) < 0)
			return CLI_EXIT_USAGE;
		o->realtime = (int)n;
		break;
	case RECORD_OPT_ALL_CGROUPS: o->r.all_cgroups = true; break;
	case RECORD_OPT_TRANSACTION: o->r.transaction = true; break;
	case RECORD_OPT_BUILDID_ALL: o->r.buildid_all = true; break;
	case RECORD_OPT_BUILDID_MMAP: o->buildid_mmap = true; break;
	case RECORD_OPT_SYNTH: return parse_synth(o, arg);
	case RECORD_OPT_NUM_THREAD_SYNTH:
		return cli_num_u64("record", "--num-thread-synthesize", arg, 0, 1u << 20, &n) < 0 ?
		       CLI_EXIT_USAGE : 0;
	case RECORD_OPT_PROC_MAP_TIMEOUT:
		return cli_num_u64("record", "--proc-map-timeout", arg, 0, UINT32_MAX, &n) < 0 ?
		       CLI_EXIT_USAGE : 0;
	case RECORD_OPT_AFFINITY: parse_affinity(o, arg); break;
	case RECORD_OPT_AIO: return parse_aio(o, arg);
	case RECORD_OPT_VMLINUX: return check_vmlinux(arg);
	case RECORD_OPT_KCORE: o->kcore = true; break;
	case RECORD_OPT_DEBUGINFOD: o->debuginfod = true; break;
	case RECORD_OPT_CLANG_PATH:
	case RECORD_OPT_CLANG_OPT:
		break;	/* for -e FILE.c, BPF scriptlets, which perfkit does not build */
	case 'S':
	case RECORD_OPT_AUX_SAMPLE:
		o->aux_flag = id;
		break;
	default: return 1;
	}
	return 0;
}

/*
 * A user name or number into its uid, as perf's target__parse_uid: the
 * name first, then the number, each looked up in /etc/passwd.  perfkit is
 * linked statically, where getpwnam's NSS modules cannot load: the file
 * is read with fgetpwent (local users only).
 */
static int parse_user(const char *user, uid_t *uid)
{
	FILE *f = fopen("/etc/passwd", "re");
	struct passwd *pw;
	char *end;
	long v;
	bool found = false;

	errno = 0;
	v = strtol(user, &end, 10);
	if (!*user || *end || errno || v < 0)
		v = -1;
	for (int pass = 0; f && pass < 2 && !found; pass++) {
		rewind(f);
		while (!found && (pw = fgetpwent(f)))
			if (pass ? (long)pw->pw_uid == v : !strcmp(pw->pw_name, user)) {
				*uid = pw->pw_uid;
				found = true;
			}
	}
	if (f)
		fclose(f);
	return found ? 0 : fail(CLI_EXIT_USAGE, "Invalid User: %s", user);
}

/* Append pid to the -p list in *list (*len bytes used, *cap allocated). */
static int add_pid(char **list, size_t *len, size_t *cap, long pid)
{
	char num[24];
	int k = snprintf(num, sizeof(num), "%s%ld", *len ? "," : "", pid);

	if (*len + (size_t)k + 1 > *cap) {
		size_t want = *cap ? *cap * 2 : 256;
		char *grown = realloc(*list, want);

		if (!grown)
			return -ENOMEM;
		*list = grown;
		*cap = want;
	}
	memcpy(*list + *len, num, (size_t)k + 1);
	*len += (size_t)k;
	return 0;
}

/*
 * -u: the processes whose /proc/PID the user owns, as perf's
 * thread_map__new_by_uid finds them, as a -p list; the recorder then
 * opens events on every thread of each, as perf does.
 */
static int uid_pids(struct record_opts *o, uid_t uid)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	size_t len = 0, cap = 0;
	int err = 0;

	if (!d)
		return fail(CLI_EXIT_EVENT, "cannot read /proc: %s", strerror(errno));
	while (!err && (de = readdir(d))) {
		struct stat st;
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0 || fstatat(dirfd(d), de->d_name, &st, 0) < 0 || st.st_uid != uid)
			continue;
		err = add_pid(&o->uid_pids, &len, &cap, pid);
	}
	closedir(d);
	if (err)
		return fail(CLI_EXIT_EVENT, "out of memory for -u's processes");
	if (!len)
		return fail(CLI_EXIT_EVENT, "user %s has no processes to record", o->uid);
	o->target.pids = o->uid_pids;
	/* A user's processes come and go: one that exits before its events
	 * open is left out, as perf ignores it. */
	o->r.ignore_missing = true;
	return 0;
}

/* -u against the other targets: perf's target__validate drops -u for
 * -p/-t and for -C, and -a for -u, each with its warning. */
static int check_uid(struct record_opts *o)
{
	uid_t uid = 0;
	int err;

	if (o->target.pids || o->target.tids || o->target.cpu_list) {
		if (!o->quiet)
			fprintf(stderr, "%s\n", o->target.cpu_list && !o->target.pids && !o->target.tids ?
				"UID switch overriding CPU" : "PID/TID switch overriding UID");
		return 0;
	}
	if (o->target.all_cpus) {
		if (!o->quiet)
			fprintf(stderr, "UID switch overriding SYSTEM\n");
		o->target.all_cpus = false;
	}
	if ((err = parse_user(o->uid, &uid)))
		return err;
	return uid_pids(o, uid);
}

int record_flags2_check(struct record_opts *o)
{
	int err;

	if (o->aux_flag)
		return aux_flag(o->aux_flag);
	if (o->kcore && access("/proc/kcore", R_OK) < 0)
		return fail(CLI_EXIT_EVENT, "ERROR: kcore is not readable.");
	if (o->kcore)	/* perf copies it into a directory output; perfkit writes one file */
		return fail(CLI_EXIT_USAGE, "--kcore copies /proc/kcore into a "
				"directory output, which perfkit record does not write");
	if (o->debuginfod && !o->quiet)
		fprintf(stderr, "WARNING: debuginfod support requested, but perfkit is not built "
			"with it\n");
	if (o->uid && (err = check_uid(o)))
		return err;
	/* perf's --buildid-mmap: build-ids travel in the MMAP2 records, so
	 * no BUILD_ID table and no build-id cache at the end. */
	if (o->buildid_mmap) {
		o->r.buildid_mmap = true;
		o->r.no_build_ids = true;
		o->no_cache = true;
	}
	return 0;
}

int record_realtime(const struct record_opts *o)
{
	struct sched_param param = { .sched_priority = o->realtime };

	if (!o->realtime)
		return 0;
	if (sched_setscheduler(0, SCHED_FIFO, &param) < 0)
		return fail(CLI_EXIT_EVENT, "Could not set realtime priority (SCHED_FIFO "
				"%d): %s", o->realtime, strerror(errno));
	return 0;
}
