/* SPDX-License-Identifier: MIT */
/*
 * explain.c - turns a failed perf_event_open into a message for people:
 * what was attempted, why it failed, and exactly what to run to fix it.
 * The errno table is errno.def; the functions here pick the cause from
 * facts sys.c probed (paranoid level, capabilities, limits, which PMUs
 * exist) and the attr, and are pure so tests can choose the facts.  Ring
 * buffer mappings are explained in explain-mmap.c.
 */
#include "explain.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* The tail fields' offsets, checked against the header we build with. */
#define CHECK_OFFSET(field, off) \
	_Static_assert(offsetof(struct perf_event_attr, field) == (off), #field " offset")
CHECK_OFFSET(config2, 64);
CHECK_OFFSET(branch_sample_type, 72);
CHECK_OFFSET(sample_regs_user, 80);
CHECK_OFFSET(sample_stack_user, 88);
CHECK_OFFSET(clockid, 92);
CHECK_OFFSET(sample_regs_intr, 96);
CHECK_OFFSET(aux_watermark, 104);
CHECK_OFFSET(sample_max_stack, 108);
CHECK_OFFSET(aux_sample_size, 112);
CHECK_OFFSET(sig_data, 120);
#ifdef PERF_ATTR_SIZE_VER8
CHECK_OFFSET(config3, 128);
#else
_Static_assert(sizeof(struct perf_event_attr) == 128, "config3 follows the 6.1 struct");
#endif

static const struct {
	const char *name;
	long offset, size;
	const char *since;
} attr_tail[] = {
#define PK_ATTR_FIELD(n, off, sz, ver) { #n, off, sz, ver },
#include "attr_tail.def"
#undef PK_ATTR_FIELD
};

static const struct {
	const char *name;
	int bit, major, minor;
} attr_flags[] = {
#define PK_ATTR_FLAG(n, b, maj, min) { #n, b, maj, min },
#include "attr_flags.def"
#undef PK_ATTR_FLAG
};

/* The message being built; sized to fit the error record's fields. */
struct msg {
	char why[700];
	char hint[700];
};

/* One failed call, as the explaining functions see it. */
struct call {
	const struct pk__sys_facts *f;
	const struct perf_event_attr *attr;	/* never NULL: zeroes stand in */
	pid_t pid;
	int cpu, group_fd;
	unsigned long flags;
	bool priv;				/* CAP_PERFMON or CAP_SYS_ADMIN */
	const char *exe;			/* for setcap hints */
	struct msg *m;
};

#define WHY(c, ...) snprintf((c)->m->why, sizeof((c)->m->why), __VA_ARGS__)
#define HINT(c, ...) snprintf((c)->m->hint, sizeof((c)->m->hint), __VA_ARGS__)

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branch-instructions", "branch-misses", "bus-cycles",
	"stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles",
};
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* ---- shared pieces -------------------------------------------------------- */

void pk__sys_explain_what(char *buf, size_t len, const struct perf_event_attr *attr,
			  pid_t pid, int cpu, int group_fd, const char *name)
{
	char label[96], group[32] = "";

	if (name && name[0])
		snprintf(label, sizeof(label), "%s", name);
	else if (!attr)
		snprintf(label, sizeof(label), "NULL");
	else if (attr->type == PERF_TYPE_HARDWARE && attr->config < NELEM(hw_names))
		snprintf(label, sizeof(label), "%s", hw_names[attr->config]);
	else if (attr->type == PERF_TYPE_SOFTWARE && attr->config < NELEM(sw_names))
		snprintf(label, sizeof(label), "%s", sw_names[attr->config]);
	else
		snprintf(label, sizeof(label), "type=%u/config=%#llx", attr->type,
			 (unsigned long long)attr->config);
	if (group_fd != -1)
		snprintf(group, sizeof(group), ", group_fd=%d", group_fd);
	snprintf(buf, len, "perf_event_open(%s, pid=%d, cpu=%d%s)", label, (int)pid, cpu, group);
}

long pk__attr_first_nonzero(const struct perf_event_attr *attr, uint32_t from, uint32_t to)
{
	const unsigned char *p = (const unsigned char *)attr;

	for (uint32_t i = from; i < to; i++)
		if (p[i])
			return i;
	return -1;
}

const char *pk__attr_field_name(long offset, const char **since)
{
	for (size_t i = 0; i < NELEM(attr_tail); i++) {
		if (offset >= attr_tail[i].offset &&
		    offset < attr_tail[i].offset + attr_tail[i].size) {
			if (since)
				*since = attr_tail[i].since;
			return attr_tail[i].name;
		}
	}
	return NULL;
}

static const char *paranoid_meaning(long level)
{
	if (level <= -1)
		return "no restrictions";
	switch (level) {
	case 0:
		return "unprivileged users may not read raw tracepoint data";
	case 1:
		return "unprivileged users may not count CPU-wide or read raw tracepoint data";
	case 2:
		return "unprivileged users may count only the user space of their own processes";
	case 3:
		return "a Debian/Android patch: only CAP_SYS_ADMIN may use perf_event_open at all";
	default:
		return "a distribution patch: perf_event_open is denied to everyone without CAP_SYS_ADMIN";
	}
}

static const char *exe_or_placeholder(const struct call *c)
{
	return c->exe && c->exe[0] ? c->exe : "<binary>";
}

/* The hint half shared by every paranoid restriction levels 0-2 impose. */
static void hint_paranoid(const struct call *c, const char *alt, long level)
{
	HINT(c, "%s%srun `sysctl -w kernel.perf_event_paranoid=%ld`, or grant CAP_PERFMON: "
	     "`setcap cap_perfmon+ep %s`", alt ? alt : "", alt ? ", " : "", level,
	     exe_or_placeholder(c));
}

static bool is_hw_type(uint32_t type)
{
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE || type == PERF_TYPE_RAW;
}

static bool has_ext_type(const struct perf_event_attr *a)
{
	return (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE) &&
	       a->config >> PERF_PMU_TYPE_SHIFT;
}

/*
 * A hardware, cache or raw event on a machine with no core PMU (most
 * virtual machines), or a PMU type that no sysfs PMU has.  This is the
 * cause behind ENOENT, ENODEV, EOPNOTSUPP and EINVAL alike.
 */
static bool missing_pmu(const struct call *c)
{
	const struct perf_event_attr *a = c->attr;
	const struct pk__sys_facts *f = c->f;

	if ((a->type >= PERF_TYPE_MAX || has_ext_type(a)) && f->type_pmu_known && !f->type_pmu[0]) {
		unsigned long long type = a->type >= PERF_TYPE_MAX ? a->type :
					  a->config >> PERF_PMU_TYPE_SHIFT;

		WHY(c, "no PMU has type %llu: none of %s/*/type holds it", type, f->devices_dir);
		HINT(c, "use a PMU this machine has: `ls %s` lists them with their type files",
		     f->devices_dir);
		return true;
	}
	if (!is_hw_type(a->type) || has_ext_type(a) || !f->hw_pmu_known || f->have_hw_pmu)
		return false;
	WHY(c, "this machine has no hardware PMU (no cpu PMU in %s): it is a virtual machine "
	    "without PMU passthrough, or the kernel does not support this CPU's PMU, so hardware "
	    "events cannot be counted (perf shows <not supported>)", f->devices_dir);
	if (a->type == PERF_TYPE_HARDWARE && a->config < NELEM(hw_names)) {
		bool clock = a->config == PERF_COUNT_HW_CPU_CYCLES ||
			     a->config == PERF_COUNT_HW_REF_CPU_CYCLES ||
			     a->config == PERF_COUNT_HW_BUS_CYCLES;

		HINT(c, "use the software event %s instead of %s, or enable the virtual PMU in "
		     "the hypervisor (QEMU/KVM: -cpu host,pmu=on)", clock ? "cpu-clock" : "task-clock",
		     hw_names[a->config]);
	} else {
		HINT(c, "no software event counts %s events; task-clock and cpu-clock measure time, "
		     "or enable the virtual PMU in the hypervisor (QEMU/KVM: -cpu host,pmu=on)",
		     a->type == PERF_TYPE_RAW ? "raw" : "cache");
	}
	return true;
}

/* ---- privilege: EACCES and EPERM ------------------------------------------- */

/* The restriction perf_event_paranoid imposes on this attr, if any. */
static bool paranoid_denies(const struct call *c)
{
	const struct perf_event_attr *a = c->attr;
	long p = c->f->paranoid, need;

	if (p == PK__FACT_UNKNOWN)
		return false;
	if (p >= 3 && !(c->f->caps_known && c->f->cap_sys_admin)) {
		WHY(c, "kernel.perf_event_paranoid is %ld (%s)", p, paranoid_meaning(p));
		HINT(c, "run `sysctl -w kernel.perf_event_paranoid=2` to let users measure the user "
		     "space of their own processes (1 also allows CPU-wide counting), or run as root");
		return true;
	}
	if (c->priv)
		return false;
	/* The hint names the highest level that allows everything the attr
	 * asks for, not only the first restriction found. */
	need = 2;
	if (!a->exclude_kernel || (a->sample_type & PERF_SAMPLE_PHYS_ADDR))
		need = 1;
	if (c->pid == -1 && c->cpu >= 0)
		need = 0;
	if (a->type == PERF_TYPE_TRACEPOINT && (a->sample_type & PERF_SAMPLE_RAW))
		need = -1;
	if (!a->exclude_kernel && p >= 2) {
		WHY(c, "kernel.perf_event_paranoid is %ld (%s), and this event also counts the "
		    "kernel (exclude_kernel=0)", p, paranoid_meaning(p));
		hint_paranoid(c, "count user space only with the :u modifier (exclude_kernel=1)", need);
	} else if (c->pid == -1 && c->cpu >= 0 && p >= 1) {
		WHY(c, "kernel.perf_event_paranoid is %ld (%s), and this event counts CPU %d for "
		    "every process (pid=-1)", p, paranoid_meaning(p), c->cpu);
		hint_paranoid(c, "measure a process (pid >= 0) instead", need);
	} else if (a->type == PERF_TYPE_TRACEPOINT && (a->sample_type & PERF_SAMPLE_RAW) && p >= 0) {
		WHY(c, "kernel.perf_event_paranoid is %ld (%s), and this tracepoint event samples "
		    "raw data (PERF_SAMPLE_RAW)", p, paranoid_meaning(p));
		hint_paranoid(c, NULL, need);
	} else if ((a->sample_type & PERF_SAMPLE_PHYS_ADDR) && p >= 2) {
		WHY(c, "kernel.perf_event_paranoid is %ld (%s), and physical addresses "
		    "(PERF_SAMPLE_PHYS_ADDR) count as kernel data", p, paranoid_meaning(p));
		hint_paranoid(c, "drop --phys-data", need);
	} else {
		return false;
	}
	return true;
}

/* Privileged and still refused: not paranoid, so a security module or seccomp. */
static bool lsm_denies(const struct call *c)
{
	if (!c->priv)
		return false;
	WHY(c, "the process has %s, so kernel.perf_event_paranoid (%ld) does not restrict it: "
	    "a security module (SELinux, AppArmor, kernel lockdown) or a seccomp filter "
	    "(a container's default profile) refused the call",
	    c->f->cap_sys_admin ? "CAP_SYS_ADMIN" : "CAP_PERFMON", c->f->paranoid);
	HINT(c, "look for the denial in `dmesg` or the audit log; in a container, allow "
	     "perf_event_open in its seccomp profile (docker run --security-opt seccomp=unconfined "
	     "--cap-add PERFMON)");
	return true;
}

static bool other_user(const struct call *c)
{
	if (c->pid <= 0 || !c->f->pid_other_user || c->priv || c->f->cap_sys_ptrace)
		return false;
	WHY(c, "process %d belongs to another user, and measuring it needs the right to ptrace it",
	    (int)c->pid);
	HINT(c, "run as the process's owner, or grant CAP_PERFMON: `setcap cap_perfmon+ep %s`",
	     exe_or_placeholder(c));
	return true;
}

static bool explain_eacces(const struct call *c)
{
	if (paranoid_denies(c) || other_user(c))
		return true;
	if (c->attr->namespaces && !c->priv) {
		WHY(c, "namespaces=1 (namespace events) needs CAP_PERFMON or CAP_SYS_ADMIN");
		HINT(c, "drop --namespaces, or grant CAP_PERFMON: `setcap cap_perfmon+ep %s`",
		     exe_or_placeholder(c));
		return true;
	}
	return lsm_denies(c);
}

static bool explain_eperm(const struct call *c)
{
	const struct perf_event_attr *a = c->attr;

	if (paranoid_denies(c) || other_user(c))
		return true;
	if (a->type == PERF_TYPE_BREAKPOINT && (int64_t)a->bp_addr < 0 && !c->priv) {
		WHY(c, "address %#llx is in the kernel, and kernel breakpoints need CAP_PERFMON",
		    (unsigned long long)a->bp_addr);
		HINT(c, "watch a user-space address, or grant CAP_PERFMON: `setcap cap_perfmon+ep %s`",
		     exe_or_placeholder(c));
		return true;
	}
	if (a->sample_type & PERF_SAMPLE_REGS_INTR) {
		WHY(c, "the kernel is locked down (lockdown=integrity or confidentiality), which forbids "
		    "sampling interrupt registers (PERF_SAMPLE_REGS_INTR)");
		HINT(c, "drop --intr-regs, or boot without lockdown (cat /sys/kernel/security/lockdown)");
		return true;
	}
	return lsm_denies(c);
}

/* ---- EINVAL ------------------------------------------------------------------ */

/* Problems with the call's arguments rather than the attr. */
static bool einval_call(const struct call *c)
{
	const struct pk__sys_facts *f = c->f;

	if (c->flags & ~(unsigned long)(PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT |
					PERF_FLAG_PID_CGROUP | PERF_FLAG_FD_CLOEXEC)) {
		WHY(c, "flags %#lx has bits perf_event_open does not define", c->flags);
		HINT(c, "pass only PERF_FLAG_FD_CLOEXEC, PERF_FLAG_FD_NO_GROUP, PERF_FLAG_FD_OUTPUT "
		     "or PERF_FLAG_PID_CGROUP");
	} else if ((c->flags & PERF_FLAG_PID_CGROUP) && (c->pid == -1 || c->cpu == -1)) {
		WHY(c, "cgroup mode (PERF_FLAG_PID_CGROUP) needs a cgroup fd as pid and a CPU number");
		HINT(c, "open one event per CPU with pid = an fd of the cgroup's directory");
	} else if (c->pid == -1 && c->cpu == -1) {
		WHY(c, "pid=-1 with cpu=-1 would mean every process on every CPU, which "
		    "perf_event_open does not support");
		HINT(c, "for system-wide counting open one event per CPU (cpu=0..N); for this "
		     "process use pid=0");
	} else if (c->cpu >= 0 && f->cpu_state == PK_CPU_ABSENT) {
		WHY(c, "CPU %d does not exist: this machine's CPUs are %s", c->cpu, f->cpus_possible);
		HINT(c, "pick a CPU in %s (online: %s)", f->cpus_possible,
		     f->cpus_online[0] ? f->cpus_online : "unknown");
	} else if (c->cpu < -1) {
		WHY(c, "cpu %d is negative; only -1 (any CPU) is allowed below 0", c->cpu);
		HINT(c, "pass -1 or a CPU number");
	} else {
		return false;
	}
	return true;
}

/* Flag bits and sampling fields this kernel does not accept. */
static bool einval_fields(const struct call *c)
{
	const struct perf_event_attr *a = c->attr;
	const struct pk__sys_facts *f = c->f;
	uint64_t word;
	int newest = -1;

	memcpy(&word, (const char *)a + offsetof(struct perf_event_attr, read_format) + 8, 8);
	for (size_t i = 0; f->kernel_major && i < NELEM(attr_flags); i++) {
		bool older = f->kernel_major < attr_flags[i].major ||
			     (f->kernel_major == attr_flags[i].major &&
			      f->kernel_minor < attr_flags[i].minor);

		if (word >> attr_flags[i].bit & 1 && older)
			newest = (int)i;
	}
	if (newest >= 0) {
		WHY(c, "attr.%s needs Linux %d.%d or later; this kernel is %d.%d", attr_flags[newest].name,
		    attr_flags[newest].major, attr_flags[newest].minor, f->kernel_major, f->kernel_minor);
		HINT(c, "clear %s, or run a newer kernel", attr_flags[newest].name);
	} else if (a->freq && f->max_sample_rate != PK__FACT_UNKNOWN &&
		   a->sample_freq > (uint64_t)f->max_sample_rate) {
		WHY(c, "sample_freq %llu Hz is above kernel.perf_event_max_sample_rate (%ld Hz)",
		    (unsigned long long)a->sample_freq, f->max_sample_rate);
		HINT(c, "sample at -F %ld or less, or run `sysctl -w kernel.perf_event_max_sample_rate=%llu`",
		     f->max_sample_rate, (unsigned long long)a->sample_freq);
	} else if (!a->freq && a->sample_period >> 63) {
		WHY(c, "sample_period %#llx has bit 63 set", (unsigned long long)a->sample_period);
		HINT(c, "use a period below 2^63");
	} else if (word >> 38) {
		WHY(c, "the attr sets flag bits %#llx, which this kernel may not know",
		    (unsigned long long)(word >> 38 << 38));
		HINT(c, "clear the flags newer than this kernel");
	} else if ((a->sample_type & PERF_SAMPLE_BRANCH_STACK) &&
		   !(a->branch_sample_type & ~(uint64_t)PERF_SAMPLE_BRANCH_PLM_ALL)) {
		WHY(c, "PERF_SAMPLE_BRANCH_STACK is set but branch_sample_type selects no branch type");
		HINT(c, "select branches, e.g. PERF_SAMPLE_BRANCH_ANY (perf record -b or -j any)");
	} else if ((a->sample_type & PERF_SAMPLE_STACK_USER) &&
		   (a->sample_stack_user >= 65535 || a->sample_stack_user % 8)) {
		WHY(c, "sample_stack_user %u must be a multiple of 8 below 65535",
		    a->sample_stack_user);
		HINT(c, "use a multiple of 8 up to 65528 (perf's default is 8192)");
	} else if (!a->inherit && a->inherit_thread) {
		WHY(c, "inherit_thread=1 needs inherit=1");
		HINT(c, "set inherit, or clear inherit_thread");
	} else if (a->remove_on_exec && a->enable_on_exec) {
		WHY(c, "remove_on_exec and enable_on_exec cannot both be set");
		HINT(c, "clear one of them");
	} else if (a->sigtrap && !a->remove_on_exec) {
		WHY(c, "sigtrap=1 needs remove_on_exec=1 on this kernel");
		HINT(c, "set remove_on_exec with sigtrap");
	} else {
		return false;
	}
	return true;
}

/* The event itself: a config its PMU does not accept, a group mismatch. */
static bool einval_event(const struct call *c)
{
	const struct perf_event_attr *a = c->attr;

	if (a->type == PERF_TYPE_HW_CACHE && !has_ext_type(a) &&
	    ((a->config & 0xff) >= PERF_COUNT_HW_CACHE_MAX ||
	     (a->config >> 8 & 0xff) >= PERF_COUNT_HW_CACHE_OP_MAX ||
	     (a->config >> 16 & 0xff) >= PERF_COUNT_HW_CACHE_RESULT_MAX)) {
		WHY(c, "cache event config %#llx is not (cache id < 7) | (op < 3) << 8 | (result < 2) << 16",
		    (unsigned long long)a->config);
		HINT(c, "name the event instead (L1-dcache-load-misses); `perfkit list cache` lists them");
	} else if (a->type == PERF_TYPE_TRACEPOINT) {
		WHY(c, "no tracepoint has id %llu, or it cannot be used by perf", (unsigned long long)a->config);
		HINT(c, "tracepoint ids are in tracefs: events/<subsystem>/<event>/id; `perfkit list "
		     "tracepoint` lists them");
	} else if (c->group_fd >= 0) {
		WHY(c, "the event does not match its group leader (fd %d): every member must be on the "
		    "same CPU and task, use the same clock and the same inherit setting", c->group_fd);
		HINT(c, "open group members with the leader's pid, cpu, inherit and clockid");
	} else if (c->f->type_pmu[0]) {
		WHY(c, "the %s PMU (type %u) rejected config %#llx (config1 %#llx, config2 %#llx): a "
		    "value outside its format bits or a combination it does not support", c->f->type_pmu,
		    a->type, (unsigned long long)a->config, (unsigned long long)a->config1,
		    (unsigned long long)a->config2);
		HINT(c, "compare the terms with %s/%s/format", c->f->devices_dir, c->f->type_pmu);
	} else {
		return false;
	}
	return true;
}

static bool explain_einval(const struct call *c)
{
	return missing_pmu(c) || einval_call(c) || einval_fields(c) || einval_event(c);
}

/* ---- the other errnos ----------------------------------------------------------- */

static bool explain_e2big(const struct call *c)
{
	uint32_t size = c->attr->size;

	if (size >= PERF_ATTR_SIZE_VER0 && size <= (uint32_t)c->f->page_size)
		return false;
	WHY(c, "attr.size %u is outside what perf_event_open accepts (%d bytes up to a page, %ld)",
	    size, PERF_ATTR_SIZE_VER0, c->f->page_size);
	HINT(c, "set attr.size to sizeof(struct perf_event_attr) (%zu), or 0",
	     sizeof(struct perf_event_attr));
	return true;
}

static bool explain_ebadf(const struct call *c)
{
	if (c->flags & PERF_FLAG_PID_CGROUP) {
		WHY(c, "with PERF_FLAG_PID_CGROUP, pid (%d) must be an open fd of a cgroup directory",
		    (int)c->pid);
		HINT(c, "open the cgroup's directory (O_RDONLY) and pass that fd as pid");
	} else if (c->group_fd >= 0 && c->f->group_fd_state == PK_FD_CLOSED) {
		WHY(c, "group_fd %d is not an open file descriptor", c->group_fd);
		HINT(c, "pass the leader's fd returned by perf_event_open (still open), or -1 for no group");
	} else if (c->group_fd >= 0 && c->f->group_fd_state == PK_FD_OTHER) {
		WHY(c, "group_fd %d is open but is not a perf event", c->group_fd);
		HINT(c, "pass the leader's fd returned by perf_event_open, or -1 for no group");
	} else {
		return false;
	}
	return true;
}

static bool explain_ebusy(const struct call *c)
{
	if (!c->attr->exclusive)
		return false;
	WHY(c, "this event asks for the PMU alone (exclusive=1) while other events use it");
	HINT(c, "drop exclusive=1, or stop the other users of the PMU");
	return true;
}

static bool explain_efault(const struct call *c)
{
	const char *pmu = c->f->type_pmu;

	if (strcmp(pmu, "uprobe") && strcmp(pmu, "kprobe"))
		return false;
	WHY(c, "config1 of a %s event must point at a NUL-terminated %s in this process", pmu,
	    pmu[0] == 'u' ? "file path" : "function name");
	HINT(c, "set config1 to (uintptr_t) of a string that outlives the call");
	return true;
}

static bool explain_eintr(const struct call *c)
{
	(void)c;
	return false;
}

static bool explain_emfile(const struct call *c)
{
	const struct pk__sys_facts *f = c->f;

	if (f->nofile_soft == PK__FACT_UNKNOWN || f->nofile_soft < 0)
		return false;
	WHY(c, "the process has reached its limit of open files (RLIMIT_NOFILE soft %ld, hard %ld); "
	    "every event on every CPU needs one", f->nofile_soft, f->nofile_hard);
	if (f->nofile_hard < 0 || f->nofile_hard > f->nofile_soft)
		HINT(c, "raise the limit with `ulimit -n %ld` before running, or open fewer events or CPUs",
		     f->nofile_hard < 0 ? 1048576L : f->nofile_hard);
	else
		HINT(c, "the soft limit is already the hard limit: as root run `ulimit -n 1048576` "
		     "(LimitNOFILE= for a systemd service), or open fewer events or CPUs");
	return true;
}

static bool explain_enodev(const struct call *c)
{
	const struct pk__sys_facts *f = c->f;

	if (c->cpu >= 0 && (f->cpu_state == PK_CPU_OFFLINE || f->cpu_state == PK_CPU_ABSENT)) {
		WHY(c, "CPU %d is %s (online CPUs: %s)", c->cpu,
		    f->cpu_state == PK_CPU_OFFLINE ? "offline" : "not present", f->cpus_online);
		if (f->cpu_state == PK_CPU_OFFLINE)
			HINT(c, "bring it online with `echo 1 > /sys/devices/system/cpu/cpu%d/online`, "
			     "or pick a CPU in %s", c->cpu, f->cpus_online);
		else
			HINT(c, "pick a CPU in %s", f->cpus_online);
		return true;
	}
	return missing_pmu(c);
}

static bool explain_enoent(const struct call *c)
{
	const struct perf_event_attr *a = c->attr;

	if (missing_pmu(c))
		return true;
	if (a->type == PERF_TYPE_SOFTWARE && a->config >= NELEM(sw_names)) {
		WHY(c, "software event config %llu is not one this kernel knows",
		    (unsigned long long)a->config);
		HINT(c, "`perfkit list sw` lists the software events");
	} else if (a->type == PERF_TYPE_TRACEPOINT) {
		WHY(c, "no tracepoint has id %llu", (unsigned long long)a->config);
		HINT(c, "tracepoint ids are in tracefs: events/<subsystem>/<event>/id; `perfkit list "
		     "tracepoint` lists them");
	} else if (a->type == PERF_TYPE_HARDWARE && a->config < NELEM(hw_names)) {
		WHY(c, "the CPU's PMU does not implement the generic event %s (ref-cycles on AMD, "
		    "stalled-cycles on recent Intel, for example)", hw_names[a->config]);
		HINT(c, "use the CPU's own event from `perfkit list`");
	} else if (a->type == PERF_TYPE_HW_CACHE) {
		WHY(c, "the CPU's PMU has no encoding for cache event %#llx", (unsigned long long)a->config);
		HINT(c, "use the CPU's own event from `perfkit list`");
	} else {
		return false;
	}
	return true;
}

static bool explain_enospc(const struct call *c)
{
	if (c->attr->type != PERF_TYPE_BREAKPOINT)
		return false;
	WHY(c, "every hardware breakpoint slot is in use (x86 has 4 debug registers, shared with "
	    "debuggers)");
	HINT(c, "watch fewer addresses at a time (mem: events), or detach the debugger");
	return true;
}

static bool explain_enosys(const struct call *c)
{
	if (c->f->perf_supported && (c->attr->sample_type & PERF_SAMPLE_STACK_USER))
		return false;
	if (c->f->perf_supported) {
		WHY(c, "the kernel supports perf events, so a seccomp filter (a container's or "
		    "sandbox's) answered for the system call");
		HINT(c, "allow perf_event_open in the seccomp profile (docker run --security-opt "
		     "seccomp=unconfined)");
		return true;
	}
	WHY(c, "this kernel has no perf events (no /proc/sys/kernel/perf_event_paranoid: built "
	    "without CONFIG_PERF_EVENTS), or a seccomp filter hides the system call");
	HINT(c, "run a kernel built with CONFIG_PERF_EVENTS=y; in a container, allow "
	     "perf_event_open in the seccomp profile");
	return true;
}

static bool explain_eopnotsupp(const struct call *c)
{
	const struct perf_event_attr *a = c->attr;
	const char *pmu = a->type == PERF_TYPE_SOFTWARE ? "the software PMU" : "this PMU";

	if (missing_pmu(c))
		return true;
	if (a->precise_ip) {
		WHY(c, "precise_ip=%u (the :p modifier) needs precise sampling (Intel PEBS, AMD IBS), "
		    "which %s does not provide", a->precise_ip, pmu);
		HINT(c, "drop the :p modifier");
	} else if (a->sample_type & PERF_SAMPLE_BRANCH_STACK) {
		WHY(c, "branch stack sampling needs Intel LBR, AMD BRS or Arm BRBE, which %s does not "
		    "provide", pmu);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK)
			HINT(c, "take call chains another way: --call-graph fp or --call-graph dwarf");
		else
			HINT(c, "drop -b/-j (branch_sample_type)");
	} else if (a->sample_period) {
		WHY(c, "%s cannot sample: it has no overflow interrupt (uncore PMUs and some "
		    "virtual PMUs)", pmu);
		HINT(c, "count it (sample_period=0, `perfkit stat`) or read it as a member of a group "
		     "led by a sampling event");
	} else {
		return false;
	}
	return true;
}

static bool explain_eoverflow(const struct call *c)
{
	const struct perf_event_attr *a = c->attr;
	long max = c->f->max_stack;

	if (max == PK__FACT_UNKNOWN)
		return false;
	if (a->sample_max_stack > max) {
		WHY(c, "sample_max_stack %u is above kernel.perf_event_max_stack (%ld)",
		    a->sample_max_stack, max);
		HINT(c, "ask for at most %ld frames (--max-stack %ld), or run `sysctl -w "
		     "kernel.perf_event_max_stack=%u`", max, max, a->sample_max_stack);
	} else {
		WHY(c, "the callchain needs more frames than kernel.perf_event_max_stack (%ld) or "
		    "kernel.perf_event_max_contexts_per_stack allow", max);
		HINT(c, "ask for fewer frames (--max-stack), or raise kernel.perf_event_max_stack");
	}
	return true;
}

static bool explain_esrch(const struct call *c)
{
	const struct pk__sys_facts *f = c->f;

	if (c->pid <= 0 || (c->flags & PERF_FLAG_PID_CGROUP))
		return false;
	if (f->pid_state == PK_PID_ABSENT)
		WHY(c, "no process %d exists (no /proc/%d)", (int)c->pid, (int)c->pid);
	else if (f->pid_state == PK_PID_ZOMBIE)
		WHY(c, "process %d has exited (a zombie waiting for its parent)", (int)c->pid);
	else
		WHY(c, "process %d is exiting, or lives in another PID namespace", (int)c->pid);
	HINT(c, "check the pid with `ps -p %d`; to measure a command, run it under perfkit",
	     (int)c->pid);
	return true;
}

/* ---- the table and the entry points ---------------------------------------------- */

static const struct {
	int code;
	const char *name;
	const char *why;
	const char *hint;
	bool (*probe)(const struct call *c);
} errno_table[] = {
#define PK_ERRNO(code, sname, why, hint) { code, #code, why, hint, explain_##sname },
#include "errno.def"
#undef PK_ERRNO
};

static int finish(int err, const char *what, const struct msg *m, const char *errname)
{
	pk__error(err, what, "%s (%s)", m->why, errname);
	if (m->hint[0])
		pk__error_hint("%s", m->hint);
	return err;
}

int pk__sys_explain_facts(int err, const struct pk__sys_facts *f,
			  const struct perf_event_attr *attr, pid_t pid, int cpu,
			  int group_fd, unsigned long flags, const char *name)
{
	static const struct perf_event_attr zero;
	char what[256];
	struct msg m = { "", "" };
	struct call c = {
		.f = f, .attr = attr ? attr : &zero, .pid = pid, .cpu = cpu,
		.group_fd = group_fd, .flags = flags, .exe = f->exe, .m = &m,
		.priv = f->caps_known && (f->cap_perfmon || f->cap_sys_admin),
	};

	pk__sys_explain_what(what, sizeof(what), attr, pid, cpu, group_fd, name);
	for (size_t i = 0; i < NELEM(errno_table); i++) {
		if (errno_table[i].code != -err)
			continue;
		if (!errno_table[i].probe(&c)) {
			snprintf(m.why, sizeof(m.why), "%s", errno_table[i].why);
			snprintf(m.hint, sizeof(m.hint), "%s", errno_table[i].hint);
		}
		return finish(err, what, &m, errno_table[i].name);
	}
	snprintf(m.why, sizeof(m.why), "%s", strerror(-err));
	return finish(err, what, &m, strerrorname_np(-err) ? strerrorname_np(-err) : "unknown errno");
}

int pk__sys_explain_e2big(const struct perf_event_attr *attr, uint32_t orig_size,
			  uint32_t kernel_size, pid_t pid, int cpu, int group_fd,
			  const char *name)
{
	char what[256];
	struct msg m = { "", "" };
	const char *field, *since = NULL;
	long off;

	pk__sys_explain_what(what, sizeof(what), attr, pid, cpu, group_fd, name);
	if (orig_size < PERF_ATTR_SIZE_VER0 || kernel_size < PERF_ATTR_SIZE_VER0 ||
	    kernel_size >= orig_size) {
		snprintf(m.why, sizeof(m.why), "attr.size %u is outside what perf_event_open accepts "
			 "(%d bytes up to a page); this kernel's struct perf_event_attr has %u bytes",
			 orig_size, PERF_ATTR_SIZE_VER0, kernel_size);
		snprintf(m.hint, sizeof(m.hint), "set attr.size to %u, or 0", kernel_size >=
			 PERF_ATTR_SIZE_VER0 ? kernel_size : PERF_ATTR_SIZE_VER7);
		return finish(-E2BIG, what, &m, "E2BIG");
	}
	off = pk__attr_first_nonzero(attr, kernel_size, orig_size);
	field = off >= 0 ? pk__attr_field_name(off, &since) : NULL;
	if (off < 0) {
		snprintf(m.why, sizeof(m.why), "the kernel refused attr.size %u even after retrying "
			 "with its own size %u", orig_size, kernel_size);
	} else if (field) {
		snprintf(m.why, sizeof(m.why), "this kernel's struct perf_event_attr has %u bytes and "
			 "does not know %s (byte %ld, added in Linux %s), which the attr sets",
			 kernel_size, field, off, since);
		snprintf(m.hint, sizeof(m.hint), "clear %s, or run Linux %s or later", field, since);
	} else {
		snprintf(m.why, sizeof(m.why), "this kernel's struct perf_event_attr has %u bytes, and "
			 "the attr sets byte %ld, past every field perfkit knows", kernel_size, off);
		snprintf(m.hint, sizeof(m.hint), "zero the attr past byte %u", kernel_size);
	}
	return finish(-E2BIG, what, &m, "E2BIG");
}
