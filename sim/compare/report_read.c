/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/compare/report_read.c - read back a run's JSON file (see
 * sim/compare/report_read.h).
 *
 * Stage: beside the flow, after a run.  Called by sim/compare/compare.c
 * for every run it makes; calls libc only.
 *
 * A recursive-descent reader of strict JSON that walks the whole
 * document, checks its syntax, and keeps, for each element k of the
 * top-level "results" array, its "lock" string and every number under
 * it by its dotted path ("acquire_ns.p99"; "a.b[2].c" inside arrays).
 * Depth is bounded, so a hostile file cannot exhaust the stack.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/compare/report_read.h"

#define MAX_DEPTH	32

struct reader {
	const char *p;			/* the read position		*/
	struct sim_rr_report *r;
	int cur;			/* the result being read, or -1	*/
	char *why;			/* the first error, said once	*/
	int len;
	int failed;
};

static int fail(struct reader *rd, const char *fmt, ...)
{
	va_list ap;

	if (!rd->failed) {
		va_start(ap, fmt);
		vsnprintf(rd->why, (size_t)rd->len, fmt, ap);
		va_end(ap);
	}
	rd->failed = 1;
	return -1;
}

static void ws(struct reader *rd)
{
	while (*rd->p == ' ' || *rd->p == '\n' || *rd->p == '\t' ||
	       *rd->p == '\r')
		rd->p++;
}

static int hexval(char c)
{
	return c >= '0' && c <= '9' ? c - '0' :
	       c >= 'a' && c <= 'f' ? c - 'a' + 10 :
	       c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* A string into @out (@len bytes, cut): escapes decoded, a \u escape
 * beyond ASCII kept as '?'. */
static int string(struct reader *rd, char *out, size_t len)
{
	size_t o = 0;
	char c;

	if (*rd->p++ != '"')
		return fail(rd, "a string expected");
	while ((c = *rd->p++) != '"') {
		if ((unsigned char)c < 0x20)
			return fail(rd, "a control character or the end inside a string");
		if (c == '\\') {
			const char *esc = strchr("\"\\/bfnrtu", *rd->p);

			if (!*rd->p || !esc)
				return fail(rd, "a bad escape in a string");
			c = "\"\\/\b\f\n\r\t?"[esc - "\"\\/bfnrtu"];
			if (*rd->p++ == 'u') {
				unsigned int u = 0;

				for (int i = 0; i < 4; i++) {
					int h = hexval(*rd->p++);

					if (h < 0)
						return fail(rd, "a bad \\u escape in a string");
					u = u * 16 + (unsigned int)h;
				}
				c = u && u < 0x80 ? (char)u : '?';
			}
		}
		if (o + 1 < len)
			out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

static int digits(struct reader *rd)
{
	if (*rd->p < '0' || *rd->p > '9')
		return fail(rd, "a digit expected in a number");
	while (*rd->p >= '0' && *rd->p <= '9')
		rd->p++;
	return 0;
}

static int number(struct reader *rd, double *v)
{
	const char *b = rd->p;

	if (*rd->p == '-')
		rd->p++;
	if (*rd->p == '0')
		rd->p++;
	else if (digits(rd))
		return -1;
	if (*rd->p == '.') {
		rd->p++;
		if (digits(rd))
			return -1;
	}
	if (*rd->p == 'e' || *rd->p == 'E') {
		rd->p++;
		if (*rd->p == '+' || *rd->p == '-')
			rd->p++;
		if (digits(rd))
			return -1;
	}
	*v = strtod(b, NULL);
	return 0;
}

/* Keep number @v at @path of the current result, unless under "host". */
static void keep(struct reader *rd, const char *path, double v)
{
	struct sim_rr_lock *l;

	if (rd->cur < 0 || !strncmp(path, "host", 4) ||
	    strlen(path) >= SIM_RR_KEY)
		return;
	l = &rd->r->lock[rd->cur];
	if (l->nr >= SIM_RR_FIELDS)
		return;
	memcpy(l->key[l->nr], path, strlen(path) + 1);
	l->v[l->nr++] = v;
}

static int value(struct reader *rd, const char *path, int depth);

/* @path with ".@key" (or "@key" at the top) or "[@idx]" into @out. */
static void join(char *out, size_t len, const char *path, const char *key,
		 int idx)
{
	if (key)
		snprintf(out, len, "%s%s%s", path, *path ? "." : "", key);
	else
		snprintf(out, len, "%s[%d]", path, idx);
}

/* The "results" array: each element a result of its own. */
static int results(struct reader *rd, int depth)
{
	int k = 0;

	if (*rd->p != '[')
		return fail(rd, "\"results\" is not an array");
	rd->p++;
	rd->r->nr_locks = 0;
	ws(rd);
	if (*rd->p == ']') {
		rd->p++;
		return 0;
	}
	for (;;) {
		if (k >= SIM_MAX_LOCKS)
			return fail(rd, "more than %d results", SIM_MAX_LOCKS);
		if (*rd->p != '{')
			return fail(rd, "a result that is not an object");
		rd->cur = k;
		memset(&rd->r->lock[k], 0, sizeof(rd->r->lock[k]));
		if (value(rd, "", depth + 1))
			return -1;
		if (!rd->r->lock[k].lock[0])
			return fail(rd, "result %d has no \"lock\" name", k);
		rd->cur = -1;
		rd->r->nr_locks = ++k;
		ws(rd);
		if (*rd->p == ']') {
			rd->p++;
			return 0;
		}
		if (*rd->p++ != ',')
			return fail(rd, "',' or ']' expected after a result");
		ws(rd);
	}
}

static int object(struct reader *rd, const char *path, int depth)
{
	char key[64], sub[2 * SIM_RR_KEY];

	rd->p++;		/* '{' */
	ws(rd);
	if (*rd->p == '}') {
		rd->p++;
		return 0;
	}
	for (;;) {
		if (string(rd, key, sizeof(key)))
			return -1;
		ws(rd);
		if (*rd->p++ != ':')
			return fail(rd, "':' expected after \"%s\"", key);
		ws(rd);
		join(sub, sizeof(sub), path, key, 0);
		if (depth == 1 && !strcmp(key, "results")) {
			if (results(rd, depth))
				return -1;
		} else if (rd->cur >= 0 && !strcmp(sub, "lock") &&
			   *rd->p == '"') {
			if (string(rd, rd->r->lock[rd->cur].lock,
				   sizeof(rd->r->lock[rd->cur].lock)))
				return -1;
		} else if (value(rd, sub, depth)) {
			return -1;
		}
		ws(rd);
		if (*rd->p == '}') {
			rd->p++;
			return 0;
		}
		if (*rd->p++ != ',')
			return fail(rd, "',' or '}' expected after \"%s\"", key);
		ws(rd);
	}
}

static int array(struct reader *rd, const char *path, int depth)
{
	char sub[2 * SIM_RR_KEY];

	rd->p++;		/* '[' */
	ws(rd);
	if (*rd->p == ']') {
		rd->p++;
		return 0;
	}
	for (int i = 0;; i++) {
		join(sub, sizeof(sub), path, NULL, i);
		if (value(rd, sub, depth))
			return -1;
		ws(rd);
		if (*rd->p == ']') {
			rd->p++;
			return 0;
		}
		if (*rd->p++ != ',')
			return fail(rd, "',' or ']' expected in an array");
		ws(rd);
	}
}

static int value(struct reader *rd, const char *path, int depth)
{
	char skip[8];
	double v;

	if (depth >= MAX_DEPTH)
		return fail(rd, "nested deeper than %d", MAX_DEPTH);
	ws(rd);
	switch (*rd->p) {
	case '{':
		return object(rd, path, depth + 1);
	case '[':
		return array(rd, path, depth + 1);
	case '"':
		return string(rd, skip, sizeof(skip));
	}
	if (!strncmp(rd->p, "true", 4) || !strncmp(rd->p, "null", 4)) {
		rd->p += 4;
		return 0;
	}
	if (!strncmp(rd->p, "false", 5)) {
		rd->p += 5;
		return 0;
	}
	if (*rd->p != '-' && (*rd->p < '0' || *rd->p > '9'))
		return fail(rd, "a JSON value expected");
	if (number(rd, &v))
		return -1;
	keep(rd, path, v);
	return 0;
}

int sim_rr_parse(const char *text, struct sim_rr_report *r, char *why,
		 int len)
{
	struct reader rd = { .p = text, .r = r, .cur = -1, .why = why,
			     .len = len };

	memset(r, 0, sizeof(*r));
	r->nr_locks = -1;	/* no "results" yet */
	ws(&rd);
	if (*rd.p != '{')
		return fail(&rd, "not a JSON object");
	if (value(&rd, "", 0))
		return -1;
	ws(&rd);
	if (*rd.p)
		return fail(&rd, "text after the JSON document");
	if (r->nr_locks < 0)
		return fail(&rd, "no \"results\" array");
	return 0;
}

int sim_rr_get(const struct sim_rr_lock *l, const char *key, double *v)
{
	for (int i = 0; i < l->nr; i++)
		if (!strcmp(l->key[i], key)) {
			*v = l->v[i];
			return 1;
		}
	return 0;
}
