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

void (*sim_config_fail_hook)(void);

/*
 * The length of the valid UTF-8 sequence at @s of a printable character
 * (U+00A0 and above), or 0: C1 controls (U+0080..U+009F), overlong and
 * broken sequences are escaped like the C0 controls.
 */
static int utf8_printable(const unsigned char *s)
{
	unsigned int cp, n, i;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	cp = s[0] & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < 0xa0 || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return (int)n;
}

void sim_config_put_clean(FILE *out, const char *v, size_t max)
{
	const unsigned char *s = (const unsigned char *)v;
	size_t shown = 0;

	while (*s) {
		int n = *s >= 0x80 ? utf8_printable(s) : 1;

		if (shown >= max) {
			fputs("...", out);
			return;
		}
		if (n && (*s >= 0x80 || (*s >= 0x20 && *s != 0x7f))) {
			fwrite(s, 1, (size_t)n, out);
			s += n;
		} else {
			fprintf(out, "\\x%02x", *s++);
		}
		shown++;
	}
}

int sim_config_clean(const char *v)
{
	const unsigned char *s = (const unsigned char *)v;

	while (*s) {
		int n = *s >= 0x80 ? utf8_printable(s) : 1;

		if (!n || (*s < 0x20 && *s != '\t') || *s == 0x7f)
			return 0;
		s += n;
	}
	return 1;
}

/* What an error line shows of an input: a cut, cleaned excerpt. */
#define SHOW_MAX	120

static void put_clean(FILE *out, const char *v)
{
	sim_config_put_clean(out, v, SHOW_MAX);
}

void sim_config_fail(const struct sim_origin *at, const char *key,
		     const char *expected, const char *value)
{
	int cmdline = !at || !at->file || !strcmp(at->file, CMDLINE);
	char *msg = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&msg, &len);

	fflush(stdout);
	if (!out)	/* no memory: the line, written piecewise */
		out = stderr;
	fputs("futexsim: ", out);
	if (cmdline)
		fputs(CMDLINE, out);
	else
		put_clean(out, at->file);
	if (!cmdline && at->line > 0)
		fprintf(out, ":%d", at->line);
	if (key) {
		fprintf(out, ": %s", cmdline ? "--" : "");
		put_clean(out, key);
	}
	fprintf(out, ": expected %s", expected);
	if (value) {
		fputs(", got '", out);
		put_clean(out, value);
		fputc('\'', out);
	}
	fputc('\n', out);
	if (out != stderr) {
		fclose(out);
		fwrite(msg, 1, len, stderr);
		free(msg);
	}
	if (sim_config_fail_hook)
		sim_config_fail_hook();
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

int sim_config_split(char *line, const struct sim_origin *at, char **key,
		     char **value)
{
	char *p = sim_config_trim(line), *eq, *end, *r, *w;
	int prev_blank;

	if (!*p || *p == '#')
		return 0;
	/* A '#' after a blank starts a trailing comment, also before '='. */
	eq = strchr(p, '=');
	end = eq ? eq : p + strlen(p);
	for (char *c = p + 1; c < end; c++) {
		if (*c == '#' && is_blank(c[-1])) {
			*c = '\0';
			eq = NULL;
			break;
		}
	}
	if (!eq)
		sim_config_fail(at, NULL, "a 'key = value' line",
				sim_config_trim(p));
	*eq = '\0';
	*key = sim_config_trim(p);
	if (!valid_key(*key))
		sim_config_fail(at, **key ? *key : NULL,
				"a key of lowercase letters, digits and '-' before '='",
				NULL);
	/* The value: "\\#" is '#', "\\\\" is '\\', an unescaped '#' after a blank
	 * ends it. */
	r = eq + 1;
	while (is_blank(*r))
		r++;
	prev_blank = is_blank(r[-1]);
	for (*value = w = r; *r; ) {
		if (*r == '\\' && (r[1] == '#' || r[1] == '\\')) {
			*w++ = r[1];
			r += 2;
			prev_blank = 0;
			continue;
		}
		if (*r == '#' && prev_blank)
			break;
		prev_blank = is_blank(*r);
		*w++ = *r++;
	}
	*w = '\0';
	sim_config_trim(*value);
	return 1;
}

void sim_config_put_value(FILE *out, const char *v)
{
	for (; *v; v++) {
		if (*v == '#' || (*v == '\\' && (v[1] == '#' || v[1] == '\\')))
			fputc('\\', out);
		fputc(*v, out);
	}
}

/*
 * read_line - the next line of @f into @buf (@cap bytes), without its
 * newline.  A line longer than SIM_CONFIG_LINE_MAX or with a NUL byte is
 * bad input at @at (a cut, cleaned excerpt is shown); a read error is
 * bad input of @from's @key.
 * Return: 1, or 0 at the end of the file.
 */
static int read_line(FILE *f, char *buf, size_t cap,
		     const struct sim_origin *at,
		     const struct sim_origin *from, const char *key)
{
	char expected[160];
	size_t n = 0;
	int c;

	while ((c = getc(f)) != EOF && c != '\n') {
		if (!c)
			sim_config_fail(at, NULL,
					"a text file (this line has a NUL byte)",
					NULL);
		if (n == cap - 1) {
			buf[n] = '\0';
			snprintf(expected, sizeof(expected),
				 "a line of at most %zu bytes (this one is longer)",
				 cap - 1);
			sim_config_fail(at, NULL, expected, buf);
		}
		buf[n++] = (char)c;
	}
	if (c == EOF && ferror(f)) {
		snprintf(expected, sizeof(expected), "a readable file (%s)",
			 strerror(errno));
		sim_config_fail(from, key, expected, at->file);
	}
	buf[n] = '\0';
	return c != EOF || n;
}

void sim_config_read(const char *path, const struct sim_origin *from,
		     const char *key, sim_config_fn *fn, void *ctx)
{
	struct sim_origin at = { .file = path, .line = 0 };
	char *line, *k, *v, expected[160];
	FILE *f;

	f = fopen(path, "r");
	if (!f) {
		snprintf(expected, sizeof(expected), "a readable file (%s)",
			 strerror(errno));
		sim_config_fail(from, key, expected, path);
	}
	line = malloc(SIM_CONFIG_LINE_MAX + 1);
	if (!line) {
		fprintf(stderr, "futexsim: out of memory reading %s\n", path);
		exit(SIM_EXIT_HOST);
	}
	while (at.line++,
	       read_line(f, line, SIM_CONFIG_LINE_MAX + 1, &at, from, key)) {
		if (sim_config_split(line, &at, &k, &v))
			fn(ctx, k, v, &at);
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
