/* SPDX-License-Identifier: MIT */
/*
 * perfconfig.c - the settings perfkit shares with perf: perf's config
 * files (/etc/perfconfig, then ~/.perfconfig, or only $PERF_CONFIG; the
 * git-style "[section] key = value" format) and the build-id cache
 * directory they and the environment choose.  The library takes the
 * directory as an argument; finding it is the CLI's job, here.
 */
#include "cli.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A value as perf's (and git's) config parser reads it: blanks around it
 * dropped, "quoted parts" kept as written, \" \\ \n \t \b escapes, and a
 * # or ; outside quotes starting a comment.  In place. */
static char *config_value(char *p)
{
	char *out = p, *start = p, *end = p;
	bool quote = false;

	while (*p == ' ' || *p == '\t')
		p++;
	for (; *p && *p != '\n' && *p != '\r'; p++) {
		if (!quote && (*p == '#' || *p == ';'))
			break;
		if (*p == '"') {
			quote = !quote;
			end = out;
			continue;
		}
		if (*p == '\\' && p[1]) {
			static const char from[] = "\"\\ntb", to[] = "\"\\\n\t\b";
			const char *e = strchr(from, *++p);

			*out++ = e ? to[e - from] : *p;
			end = out;
			continue;
		}
		*out++ = *p;
		if (quote || (*p != ' ' && *p != '\t'))
			end = out;
	}
	*end = '\0';
	return start;
}

/* Look `key` ("buildid.dir") up in one file; the last setting wins, so a
 * later file's overrides an earlier one's.  True when found. */
static bool config_file_get(const char *file, const char *key, char *out, size_t len)
{
	FILE *f = fopen(file, "re");
	char *line = NULL, section[64] = "";
	size_t cap = 0, slen;
	bool found = false;

	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
		char *p = line, *name, *value = NULL;
		size_t n;

		while (isspace((unsigned char)*p))
			p++;
		if (*p == '[') {	/* [section] or [section "sub"]: the section's name */
			n = strcspn(++p, " \t\"].");
			snprintf(section, sizeof(section), "%.*s", (int)n, p);
			continue;
		}
		name = p;
		while (isalnum((unsigned char)*p) || *p == '-' || *p == '_')
			p++;
		if (p == name)
			continue;	/* a comment, a blank line, or not a setting */
		n = (size_t)(p - name);
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '=')
			value = config_value(p + 1);
		slen = strlen(section);
		if (value && !strncasecmp(key, section, slen) && key[slen] == '.' &&
		    !strncasecmp(key + slen + 1, name, n) && !key[slen + 1 + n]) {
			snprintf(out, len, "%s", value);
			found = true;
		}
	}
	free(line);
	fclose(f);
	return found;
}

/* perf_config_bool's "true": yes, on, true or a non-zero number. */
static bool env_true(const char *name)
{
	const char *v = getenv(name);

	if (!v)
		return false;
	return !strcasecmp(v, "yes") || !strcasecmp(v, "on") || !strcasecmp(v, "true") || atoi(v) != 0;
}

/* perf's order: $PERF_CONFIG alone when set; else /etc/perfconfig (unless
 * PERF_CONFIG_NOSYSTEM) and then ~/.perfconfig (unless PERF_CONFIG_NOGLOBAL). */
static bool config_get(const char *key, char *out, size_t len)
{
	const char *only = getenv("PERF_CONFIG"), *home = getenv("HOME");
	bool found = false;
	char *user;

	if (only)
		return config_file_get(only, key, out, len);
	if (!env_true("PERF_CONFIG_NOSYSTEM"))
		found = config_file_get("/etc/perfconfig", key, out, len);
	if (home && *home && !env_true("PERF_CONFIG_NOGLOBAL") &&
	    asprintf(&user, "%s/.perfconfig", home) >= 0) {
		found |= config_file_get(user, key, out, len);
		free(user);
	}
	return found;
}

const char *cli_buildid_dir(char *buf, size_t len)
{
	const char *env = getenv("PERFKIT_BUILDID_DIR"), *home = getenv("HOME");
	int n;

	if (cli_symfs_cache(buf, len))
		return buf;
	if (!env || !*env)
		env = getenv("PERF_BUILDID_DIR");
	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (config_get("buildid.dir", buf, len) && *buf)
		n = (int)strlen(buf);
	else	/* perf's default, ".debug" here when there is no HOME */
		n = snprintf(buf, len, "%s%s.debug", home ? home : "", home ? "/" : "");
	return n > 0 && (size_t)n < len - 1 ? buf : NULL;
}
