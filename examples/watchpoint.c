/* SPDX-License-Identifier: MIT */
/*
 * watchpoint.c - catch writes to a variable: a watchpoint traps the
 * writing thread with SIGTRAP, the handler learns the address and the
 * instruction that wrote, and the watchpoint then moves to another
 * variable without being reopened.
 */
#include <perfkit.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

static volatile long balance, limit;
static volatile sig_atomic_t hits;
static volatile unsigned long hit_addr, hit_ip;

static void on_trap(int sig, siginfo_t *si, void *uc)
{
	struct pk_sigtrap_info info = { .size = sizeof(info) };

	(void)sig;
	if (pk_sigtrap_decode(si, uc, &info)) {	/* async-signal-safe */
		hit_addr = (unsigned long)info.addr;
		hit_ip = (unsigned long)info.ip;
		hits++;
	}
}

__attribute__((noinline)) static void deposit(long n)
{
	balance += n;
}

int main(void)
{
	struct sigaction sa;
	struct pk_watch *w;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGTRAP, &sa, NULL);
	if (pk_watch_new((const void *)&balance, sizeof(balance), PK_WATCH_WRITE, 1, &w) < 0)
		return fprintf(stderr, "%s\n", pk_last_error()->why), 1;
	deposit(10);
	printf("balance written: %d hit at %s, ip %s deposit\n", (int)hits,
	       hit_addr == (unsigned long)&balance ? "&balance" : "?",
	       hit_ip > (unsigned long)deposit && hit_ip < (unsigned long)deposit + 256 ? "in" : "not in");
	limit = 5;				/* not watched */
	printf("limit written: %d hits\n", (int)hits);
	if (pk_watch_move(w, (const void *)&limit, sizeof(limit)) < 0)
		return fprintf(stderr, "%s\n", pk_last_error()->why), 1;
	limit = 6;
	printf("moved, limit written: %d hits, at %s\n", (int)hits,
	       hit_addr == (unsigned long)&limit ? "&limit" : "?");
	pk_watch_free(w);
	return 0;
}
