/* SPDX-License-Identifier: MIT */
/*
 * fuzz_metric_expr.c - libFuzzer target for the metric expression
 * evaluator (pk_metric_expr_eval) that perfkit stat -M runs on its table's
 * formulas.  Input: the expression.  Each event name gets a value derived
 * from its bytes.  The properties checked, with abort() on a violation:
 * every name handed to the lookup is non-empty, at most 256 bytes and
 * without a NUL (escapes undone: '\\' makes any character part of a name,
 * '@' becomes '/'); a success gives a value that is not NaN and is reproduced by
 * a second evaluation; a failure is -EINVAL, -E2BIG or -EDOM and leaves
 * the result untouched.  fuzz_replay_metric_expr runs the committed corpus
 * (fuzz/corpus/metric_expr) as a unit test.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "perfkit.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	return 0;
}

static int lookup(void *arg, const char *name, size_t len, double *v)
{
	unsigned h = 0;

	(void)arg;
	if (len == 0 || len > 256 || memchr(name, 0, len))
		abort();
	for (size_t i = 0; i < len; i++)
		h = h * 31 + (unsigned char)name[i];
	*v = (double)(h % 1000);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	double v = 12345, w = 54321;
	int err;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = 0;
	err = pk_metric_expr_eval(s, lookup, NULL, &v);
	if (err == 0) {
		if (isnan(v) || pk_metric_expr_eval(s, lookup, NULL, &w) != 0 ||
		    memcmp(&v, &w, sizeof(v)) != 0)
			abort();
	} else if ((err != -EINVAL && err != -E2BIG && err != -EDOM) || v != 12345) {
		abort();
	}
	free(s);
	return 0;
}
