/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/trace_json.h - a strict reader of Chrome trace-event JSON, the
 * format of --trace FILE.json: the whole document is checked against the
 * JSON grammar and the members of every element of "traceEvents" are
 * kept (ph, pid, tid, ts, dur, name and the keys of args); and checks of
 * its tracks (slices present, slices nested).
 *
 * Stage: tests.  Used by tests/test_trace.c; libc, Check and
 * tests/json_lex.h (the tokens) only.  Static
 * functions: each test file gets its own copy.
 */
#ifndef TESTS_TRACE_JSON_H
#define TESTS_TRACE_JSON_H

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "tests/json_lex.h"

struct tj_event {
	char ph;		/* 'X', 'C', 'M', 'i', ... ('?' if missing) */
	int pid, tid;
	double ts, dur;		/* microseconds; dur -1 if missing	*/
	char name[64];
	char args[96];		/* " key1 key2 ..." of args		*/
	char arg_name[64];	/* args.name, for "M" events		*/
};

struct tj_doc {
	const char *s;
	struct tj_event *ev;
	int n, cap;
	int has_events;		/* a "traceEvents" array was found	*/
};

/* Any value; @sval/@nval receive a string's or a number's value. */
static int tj_value(struct tj_doc *d, char *sval, size_t slen, double *nval)
{
	char tmp[256];
	double x;

	jl_ws(&d->s);
	if (*d->s == '"')
		return jl_string(&d->s, sval ? sval : tmp, sval ? slen : sizeof(tmp));
	if (*d->s == '{' || *d->s == '[') {
		char close = *d->s == '{' ? '}' : ']';

		d->s++;
		jl_ws(&d->s);
		if (*d->s == close)
			return d->s++, 0;
		for (;;) {
			jl_ws(&d->s);
			if (close == '}') {
				if (jl_string(&d->s, tmp, sizeof(tmp)))
					return -1;
				jl_ws(&d->s);
				if (*d->s++ != ':')
					return -1;
			}
			if (tj_value(d, NULL, 0, NULL))
				return -1;
			jl_ws(&d->s);
			if (*d->s == close)
				return d->s++, 0;
			if (*d->s++ != ',')
				return -1;
		}
	}
	if (!strncmp(d->s, "true", 4) || !strncmp(d->s, "null", 4))
		return d->s += 4, 0;
	if (!strncmp(d->s, "false", 5))
		return d->s += 5, 0;
	return jl_number(&d->s, nval ? nval : &x);
}

/* The "args" object of @e: its keys, and args.name. */
static int tj_args(struct tj_doc *d, struct tj_event *e)
{
	char key[64];

	jl_ws(&d->s);
	if (*d->s++ != '{')
		return -1;
	jl_ws(&d->s);
	if (*d->s == '}')
		return d->s++, 0;
	for (;;) {
		jl_ws(&d->s);
		if (jl_string(&d->s, key, sizeof(key)))
			return -1;
		jl_ws(&d->s);
		if (*d->s++ != ':')
			return -1;
		if (strlen(e->args) + strlen(key) + 2 < sizeof(e->args))
			strcat(strcat(e->args, " "), key);
		if (tj_value(d, !strcmp(key, "name") ? e->arg_name : NULL,
			     sizeof(e->arg_name), NULL))
			return -1;
		jl_ws(&d->s);
		if (*d->s == '}')
			return d->s++, 0;
		if (*d->s++ != ',')
			return -1;
	}
}

static int tj_event(struct tj_doc *d)
{
	struct tj_event e = { .ph = '?', .dur = -1 };
	char key[64], ph[8] = "";
	double v;

	jl_ws(&d->s);
	if (*d->s++ != '{')
		return -1;
	for (;;) {
		jl_ws(&d->s);
		if (jl_string(&d->s, key, sizeof(key)))
			return -1;
		jl_ws(&d->s);
		if (*d->s++ != ':')
			return -1;
		v = 0;
		if (!strcmp(key, "args")) {
			if (tj_args(d, &e))
				return -1;
		} else if (tj_value(d, !strcmp(key, "ph") ? ph :
				       !strcmp(key, "name") ? e.name : NULL,
				       !strcmp(key, "ph") ? sizeof(ph) : sizeof(e.name),
				       &v)) {
			return -1;
		}
		if (!strcmp(key, "pid"))
			e.pid = (int)v;
		else if (!strcmp(key, "tid"))
			e.tid = (int)v;
		else if (!strcmp(key, "ts"))
			e.ts = v;
		else if (!strcmp(key, "dur"))
			e.dur = v;
		jl_ws(&d->s);
		if (*d->s == '}')
			break;
		if (*d->s++ != ',')
			return -1;
	}
	d->s++;
	e.ph = ph[0] ? ph[0] : '?';
	if (d->n == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 1024;
		d->ev = realloc(d->ev, d->cap * sizeof(*d->ev));
		if (!d->ev)
			return -1;
	}
	d->ev[d->n++] = e;
	return 0;
}

/*
 * tj_parse - parse @text: an object whose "traceEvents" member is an
 * array of event objects.  Return: 0, or -1 at the first byte that breaks
 * the grammar (d->s points there).  Free d->ev afterwards.
 */
static __attribute__((unused)) int tj_parse(struct tj_doc *d, const char *text)
{
	char key[64];

	memset(d, 0, sizeof(*d));
	d->s = text;
	jl_ws(&d->s);
	if (*d->s++ != '{')
		return -1;
	for (;;) {
		jl_ws(&d->s);
		if (jl_string(&d->s, key, sizeof(key)))
			return -1;
		jl_ws(&d->s);
		if (*d->s++ != ':')
			return -1;
		jl_ws(&d->s);
		if (!strcmp(key, "traceEvents")) {
			d->has_events = 1;
			if (*d->s++ != '[')
				return -1;
			jl_ws(&d->s);
			if (*d->s == ']')
				d->s++;
			else
				for (;;) {
					if (tj_event(d))
						return -1;
					jl_ws(&d->s);
					if (*d->s == ']' && ++d->s)
						break;
					if (*d->s++ != ',')
						return -1;
				}
		} else if (tj_value(d, NULL, 0, NULL)) {
			return -1;
		}
		jl_ws(&d->s);
		if (*d->s == '}')
			break;
		if (*d->s++ != ',')
			return -1;
	}
	d->s++;
	jl_ws(&d->s);
	return *d->s ? -1 : 0;
}

/* ---- checks of the tracks ------------------------------------------------ */

/* tj_has_slice - is there an "X" slice @name in process @pid? */
static __attribute__((unused)) int tj_has_slice(const struct tj_doc *d,
						int pid, const char *name)
{
	for (int i = 0; i < d->n; i++)
		if (d->ev[i].ph == 'X' && d->ev[i].pid == pid &&
		    !strcmp(d->ev[i].name, name))
			return 1;
	return 0;
}

/* Track by track, in time order, the longer first (the parent). */
static int tj_by_track_then_ts(const void *a, const void *b)
{
	const struct tj_event *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid - y->pid;
	if (x->tid != y->tid)
		return x->tid - y->tid;
	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return x->dur > y->dur ? -1 : x->dur < y->dur;
}

/* tj_check_nesting - the "X" slices of every track nest (a slice ends
 * before its parent does), none has a negative duration; CPU tracks
 * (pid 1) do not even nest: one task at a time.  Sorts d->ev. */
static __attribute__((unused)) void tj_check_nesting(struct tj_doc *d)
{
	double end[8];
	int depth = 0, pid = -1, tid = -1;

	qsort(d->ev, d->n, sizeof(*d->ev), tj_by_track_then_ts);
	for (int i = 0; i < d->n; i++) {
		const struct tj_event *e = &d->ev[i];

		if (e->ph != 'X')
			continue;
		ck_assert_msg(e->dur >= 0, "negative duration: %s", e->name);
		if (e->pid != pid || e->tid != tid)
			depth = 0, pid = e->pid, tid = e->tid;
		while (depth && end[depth - 1] <= e->ts + 1e-7)
			depth--;
		ck_assert_msg(!depth || e->ts + e->dur <= end[depth - 1] + 1e-6,
			      "slice %s at %f of track %d/%d overlaps its parent",
			      e->name, e->ts, pid, tid);
		ck_assert_msg(pid != 1 || !depth, "CPU %d runs two things at %f",
			      tid, e->ts);
		ck_assert_int_lt(depth, 8);
		end[depth++] = e->ts + e->dur;
	}
}

#endif /* TESTS_TRACE_JSON_H */
