/* SPDX-License-Identifier: MIT */
/*
 * sys.h - the sys layer's internal interface: the only code in libperfkit
 * that calls perf_event_open, ioctl, prctl and mmap on event fds, the
 * per-thread error record behind pk_last_error(), the errno explainer, the
 * sysfs root, and the test seam that lets unit tests make syscalls fail.
 */
#ifndef PK_SYS_H
#define PK_SYS_H

#include "perfkit.h"

#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define PK__PRINTF(a, b) __attribute__((format(printf, a, b)))

/* ---- error record ------------------------------------------------------ */

/*
 * pk__error - start a new error record: code `err` (negative errno), `what`
 * was attempted, `why` (printf format) it failed.  Clears hint and column.
 * Returns err so callers can write `return pk__error(-EINVAL, ...)`.
 */
int pk__error(int err, const char *what, const char *why_fmt, ...) PK__PRINTF(3, 4);

/*
 * pk__error_nomem - record -ENOMEM naming what ran out, `what_fmt` being a
 * printf format for the thing that could not be allocated ("the event
 * list", "%zu ring maps").  Returns -ENOMEM, so callers write
 * `return pk__error_nomem("the event list")`.
 */
int pk__error_nomem(const char *what_fmt, ...) PK__PRINTF(1, 2);

/* pk__error_hint - set the current record's hint (printf format). */
void pk__error_hint(const char *fmt, ...) PK__PRINTF(1, 2);

/* pk__error_column - set the current record's 1-based column. */
void pk__error_column(int column);

/* pk__error_clear - reset the record to "no error". */
void pk__error_clear(void);

/* ---- memory (alloc.c) ------------------------------------------------- */

/*
 * pk__malloc, pk__calloc, pk__realloc, pk__reallocarray, pk__strdup,
 * pk__strndup - the libc calls, through which every library allocation
 * goes.  On failure they return NULL with errno ENOMEM and an error record
 * saying how many bytes could not be allocated, which pk__error_nomem then
 * refines.  A zero size still allocates (a unique pointer to free).
 * pk__reallocarray fails on nmemb * size overflow.
 */
void *pk__malloc(size_t size);
void *pk__calloc(size_t nmemb, size_t size);
void *pk__realloc(void *ptr, size_t size);
void *pk__reallocarray(void *ptr, size_t nmemb, size_t size);
char *pk__strdup(const char *s);
char *pk__strndup(const char *s, size_t n);

/* pk__memalign - posix_memalign(3) as an allocator: `size` bytes aligned to
 * `align` (a power of two, a multiple of sizeof(void *)), or NULL (recorded). */
void *pk__memalign(size_t align, size_t size);

/* pk__asprintf - asprintf(3) through pk__malloc: the length, or -1 (ENOMEM
 * recorded; *out is then undefined, as with asprintf). */
int pk__asprintf(char **out, const char *fmt, ...) PK__PRINTF(2, 3);

/*
 * pk__alloc_fail_nth - the test seam: the nth allocation through the
 * wrappers above on the calling thread from now on fails (1: the next one),
 * once; 0 turns it off.  Returns the allocations the previous setting
 * still had to go, so 0 after a nonzero setting means that failure
 * happened.  Only tests use this.
 */
unsigned long pk__alloc_fail_nth(unsigned long nth);

/* ---- arrays that move to a temporary file (spill.c) ------------------- */

/* The bytes an array holds on the heap before it moves to a file. */
#define PK__SPILL_BUDGET (2u << 20)

/*
 * A growing byte array for what is written once and read back rarely: on
 * the heap up to pk__spill_budget() bytes, past that in an unlinked
 * temporary file ($TMPDIR, else /tmp) mapped shared, whose pages
 * pk__spill_drop and pk__spill_touch take out of the process's memory
 * (the file keeps them).  Where no such file can be made or grown, it
 * stays on (or moves back to) the heap: only memory can run out.
 */
struct pk__spill {
	unsigned char *p;	/* the bytes: the heap's or the file's mapping */
	size_t cap;		/* bytes there */
	int fd;			/* the file; -1 on the heap */
	size_t touched;		/* bytes pk__spill_touch counted since the last drop */
	size_t last_block;	/* the fault-around block it counted last; SIZE_MAX none */
	size_t budget;		/* pk__spill_budget() when it was made */
};

/* pk__spill_budget - the heap bytes an array keeps: $PERFKIT_SPILL_BUDGET
 * (a number of bytes, for tests), else PK__SPILL_BUDGET; a test's
 * pk__spill_set_budget (0: back to those) comes first. */
size_t pk__spill_budget(void);
void pk__spill_set_budget(size_t bytes);

/* pk__spill_init - an empty array (no memory, on the heap), its budget
 * pk__spill_budget()'s now. */
void pk__spill_init(struct pk__spill *s);

/* pk__spill_reserve - at least `bytes` bytes at s->p (which may move; the
 * bytes there are kept), at least doubling.  0, or -ENOMEM recorded. */
int pk__spill_reserve(struct pk__spill *s, size_t bytes);

/* pk__spill_alloc - s, empty, made `bytes` zeroed bytes (page-rounded),
 * not grown by doubling: in a file from the start past its budget.  0, or
 * -ENOMEM recorded. */
int pk__spill_alloc(struct pk__spill *s, size_t bytes);

/* pk__spill_drop - in a file, the whole pages of [from, to) let go from
 * memory (read again from the file when next used); on the heap nothing.
 * Resets the touch count. */
void pk__spill_drop(struct pk__spill *s, size_t from, size_t to);

/* pk__spill_touch - count [from, from + bytes) as read or written, by
 * the 64 KiB blocks a read fault maps (a block counted last counts once
 * while touches stay in it); in a file, past a quarter of the budget
 * since the last drop, every page is let go. */
void pk__spill_touch(struct pk__spill *s, size_t from, size_t bytes);

/* pk__spill_count - count `bytes` read or written at places not told
 * (each block they fault in counted by the caller), with pk__spill_touch's
 * drops. */
void pk__spill_count(struct pk__spill *s, size_t bytes);

/* pk__spill_adopt - s made the caller's mapping p of len bytes of file fd
 * (a whole file read back: srcline-kept.c), as if it had moved there:
 * drops and counts apply, and pk__spill_free unmaps it and closes fd.
 * It is never grown (no pk__spill_reserve). */
void pk__spill_adopt(struct pk__spill *s, int fd, void *p, size_t len);

/* pk__spill_in_file - whether it has moved to a file. */
bool pk__spill_in_file(const struct pk__spill *s);

/* pk__spill_free - its memory or file let go; s is empty again. */
void pk__spill_free(struct pk__spill *s);

/* ---- numbers (num.c) --------------------------------------------------- */

/*
 * pk__num_u64, pk__num_i64 - pk_num_parse_u64/_i64 over the `n` bytes at
 * `s` (a span of a longer string, such as an event term's value).  Same
 * results and error record.
 */
int pk__num_u64(const char *s, size_t n, uint64_t min, uint64_t max, uint64_t *out);
int pk__num_i64(const char *s, size_t n, int64_t min, int64_t max, int64_t *out);

/* ---- sysfs / procfs ---------------------------------------------------- */

/*
 * pk__sysfs_path - "<root>/<rel>" into buf, where root is $PERFKIT_SYSFS_ROOT
 * or "/sys".  `rel` has no leading slash ("bus/event_source/devices").
 * Returns buf, or NULL when the path does not fit.
 */
char *pk__sysfs_path(char *buf, size_t len, const char *rel);

/*
 * pk__read_file - read a small text file (at most len-1 bytes), NUL
 * terminate it and strip one trailing newline.  Returns the length or a
 * negative errno.
 */
int pk__read_file(const char *path, char *buf, size_t len);

/* pk__read_long - parse a file holding one integer.  Returns 0 or -errno. */
int pk__read_long(const char *path, long *val);

/* ---- syscalls ------------------------------------------------------------ */

/*
 * The test seam.  A test installs a table whose non-NULL members replace the
 * real syscalls on the calling thread; NULL restores the real ones.  The
 * replacement returns what the raw syscall would (-1 and errno on failure).
 * Only tests use this.
 */
struct pk__sys_ops {
	int (*perf_event_open)(struct perf_event_attr *attr, pid_t pid, int cpu,
			       int group_fd, unsigned long flags);
	int (*ioctl)(int fd, unsigned long request, unsigned long arg);
	int (*prctl)(int option);
	void *(*mmap)(void *addr, size_t len, int prot, int flags, int fd, off_t off);
	int (*munmap)(void *addr, size_t len);
	int (*close)(int fd);
	ssize_t (*read)(int fd, void *buf, size_t len);
	/* The self-monitoring instructions (x86 rdpmc and rdtsc), so that tests
	 * can drive the mmap-page read without a hardware PMU. */
	uint64_t (*rdpmc)(unsigned int counter);
	uint64_t (*rdtsc)(void);
	int (*fcntl)(int fd, int cmd, unsigned long arg);
	/* The library's own wake-ups and waits: eventfd(2), write(2) on such
	 * an fd, poll(2) over event fds. */
	int (*eventfd)(unsigned int initval, int flags);
	ssize_t (*write)(int fd, const void *buf, size_t len);
	int (*poll)(struct pollfd *fds, nfds_t nfds, int timeout_ms);
	/* mount(2), for pk_tracefs_mount. */
	int (*mount)(const char *source, const char *target, const char *fstype,
		     unsigned long flags, const void *data);
	/* open(2) of a directory the library keeps open (a cgroup's). */
	int (*open)(const char *path, int flags);
	/* The small calls the library makes about itself and the machine. */
	int (*clock_gettime)(clockid_t clock, struct timespec *ts);
	long (*sysconf)(int name);
	int (*uname)(struct utsname *u);
	int (*getrlimit)(int resource, struct rlimit *rl);
	pid_t (*gettid)(void);
};
void pk__sys_set_ops(const struct pk__sys_ops *ops);

/*
 * An attr in the kernel's PERF_ATTR_SIZE_VER8 layout (136 bytes: config3 at
 * byte 128, Linux 6.3+), whatever UAPI header this is built against: the
 * 6.1 header's struct stops at 128 bytes, so config3 is a word of the
 * buffer, never a field placed after the struct.  The library keeps every
 * attr it hands out (pk_events_attr, pk_evlist_attr) in one of these, so an
 * attr whose size is 136 really has its config3 behind it.  Internal: no
 * public struct has this layout.
 */
#define PK__ATTR_SIZE_VER8 136
union pk__attr8 {
	struct perf_event_attr attr;
	uint64_t word[PK__ATTR_SIZE_VER8 / 8];
};
#define PK__ATTR8_CONFIG3 16	/* word[] index of config3 */

/*
 * pk__attr8_copy - copy `src` into `dst`: the struct, plus the bytes past it
 * up to 136 when src->size says the caller's attr holds them (config3);
 * the rest of dst is zeroed.
 */
void pk__attr8_copy(union pk__attr8 *dst, const struct perf_event_attr *src);

/*
 * pk__sys_open - perf_event_open(attr, pid, cpu, group_fd, flags).
 * If attr->size is 0 it is set to PERF_ATTR_SIZE_VER7 (128).  On E2BIG the kernel
 * writes back the size it knows: when every byte past that size is zero the
 * call is retried with the smaller size (attr->size is updated); otherwise
 * the error names the first non-zero field this kernel lacks.
 * Returns the fd, or a negative errno with the error record explaining it
 * (pk__sys_explain).  `name` is the event's name for messages (may be NULL).
 */
int pk__sys_open(struct perf_event_attr *attr, pid_t pid, int cpu, int group_fd,
		 unsigned long flags, const char *name);

/* pk__sys_ioctl - ioctl on an event fd.  Returns >= 0 or -errno (recorded). */
int pk__sys_ioctl(int fd, unsigned long request, unsigned long arg);

/* pk__sys_prctl - PR_TASK_PERF_EVENTS_ENABLE/DISABLE.  0 or -errno. */
int pk__sys_prctl(int option);

/* pk__sys_mmap - map `len` bytes of an event fd at file offset `off` (0 for
 * the ring; the AUX area's aux_offset).  Returns the address or NULL with
 * *err set to a negative errno (recorded, with the perf_event_mlock_kb hint). */
void *pk__sys_mmap(int fd, size_t len, int prot, off_t off, int *err);

/*
 * pk__sys_faked - how many threads have a test's table installed
 * (pk__sys_set_ops); 0 in production.  The gate of the inline fast paths
 * below: while it is 0 no thread can have a fake, so they make the syscall
 * directly, without looking at the thread-local table.
 *
 * Why a process-wide count and not the table itself read with
 * initial-exec TLS: an initial-exec variable in a shared library takes its
 * room from glibc's small static TLS surplus when the library is
 * dlopen()ed (Python's ctypes, a plugin), and dlopen then fails with
 * "cannot allocate memory in static TLS block" once that surplus is used
 * up; the default (general-dynamic) model costs a call to __tls_get_addr
 * on every read instead.  A hidden global is one PC-relative load in
 * either case and works however the library is loaded; only the threads
 * of a process in which some test installed a fake pay for the lookup.
 */
extern int pk__sys_faked;

/* pk__sys_read_seam - pk__sys_read through the thread's table (a fake
 * installed somewhere in the process), out of line. */
ssize_t pk__sys_read_seam(int fd, void *buf, size_t len);

/* pk__sys_read_failed - the rest of pk__sys_read once read(2) gave n <= 0
 * bytes: the EINTR retry and the error record.  Cold, out of line. */
ssize_t pk__sys_read_failed(int fd, void *buf, size_t len, ssize_t n);

/*
 * pk__sys_read - read(2) the counts of an event fd into buf.  Retries on
 * EINTR.  Returns the number of bytes read; 0 means the counter is in error
 * state (a pinned event that could not be scheduled), recorded as such;
 * a negative errno on failure (ENOSPC: buf is smaller than the read_format
 * needs).  Inline: it is the whole of pk_region_read's user-space work
 * beside the count decoding, so when no fake is installed (pk__sys_faked)
 * it is one load, a compare and read(2) itself.
 */
static inline ssize_t pk__sys_read(int fd, void *buf, size_t len)
{
	ssize_t n;

	if (__builtin_expect(__atomic_load_n(&pk__sys_faked, __ATOMIC_RELAXED) != 0, 0))
		return pk__sys_read_seam(fd, buf, len);
	n = read(fd, buf, len);
	return __builtin_expect(n > 0, 1) ? n : pk__sys_read_failed(fd, buf, len, n);
}

/* pk__sys_lock_check - before mapping nr_maps rings of map_len bytes: 0
 * when they fit in the locked memory this user may use (or it cannot be
 * told), else -EPERM with an error saying what fits. */
int pk__sys_lock_check(size_t nr_maps, size_t map_len);

/*
 * pk__sys_rdpmc / pk__sys_rdtsc - execute rdpmc on hardware counter
 * `counter` (the mmap page's index - 1) / read the time-stamp counter,
 * storing the value in *val.  Return false when this architecture has no
 * such instruction in perfkit (then the caller reads with read(2)).  Never
 * fail otherwise and never touch the error record: they sit on the
 * self-monitoring fast path, so they are inline and, while no fake is
 * installed (pk__sys_faked), the bare instruction.
 */
bool pk__sys_rdpmc_seam(unsigned int counter, uint64_t *val);
bool pk__sys_rdtsc_seam(uint64_t *val);

/* The instructions themselves, with no seam (false: none here). */
static inline bool pk__sys_rdpmc_raw(unsigned int counter, uint64_t *val)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	/* Faults (SIGSEGV) if CR4.PCE is off; the kernel sets it for tasks
	 * that have a page with cap_user_rdpmc mapped. */
	__asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(counter));
	*val = (uint64_t)hi << 32 | lo;
	return true;
#else
	(void)counter;
	(void)val;
	return false;
#endif
}

static inline bool pk__sys_rdtsc_raw(uint64_t *val)
{
#if defined(__x86_64__) || defined(__i386__)
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	*val = (uint64_t)hi << 32 | lo;
	return true;
#else
	(void)val;
	return false;
#endif
}

static inline bool pk__sys_rdpmc(unsigned int counter, uint64_t *val)
{
	if (__builtin_expect(__atomic_load_n(&pk__sys_faked, __ATOMIC_RELAXED) != 0, 0))
		return pk__sys_rdpmc_seam(counter, val);
	return pk__sys_rdpmc_raw(counter, val);
}

static inline bool pk__sys_rdtsc(uint64_t *val)
{
	if (__builtin_expect(__atomic_load_n(&pk__sys_faked, __ATOMIC_RELAXED) != 0, 0))
		return pk__sys_rdtsc_seam(val);
	return pk__sys_rdtsc_raw(val);
}

/* pk__sys_fcntl - fcntl(fd, cmd, arg) on an event fd (F_SETOWN_EX, F_SETSIG,
 * F_GETFL/F_SETFL).  Returns >= 0 or -errno (recorded, naming the command). */
int pk__sys_fcntl(int fd, int cmd, unsigned long arg);

/* pk__sys_munmap / pk__sys_close - undo mmap / close an event fd. */
/* pk__sys_bpf_prog_next_id - bpf(BPF_PROG_GET_NEXT_ID): the id of the first
 * loaded BPF program after `id` in *next (bpf.c).  Returns 0; -ENOENT after
 * the last; -EPERM without CAP_SYS_ADMIN; -ENOSYS without bpf(2).  No
 * error record: every answer is one the caller expects. */
int pk__sys_bpf_prog_next_id(uint32_t id, uint32_t *next);

/* The arrays of struct bpf_prog_info perf's perf_bpil framing carries, by
 * their bit in its `arrays` mask (perf's PERF_BPIL_* order). */
enum {
	PK__BPIL_JITED_INSNS, PK__BPIL_XLATED_INSNS, PK__BPIL_MAP_IDS, PK__BPIL_JITED_KSYMS,
	PK__BPIL_JITED_FUNC_LENS, PK__BPIL_FUNC_INFO, PK__BPIL_LINE_INFO,
	PK__BPIL_JITED_LINE_INFO, PK__BPIL_PROG_TAGS, PK__BPIL_NR
};
/* The arrays perf 6.1 record asks for (util/bpf-event.c). */
#define PK__BPIL_PERF ((1ull << PK__BPIL_JITED_KSYMS) | (1ull << PK__BPIL_JITED_FUNC_LENS) | \
		       (1ull << PK__BPIL_FUNC_INFO) | (1ull << PK__BPIL_PROG_TAGS) | \
		       (1ull << PK__BPIL_JITED_INSNS) | (1ull << PK__BPIL_LINE_INFO) | \
		       (1ull << PK__BPIL_JITED_LINE_INFO))

/* One program as perf.data's BPF_PROG_INFO holds it: info_len bytes of
 * struct bpf_prog_info whose array pointers are offsets into data, then
 * data_len bytes of arrays, each padded to 8 bytes. */
struct pk__bpf_prog {
	uint32_t info_len, data_len;
	uint64_t arrays;
	uint64_t info[32];	/* struct bpf_prog_info (<linux/bpf.h>), 8-aligned */
	unsigned char data[];
};

/* pk__sys_bpf_prog_info - program `id`'s info with the arrays in mask
 * `arrays` (1 << PK__BPIL_*; those the kernel does not know are dropped
 * from it) in a new *out for free().  Returns 0; -ENOENT when it was
 * unloaded; -EPERM without CAP_SYS_ADMIN; -ENOMEM.  No error record. */
int pk__sys_bpf_prog_info(uint32_t id, uint64_t arrays, struct pk__bpf_prog **out);

/* pk__sys_bpf_btf - the raw BTF of BTF object `id` in a new *data (free())
 * of *size bytes.  Returns 0; -ENOENT; -EPERM; -ENOMEM.  No error record. */
int pk__sys_bpf_btf(uint32_t id, void **data, uint32_t *size);

int pk__sys_munmap(void *addr, size_t len);
int pk__sys_close(int fd);

/*
 * pk__sys_explain - fill the error record for perf_event_open failing with
 * `err` (negative errno) on `attr` with pid/cpu/flags, probing the machine
 * for the cause: perf_event_paranoid, perf_event_max_sample_rate,
 * perf_event_max_stack, perf_event_mlock_kb, RLIMIT_NOFILE, capabilities,
 * whether the PMU of attr->type exists.  Returns err.
 */
int pk__sys_explain(int err, const struct perf_event_attr *attr, pid_t pid, int cpu,
		    int group_fd, unsigned long flags, const char *name);

/* ---- the other system calls (calls.c) ---------------------------------- */

/* pk__sys_get_ops - the calling thread's seam (NULL: the real kernel), for a
 * thread the library starts to install with pk__sys_set_ops, so that its
 * system calls are the starter's. */
const struct pk__sys_ops *pk__sys_get_ops(void);

/*
 * pk__sys_eventfd - eventfd(2) with `initval` and `flags` (EFD_CLOEXEC, ...)
 * for `what` (the purpose, for the message: "the BPF side band's stop").
 * Returns the fd, or a negative errno recorded with what ran out (EMFILE,
 * ENFILE, ENODEV, ENOMEM) and how to get more.
 */
int pk__sys_eventfd(unsigned int initval, int flags, const char *what);

/*
 * pk__sys_eventfd_signal - add 1 to eventfd `fd`'s counter, waking every
 * poll(2) on it.  Retries on EINTR.  Returns 0 or a negative errno
 * (recorded): EBADF for a closed fd, EAGAIN for a non-blocking counter at
 * its maximum.
 */
int pk__sys_eventfd_signal(int fd);

/*
 * pk__sys_poll - poll(2) `nfds` entries of `fds` for up to timeout_ms
 * milliseconds (-1: without end) for `what` (the message's "poll <what>").
 * Returns how many entries have revents set, 0 when the time ran out;
 * -EINTR, not recorded and not retried, when a signal came first (the
 * caller decides whether to look at its stop flag or wait again); another
 * negative errno recorded (EINVAL: more fds than RLIMIT_NOFILE; ENOMEM).
 */
int pk__sys_poll(struct pollfd *fds, size_t nfds, int timeout_ms, const char *what);

/* pk__sys_mount - mount(2) of `fstype` from `source` at `target`.  Returns
 * 0 or a negative errno, not recorded: the caller names what it mounted. */
int pk__sys_mount(const char *source, const char *target, const char *fstype,
		  unsigned long flags, const void *data);

/* pk__sys_open_dir - open(2) directory `path` read-only, close-on-exec.
 * Returns the fd or a negative errno, not recorded: the caller names what
 * the directory is (ENOENT, ENOTDIR, EACCES, EMFILE, ENFILE, ...). */
int pk__sys_open_dir(const char *path);

/* pk__sys_clock_gettime - clock_gettime(2) of `clock` into *ts: 0, or a
 * negative errno, not recorded (EINVAL: a clock this kernel lacks), with
 * *ts zeroed. */
int pk__sys_clock_gettime(clockid_t clock, struct timespec *ts);

/* pk__sys_sysconf - sysconf(3) `name` (_SC_PAGESIZE, _SC_NPROCESSORS_*):
 * its value (> 0), or a negative errno, not recorded: EINVAL when the
 * value is not known (sysconf gave -1, or 0). */
long pk__sys_sysconf(int name);

/* pk__sys_page_size - the page size, sysconf(_SC_PAGESIZE) through the
 * seam (a test can give 64 KiB pages).  glibc takes it from the auxiliary
 * vector, so it cannot fail; a fake that fails it gets 4096. */
size_t pk__sys_page_size(void);

/* pk__sys_uname - uname(2) into *u: 0, or a negative errno, not recorded,
 * with *u zeroed. */
int pk__sys_uname(struct utsname *u);

/* pk__sys_getrlimit - getrlimit(2) of `resource` into *rl: 0, or a
 * negative errno, not recorded. */
int pk__sys_getrlimit(int resource, struct rlimit *rl);

/* pk__sys_gettid - the calling thread's id (gettid(2) cannot fail). */
pid_t pk__sys_gettid(void);

#endif
