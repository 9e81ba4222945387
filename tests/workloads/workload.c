/* SPDX-License-Identifier: MIT */
/*
 * workload.c - deterministic workloads whose software-event counts are known
 * in advance, for checking perfkit stat against the expected numbers and
 * against perf stat on the same run:
 *   pages N      touch N fresh pages (N minor page faults)
 *   pingpong N   two processes bounce a byte N times over pipes (about 2N
 *                context switches: every read blocks)
 *   children K   fork K children that each touch 100 pages and exit
 *   threads K    start K threads that each touch 100 pages
 *   hot MS       spin for roughly MS milliseconds of CPU in two identical
 *                loops, hot_a called twice for each call of hot_b (for
 *                comparing profile shares with perf's)
 *   hotb MS      the same split the other way round: hot_b twice for each
 *                call of hot_a (two profiles to compare with perf diff)
 *   clock MS     call clock_gettime(CLOCK_MONOTONIC) for MS ms of wall time
 *                (samples that land in the vDSO)
 *   selfframe N  spin N million rounds with the frame pointer on a frame
 *                that names itself as the next one and 0 as the return
 *                address: the kernel's frame-pointer walk then stores
 *                zeros until kernel.perf_event_max_stack (a corrupt user
 *                stack, as perf and perfkit must both show it)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void touch(long pages)
{
	long sz = sysconf(_SC_PAGESIZE);
	volatile char *p = mmap(NULL, (size_t)(pages * sz), PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	for (long i = 0; i < pages; i++)
		p[i * sz] = 1;
	munmap((void *)p, (size_t)(pages * sz));
}

static void pingpong(long n)
{
	int ab[2], ba[2];
	char c = 0;
	pid_t pid;

	if (pipe(ab) || pipe(ba)) {
		perror("pipe");
		exit(1);
	}
	pid = fork();
	if (pid == 0) {
		/* Only our ends: when the parent dies, read() sees EOF and we exit. */
		close(ab[1]);
		close(ba[0]);
		for (long i = 0; i < n; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	close(ab[0]);
	close(ba[1]);
	for (long i = 0; i < n; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			exit(1);
	waitpid(pid, NULL, 0);
}

static volatile unsigned long sink;

/* Leaf functions the compiler must keep: samples land in them by name. */
__attribute__((noinline)) void hot_a(unsigned long n);
__attribute__((noinline)) void hot_b(unsigned long n);

__attribute__((noinline)) void hot_a(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

__attribute__((noinline)) void hot_b(unsigned long n)
{
	for (unsigned long i = 0; i < n; i++)
		sink += i;
}

/* Calibrate a chunk of about 1 ms of CPU, then split MS of them 2:1. */
static void hot(long ms)
{
	struct timespec t0, t1;
	unsigned long chunk = 100000;
	double took;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	hot_b(chunk);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	took = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	if (took > 0)
		chunk = (unsigned long)((double)chunk / took);
	for (long i = 0; i < ms; i++) {
		if (i % 3 == 2)
			hot_b(chunk);
		else
			hot_a(chunk);
	}
}

/* hot's split the other way round.  A function of its own, so that hot and
 * main compile as they did before it came (other tests' call chains walk
 * their frames). */
__attribute__((noinline)) static void hot_reversed(long ms)
{
	struct timespec t0, t1;
	unsigned long chunk = 100000;
	double took;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	hot_a(chunk);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	took = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	if (took > 0)
		chunk = (unsigned long)((double)chunk / took);
	for (long i = 0; i < ms; i++) {
		if (i % 3 == 2)
			hot_a(chunk);
		else
			hot_b(chunk);
	}
}

/* MS ms of wall time, most of the CPU in the vDSO's clock_gettime. */
static void clock_loop(long ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

/* N million rounds with %rbp on a frame {itself, 0}. */
static void selfframe(long millions)
{
	static unsigned long frame[2];

	frame[0] = (unsigned long)frame;
	frame[1] = 0;
	for (long i = 0; i < millions; i++)
		__asm__ volatile("push %%rbp\n\t"
				 "mov %0, %%rbp\n\t"
				 "mov $1000000, %%rcx\n"
				 "1:\tdec %%rcx\n\t"
				 "jnz 1b\n\t"
				 "pop %%rbp"
				 : : "r"(frame) : "rcx", "memory", "cc");
}

static void *thread_main(void *arg)
{
	(void)arg;
	touch(100);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (argc != 3 || n <= 0 || n > 10000000) {
		fprintf(stderr, "usage: %s pages|pingpong|children|threads|hot|hotb|clock|selfframe N\n", argv[0]);
		return 2;
	}
	if (!strcmp(argv[1], "pages")) {
		touch(n);
	} else if (!strcmp(argv[1], "pingpong")) {
		pingpong(n);
	} else if (!strcmp(argv[1], "children")) {
		for (long i = 0; i < n; i++) {
			pid_t pid = fork();

			if (pid == 0) {
				touch(100);
				_exit(0);
			}
			waitpid(pid, NULL, 0);
		}
	} else if (!strcmp(argv[1], "hot")) {
		hot(n);
	} else if (!strcmp(argv[1], "clock")) {
		clock_loop(n);
	} else if (!strcmp(argv[1], "selfframe")) {
		selfframe(n);
	} else if (!strcmp(argv[1], "hotb")) {
		hot_reversed(n);
	} else if (!strcmp(argv[1], "threads")) {
		pthread_t *t = calloc((size_t)n, sizeof(*t));

		for (long i = 0; t && i < n; i++)
			pthread_create(&t[i], NULL, thread_main, NULL);
		for (long i = 0; t && i < n; i++)
			pthread_join(t[i], NULL);
		free(t);
	} else {
		fprintf(stderr, "unknown workload '%s'\n", argv[1]);
		return 2;
	}
	return 0;
}
