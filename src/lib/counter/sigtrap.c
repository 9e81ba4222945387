/* SPDX-License-Identifier: MIT */
/*
 * sigtrap.c - synchronous SIGTRAP from events: setting sigtrap,
 * remove_on_exec and sig_data in an event's attr, and reading a perf
 * SIGTRAP's siginfo (sig_data, the event's type, the address) and the
 * interrupted instruction pointer from the handler's ucontext, without
 * allocating, so that it can run in the handler.
 */
#include "perfkit.h"
#include "sys/sys.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>
#include <linux/perf_event.h>

/* glibc 2.36 names neither TRAP_PERF nor si_perf_*: the kernel's values. */
#ifndef TRAP_PERF
#define TRAP_PERF 6
#endif

/*
 * The kernel's _sigfault member for TRAP_PERF (include/uapi/asm-generic/
 * siginfo.h, Linux 5.13+): si_addr, then a union whose _perf arm is
 * { unsigned long data; u32 type; u32 flags; }.  On the architectures
 * perfkit builds for (no __ARCH_SI_TRAPNO) that union starts right after
 * si_addr, so this struct laid over si_addr matches it.
 */
struct sigfault_perf {
	void *addr;
	unsigned long data;
	uint32_t type;
	uint32_t flags;
};

int pk_sigtrap_set(struct pk_events *ev, size_t i, uint64_t data)
{
	struct perf_event_attr *a;

	pk__error_clear();
	if (!ev || i >= pk_events_nr(ev))
		return pk__error(-ERANGE, "pk_sigtrap_set", "no event %zu", i);
	if (!(a = pk_events_attr_mut(ev, i)))
		return pk_last_error()->code;	/* -EBUSY, recorded by pk_events_attr_mut */
	if (a->enable_on_exec) {
		pk__error(-EINVAL, "pk_sigtrap_set", "%s", "the event is enabled on exec, "
			  "and sigtrap needs remove_on_exec: the kernel refuses both");
		pk__error_hint("%s", "enable the event yourself (pk_evlist_enable)");
		return -EINVAL;
	}
	a->sigtrap = 1;
	a->remove_on_exec = 1;
	a->sig_data = data;
	return 0;
}

/* The interrupted user pc from an SA_SIGINFO handler's ucontext, or 0. */
static uint64_t ucontext_ip(const void *ucontext)
{
	const ucontext_t *uc = ucontext;

	if (!uc)
		return 0;
#if defined(__x86_64__)
	return (uint64_t)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__i386__)
	return (uint64_t)(uint32_t)uc->uc_mcontext.gregs[REG_EIP];
#elif defined(__aarch64__)
	return (uint64_t)uc->uc_mcontext.pc;
#else
	return 0;
#endif
}

int pk_sigtrap_decode(const void *siginfo, const void *ucontext, struct pk_sigtrap_info *out)
{
	const siginfo_t *si = siginfo;
	struct sigfault_perf p;
	struct pk_sigtrap_info info;

	if (!si || !out || si->si_signo != SIGTRAP || si->si_code != TRAP_PERF)
		return 0;
	memcpy(&p, &si->si_addr, sizeof(p));
	info = (struct pk_sigtrap_info){ .size = out->size, .data = p.data, .type = p.type,
					 .flags = p.flags, .addr = (uint64_t)(uintptr_t)p.addr,
					 .ip = ucontext_ip(ucontext) };
	/* Only what the caller's struct has room for: an older caller's
	 * smaller struct keeps its tail untouched. */
	memcpy(out, &info, out->size < sizeof(info) ? out->size : sizeof(info));
	return 1;
}
