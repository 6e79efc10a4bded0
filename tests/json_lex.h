/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/json_lex.h - the tokens of strict JSON (RFC 8259) for the tests'
 * JSON readers: blanks, strings, numbers.  Each takes the read position
 * @s and moves it past what it read.
 *
 * Stage: tests.  Used by tests/trace_json.h (the trace-event reader of
 * tests/test_trace.c) and tests/test_report.c (the key-path lister of the
 * results file); libc only.  Static functions: each test file gets its
 * own copy.
 */
#ifndef TESTS_JSON_LEX_H
#define TESTS_JSON_LEX_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* jl_ws - skip JSON blanks. */
static inline void jl_ws(const char **s)
{
	while (**s == ' ' || **s == '\n' || **s == '\t' || **s == '\r')
		(*s)++;
}

/* jl_string - a string into @out of @len bytes (cut, NUL-terminated;
 * escapes decoded, \u below 0x80 only).  Return: 0, -1 if malformed. */
static inline int jl_string(const char **s, char *out, size_t len)
{
	size_t o = 0;
	unsigned int u;
	char c;

	if (*(*s)++ != '"')
		return -1;
	while ((c = *(*s)++) != '"') {
		if ((unsigned char)c < 0x20)
			return -1;
		if (c == '\\') {
			c = *(*s)++;
			if (c == 'u') {
				if (sscanf(*s, "%4x", &u) != 1 || u >= 0x80)
					return -1;
				*s += 4;
				c = (char)u;
			} else if (c == 'n') {
				c = '\n';
			} else if (c == 't') {
				c = '\t';
			} else if (!strchr("\"\\/", c)) {
				return -1;
			}
		}
		if (o + 1 < len)
			out[o++] = c;
	}
	out[o] = '\0';
	return 0;
}

static inline int jl_digits(const char **s)
{
	if (**s < '0' || **s > '9')
		return -1;
	while (**s >= '0' && **s <= '9')
		(*s)++;
	return 0;
}

/* jl_number - a number, its value into *@v unless @v is NULL.
 * Return: 0, -1 if malformed. */
static inline int jl_number(const char **s, double *v)
{
	const char *b = *s;

	if (**s == '-')
		(*s)++;
	if (**s == '0')
		(*s)++;
	else if (**s < '1' || **s > '9' || jl_digits(s))
		return -1;
	if (**s == '.') {
		(*s)++;
		if (jl_digits(s))
			return -1;
	}
	if (**s == 'e' || **s == 'E') {
		(*s)++;
		if (**s == '+' || **s == '-')
			(*s)++;
		if (jl_digits(s))
			return -1;
	}
	if (v)
		*v = strtod(b, NULL);
	return 0;
}

#endif /* TESTS_JSON_LEX_H */
