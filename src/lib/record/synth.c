/* SPDX-License-Identifier: MIT */
/*
 * synth.c - records for what existed before recording began: the kernel's
 * text mapping from /proc/kallsyms, and each process's threads (FORK for
 * -a, NAMESPACES, COMM) and executable mappings (MMAP2) from /proc, laid out exactly
 * as the kernel would have written them, so readers treat them like the
 * real thing.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_RECORD 8192

struct builder {
	unsigned char buf[MAX_RECORD];
	size_t len;
};

static void add(struct builder *b, const void *p, size_t n)
{
	if (b->len + n <= sizeof(b->buf)) {
		memcpy(b->buf + b->len, p, n);
		b->len += n;
	}
}

static void add_u32(struct builder *b, uint32_t v) { add(b, &v, 4); }
static void add_u64(struct builder *b, uint64_t v) { add(b, &v, 8); }

/* A NUL-terminated string padded with zeros to a multiple of 8 bytes. */
static void add_str(struct builder *b, const char *s)
{
	static const char zeros[8];
	size_t n = strlen(s) + 1;	/* our own strings: comm and a maps path, both bounded */

	add(b, s, n - 1);
	add(b, zeros, 1 + ((8 - n % 8) % 8));
}

/* The sample_id_all trailer: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER. */
static void add_trailer(struct builder *b, const struct perf_event_attr *a, uint32_t pid,
			uint32_t tid, uint64_t id)
{
	uint64_t t = a->sample_type;

	if (!a->sample_id_all)
		return;
	if (t & PERF_SAMPLE_TID) {
		add_u32(b, pid);
		add_u32(b, tid);
	}
	if (t & PERF_SAMPLE_TIME)
		add_u64(b, 0);	/* before every sample */
	if (t & PERF_SAMPLE_ID)
		add_u64(b, id);
	if (t & PERF_SAMPLE_STREAM_ID)
		add_u64(b, id);
	if (t & PERF_SAMPLE_CPU)
		add_u64(b, 0);	/* cpu 0, reserved 0 */
	if (t & PERF_SAMPLE_IDENTIFIER)
		add_u64(b, id);
}

static int emit(struct builder *b, uint32_t type, uint16_t misc, pk_record_sink sink, void *arg)
{
	struct perf_event_header h = { type, misc, (uint16_t)b->len };

	if (b->len >= sizeof(b->buf))
		return 0;	/* cannot happen for paths < 4 KiB; skip rather than truncate */
	memcpy(b->buf, &h, sizeof(h));
	return sink(arg, (const struct perf_event_header *)b->buf);
}

int pk_record_synth_kernel(const struct perf_event_attr *attr, uint64_t id, pk_record_sink sink,
			   void *arg)
{
	char line[512], name[256], type;
	unsigned long long addr, start = 0, end = 0;
	struct builder b = { .len = sizeof(struct perf_event_header) };
	FILE *f = fopen("/proc/kallsyms", "re");
	char *big = malloc(1 << 18);

	pk__error_clear();
	/*
	 * The kernel generates kallsyms on every read(2), and it has 100k+
	 * lines: read it in big chunks (stdio's 4 KiB reads cost ~50 ms), and
	 * stop at _etext, which sorts before the rest of the kernel's data.
	 */
	if (f && big)
		setvbuf(f, big, _IOFBF, 1 << 18);
	while (f && !end && fgets(line, sizeof(line), f)) {
		size_t n = strlen(line);

		/* Only the three names matter: skip sscanf for every other line. */
		if (n < 7 || !strstr(line, "text\n"))
			continue;
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) == 3) {
			if (!strcmp(name, "_stext") || (!start && !strcmp(name, "_text")))
				start = addr;
			else if (!strcmp(name, "_etext"))
				end = addr;
		}
	}
	if (f)
		fclose(f);
	free(big);
	if (!f) {	/* not hidden addresses: say what failed (EMFILE: out of fds) */
		int e = errno;

		pk__error(-e, "read /proc/kallsyms", "cannot open /proc/kallsyms: %s", strerror(e));
		if (e == EMFILE)
			pk__error_hint("%s", "the process reached its limit of open files (RLIMIT_NOFILE): "
				       "raise it with `ulimit -n`, or open fewer events or CPUs");
		return -e;
	}
	if (!start || end <= start) {
		pk__error(-EACCES, "read /proc/kallsyms", "%s", "the kernel's addresses are hidden, so "
			  "kernel samples cannot be given symbols");
		pk__error_hint("%s", "as root: sysctl -w kernel.kptr_restrict=0");
		return -EACCES;
	}
	add_u32(&b, (uint32_t)-1);	/* pid -1: the kernel */
	add_u32(&b, 0);
	add_u64(&b, start);
	add_u64(&b, end - start);
	add_u64(&b, start);		/* pgoff: perf stores the start here too */
	add_str(&b, "[kernel.kallsyms]_text");
	add_trailer(&b, attr, (uint32_t)-1, 0, id);
	return emit(&b, PERF_RECORD_MMAP, PERF_RECORD_MISC_KERNEL, sink, arg);
}

static int synth_comm(pid_t pid, pid_t tid, const struct perf_event_attr *attr, uint64_t id,
		      pk_record_sink sink, void *arg)
{
	char path[64], comm[64] = "";
	struct builder b = { .len = sizeof(struct perf_event_header) };

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	if (pk__read_file(path, comm, sizeof(comm)) < 0)
		return -ESRCH;
	add_u32(&b, (uint32_t)pid);
	add_u32(&b, (uint32_t)tid);
	add_str(&b, comm);
	add_trailer(&b, attr, (uint32_t)pid, (uint32_t)tid, id);
	return emit(&b, PERF_RECORD_COMM, 0, sink, arg);
}

/* The PPid: line of /proc/PID/status, or 0. */
static pid_t parent_of(pid_t pid)
{
	char path[64], buf[4096], *p;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (pk__read_file(path, buf, sizeof(buf)) < 0 || !(p = strstr(buf, "\nPPid:")))
		return 0;
	return (pid_t)strtol(p + 7, NULL, 10);
}

/*
 * The FORK perf synthesizes for a thread that already exists: the leader
 * forked from its parent process, every other thread from the leader.
 */
static int synth_fork(pid_t pid, pid_t tid, pid_t ppid, const struct perf_event_attr *attr, uint64_t id,
		      pk_record_sink sink, void *arg)
{
	struct builder b = { .len = sizeof(struct perf_event_header) };
	pid_t parent = tid == pid ? ppid : pid;

	add_u32(&b, (uint32_t)pid);
	add_u32(&b, (uint32_t)parent);
	add_u32(&b, (uint32_t)tid);
	add_u32(&b, (uint32_t)parent);
	add_u64(&b, 0);
	add_trailer(&b, attr, (uint32_t)pid, (uint32_t)tid, id);
	return emit(&b, PERF_RECORD_FORK, PERF_RECORD_MISC_FORK_EXEC, sink, arg);
}

/*
 * A thread's namespaces as the kernel reports them: the device and inode
 * of each /proc/PID/task/TID/ns link, in the UAPI's *_NS_INDEX order.  A
 * namespace this kernel lacks stays 0, as perf leaves it.
 */
static int synth_namespaces(pid_t pid, pid_t tid, const struct perf_event_attr *attr, uint64_t id,
			    pk_record_sink sink, void *arg)
{
	static const char *const names[NR_NAMESPACES] = {
		[NET_NS_INDEX] = "net", [UTS_NS_INDEX] = "uts", [IPC_NS_INDEX] = "ipc",
		[PID_NS_INDEX] = "pid", [USER_NS_INDEX] = "user", [MNT_NS_INDEX] = "mnt",
		[CGROUP_NS_INDEX] = "cgroup",
	};
	struct builder b = { .len = sizeof(struct perf_event_header) };

	add_u32(&b, (uint32_t)pid);
	add_u32(&b, (uint32_t)tid);
	add_u64(&b, NR_NAMESPACES);
	for (int i = 0; i < NR_NAMESPACES; i++) {
		char path[96];
		struct stat st = { 0 };

		snprintf(path, sizeof(path), "/proc/%d/task/%d/ns/%s", (int)pid, (int)tid, names[i]);
		if (stat(path, &st) < 0) {
			snprintf(path, sizeof(path), "/proc/%d/task/%d", (int)pid, (int)tid);
			if (access(path, F_OK) < 0)
				return -ESRCH;	/* the thread is gone */
		}
		add_u64(&b, st.st_dev);
		add_u64(&b, st.st_ino);
	}
	add_trailer(&b, attr, (uint32_t)pid, (uint32_t)tid, id);
	return emit(&b, PERF_RECORD_NAMESPACES, 0, sink, arg);
}

/* One line of /proc/PID/maps as an MMAP2 record; 1 when skipped. */
static int synth_map(pid_t pid, const char *line, const struct perf_event_attr *attr, uint64_t id,
		     bool data, pk_record_sink sink, void *arg)
{
	unsigned long long start, end, pgoff, ino;
	unsigned maj, min;
	char perms[8], file[4096] = "";
	struct builder b = { .len = sizeof(struct perf_event_header) };
	uint32_t prot = 0;

	if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %4095[^\n]", &start, &end, perms, &pgoff, &maj,
		   &min, &ino, file) < 7)
		return 1;
	if (!file[0] || (perms[2] != 'x' && !data))
		return 1;	/* anonymous, or data without -d: perf skips them too */
	prot = (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
	       (perms[2] == 'x' ? PROT_EXEC : 0);
	add_u32(&b, (uint32_t)pid);
	add_u32(&b, (uint32_t)pid);
	add_u64(&b, start);
	add_u64(&b, end - start);
	add_u64(&b, pgoff);
	add_u32(&b, maj);
	add_u32(&b, min);
	add_u64(&b, ino);
	add_u64(&b, 0);		/* ino_generation */
	add_u32(&b, prot);
	add_u32(&b, perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE);
	add_str(&b, file);
	add_trailer(&b, attr, (uint32_t)pid, (uint32_t)pid, id);
	return emit(&b, PERF_RECORD_MMAP2, perms[2] == 'x' ? PERF_RECORD_MISC_USER :
		    PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA, sink, arg);
}

/* A process's threads (with FORK first when `forks`), then its mappings. */
static int synth_process(pid_t pid, const struct perf_event_attr *attr, uint64_t id, unsigned flags,
			 bool forks, pk_record_sink sink, void *arg)
{
	bool data = flags & PK_SYNTH_DATA;
	pid_t *tids, ppid = forks ? parent_of(pid) : 0;
	size_t nr;
	char path[64], line[4352];
	FILE *f;
	int err;

	if ((err = pk_pid_threads(pid, &tids, &nr)) < 0)
		return err;
	for (size_t i = 0; i < nr && err >= 0; i++) {
		if (forks)
			err = synth_fork(pid, tids[i], ppid, attr, id, sink, arg);
		if (err >= 0 && (flags & PK_SYNTH_NAMESPACES))
			err = synth_namespaces(pid, tids[i], attr, id, sink, arg);
		if (err >= 0)
			err = synth_comm(pid, tids[i], attr, id, sink, arg);
	}
	free(tids);
	if (err == -ESRCH)
		return err;
	if (err < 0)
		return err;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "re")))
		return -ESRCH;
	while (err >= 0 && fgets(line, sizeof(line), f))
		err = synth_map(pid, line, attr, id, data, sink, arg);
	fclose(f);
	return err < 0 ? err : 0;
}

int pk_record_synth_process(pid_t pid, const struct perf_event_attr *attr, uint64_t id, unsigned flags,
			    pk_record_sink sink, void *arg)
{
	return synth_process(pid, attr, id, flags, false, sink, arg);
}

int pk_record_synth_all(const struct perf_event_attr *attr, uint64_t id, unsigned flags,
			pk_record_sink sink, void *arg)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int err = 0;

	if (!d)
		return pk__error(-errno, "read /proc", "cannot open /proc: %s", strerror(errno));
	while (err >= 0 && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0)
			continue;
		err = synth_process((pid_t)pid, attr, id, flags, true, sink, arg);
		if (err == -ESRCH)
			err = 0;	/* it exited while we read it */
	}
	closedir(d);
	if (err >= 0)	/* a failure keeps its error record (EMFILE, not EINVAL) */
		pk__error_clear();
	return err;
}
