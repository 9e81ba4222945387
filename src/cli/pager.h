/* SPDX-License-Identifier: MIT */
/*
 * pager.h - perf's pager and colour for a subcommand's text output
 * (pager.c): shared by report and script.
 */
#ifndef PK_CLI_PAGER_H
#define PK_CLI_PAGER_H

#include <stdbool.h>
#include <stdio.h>

/*
 * cli_pager_start - when stdout is a terminal, send it through perf's
 * pager: $PERF_PAGER, else $PAGER, else /usr/bin/pager, else
 * /usr/bin/less ("" or "cat" for none), run by `sh -c` with LESS=FRSX
 * unless LESS is set, started once the first output is there; stderr
 * goes to it too when a terminal.  `perfkit --no-pager` sets PERF_PAGER
 * to cat.  Returns true when a pager runs (then call cli_pager_finish).
 */
bool cli_pager_start(void);

/* cli_pager_force - send stdout (and a terminal's stderr) through the
 * shell command prog whether or not stdout is a terminal (perf's
 * force_pager, for script --xed).  True when it runs. */
bool cli_pager_force(const char *prog);

/* cli_pager_finish - flush stdout and stderr, close them to the pager
 * and wait for it to exit (the user quits it).  No-op without a pager. */
void cli_pager_finish(void);

/* cli_pager_active - whether cli_pager_start started one. */
bool cli_pager_active(void);

/* The --stdio-color modes. */
enum cli_color { CLI_COLOR_AUTO, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER };

/* cli_color_parse - perf's --stdio-color argument ("always", "never",
 * "auto"; NULL is always) into *mode.  0, or CLI_EXIT_USAGE after a
 * message naming cmd. */
int cli_color_parse(const char *cmd, const char *arg, enum cli_color *mode);

/* cli_color_use - whether to colour: always, never, or (auto) when
 * stdout is a terminal or goes to the pager. */
bool cli_color_use(enum cli_color mode);

/* perf's colours for a percentage: red from 5%, green above 0.5%, else
 * none (NULL). */
const char *cli_percent_color(double percent);

/* The escape that ends a colour. */
#define CLI_COLOR_RESET "\033[m"

/*
 * cli_progress - perf-style progress on stderr while a file is read:
 * nothing for the first second or when stderr is not a terminal, then
 * one line rewritten in place ("Processing events... 42%", without the
 * figure when total is 0: unknown), erased by
 * cli_progress_done.  `done` and `total` in any unit (bytes).
 */
struct cli_progress {
	double start;		/* CLOCK_MONOTONIC seconds at cli_progress_init */
	double last;		/* when the line was last drawn; 0 never */
	bool tty;
	int last_pct;
};
void cli_progress_init(struct cli_progress *p);
void cli_progress_update(struct cli_progress *p, unsigned long long done, unsigned long long total);
void cli_progress_done(struct cli_progress *p);

#endif
