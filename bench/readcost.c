/* SPDX-License-Identifier: MIT */
/*
 * readcost.c - what reading a file out of the page cache costs here, with
 * nothing else done: pread(2) into a reused buffer (page-aligned, or put
 * OFF bytes off the source's grid), or a sliding mmap(2) window (plain,
 * MAP_POPULATE, MADV_SEQUENTIAL), one byte of each page touched.  The
 * floor of any reader of a file that size (bench/readcost.sh).
 * usage: readcost FILE pread|mmap|mmappop|mmapseq WINDOW-KB [OFF]
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static unsigned long by_pread(int fd, size_t size, size_t win, size_t off)
{
	unsigned char *mem = aligned_alloc(4096, win + 4096), *b = mem + off;
	unsigned long sum = 0;

	if (!mem)
		exit(1);
	for (size_t at = 0; at < size; at += win) {
		ssize_t n = pread(fd, b, win, (off_t)at);

		for (ssize_t i = 0; i < n; i += 4096)
			sum += b[i];
	}
	free(mem);
	return sum;
}

static unsigned long by_mmap(int fd, size_t size, size_t win, int flags, int advice)
{
	unsigned long sum = 0;

	for (size_t at = 0; at < size; at += win) {
		size_t n = size - at < win ? size - at : win;
		unsigned char *p = mmap(NULL, n, PROT_READ, MAP_PRIVATE | flags, fd, (off_t)at);

		if (p == MAP_FAILED)
			exit(1);
		if (advice)
			madvise(p, n, advice);
		for (size_t i = 0; i < n; i += 4096)
			sum += p[i];
		munmap(p, n);
	}
	return sum;
}

int main(int argc, char **argv)
{
	struct stat st;
	size_t win, off;
	unsigned long sum;
	double t0;
	int fd;

	if (argc < 4 || (fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "usage: readcost FILE pread|mmap|mmappop|mmapseq WINDOW-KB [OFF]\n");
		return 2;
	}
	win = (size_t)strtoul(argv[3], NULL, 10) << 10;
	off = argc > 4 ? (size_t)strtoul(argv[4], NULL, 10) % 4096 : 0;
	t0 = now_ms();
	if (!strcmp(argv[2], "pread"))
		sum = by_pread(fd, (size_t)st.st_size, win, off);
	else if (!strcmp(argv[2], "mmappop"))
		sum = by_mmap(fd, (size_t)st.st_size, win, MAP_POPULATE, 0);
	else if (!strcmp(argv[2], "mmapseq"))
		sum = by_mmap(fd, (size_t)st.st_size, win, 0, MADV_SEQUENTIAL);
	else
		sum = by_mmap(fd, (size_t)st.st_size, win, 0, 0);
	printf("%-8s %6zu KB window, %4zu bytes off: %7.1f ms (%lu)\n", argv[2], win >> 10, off,
	       now_ms() - t0, sum);
	return 0;
}
