/* SPDX-License-Identifier: MIT */
/* markers.c - named regions of this program, summed per name and thread. */
#include <perfkit.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

/* The work: 1024 fresh pages each call (page faults), and a result to print. */
static int parse(int i)
{
	char *p = mmap(NULL, 1 << 22, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int v;

	if (p == MAP_FAILED)
		return -1;
	memset(p, i + 1, 1 << 22);
	v = p[i << 12];
	munmap(p, 1 << 22);
	return v;
}

int main(void)
{
	struct pk_markers *m;
	int sum = 0;

	if (pk_markers_new("task-clock,page-faults", &m) < 0)
		return fprintf(stderr, "%s\n", pk_last_error()->why), 1;
	for (int i = 0; i < 3; i++) {
		pk_markers_begin(m, "parse");
		sum += parse(i);
		pk_markers_end(m, "parse");
	}
	pk_markers_print(m, stdout);
	printf("work %d\n", sum);
	pk_markers_free(m);
	return 0;
}
