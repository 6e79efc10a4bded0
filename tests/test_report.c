/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_report.c - suite "report": the text table and the JSON
 * results file (sim/report/report.c).
 *
 * Stage: trace/report, unit level.  Run by tests/check_main.c; calls
 * sim/report/report.h (and through it sim_scenario_print()/sim_scenario_json()).
 * The JSON document is read back by a small strict parser below that
 * lists every key path with its type, so the schema is checked exactly.
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/report/report.h"
#include "tests/json_lex.h"
#include "workloads/workload.h"

/* ---- fixtures ---------------------------------------------------------- */

static void scenario(struct sim_scenario *s)
{
	memset(s, 0, sizeof(*s));
	strcpy(s->machine, "tiny4");
	s->cpus = 4;
	s->threads = 4;
	strcpy(s->workload, "mutex");
	s->wl = &wl_mutex;
	strcpy(s->locks[0], "ww");
	strcpy(s->locks[1], "pi");
	s->nr_locks = 2;
	s->ops = 10000000;
	s->cs.kind = SIM_WORK_PAUSE;
	s->cs.n = 5;
	s->between.kind = SIM_WORK_PAUSE;
	s->between.n = 1;
	s->seed = 42;
	s->livelock_ps = 10000000000000ull;
}

/* Two locks with the figures of the published TO-futex table. */
static void results(struct sim_result r[2])
{
	memset(r, 0, 2 * sizeof(*r));
	strcpy(r[0].lock, "ww");
	r[0].ops = 10000000;
	r[0].elapsed_ns = 3490000000ull;
	r[0].thread_max_ns = 3490000000ull;
	r[0].thread_min_ns = 3240000000ull;
	r[0].thread_avg_ns = 3410000000ull;
	r[0].sys_ns = 442400000000ull;		/* 7m22.4s */
	r[0].user_ns = 812000;
	r[0].lock_syscalls = 3090294;
	r[0].unlock_syscalls = 3268896;
	r[0].eagain = 2472235;			/* 80.0% of lock calls */
	r[0].wakeups = 617000;
	r[0].acquire_p50_ns = 341;
	r[0].acquire_p99_ns = 1500;
	r[0].acquire_max_ns = 70049999;
	r[0].ops_thread_min = 38000;
	r[0].ops_thread_max = 40125;
	r[0].jain = 0.9871;
	r[0].host_hooks = 987654321;
	r[0].host_switches = 55555;
	r[0].host_seconds = 13.371337;

	strcpy(r[1].lock, "pi");
	r[1].ops = 10000000;
	r[1].elapsed_ns = 50910000000ull;
	r[1].thread_max_ns = 50910000000ull;
	r[1].thread_min_ns = 50840000000ull;
	r[1].thread_avg_ns = 50900000000ull;
	r[1].sys_ns = 55730000000ull;
	r[1].user_ns = 999500;
	r[1].lock_syscalls = 9999813;
	r[1].unlock_syscalls = 9999814;
	r[1].timeouts = 1000;
	r[1].acquire_p50_ns = 5090000;
	r[1].acquire_p99_ns = 999499;
	r[1].acquire_max_ns = 59995000000ull;	/* rounds up to a minute */
	r[1].ops_thread_min = 39062;
	r[1].ops_thread_max = UINT64_MAX;
	r[1].jain = 1.0;
	r[1].host_hooks = 123123123;
	r[1].host_seconds = 2.5;
}

static char *text_of(const struct sim_scenario *s,
		     const struct sim_result *r, int nr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	sim_report_text(f, s, r, nr);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

/* The table line of @text whose label is @label (searched below the
 * rule under the column heads, not in the scenario echo): a copy. */
static char *row(const char *text, const char *label)
{
	char key[80];
	const char *p, *end, *table = strstr(text, "\n-----");

	ck_assert_msg(table != NULL, "no table in:\n%s", text);
	snprintf(key, sizeof(key), "\n%s ", label);
	p = strstr(table, key);
	ck_assert_msg(p != NULL, "no row '%s' in:\n%s", label, text);
	p++;
	end = strchr(p, '\n');
	ck_assert_ptr_nonnull(end);
	return strndup(p, (size_t)(end - p));
}

/* Row @label holds the cells @a then @b, each after a blank. */
static void assert_row(const char *text, const char *label,
		       const char *a, const char *b)
{
	char *line = row(text, label), ca[80], cb[80];
	const char *pa, *pb;

	snprintf(ca, sizeof(ca), " %s", a);
	snprintf(cb, sizeof(cb), " %s", b);
	pa = strstr(line + strlen(label), ca);
	ck_assert_msg(pa != NULL, "row '%s' lacks '%s': %s", label, a, line);
	pb = strstr(pa + strlen(ca), cb);
	ck_assert_msg(pb != NULL, "row '%s' lacks '%s' after '%s': %s",
		      label, b, a, line);
	free(line);
}

/* ---- text report ------------------------------------------------------- */

START_TEST(test_report_text_has_every_row_with_human_units)
{
	struct sim_scenario s;
	struct sim_result r[2];
	char *text;

	scenario(&s);
	results(r);
	text = text_of(&s, r, 2);
	assert_row(text, "ops", "10,000,000", "10,000,000");
	assert_row(text, "elapsed", "3.49 s", "50.91 s");
	assert_row(text, "max thread time", "3.49 s", "50.91 s");
	assert_row(text, "min thread time", "3.24 s", "50.84 s");
	assert_row(text, "avg thread time", "3.41 s", "50.90 s");
	assert_row(text, "sys time", "7m22.4s", "55.73 s");
	assert_row(text, "user time", "812 us", "1.00 ms");
	assert_row(text, "lock syscalls (% ops)",
		   "3,090,294 (30.9%)", "9,999,813 (100.0%)");
	assert_row(text, "unlock syscalls (% ops)",
		   "3,268,896 (32.7%)", "9,999,814 (100.0%)");
	assert_row(text, "FUTEX_WAIT EAGAIN (% lock)", "2,472,235 (80.0%)", "0");
	assert_row(text, "timeouts", "0", "1,000");
	assert_row(text, "wakeups", "617,000", "0");
	assert_row(text, "acquire latency p50", "341 ns", "5.09 ms");
	assert_row(text, "acquire latency p99", "1.50 us", "999 us");
	assert_row(text, "acquire latency max", "70.0 ms", "1m00.0s");
	assert_row(text, "ops per thread min", "38,000", "39,062");
	assert_row(text, "ops per thread max", "40,125",
		   "18,446,744,073,709,551,615");
	assert_row(text, "Jain's fairness index", "0.9871", "1.0000");
	free(text);
}
END_TEST

START_TEST(test_report_text_starts_with_scenario_and_seed)
{
	struct sim_scenario s;
	struct sim_result r[2];
	char *text, *scn = NULL, *head;
	size_t len = 0;
	FILE *f = open_memstream(&scn, &len);

	scenario(&s);
	results(r);
	sim_scenario_print(&s, f);
	fclose(f);
	text = text_of(&s, r, 2);
	head = strchr(text, '\n');
	ck_assert_ptr_nonnull(head);
	ck_assert_msg(strstr(text, "seed 42") && strstr(text, "seed 42") < head,
		      "first line lacks the seed: %s", text);
	ck_assert_msg(strncmp(head + 1, scn, len) == 0,
		      "scenario echo missing:\n%s", text);
	/* Then the column heads in lock order. */
	ck_assert_ptr_nonnull(strstr(head + 1 + len, " ww"));
	ck_assert(strstr(head + 1 + len, " ww") < strstr(head + 1 + len, " pi"));
	free(scn);
	free(text);
}
END_TEST

START_TEST(test_report_text_is_identical_and_host_free)
{
	struct sim_scenario s;
	struct sim_result r[2];
	char *a, *b;

	scenario(&s);
	results(r);
	a = text_of(&s, r, 2);
	b = text_of(&s, r, 2);
	ck_assert_str_eq(a, b);
	free(b);
	r[0].host_hooks = 1;
	r[0].host_switches = 2;
	r[1].host_seconds = 1e9;
	b = text_of(&s, r, 2);
	ck_assert_str_eq(a, b);
	ck_assert_ptr_null(strstr(a, "host"));
	ck_assert_ptr_null(strstr(a, "987,654,321"));
	ck_assert_ptr_null(strstr(a, "987654321"));
	ck_assert_ptr_null(strstr(a, "13.37"));
	free(a);
	free(b);
}
END_TEST

START_TEST(test_report_text_without_results_still_echoes_scenario)
{
	struct sim_scenario s;
	char *text;

	scenario(&s);
	text = text_of(&s, NULL, 0);
	ck_assert_ptr_nonnull(strstr(text, "seed 42"));
	ck_assert_ptr_nonnull(strstr(text, "no results"));
	free(text);
}
END_TEST

/* ---- a strict JSON reader that lists key paths -------------------------- */

#define MAX_PATHS	256

struct jp {
	const char *s;
	char paths[MAX_PATHS][96];	/* "results[].thread_ns.min:n"	*/
	int np;
	char locks[4][64];		/* decoded results[].lock values */
	int nlocks;
};

static void jp_note(struct jp *p, const char *path, char type)
{
	char e[96];
	int i;

	snprintf(e, sizeof(e), "%s:%c", path, type);
	for (i = 0; i < p->np; i++)
		if (!strcmp(p->paths[i], e))
			return;
	ck_assert_int_lt(p->np, MAX_PATHS);
	strcpy(p->paths[p->np++], e);
}

static int jp_value(struct jp *p, const char *path);

static int jp_object(struct jp *p, const char *path)
{
	char key[64], sub[96];

	p->s++;
	jl_ws(&p->s);
	if (*p->s == '}')
		return p->s++, 0;
	for (;;) {
		jl_ws(&p->s);
		if (jl_string(&p->s, key, sizeof(key)))
			return -1;
		jl_ws(&p->s);
		if (*p->s++ != ':')
			return -1;
		snprintf(sub, sizeof(sub), "%s%s%s", path, *path ? "." : "", key);
		if (jp_value(p, sub))
			return -1;
		jl_ws(&p->s);
		if (*p->s == '}')
			return p->s++, 0;
		if (*p->s++ != ',')
			return -1;
	}
}

static int jp_array(struct jp *p, const char *path)
{
	char sub[96];

	snprintf(sub, sizeof(sub), "%s[]", path);
	p->s++;
	jl_ws(&p->s);
	if (*p->s == ']')
		return p->s++, 0;
	for (;;) {
		if (jp_value(p, sub))
			return -1;
		jl_ws(&p->s);
		if (*p->s == ']')
			return p->s++, 0;
		if (*p->s++ != ',')
			return -1;
	}
}

static int jp_value(struct jp *p, const char *path)
{
	char str[64];

	jl_ws(&p->s);
	switch (*p->s) {
	case '{':
		jp_note(p, path, 'o');
		return jp_object(p, path);
	case '[':
		jp_note(p, path, 'a');
		return jp_array(p, path);
	case '"':
		jp_note(p, path, 's');
		if (jl_string(&p->s, str, sizeof(str)))
			return -1;
		if (!strcmp(path, "results[].lock") && p->nlocks < 4)
			strcpy(p->locks[p->nlocks++], str);
		return 0;
	}
	if (!strncmp(p->s, "true", 4) || !strncmp(p->s, "null", 4))
		return jp_note(p, path, 'l'), p->s += 4, 0;
	if (!strncmp(p->s, "false", 5))
		return jp_note(p, path, 'l'), p->s += 5, 0;
	jp_note(p, path, 'n');
	return jl_number(&p->s, NULL);
}

/* ---- JSON file --------------------------------------------------------- */

static const char *const schema[] = {
	":o", "scenario:o", "seed:n", "results:a", "results[]:o",
	"results[].lock:s", "results[].ops:n", "results[].elapsed_ns:n",
	"results[].thread_ns:o", "results[].thread_ns.min:n",
	"results[].thread_ns.max:n", "results[].thread_ns.avg:n",
	"results[].sys_ns:n", "results[].user_ns:n",
	"results[].syscalls:o", "results[].syscalls.lock:n",
	"results[].syscalls.unlock:n", "results[].eagain:n",
	"results[].timeouts:n", "results[].wakeups:n",
	"results[].acquire_ns:o", "results[].acquire_ns.p50:n",
	"results[].acquire_ns.p99:n", "results[].acquire_ns.max:n",
	"results[].ops_per_thread:o", "results[].ops_per_thread.min:n",
	"results[].ops_per_thread.max:n", "results[].jain:n",
	"results[].overtaken_max:n",
	"results[].host:o", "results[].host.hooks:n",
	"results[].host.switches:n", "results[].host.seconds:n",
};

static char *json_of(const struct sim_scenario *s,
		     const struct sim_result *r, int nr)
{
	char path[] = "/tmp/futexsim-report-XXXXXX";
	int fd = mkstemp(path);
	char *buf;
	long n;
	FILE *f;

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(sim_report_json(path, s, r, nr), 0);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
	fclose(f);
	unlink(path);
	return buf;
}

START_TEST(test_report_json_parses_with_exactly_the_schema)
{
	struct sim_scenario s;
	struct sim_result r[2];
	struct jp p = { 0 };
	size_t i;
	int k, found;
	char *doc;

	scenario(&s);
	results(r);
	strcpy(r[1].lock, "p\"i\\\n\x01");	/* must be escaped */
	doc = json_of(&s, r, 2);
	p.s = doc;
	ck_assert_msg(jp_value(&p, "") == 0, "bad JSON near: %.40s", p.s);
	jl_ws(&p.s);
	ck_assert_msg(*p.s == '\0', "trailing bytes: %s", p.s);

	for (i = 0; i < sizeof(schema) / sizeof(schema[0]); i++) {
		for (found = 0, k = 0; k < p.np; k++)
			found |= !strcmp(p.paths[k], schema[i]);
		ck_assert_msg(found, "key %s missing from:\n%s", schema[i], doc);
	}
	for (k = 0; k < p.np; k++) {
		if (!strncmp(p.paths[k], "scenario.", 9))
			continue;
		for (found = 0, i = 0; i < sizeof(schema) / sizeof(schema[0]); i++)
			found |= !strcmp(p.paths[k], schema[i]);
		ck_assert_msg(found, "key %s is not in the schema", p.paths[k]);
		/* "host" is a key of a result and nowhere else */
		ck_assert_msg(!strstr(p.paths[k], "host") ||
			      !strncmp(p.paths[k], "results[].host", 14),
			      "host figure outside \"host\": %s", p.paths[k]);
	}
	ck_assert_int_eq(p.nlocks, 2);
	ck_assert_str_eq(p.locks[0], "ww");
	ck_assert_str_eq(p.locks[1], "p\"i\\\n\x01");
	ck_assert_ptr_nonnull(strstr(doc, "\"seed\":42,"));
	ck_assert_ptr_nonnull(strstr(doc, "\"ops\":10000000,"));
	ck_assert_ptr_nonnull(strstr(doc, "\"sys_ns\":442400000000,"));
	ck_assert_ptr_nonnull(strstr(doc, "\"jain\":0.987100,"));
	ck_assert_ptr_nonnull(strstr(doc, "\"max\":18446744073709551615}"));
	ck_assert_ptr_nonnull(strstr(doc, "\"hooks\":987654321,"));
	free(doc);
}
END_TEST

/* @doc with every "host":{...} object cut out. */
static void strip_host(char *doc)
{
	char *h;

	while ((h = strstr(doc, "\"host\":{")) != NULL) {
		char *end = strchr(h, '}');

		ck_assert_ptr_nonnull(end);
		memmove(h, end + 1, strlen(end + 1) + 1);
	}
}

START_TEST(test_report_json_differs_only_in_host)
{
	struct sim_scenario s;
	struct sim_result r[2];
	char *a, *b, *c;

	scenario(&s);
	results(r);
	a = json_of(&s, r, 2);
	b = json_of(&s, r, 2);
	ck_assert_str_eq(a, b);
	r[0].host_hooks = 5;
	r[1].host_switches = 6;
	r[1].host_seconds = 0.001;
	c = json_of(&s, r, 2);
	ck_assert_str_ne(a, c);
	strip_host(a);
	strip_host(c);
	ck_assert_str_eq(a, c);
	free(a);
	free(b);
	free(c);
}
END_TEST

START_TEST(test_report_json_to_bad_path_returns_minus_1_with_errno)
{
	struct sim_scenario s;
	struct sim_result r[2];

	scenario(&s);
	results(r);
	errno = 0;
	ck_assert_int_eq(sim_report_json("/nonexistent-dir/x/r.json", &s, r, 2), -1);
	ck_assert_int_eq(errno, ENOENT);
	errno = 0;
	ck_assert_int_eq(sim_report_json("/dev/full", &s, r, 2), -1);
	ck_assert_int_eq(errno, ENOSPC);
}
END_TEST

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_report_text_has_every_row_with_human_units);
	tcase_add_test(tc, test_report_text_starts_with_scenario_and_seed);
	tcase_add_test(tc, test_report_text_is_identical_and_host_free);
	tcase_add_test(tc, test_report_text_without_results_still_echoes_scenario);
	tcase_add_test(tc, test_report_json_parses_with_exactly_the_schema);
	tcase_add_test(tc, test_report_json_differs_only_in_host);
	tcase_add_test(tc, test_report_json_to_bad_path_returns_minus_1_with_errno);
	suite_add_tcase(s, tc);
	return s;
}
