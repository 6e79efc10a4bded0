/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/scenario/config.c - "key = value" files, the one-line bad-input error, and
 * the value parsers (sizes, durations, booleans).
 *
 * Stage: CLI input, first of all.  Called by sim/scenario/scenario.c (scenario
 * files, --key=value options), sim/scenario/preset.c (machine files) and the CLI
 * (sim/cli/cli.c); calls only libc.
 *
 * Numbers are parsed as exact fixed-point decimals: "1.7ns" is 1700 ps and
 * "2.5M" is 2500000; a value that does not land on a whole unit of the
 * result ("1.5" operations, "0.1ps") or that overflows 64 bits is refused
 * rather than rounded, so a scenario means exactly what it says.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/scenario/config.h"
#include "sim/report/exit.h"

#define CMDLINE "command line"

/* Print @v on @out with control characters replaced: one line stays one. */
static void put_clean(FILE *out, const char *v)
{
	for (; *v; v++)
		fputc(iscntrl((unsigned char)*v) ? '?' : *v, out);
}

void sim_config_fail(const struct sim_origin *at, const char *key,
		     const char *expected, const char *value)
{
	int cmdline = !at || !at->file || !strcmp(at->file, CMDLINE);

	fflush(stdout);
	fputs("futexsim: ", stderr);
	if (cmdline)
		fputs(CMDLINE, stderr);
	else if (at->line > 0)
		fprintf(stderr, "%s:%d", at->file, at->line);
	else
		put_clean(stderr, at->file);
	if (key)
		fprintf(stderr, ": %s%s", cmdline ? "--" : "", key);
	fprintf(stderr, ": expected %s", expected);
	if (value) {
		fputs(", got '", stderr);
		put_clean(stderr, value);
		fputc('\'', stderr);
	}
	fputc('\n', stderr);
	exit(SIM_EXIT_INPUT);
}

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' ||
	       c == '\v' || c == '\f';
}

char *sim_config_trim(char *s)
{
	size_t n;

	while (is_blank(*s))
		s++;
	n = strlen(s);
	while (n && is_blank(s[n - 1]))
		s[--n] = '\0';
	return s;
}

static int valid_key(const char *k)
{
	if (!*k)
		return 0;
	for (; *k; k++)
		if (!(islower((unsigned char)*k) || isdigit((unsigned char)*k) ||
		      *k == '-'))
			return 0;
	return 1;
}

/* Parse one line (modified in place); calls @fn for a key = value line. */
static void parse_line(char *line, const struct sim_origin *at,
		       sim_config_fn *fn, void *ctx)
{
	char *p = sim_config_trim(line), *eq, *key, *value;

	if (!*p || *p == '#')
		return;
	/* A '#' after a blank starts a trailing comment. */
	for (char *c = p + 1; *c; c++) {
		if (*c == '#' && is_blank(c[-1])) {
			*c = '\0';
			break;
		}
	}
	p = sim_config_trim(p);
	eq = strchr(p, '=');
	if (!eq)
		sim_config_fail(at, NULL, "a 'key = value' line", p);
	*eq = '\0';
	key = sim_config_trim(p);
	value = sim_config_trim(eq + 1);
	if (!valid_key(key))
		sim_config_fail(at, *key ? key : NULL,
				"a key of lowercase letters, digits and '-' before '='",
				NULL);
	fn(ctx, key, value, at);
}

void sim_config_read(const char *path, const struct sim_origin *from,
		     const char *key, sim_config_fn *fn, void *ctx)
{
	struct sim_origin at = { .file = path, .line = 0 };
	char *line = NULL, expected[160];
	size_t cap = 0;
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		snprintf(expected, sizeof(expected), "a readable file (%s)",
			 strerror(errno));
		sim_config_fail(from, key, expected, path);
	}
	while (getline(&line, &cap, f) != -1) {
		at.line++;
		parse_line(line, &at, fn, ctx);
	}
	if (ferror(f)) {
		snprintf(expected, sizeof(expected), "a readable file (%s)",
			 strerror(errno));
		sim_config_fail(from, key, expected, path);
	}
	free(line);
	fclose(f);
}

void sim_config_each(const char *path, sim_config_fn *fn, void *ctx)
{
	struct sim_origin cmd = { .file = CMDLINE, .line = 0 };

	sim_config_read(path, &cmd, NULL, fn, ctx);
}

/*
 * parse_fixed - read "DIGITS[.DIGITS]" at *@sp, times @mult (a power of
 * ten), into @out exactly.  Advances *@sp past the number.
 * Return: 0, or -1 if there is no digit, the value overflows, or the
 * fraction has more digits than @mult can hold without rounding.
 */
static int parse_fixed(const char **sp, uint64_t mult, uint64_t *out)
{
	const char *s = *sp;
	uint64_t v = 0, scale = mult;
	int digits = 0;

	for (; isdigit((unsigned char)*s); s++, digits++)
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(*s - '0'), &v))
			return -1;
	if (__builtin_mul_overflow(v, mult, &v))
		return -1;
	if (*s == '.') {
		for (s++; isdigit((unsigned char)*s); s++, digits++) {
			int d = *s - '0';

			if (scale < 10) {
				if (d)
					return -1;	/* finer than one unit */
				continue;
			}
			scale /= 10;
			if (__builtin_add_overflow(v, d * scale, &v))
				return -1;
		}
	}
	if (!digits)
		return -1;
	*sp = s;
	*out = v;
	return 0;
}

int sim_parse_u64(const char *s, uint64_t *out)
{
	static const struct { char c; uint64_t mult; } sfx[] = {
		{ 'k', 1000ULL }, { 'K', 1000ULL }, { 'M', 1000000ULL },
		{ 'G', 1000000000ULL }, { 'T', 1000000000000ULL },
	};
	uint64_t mult = 1, v;
	const char *p;
	char num[64];
	size_t n = strlen(s);
	unsigned int i;

	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n + 1);
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		if (num[n - 1] == sfx[i].c) {
			mult = sfx[i].mult;
			num[--n] = '\0';
			break;
		}
	}
	p = num;
	if (parse_fixed(&p, mult, &v) || *p)
		return -1;
	*out = v;
	return 0;
}

static const struct { const char *name; uint64_t ps; } dur_units[] = {
	{ "s", 1000000000000ULL }, { "ms", 1000000000ULL },
	{ "us", 1000000ULL }, { "ns", 1000ULL },
};
#define NR_UNITS (int)(sizeof(dur_units) / sizeof(dur_units[0]))

int sim_parse_duration_ps(const char *s, uint64_t *out_ps)
{
	const char *p = s, *unit;
	uint64_t v;
	int i;

	/* Find the unit first: the number's scale depends on it. */
	while (isdigit((unsigned char)*p) || *p == '.')
		p++;
	unit = p;
	for (i = 0; i < NR_UNITS; i++)
		if (!strcmp(unit, dur_units[i].name))
			break;
	if (i == NR_UNITS || unit == s)
		return -1;
	p = s;
	if (parse_fixed(&p, dur_units[i].ps, &v) || p != unit)
		return -1;
	*out_ps = v;
	return 0;
}

int sim_parse_bool(const char *s, int *out)
{
	static const char *const yes[] = { "yes", "1", "true", "on" };
	static const char *const no[] = { "no", "0", "false", "off" };

	for (int i = 0; i < 4; i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = 1;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = 0;
			return 0;
		}
	}
	return -1;
}

const char *sim_format_duration_ps(uint64_t ps, char *buf, int len)
{
	int i, width;
	uint64_t unit, frac;

	/* The largest unit not above @ps (ns for anything below 1 ns). */
	for (i = 0; i < NR_UNITS - 1 && ps < dur_units[i].ps; i++)
		;
	unit = dur_units[i].ps;
	frac = ps % unit;
	if (!frac) {
		snprintf(buf, len, "%llu%s", (unsigned long long)(ps / unit),
			 dur_units[i].name);
		return buf;
	}
	for (width = 0; unit > 1; unit /= 10)
		width++;
	while (frac % 10 == 0) {
		frac /= 10;
		width--;
	}
	snprintf(buf, len, "%llu.%0*llu%s",
		 (unsigned long long)(ps / dur_units[i].ps), width,
		 (unsigned long long)frac, dur_units[i].name);
	return buf;
}
