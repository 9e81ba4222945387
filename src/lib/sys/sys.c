/* SPDX-License-Identifier: MIT */
/*
 * sys.c - where libperfkit touches the kernel: the only calls of
 * perf_event_open, ioctl, prctl, mmap, munmap and close on event fds (behind
 * a per-thread test seam), perf_event_attr size negotiation on E2BIG, the
 * sysfs root and small /proc and /sys file readers, and the probes that
 * gather facts about the machine for the errno explainer in explain.c.
 */
#include "explain.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <unistd.h>

/* ---- sysfs / procfs ------------------------------------------------------ */

char *pk__sysfs_path(char *buf, size_t len, const char *rel)
{
	const char *root = getenv("PERFKIT_SYSFS_ROOT");
	int n;

	if (!root || !root[0])
		root = "/sys";
	while (rel && rel[0] == '/')
		rel++;
	n = snprintf(buf, len, "%s/%s", root, rel ? rel : "");
	if (n < 0 || (size_t)n >= len)
		return NULL;
	return buf;
}

int pk__read_file(const char *path, char *buf, size_t len)
{
	size_t n = 0;
	int fd;

	if (!buf || len == 0)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (n < len - 1) {
		ssize_t r = read(fd, buf + n, len - 1 - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = -errno;

			close(fd);
			return err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	if (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return (int)n;
}

int pk__read_long(const char *path, long *val)
{
	char buf[64], *end;
	long v;
	int n = pk__read_file(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	errno = 0;
	v = strtol(buf, &end, 10);
	if (end == buf)
		return -EINVAL;
	if (errno == ERANGE)
		return -ERANGE;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -EINVAL;
	*val = v;
	return 0;
}

/* ---- the seam and the raw syscalls --------------------------------------- */

/* Per thread so that tests running in parallel threads cannot see each
 * other's fakes; NULL (the default) means the real kernel. */
static _Thread_local const struct pk__sys_ops *sys_ops;

/* Threads with a table installed (sys.h says why a count): raised when a
 * thread installs one, lowered when it removes it.  A thread that exits
 * with its table still installed leaves it raised, which only makes the
 * fast paths look at their (NULL) tables. */
int pk__sys_faked;

void pk__sys_set_ops(const struct pk__sys_ops *ops)
{
	if (ops && !sys_ops)
		__atomic_add_fetch(&pk__sys_faked, 1, __ATOMIC_SEQ_CST);
	else if (!ops && sys_ops)
		__atomic_sub_fetch(&pk__sys_faked, 1, __ATOMIC_SEQ_CST);
	sys_ops = ops;
}

static int raw_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		    unsigned long flags)
{
	if (sys_ops && sys_ops->perf_event_open)
		return sys_ops->perf_event_open(attr, pid, cpu, group_fd, flags);
	return (int)syscall(SYS_perf_event_open, attr, pid, cpu, group_fd, flags);
}

/* ---- perf_event_open with size negotiation ------------------------------- */

/*
 * The kernel answers E2BIG when attr->size is outside [64, PAGE_SIZE] or
 * when bytes past its own struct are non-zero, and writes its struct size
 * into attr->size.  A caller that built a newer attr but only set fields
 * this kernel knows can then run with the smaller size; a caller that set a
 * newer field cannot, and is told which field.
 */
static int negotiate(struct perf_event_attr *attr, uint32_t orig, pid_t pid, int cpu,
		     int group_fd, unsigned long flags, const char *name)
{
	uint32_t ksize = attr->size;
	int fd, err;

	if (ksize < PERF_ATTR_SIZE_VER0 || ksize >= orig) {
		attr->size = orig;
		return pk__sys_explain_e2big(attr, orig, ksize, pid, cpu, group_fd, name);
	}
	if (pk__attr_first_nonzero(attr, ksize, orig) >= 0) {
		attr->size = orig;
		return pk__sys_explain_e2big(attr, orig, ksize, pid, cpu, group_fd, name);
	}
	/* Every byte the kernel does not know is zero: retry at its size, and
	 * keep that size in the attr, since it is the one that works here. */
	attr->size = ksize;
	fd = raw_open(attr, pid, cpu, group_fd, flags);
	if (fd >= 0)
		return fd;
	err = -errno;
	if (err == -E2BIG) {
		ksize = attr->size;
		attr->size = orig;
		return pk__sys_explain_e2big(attr, orig, ksize, pid, cpu, group_fd, name);
	}
	return pk__sys_explain(err, attr, pid, cpu, group_fd, flags, name);
}

void pk__attr8_copy(union pk__attr8 *dst, const struct perf_event_attr *src)
{
	size_t n = src->size > sizeof(*src) ? src->size : sizeof(*src);

	memset(dst, 0, sizeof(*dst));
	memcpy(dst, src, n < sizeof(*dst) ? n : sizeof(*dst));
}

int pk__sys_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		 unsigned long flags, const char *name)
{
	uint32_t orig;
	int fd, err;

	if (!attr) {
		char what[256];

		pk__sys_explain_what(what, sizeof(what), NULL, pid, cpu, group_fd, name);
		return pk__error(-EINVAL, what, "the attr pointer is NULL");
	}
	if (attr->size == 0)
		attr->size = PERF_ATTR_SIZE_VER7;
	orig = attr->size;
	fd = raw_open(attr, pid, cpu, group_fd, flags);
	if (fd >= 0)
		return fd;
	err = -errno;
	if (err == -E2BIG)
		return negotiate(attr, orig, pid, cpu, group_fd, flags, name);
	/* A fake (or a confused kernel) may have written the size back. */
	attr->size = orig;
	return pk__sys_explain(err, attr, pid, cpu, group_fd, flags, name);
}

int pk__sys_explain(int err, const struct perf_event_attr *attr, pid_t pid, int cpu,
		    int group_fd, unsigned long flags, const char *name)
{
	struct pk__sys_facts f;

	pk__sys_probe(&f, attr, pid, cpu, group_fd);
	return pk__sys_explain_facts(err, &f, attr, pid, cpu, group_fd, flags, name);
}

/* ---- ioctl, prctl ---------------------------------------------------------- */

static const struct {
	unsigned long request;
	const char *name;
} ioctl_names[] = {
	{ PERF_EVENT_IOC_ENABLE, "PERF_EVENT_IOC_ENABLE" },
	{ PERF_EVENT_IOC_DISABLE, "PERF_EVENT_IOC_DISABLE" },
	{ PERF_EVENT_IOC_REFRESH, "PERF_EVENT_IOC_REFRESH" },
	{ PERF_EVENT_IOC_RESET, "PERF_EVENT_IOC_RESET" },
	{ PERF_EVENT_IOC_PERIOD, "PERF_EVENT_IOC_PERIOD" },
	{ PERF_EVENT_IOC_SET_OUTPUT, "PERF_EVENT_IOC_SET_OUTPUT" },
	{ PERF_EVENT_IOC_SET_FILTER, "PERF_EVENT_IOC_SET_FILTER" },
	{ PERF_EVENT_IOC_ID, "PERF_EVENT_IOC_ID" },
	{ PERF_EVENT_IOC_SET_BPF, "PERF_EVENT_IOC_SET_BPF" },
	{ PERF_EVENT_IOC_PAUSE_OUTPUT, "PERF_EVENT_IOC_PAUSE_OUTPUT" },
	{ PERF_EVENT_IOC_QUERY_BPF, "PERF_EVENT_IOC_QUERY_BPF" },
	{ PERF_EVENT_IOC_MODIFY_ATTRIBUTES, "PERF_EVENT_IOC_MODIFY_ATTRIBUTES" },
};

static const char *ioctl_why(int err, unsigned long request)
{
	switch (err) {
	case EBADF:
		return "the fd is not open";
	case ENOTTY:
		return "the fd is not a perf event (or the kernel does not know this request)";
	case EINVAL:
		if (request == PERF_EVENT_IOC_SET_OUTPUT)
			return "the two events are on different CPUs or tasks, use different clocks, or the target has no ring buffer";
		if (request == PERF_EVENT_IOC_PERIOD)
			return "the new period is zero or too large for this event";
		if (request == PERF_EVENT_IOC_SET_FILTER)
			return "the filter does not parse for this tracepoint, or the event is not a tracepoint";
		return "the kernel found the request or its argument invalid for this event";
	case EBUSY:
		return "the event's ring buffer is mapped and cannot be redirected";
	case EACCES:
	case EPERM:
		return "the request needs privilege (CAP_PERFMON, CAP_BPF or CAP_SYS_ADMIN)";
	default:
		return NULL;
	}
}

int pk__sys_ioctl(int fd, unsigned long request, unsigned long arg)
{
	const char *rname = NULL, *why, *ename;
	char what[128], num[32];
	int ret, err;

	if (sys_ops && sys_ops->ioctl)
		ret = sys_ops->ioctl(fd, request, arg);
	else
		ret = ioctl(fd, request, arg);
	if (ret >= 0)
		return ret;
	err = errno;
	for (size_t i = 0; i < sizeof(ioctl_names) / sizeof(ioctl_names[0]); i++)
		if (ioctl_names[i].request == request)
			rname = ioctl_names[i].name;
	if (!rname) {
		snprintf(num, sizeof(num), "%#lx", request);
		rname = num;
	}
	snprintf(what, sizeof(what), "ioctl(fd %d, %s)", fd, rname);
	why = ioctl_why(err, request);
	ename = strerrorname_np(err);
	return pk__error(-err, what, "%s (%s)", why ? why : strerror(err), ename ? ename : "?");
}

int pk__sys_prctl(int option)
{
	const char *what = option == PR_TASK_PERF_EVENTS_ENABLE ?
		"prctl(PR_TASK_PERF_EVENTS_ENABLE)" : option == PR_TASK_PERF_EVENTS_DISABLE ?
		"prctl(PR_TASK_PERF_EVENTS_DISABLE)" : "prctl";
	int ret;

	if (option != PR_TASK_PERF_EVENTS_ENABLE && option != PR_TASK_PERF_EVENTS_DISABLE)
		return pk__error(-EINVAL, what, "option %d is neither PR_TASK_PERF_EVENTS_ENABLE nor PR_TASK_PERF_EVENTS_DISABLE", option);
	if (sys_ops && sys_ops->prctl)
		ret = sys_ops->prctl(option);
	else
		ret = prctl(option, 0, 0, 0, 0);
	if (ret >= 0)
		return 0;
	ret = errno;
	return pk__error(-ret, what, "%s", strerror(ret));
}

/* ---- mmap, munmap, close -------------------------------------------------- */

void *pk__sys_mmap(int fd, size_t len, int prot, off_t off, int *err)
{
	struct pk__sys_facts f;
	void *p;
	int e;

	if (sys_ops && sys_ops->mmap)
		p = sys_ops->mmap(NULL, len, prot, MAP_SHARED, fd, off);
	else
		p = mmap(NULL, len, prot, MAP_SHARED, fd, off);
	if (p != MAP_FAILED)
		return p;
	e = -errno;
	pk__sys_probe(&f, NULL, 0, -1, -1);
	pk__sys_explain_mmap_facts(e, &f, fd, len);
	if (err)
		*err = e;
	return NULL;
}

int pk__sys_munmap(void *addr, size_t len)
{
	int ret;

	if (sys_ops && sys_ops->munmap)
		ret = sys_ops->munmap(addr, len);
	else
		ret = munmap(addr, len);
	if (ret == 0)
		return 0;
	ret = errno;
	return pk__error(-ret, "munmap of an event's ring buffer", "%s", strerror(ret));
}

/* A read(2) that gave no bytes: retried while a signal interrupts it,
 * else named.  Kept out of pk__sys_read, whose success is a hot path
 * (pk_region_read), where formatting the name cost as much as the rest of
 * the read's user space work. */
__attribute__((cold, noinline)) ssize_t pk__sys_read_failed(int fd, void *buf, size_t len, ssize_t n)
{
	char what[64];
	int err;

	while (n < 0 && errno == EINTR)
		n = sys_ops && sys_ops->read ? sys_ops->read(fd, buf, len) : read(fd, buf, len);
	if (n > 0)
		return n;
	/* errno is taken first, so snprintf cannot change it. */
	err = errno;
	snprintf(what, sizeof(what), "read(event fd %d)", fd);
	if (n == 0) {
		/* The kernel returns 0 for a pinned event it could not keep on the PMU. */
		pk__error(0, what, "%s", "the counter is in error state: it was pinned and could "
			  "not be scheduled on the PMU, so it stopped counting");
		pk__error_hint("%s", "count fewer pinned events at once, or drop the D modifier");
		return 0;
	}
	if (err == ENOSPC)
		return pk__error(-ENOSPC, what, "%s", "the buffer is smaller than the event's "
				 "read_format needs (a group read needs room for every member)");
	return pk__error(-err, what, "%s", strerror(err));
}

ssize_t pk__sys_read_seam(int fd, void *buf, size_t len)
{
	const struct pk__sys_ops *ops = sys_ops;
	ssize_t n = ops && ops->read ? ops->read(fd, buf, len) : read(fd, buf, len);

	return n > 0 ? n : pk__sys_read_failed(fd, buf, len, n);
}

int pk__sys_close(int fd)
{
	char what[64];
	int ret;

	if (sys_ops && sys_ops->close)
		ret = sys_ops->close(fd);
	else
		ret = close(fd);
	if (ret == 0)
		return 0;
	ret = errno;
	snprintf(what, sizeof(what), "close(fd %d)", fd);
	return pk__error(-ret, what, "%s", strerror(ret));
}

/* ---- self-monitoring instructions, fcntl ---------------------------------- */

bool pk__sys_rdpmc_seam(unsigned int counter, uint64_t *val)
{
	if (sys_ops && sys_ops->rdpmc) {
		*val = sys_ops->rdpmc(counter);
		return true;
	}
	return pk__sys_rdpmc_raw(counter, val);
}

bool pk__sys_rdtsc_seam(uint64_t *val)
{
	if (sys_ops && sys_ops->rdtsc) {
		*val = sys_ops->rdtsc();
		return true;
	}
	return pk__sys_rdtsc_raw(val);
}

int pk__sys_fcntl(int fd, int cmd, unsigned long arg)
{
	char what[64];
	int ret;

	if (sys_ops && sys_ops->fcntl)
		ret = sys_ops->fcntl(fd, cmd, arg);
	else
		ret = fcntl(fd, cmd, arg);
	if (ret >= 0)
		return ret;
	ret = errno;
	snprintf(what, sizeof(what), "fcntl(fd %d, cmd %d)", fd, cmd);
	return pk__error(-ret, what, "%s", strerror(ret));
}

/* ---- pk_attr_probe ---------------------------------------------------------- */

/* Room for any attr a kernel could want: the struct is 136 bytes in 6.3+. */
#define PROBE_ATTR_MAX 512

int pk_attr_probe(const struct perf_event_attr *attr, const char *name)
{
	union {
		struct perf_event_attr attr;
		unsigned char bytes[PROBE_ATTR_MAX];
	} copy;
	size_t n;
	int fd;

	if (!attr)
		return pk__error(-EINVAL, "pk_attr_probe", "the attr pointer is NULL");
	/* attr->size says how many bytes the caller's attr holds; a size past
	 * the struct means fields (config3) follow it in memory. */
	n = attr->size > sizeof(*attr) ? attr->size : sizeof(*attr);
	if (n > sizeof(copy)) {
		char what[256];

		pk__sys_explain_what(what, sizeof(what), attr, 0, -1, -1, name);
		pk__error(-E2BIG, what, "attr.size %u is larger than any kernel's struct perf_event_attr",
			  attr->size);
		pk__error_hint("set attr.size to sizeof(struct perf_event_attr) (%zu), or 0", sizeof(*attr));
		return -E2BIG;
	}
	memset(&copy, 0, sizeof(copy));
	memcpy(copy.bytes, attr, n);
	fd = pk__sys_open(&copy.attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, name);
	if (fd < 0)
		return fd;
	pk__sys_close(fd);
	return 0;
}

/* ---- probes for the explainer --------------------------------------------- */

static long proc_long(const char *name)
{
	char path[128];
	long v;

	snprintf(path, sizeof(path), "/proc/sys/kernel/%s", name);
	return pk__read_long(path, &v) == 0 ? v : PK__FACT_UNKNOWN;
}

static void probe_caps(struct pk__sys_facts *f)
{
	char buf[8192];
	unsigned long long eff;
	const char *p;

	if (pk__read_file("/proc/self/status", buf, sizeof(buf)) < 0)
		return;
	p = strstr(buf, "\nCapEff:");
	if (!p || sscanf(p + 8, "%llx", &eff) != 1)
		return;
	f->caps_known = true;
	f->cap_ipc_lock = eff >> 14 & 1;
	f->cap_sys_ptrace = eff >> 19 & 1;
	f->cap_sys_admin = eff >> 21 & 1;
	f->cap_perfmon = eff >> 38 & 1;
	f->cap_bpf = eff >> 39 & 1;
}

static long limit(long long v, int shift)
{
	return v == (long long)RLIM_INFINITY ? -1 : (long)(v >> shift);
}

static void probe_limits(struct pk__sys_facts *f)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		f->nofile_soft = limit((long long)rl.rlim_cur, 0);
		f->nofile_hard = limit((long long)rl.rlim_max, 0);
	}
	if (getrlimit(RLIMIT_MEMLOCK, &rl) == 0) {
		f->memlock_soft_kb = limit((long long)rl.rlim_cur, 10);
		f->memlock_hard_kb = limit((long long)rl.rlim_max, 10);
	}
}

/* The core PMUs' sysfs names: x86 (hybrid too), s390, and Arm's armv*_. */
static bool is_core_pmu(const char *name)
{
	return !strcmp(name, "cpu") || !strcmp(name, "cpu_core") || !strcmp(name, "cpu_atom") ||
	       !strcmp(name, "cpum_cf") || !strncmp(name, "armv8_", 6) ||
	       !strncmp(name, "armv7_", 6) || !strncmp(name, "arm_cortex", 10);
}

static void probe_pmus(struct pk__sys_facts *f, const struct perf_event_attr *attr)
{
	uint64_t want = UINT64_MAX;
	struct dirent *de;
	DIR *dir;

	if (!pk__sysfs_path(f->devices_dir, sizeof(f->devices_dir), "bus/event_source/devices"))
		return;
	if (attr && attr->type >= PERF_TYPE_MAX)
		want = attr->type;
	else if (attr && (attr->type == PERF_TYPE_HARDWARE || attr->type == PERF_TYPE_HW_CACHE) &&
		 attr->config >> PERF_PMU_TYPE_SHIFT)
		want = attr->config >> PERF_PMU_TYPE_SHIFT;
	dir = opendir(f->devices_dir);
	if (!dir)
		return;
	f->hw_pmu_known = true;
	f->type_pmu_known = want != UINT64_MAX;
	while ((de = readdir(dir))) {
		char path[512];
		long type;

		if (de->d_name[0] == '.')
			continue;
		if (is_core_pmu(de->d_name))
			f->have_hw_pmu = true;
		if (want == UINT64_MAX)
			continue;
		snprintf(path, sizeof(path), "%s/%s/type", f->devices_dir, de->d_name);
		if (pk__read_long(path, &type) == 0 && (uint64_t)type == want &&
		    strlen(de->d_name) < sizeof(f->type_pmu))
			memcpy(f->type_pmu, de->d_name, strlen(de->d_name) + 1);
	}
	closedir(dir);
}

/* Whether `cpu` is in a cpulist such as "0-3,8,10-11". */
static bool in_cpulist(const char *list, int cpu)
{
	const char *p = list;

	while (*p) {
		char *end;
		long lo = strtol(p, &end, 10), hi;

		if (end == p)
			return false;
		hi = lo;
		if (*end == '-') {
			p = end + 1;
			hi = strtol(p, &end, 10);
			if (end == p)
				return false;
		}
		if (cpu >= lo && cpu <= hi)
			return true;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return false;
}

static void probe_cpu(struct pk__sys_facts *f, int cpu)
{
	char path[256];
	bool have_possible = false, have_online = false;

	if (pk__sysfs_path(path, sizeof(path), "devices/system/cpu/possible") &&
	    pk__read_file(path, f->cpus_possible, sizeof(f->cpus_possible)) > 0)
		have_possible = true;
	if (pk__sysfs_path(path, sizeof(path), "devices/system/cpu/online") &&
	    pk__read_file(path, f->cpus_online, sizeof(f->cpus_online)) > 0)
		have_online = true;
	if (cpu < 0)
		return;
	if (have_online && in_cpulist(f->cpus_online, cpu))
		f->cpu_state = PK_CPU_ONLINE;
	else if (have_possible && !in_cpulist(f->cpus_possible, cpu))
		f->cpu_state = PK_CPU_ABSENT;
	else if (have_possible && have_online)
		f->cpu_state = PK_CPU_OFFLINE;
}

static void probe_pid(struct pk__sys_facts *f, pid_t pid)
{
	char path[64], buf[512];
	struct stat st;
	const char *paren;

	if (pid <= 0) {
		f->pid_state = pid == 0 ? PK_PID_ALIVE : PK_PID_UNKNOWN;
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (pk__read_file(path, buf, sizeof(buf)) < 0) {
		snprintf(path, sizeof(path), "/proc/%d", (int)pid);
		f->pid_state = access(path, F_OK) == 0 ? PK_PID_UNKNOWN : PK_PID_ABSENT;
		return;
	}
	paren = strrchr(buf, ')');
	f->pid_state = paren && (paren[2] == 'Z' || paren[2] == 'X') ? PK_PID_ZOMBIE : PK_PID_ALIVE;
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	if (stat(path, &st) == 0)
		f->pid_other_user = st.st_uid != geteuid();
}

static void probe_group_fd(struct pk__sys_facts *f, int group_fd)
{
	char path[64], target[64];
	ssize_t n;

	if (group_fd < 0)
		return;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", group_fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0) {
		f->group_fd_state = errno == ENOENT ? PK_FD_CLOSED : PK_FD_UNKNOWN;
		return;
	}
	target[n] = '\0';
	f->group_fd_state = strcmp(target, "anon_inode:[perf_event]") ? PK_FD_OTHER : PK_FD_PERF;
}

void pk__sys_facts_init(struct pk__sys_facts *f)
{
	memset(f, 0, sizeof(*f));
	f->paranoid = f->max_sample_rate = f->max_stack = f->mlock_kb = PK__FACT_UNKNOWN;
	f->nofile_soft = f->nofile_hard = PK__FACT_UNKNOWN;
	f->memlock_soft_kb = f->memlock_hard_kb = PK__FACT_UNKNOWN;
	f->page_size = 4096;
}

int pk__sys_lock_check(size_t nr_maps, size_t map_len)
{
	struct pk__sys_facts f;
	long v;

	pk__sys_facts_init(&f);
	f.paranoid = proc_long("perf_event_paranoid");
	f.mlock_kb = proc_long("perf_event_mlock_kb");
	probe_limits(&f);
	probe_caps(&f);
	v = sysconf(_SC_NPROCESSORS_ONLN);
	f.online_cpus = v > 0 ? v : 0;
	v = sysconf(_SC_PAGESIZE);
	f.page_size = v > 0 ? v : 4096;
	return pk__sys_lock_check_facts(&f, nr_maps, map_len);
}

void pk__sys_probe(struct pk__sys_facts *f, const struct perf_event_attr *attr, pid_t pid,
		   int cpu, int group_fd)
{
	struct utsname u;
	ssize_t n;
	long v;

	pk__sys_facts_init(f);
	f->paranoid = proc_long("perf_event_paranoid");
	f->perf_supported = f->paranoid != PK__FACT_UNKNOWN;
	f->max_sample_rate = proc_long("perf_event_max_sample_rate");
	f->max_stack = proc_long("perf_event_max_stack");
	f->mlock_kb = proc_long("perf_event_mlock_kb");
	probe_limits(f);
	probe_caps(f);
	probe_pmus(f, attr);
	probe_cpu(f, cpu);
	probe_pid(f, pid);
	probe_group_fd(f, group_fd);
	if (uname(&u) == 0 && sscanf(u.release, "%d.%d", &f->kernel_major, &f->kernel_minor) != 2)
		f->kernel_major = f->kernel_minor = 0;
	n = readlink("/proc/self/exe", f->exe, sizeof(f->exe) - 1);
	f->exe[n > 0 ? n : 0] = '\0';
	v = sysconf(_SC_NPROCESSORS_ONLN);
	f->online_cpus = v > 0 ? v : 0;
	v = sysconf(_SC_PAGESIZE);
	f->page_size = v > 0 ? v : 4096;
}

/* The calls in calls.c reach the seam through this. */
const struct pk__sys_ops *pk__sys_get_ops(void)
{
	return sys_ops;
}
