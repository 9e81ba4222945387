/* SPDX-License-Identifier: MIT */
/*
 * alloc.c - the library's allocator: malloc, calloc, realloc and strdup
 * wrappers that record an out-of-memory error when they fail, so that a
 * caller which only returns -ENOMEM still leaves a true pk_last_error(),
 * plus a per-thread test seam that makes the Nth allocation fail so unit
 * tests can walk every out-of-memory path of a public call.
 */
#include "sys.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Allocations left before the one that fails; 0 means none fails. */
static _Thread_local unsigned long fail_countdown;

unsigned long pk__alloc_fail_nth(unsigned long nth)
{
	unsigned long left = fail_countdown;

	fail_countdown = nth;
	return left;
}

/* True when the seam says this allocation fails (it fails only once). */
static bool seam_fails(void)
{
	if (!fail_countdown)
		return false;
	return --fail_countdown == 0;
}

static void *failed(size_t size)
{
	pk__error(-ENOMEM, "allocate memory", "out of memory allocating %zu bytes", size);
	errno = ENOMEM;
	return NULL;
}

void *pk__malloc(size_t size)
{
	void *p = seam_fails() ? NULL : malloc(size ? size : 1);

	return p ? p : failed(size);
}

void *pk__calloc(size_t nmemb, size_t size)
{
	void *p = NULL;

	/* Zero members still gets a unique pointer, as callers free it. */
	if (!seam_fails())
		p = calloc(nmemb ? nmemb : 1, size ? size : 1);
	if (p)
		return p;
	return failed(size && nmemb > SIZE_MAX / size ? SIZE_MAX : nmemb * size);
}

void *pk__realloc(void *ptr, size_t size)
{
	void *p = seam_fails() ? NULL : realloc(ptr, size ? size : 1);

	return p ? p : failed(size);
}

void *pk__reallocarray(void *ptr, size_t nmemb, size_t size)
{
	if (size && nmemb > SIZE_MAX / size)
		return failed(SIZE_MAX);
	return pk__realloc(ptr, nmemb * size);
}

char *pk__strdup(const char *s)
{
	return pk__strndup(s, strlen(s));
}

char *pk__strndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = pk__malloc(len + 1);

	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

int pk__asprintf(char **out, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -1;
	*out = pk__malloc((size_t)n + 1);
	if (!*out)
		return -1;
	va_start(ap, fmt);
	vsnprintf(*out, (size_t)n + 1, fmt, ap);
	va_end(ap);
	return n;
}

void *pk__memalign(size_t align, size_t size)
{
	void *p = NULL;

	if (seam_fails() || posix_memalign(&p, align, size ? size : 1))
		return failed(size);
	return p;
}
