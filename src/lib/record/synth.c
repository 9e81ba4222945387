/* SPDX-License-Identifier: MIT */
/*
 * synth.c - records for what existed before recording began: the kernel's
 * text mapping from /proc/kallsyms, and each process's threads (FORK for
 * -a, NAMESPACES, COMM) and executable mappings (MMAP2) from /proc, and the
 * loaded BPF programs (KSYMBOL, BPF_EVENT), laid out exactly as the kernel
 * would have written them, so readers treat them like the
 * real thing.
 */
#include "perfkit.h"
#include "elf/elf.h"
#include "host/host.h"
#include "record/record.h"
#include "sys/sys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/bpf.h>
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

/* The kernel text's bounds, as the kallsyms walk finds them. */
struct ktext {
	uint64_t start, end;
};

static int ktext_sym(void *arg, const struct pk__host_ksym *s)
{
	struct ktext *t = arg;

	if (s->name[0] != '_')
		return 0;	/* the cheap test first: 100k+ lines go through here */
	if (!strcmp(s->name, "_stext") || (!t->start && !strcmp(s->name, "_text")))
		t->start = s->addr;
	else if (!strcmp(s->name, "_etext"))
		t->end = s->addr;
	/* _etext sorts before the rest of the kernel's data: stop there. */
	return t->end != 0;
}

/* The running kernel's build-id, from /sys/kernel/notes as perf reads
 * it; its size, or 0 when it cannot be read. */
static int kernel_build_id(uint8_t id[20])
{
	unsigned char notes[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, notes, sizeof(notes));

	if (fd >= 0)
		close(fd);
	n = n > 0 ? pk__elf_notes_build_id(notes, (size_t)n, id) : 0;
	pk__error_clear();
	return n > 0 ? (int)n : 0;
}

/* The kernel's map: perf's MMAP, or with `build_id` perf's MMAP2 for
 * --buildid-mmap (no protection bits, the build-id in place of the
 * device and inode when the kernel's can be read). */
static int synth_kernel(const struct perf_event_attr *attr, uint64_t id, pk_record_sink sink, void *arg,
			bool build_id)
{
	struct builder b = { .len = sizeof(struct perf_event_header) };
	struct ktext t = { 0, 0 };
	uint8_t bid[20] = { 0 };
	uint16_t misc = PERF_RECORD_MISC_KERNEL;
	int err, n;

	pk__error_clear();
	err = pk__host_kallsyms_read(NULL, PK__KSYM_NEED_ADDRS, ktext_sym, &t);
	if (err < 0)
		return err;
	if (!t.start || t.end <= t.start)
		return pk__error(-ENOENT, "read /proc/kallsyms", "%s", "the kernel's text has no "
				 "_stext.._etext range there, so kernel samples cannot be given symbols");
	add_u32(&b, (uint32_t)-1);	/* pid -1: the kernel */
	add_u32(&b, 0);
	add_u64(&b, t.start);
	add_u64(&b, t.end - t.start);
	add_u64(&b, t.start);		/* pgoff: perf stores the start here too */
	if (build_id) {
		if ((n = kernel_build_id(bid)) > 0) {
			add_u32(&b, (uint32_t)n);
			add(&b, bid, sizeof(bid));
			misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
		} else {
			add(&b, bid, sizeof(bid));	/* device, inode, generation: 0 */
			add_u32(&b, 0);
		}
		add_u32(&b, 0);		/* prot */
		add_u32(&b, 0);		/* flags */
	}
	add_str(&b, "[kernel.kallsyms]_text");
	add_trailer(&b, attr, (uint32_t)-1, 0, id);
	return emit(&b, build_id ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP, misc, sink, arg);
}

int pk_record_synth_kernel(const struct perf_event_attr *attr, uint64_t id, pk_record_sink sink,
			   void *arg)
{
	return synth_kernel(attr, id, sink, arg, false);
}

int pk_record_synth_kernel_build_id(const struct perf_event_attr *attr, uint64_t id,
				    pk_record_sink sink, void *arg)
{
	return synth_kernel(attr, id, sink, arg, true);
}

int pk_record_synth_comm(pid_t pid, pid_t tid, const char *comm, const struct perf_event_attr *attr,
			 uint64_t id, pk_record_sink sink, void *arg)
{
	struct builder b = { .len = sizeof(struct perf_event_header) };
	char name[16];

	snprintf(name, sizeof(name), "%s", comm);
	add_u32(&b, (uint32_t)pid);
	add_u32(&b, (uint32_t)tid);
	add_str(&b, name);
	add_trailer(&b, attr, (uint32_t)pid, (uint32_t)tid, id);
	return emit(&b, PERF_RECORD_COMM, 0, sink, arg);
}

static int synth_comm(pid_t pid, pid_t tid, const struct perf_event_attr *attr, uint64_t id,
		      pk_record_sink sink, void *arg)
{
	char comm[64] = "";

	if (pk__host_comm(pid, tid, comm, sizeof(comm)) < 0)
		return pk__error(-ESRCH, "synthesize a COMM record", "thread %d of process %d is gone",
				 (int)tid, (int)pid);
	return pk_record_synth_comm(pid, tid, comm, attr, id, sink, arg);
}

/* The PPid: line of /proc/PID/status, or 0. */
static pid_t parent_of(pid_t pid)
{
	long ppid;

	return pk__host_status_long(pid, "PPid", &ppid) < 0 ? 0 : (pid_t)ppid;
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
				return pk__error(-ESRCH, "synthesize a NAMESPACES record",
						 "thread %d of process %d is gone", (int)tid, (int)pid);
		}
		add_u64(&b, st.st_dev);
		add_u64(&b, st.st_ino);
	}
	add_trailer(&b, attr, (uint32_t)pid, (uint32_t)tid, id);
	return emit(&b, PERF_RECORD_NAMESPACES, 0, sink, arg);
}

/* Where the MMAP2 records of one process go. */
struct map_ctx {
	pid_t pid;
	const struct perf_event_attr *attr;
	uint64_t id;
	bool data;
	pk_record_sink sink;
	void *arg;
	bool build_id;		/* PK_SYNTH_BUILD_ID */
};

/* The file's build-id for an MMAP2 record, as perf's --buildid-mmap
 * synthesis reads it; 0 (none: the device and inode stay) when the file
 * has none or cannot be read. */
static int map_build_id(const char *path, uint8_t id[20])
{
	struct pk__elf *e;
	int n;

	if (path[0] != '/' || pk__elf_open(path, &e) < 0) {
		pk__error_clear();
		return 0;
	}
	n = pk__elf_build_id(e, id);
	pk__elf_close(e);
	pk__error_clear();
	return n > 0 ? n : 0;
}

/* One line of /proc/PID/maps as an MMAP2 record; 0 (go on) when skipped. */
static int synth_map(void *arg, const struct pk__host_map *m)
{
	const struct map_ctx *c = arg;
	struct builder b = { .len = sizeof(struct perf_event_header) };
	uint32_t prot, pid = (uint32_t)c->pid;
	bool exec = m->perms[2] == 'x';
	uint16_t misc = exec ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_DATA;
	uint8_t bid[20] = { 0 };
	int err, n;

	if (!m->path[0] || (!exec && !c->data))
		return 0;	/* anonymous, or data without -d: perf skips them too */
	prot = (m->perms[0] == 'r' ? PROT_READ : 0) | (m->perms[1] == 'w' ? PROT_WRITE : 0) |
	       (exec ? PROT_EXEC : 0);
	add_u32(&b, pid);
	add_u32(&b, pid);
	add_u64(&b, m->start);
	add_u64(&b, m->end - m->start);
	add_u64(&b, m->pgoff);
	if (c->build_id && (n = map_build_id(m->path, bid)) > 0) {
		/* In place of the device and inode: size, 3 reserved bytes, id. */
		add_u32(&b, (uint32_t)n);
		add(&b, bid, sizeof(bid));
		misc |= PERF_RECORD_MISC_MMAP_BUILD_ID;
	} else {
		add_u32(&b, m->maj);
		add_u32(&b, m->min);
		add_u64(&b, m->ino);
		add_u64(&b, 0);		/* ino_generation */
	}
	add_u32(&b, prot);
	add_u32(&b, m->perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE);
	add_str(&b, m->path);
	add_trailer(&b, c->attr, pid, pid, c->id);
	err = emit(&b, PERF_RECORD_MMAP2, misc, c->sink, c->arg);
	/* A sink's error stops the walk; the walk stops on any non-zero. */
	return err < 0 ? err : 0;
}

/* A process's threads (with FORK first when `forks`), then its mappings. */
static int synth_process(pid_t pid, const struct perf_event_attr *attr, uint64_t id, unsigned flags,
			 bool forks, pk_record_sink sink, void *arg)
{
	struct map_ctx ctx = { pid, attr, id, flags & PK_SYNTH_DATA, sink, arg, flags & PK_SYNTH_BUILD_ID };
	pid_t *tids, ppid = forks ? parent_of(pid) : 0;
	size_t nr;
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
	if (err < 0 || (flags & PK_SYNTH_NO_MAPS))
		return err;
	return pk__host_maps_read(pid, synth_map, &ctx);
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
		if (err == -ESRCH || err == -EACCES)
			err = 0;	/* it exited while we read it, or is not ours to read */
	}
	closedir(d);
	if (err >= 0)	/* a failure keeps its error record (EMFILE, not EINVAL) */
		pk__error_clear();
	return err;
}

/* A KSYMBOL for each of program p's jited functions, perf's way. */
static int synth_ksymbols(const struct pk__bpf_prog *p, const void *btf, size_t btf_len,
			  const struct perf_event_attr *attr, uint64_t id, pk_record_sink sink,
			  void *arg)
{
	const struct bpf_prog_info *info = (const void *)p->info;
	uint32_t n = info->nr_jited_ksyms;
	const unsigned char *addrs = pk__bpf_prog_array(p, info->jited_ksyms, 8ull * n);
	const unsigned char *lens = pk__bpf_prog_array(p, info->jited_func_lens, 4ull * n);
	int err = 0;

	for (uint32_t i = 0; addrs && lens && i < n && err >= 0; i++) {
		struct builder b = { .len = sizeof(struct perf_event_header) };
		uint16_t type = PERF_RECORD_KSYMBOL_TYPE_BPF, flags = 0;
		char name[512];
		uint64_t addr;
		uint32_t len;

		if (pk__bpf_func_name(p, btf, btf_len, i, name, sizeof(name)) < 0)
			return 0;
		memcpy(&addr, addrs + 8 * i, 8);
		memcpy(&len, lens + 4 * i, 4);
		add_u64(&b, addr);
		add_u32(&b, len);
		add(&b, &type, 2);
		add(&b, &flags, 2);
		add_str(&b, name);
		add_trailer(&b, attr, 0, 0, id);	/* perf's trailer: pid 0, tid 0, time 0 */
		err = emit(&b, PERF_RECORD_KSYMBOL, 0, sink, arg);
	}
	return err;
}

/* Program p's records: its functions' KSYMBOLs, then its PROG_LOAD. */
static int synth_bpf_prog(const struct pk__bpf_prog *p, const struct perf_event_attr *attr,
			  uint64_t id, pk_record_sink sink, void *arg)
{
	const struct bpf_prog_info *info = (const void *)p->info;
	struct builder b = { .len = sizeof(struct perf_event_header) };
	uint16_t type = PERF_BPF_EVENT_PROG_LOAD, flags = 0;
	uint32_t btf_len = 0;
	void *btf = NULL;
	int err;

	if (!pk__bpf_prog_described(p) ||
	    (pk__bpf_prog_has_btf(p) && pk__sys_bpf_btf(info->btf_id, &btf, &btf_len) < 0))
		return 0;
	err = synth_ksymbols(p, btf, btf_len, attr, id, sink, arg);
	free(btf);
	if (err < 0)
		return err;
	add(&b, &type, 2);
	add(&b, &flags, 2);
	add_u32(&b, info->id);
	add(&b, info->tag, BPF_TAG_SIZE);
	add_trailer(&b, attr, 0, 0, id);
	return emit(&b, PERF_RECORD_BPF_EVENT, 0, sink, arg);
}

/* Where synth_image sends a [bpf] image's KSYMBOL. */
struct image_sink {
	const struct perf_event_attr *attr;
	uint64_t id;
	pk_record_sink sink;
	void *arg;
	int err;	/* what the sink returned, when not 0 */
};

/* perf's test for the images it describes: "bpf_trampoline_<number>" and
 * "bpf_dispatcher_<anything>" (its sscanf %lu and %s). */
static bool bpf_image_name(const char *name)
{
	if (!strncmp(name, "bpf_trampoline_", 15))
		return name[15] >= '0' && name[15] <= '9';
	return !strncmp(name, "bpf_dispatcher_", 15) && name[15] && name[15] != ' ';
}

/* One /proc/kallsyms line: a KSYMBOL for a trampoline or dispatcher of
 * the [bpf] "module", a page long, as perf 6.1's process_bpf_image. */
static int synth_image(void *arg, const struct pk__host_ksym *k)
{
	struct image_sink *is = arg;
	struct builder b = { .len = sizeof(struct perf_event_header) };
	uint16_t type = PERF_RECORD_KSYMBOL_TYPE_BPF, flags = 0;
	int err;

	if (!k->module || strcmp(k->module, "bpf") || !bpf_image_name(k->name))
		return 0;
	add_u64(&b, k->addr);
	add_u32(&b, (uint32_t)pk__sys_page_size());
	add(&b, &type, 2);
	add(&b, &flags, 2);
	add_str(&b, k->name);
	add_trailer(&b, is->attr, 0, 0, is->id);
	err = emit(&b, PERF_RECORD_KSYMBOL, 0, is->sink, is->arg);
	if (err)
		is->err = err;
	return err;
}

/* The kernel's own BPF code, trampolines and dispatchers, which it lists in
 * /proc/kallsyms as the [bpf] module: perf describes those there when it
 * begins, so samples in them are named.  A kallsyms it cannot read leaves
 * them out, as perf does; only running out of memory or the sink's error
 * stops the recording. */
static int synth_bpf_images(const struct perf_event_attr *attr, uint64_t id, pk_record_sink sink,
			    void *arg)
{
	struct image_sink is = { attr, id, sink, arg, 0 };
	int err = pk__host_kallsyms_read(NULL, 0, synth_image, &is);

	if (is.err || err == -ENOMEM)
		return is.err ? is.err : err;
	if (err < 0)
		pk__error_clear();
	return 0;
}

int pk_record_synth_bpf(const struct perf_event_attr *attr, uint64_t id, pk_record_sink sink,
			void *arg)
{
	uint32_t prog = 0;
	int err;

	while ((err = pk__sys_bpf_prog_next_id(prog, &prog)) == 0) {
		struct pk__bpf_prog *p;

		err = pk__sys_bpf_prog_info(prog, PK__BPIL_PERF, &p);
		if (err == -ENOMEM)
			return pk__error(err, "read the BPF programs", "%s", "out of memory");
		if (err < 0)
			continue;	/* unloaded since, or not ours to see */
		err = synth_bpf_prog(p, attr, id, sink, arg);
		free(p);
		if (err < 0)
			return err;
	}
	/* The end of the list, or no right to walk it (perf records on).
	 * Then the images, whatever is loaded now: the XDP dispatcher stays
	 * for the machine's life and a program loaded later runs through it. */
	return synth_bpf_images(attr, id, sink, arg);
}

/* One cgroup's PERF_RECORD_CGROUP: its id (the cgroup2 inode, as the
 * kernel's file handle gives it) and its path under the mount ("/" for the
 * root).  A cgroup gone meanwhile, or a file system without handles, is
 * skipped. */
static int synth_cgroup(const char *path, const char *rel, const struct perf_event_attr *attr,
			uint64_t id, pk_record_sink sink, void *arg)
{
	union {
		struct file_handle fh;
		unsigned char bytes[sizeof(struct file_handle) + 8];
	} h = { .fh.handle_bytes = 8 };
	struct builder b = { .len = sizeof(struct perf_event_header) };
	uint64_t cgroup_id;
	int mount_id;

	if (name_to_handle_at(AT_FDCWD, path, &h.fh, &mount_id, 0) < 0)
		return 0;
	memcpy(&cgroup_id, h.fh.f_handle, 8);
	add_u64(&b, cgroup_id);
	add_str(&b, rel);
	add_trailer(&b, attr, 0, 0, id);
	return emit(&b, PERF_RECORD_CGROUP, 0, sink, arg);
}

/* The cgroup at path[0..len) and every one under it, in readdir order as
 * perf walks them; `root` is the mount's length in path. */
static int synth_cgroup_tree(char *path, size_t len, size_t root, const struct perf_event_attr *attr,
			     uint64_t id, pk_record_sink sink, void *arg, int depth)
{
	struct dirent *de;
	DIR *d;
	int err = synth_cgroup(path, len > root ? path + root : "/", attr, id, sink, arg);

	if (err < 0 || depth > 64 || !(d = opendir(path)))
		return err;
	while (err >= 0 && (de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (de->d_type != DT_DIR || !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    len + 1 + n >= PATH_MAX)
			continue;
		path[len] = '/';
		memcpy(path + len + 1, de->d_name, n + 1);
		err = synth_cgroup_tree(path, len + 1 + n, root, attr, id, sink, arg, depth + 1);
		path[len] = '\0';
	}
	closedir(d);
	return err;
}

int pk_record_synth_cgroups(const struct perf_event_attr *attr, uint64_t id, pk_record_sink sink,
			    void *arg)
{
	char path[PATH_MAX];
	int err = pk_cgroup_root(path, sizeof(path));

	if (err < 0)
		return err;
	return synth_cgroup_tree(path, strlen(path), strlen(path), attr, id, sink, arg, 0);
}
