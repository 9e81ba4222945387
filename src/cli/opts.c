/* SPDX-License-Identifier: MIT */
/*
 * opts.c - the CLI's one option table format: from a subcommand's static
 * table of options this builds getopt_long's short string and struct
 * option array, runs the loop (handing each option to the subcommand's
 * handler), turns every getopt error into one message that names the
 * option (with a "did you mean" for a mistyped long one), and prints
 * --help with the names aligned and the descriptions wrapped.
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#define HELP_WIDTH 80	/* help lines stay within 79 columns */

static size_t nr_opts(const struct cli_optset *set)
{
	size_t n = 0;

	while (set->opts[n].name || set->opts[n].letter)
		n++;
	return n;
}

/* getopt_long's short string ("+:e:F:z::...") and long array from the table. */
static int build(const struct cli_optset *set, char **shorts, struct option **longs)
{
	size_t n = nr_opts(set), k = 0;
	char *s = malloc(3 * n + 3), *p = s;
	struct option *l = calloc(n + 1, sizeof(*l));

	if (!s || !l) {
		free(s);
		free(l);
		return -ENOMEM;
	}
	if (set->stop_at_operand)	/* leave the command's own options alone */
		*p++ = '+';
	*p++ = ':';	/* a missing value is ':', not '?' */
	for (size_t i = 0; i < n; i++) {
		const struct cli_opt *o = &set->opts[i];

		if (o->letter) {
			*p++ = (char)o->letter;
			for (int c = 0; c < (int)o->arg; c++)
				*p++ = ':';
		}
		if (o->name)
			l[k++] = (struct option){ o->name, (int)o->arg, NULL, o->id };
	}
	*p = '\0';
	*shorts = s;
	*longs = l;
	return 0;
}

/* The table entry for long option `name` (of length len), or NULL. */
static const struct cli_opt *find_long(const struct cli_optset *set, const char *name, size_t len)
{
	for (const struct cli_opt *o = set->opts; o->name || o->letter; o++)
		if (o->name && strlen(o->name) == len && !strncmp(o->name, name, len))
			return o;
	return NULL;
}

/* A long option nobody declared: the nearest one, or a plain message. */
static int unknown_long(const struct cli_optset *set, const char *arg)
{
	size_t len = strcspn(arg + 2, "="), n = nr_opts(set), k = 0, matches = 0;
	const char **names = calloc(n + 1, sizeof(*names));
	char word[64];
	const char *near;

	for (size_t i = 0; names && i < n; i++)
		if (set->opts[i].name) {
			names[k++] = set->opts[i].name;
			matches += !strncmp(set->opts[i].name, arg + 2, len);
		}
	snprintf(word, sizeof(word), "%.*s", (int)(len < sizeof(word) ? len : sizeof(word) - 1), arg + 2);
	near = names && len < sizeof(word) ? pk_suggest(word, names, k) : NULL;
	free(names);
	if (matches > 1)
		return cli_usage(set->cmd, "option '--%s' is ambiguous: give more of its name", word);
	if (near)
		return cli_usage(set->cmd, "unknown option '--%.*s': did you mean '--%s'?", (int)len,
				 arg + 2, near);
	return cli_usage(set->cmd, "unknown option '--%.*s'", (int)len, arg + 2);
}

/* getopt's '?' or ':' for the option that argv[optind - 1] holds. */
static int report(const struct cli_optset *set, int argc, char **argv, int c)
{
	const char *arg = optind > 0 && optind - 1 < argc ? argv[optind - 1] : "?";
	bool is_long = !strncmp(arg, "--", 2);
	size_t len = is_long ? strcspn(arg + 2, "=") : 0;

	if (c == ':' && !is_long)
		return cli_usage(set->cmd, "option '-%c' needs a value", optopt);
	if (c == ':')
		return cli_usage(set->cmd, "option '--%.*s' needs a value", (int)len, arg + 2);
	if (!is_long)
		return cli_usage(set->cmd, "unknown option '-%c'", optopt ? optopt : '?');
	if (arg[2 + len] == '=' && find_long(set, arg + 2, len))
		return cli_usage(set->cmd, "option '--%.*s' takes no value", (int)len, arg + 2);
	return unknown_long(set, arg);
}

int cli_opts_parse(const struct cli_optset *set, int argc, char **argv, cli_opt_fn *handle,
		   void *ctx)
{
	struct option *longs;
	char *shorts;
	int c, status = 0;

	if (build(set, &shorts, &longs) < 0)
		return cli_usage(set->cmd, "out of memory");
	optind = 1;
	opterr = 0;
	while (!status && (c = getopt_long(argc, argv, shorts, longs, NULL)) != -1) {
		if (c == '?' || c == ':')
			status = report(set, argc, argv, c);
		else if (c == CLI_OPT_HELP)
			cli_opts_help(set, stdout), status = -1;
		else
			status = handle(ctx, c, optarg);
	}
	free(shorts);
	free(longs);
	return status;
}

/* ---- --help ----------------------------------------------------------------- */

/* The left column of one option: "-e, --event EVENTS", "-z[N]", "--append". */
static size_t names(char *buf, size_t size, const struct cli_opt *o, bool indent)
{
	const char *mv = o->metavar && o->arg != CLI_ARG_NONE ? o->metavar : "";
	bool opt = o->arg == CLI_ARG_OPTIONAL;
	/* "--name VALUE", "--name=VALUE", "--name[=VALUE]" */
	const char *sep = !mv[0] || mv[0] == '=' ? "" : opt ? "=" : " ";
	char shrt[8] = "";
	int n;

	if (o->letter)
		snprintf(shrt, sizeof(shrt), "-%c", o->letter);
	if (!o->name)
		n = snprintf(buf, size, "%s%s%s%s", shrt, opt ? "[" : mv[0] ? " " : "", mv,
			     opt ? "]" : "");
	else
		n = snprintf(buf, size, "%s%s%s%s%s%s--%s%s%s%s%s", indent && !o->letter ? "    " : "",
			     shrt, opt && o->letter ? "[" : "", opt && o->letter ? mv : "",
			     opt && o->letter ? "]" : "", o->letter ? ", " : "",
			     o->name, opt ? "[" : "", sep, mv, opt ? "]" : "");
	return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
}

/* `text` from column `col`, words wrapped to HELP_WIDTH; '\n' breaks a line. */
static void wrap(FILE *f, const char *text, int col, int at)
{
	const char *p = text;

	while (*p) {
		size_t word = strcspn(p, " \n");

		if (at > col && at + 1 + (int)word >= HELP_WIDTH) {
			fprintf(f, "\n%*s", col, "");
			at = col;
		} else if (at > col) {
			fputc(' ', f);
			at++;
		}
		fwrite(p, 1, word, f);
		at += (int)word;
		p += word;
		if (*p == '\n') {
			fprintf(f, "\n%*s", col, "");
			at = col;
		}
		p += strspn(p, " \n") ? 1 : 0;
	}
	fputc('\n', f);
}

void cli_opts_help(const struct cli_optset *set, FILE *f)
{
	bool shorts = false;
	char left[256];
	size_t len = 0;

	for (const struct cli_opt *o = set->opts; o->name || o->letter; o++)
		shorts |= o->letter != 0;
	fprintf(f, "%s\n", set->usage);
	for (const struct cli_opt *o = set->opts; o->name || o->letter; o++) {
		if (o->hidden)
			continue;
		/* Options described together share one left column. */
		len += len ? (size_t)snprintf(left + len, sizeof(left) - len, ", ") : 0;
		len += names(left + len, sizeof(left) - len, o, shorts && len == 0);
		if (len >= sizeof(left))
			len = sizeof(left) - 1;
		if (o->with_next)
			continue;
		fprintf(f, "  %s", left);
		/* A long left column puts the description on the next line. */
		if (2 + len + 2 > CLI_HELP_COLUMN)
			fprintf(f, "\n%*s", CLI_HELP_COLUMN, "");
		else
			fprintf(f, "%*s", (int)(CLI_HELP_COLUMN - 2 - len), "");
		wrap(f, o->help, CLI_HELP_COLUMN, CLI_HELP_COLUMN);
		len = 0;
	}
	if (set->epilogue)
		fprintf(f, "\n%s\n", set->epilogue);
}
