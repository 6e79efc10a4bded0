/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_lockstat.c - suite "lockstat": --lock-stat (sim/trace/lockstat.c
 * fed by the trace stream of sim/trace/trace.c) through the binary: the table
 * has /proc/lock_stat's header and column layout, the user lock's counts
 * agree with the run (acquisitions = ops, contentions <= acquisitions,
 * min <= avg <= max), the futex hash-bucket locks are named by index, the
 * table goes to stdout after the report or to a file, is byte-identical
 * for one seed and does not change the run; bad values exit 2.
 *
 * Stage: trace/report, end to end.  Run by tests/check_main.c; runs
 * $FUTEXSIM (`make check` sets it) through tests/run_child.h.  Without
 * $FUTEXSIM each test says so and passes.
 */
#include <check.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/run_child.h"

static struct child_out co, co2;

#define futexsim(o, ...) \
	run_futexsim((o), (const char *const[]){ "futexsim", "run", __VA_ARGS__, NULL })

/* Contended ww on 4 CPUs. */
#define SMALL	"--threads=8", "--ops=2000", "--seed=3"

#define NUM	" +([0-9]+)"
#define TIME	" +([0-9]+\\.[0-9]{2})"

static const char header_re[] =
	"^ +class name +con-bounces +contentions +waittime-min +waittime-max"
	" +waittime-total +waittime-avg +acq-bounces +acquisitions"
	" +holdtime-min +holdtime-max +holdtime-total +holdtime-avg$";
static const char line_re[] =
	"^ *([^ ].*):" NUM NUM TIME TIME TIME TIME NUM NUM TIME TIME TIME TIME "$";

struct ls_line {
	char name[64];
	unsigned long long con_bounces, contentions, acq_bounces, acquisitions;
	double wmin, wmax, wtotal, wavg, hmin, hmax, htotal, havg;
};

static double field(const char *line, const regmatch_t *m)
{
	return strtod(line + m->rm_so, NULL);
}

/*
 * Check the table in @text (from "lock_stat version 0.4"): the header
 * and every lock line in the layout; the line of lock @name into @out.
 * Return: the number of lock lines.
 */
static int parse_table(const char *text, const char *name, struct ls_line *out)
{
	const char *p = strstr(text, "lock_stat version 0.4\n");
	regex_t head, re;
	regmatch_t m[14];
	char line[512];
	int n = 0, found = 0, rules = 0;

	ck_assert_msg(p != NULL, "no lock_stat header in: %s", text);
	ck_assert_int_eq(regcomp(&head, header_re, REG_EXTENDED | REG_NOSUB), 0);
	ck_assert_int_eq(regcomp(&re, line_re, REG_EXTENDED), 0);
	p = strchr(p, '\n') + 1;
	while (*p && rules < 3) {
		size_t len = strcspn(p, "\n");

		ck_assert_uint_lt(len, sizeof(line));
		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (p[len] == '\n');
		if (line[0] == '-') {
			rules++;
			continue;
		}
		if (rules == 1) {
			ck_assert_msg(!regexec(&head, line, 0, NULL, 0),
				      "bad header: %s", line);
			continue;
		}
		if (!line[0])
			continue;
		ck_assert_msg(!regexec(&re, line, 14, m, 0), "bad line: %s", line);
		n++;
		line[m[1].rm_eo] = '\0';
		if (strcmp(line + m[1].rm_so, name) != 0)
			continue;
		found = 1;
		snprintf(out->name, sizeof(out->name), "%s", name);
		out->con_bounces = (unsigned long long)field(line, &m[2]);
		out->contentions = (unsigned long long)field(line, &m[3]);
		out->wmin = field(line, &m[4]);
		out->wmax = field(line, &m[5]);
		out->wtotal = field(line, &m[6]);
		out->wavg = field(line, &m[7]);
		out->acq_bounces = (unsigned long long)field(line, &m[8]);
		out->acquisitions = (unsigned long long)field(line, &m[9]);
		out->hmin = field(line, &m[10]);
		out->hmax = field(line, &m[11]);
		out->htotal = field(line, &m[12]);
		out->havg = field(line, &m[13]);
	}
	regfree(&head);
	regfree(&re);
	ck_assert_int_eq(rules, 3);
	ck_assert_msg(found, "no line for %s in: %s", name, text);
	return n;
}

static void check_consistent(const struct ls_line *l)
{
	ck_assert_uint_le(l->contentions, l->acquisitions);
	ck_assert_uint_le(l->con_bounces, l->contentions);
	ck_assert_uint_le(l->acq_bounces, l->acquisitions);
	ck_assert_double_le(l->wmin, l->wavg);
	ck_assert_double_le(l->wavg, l->wmax);
	ck_assert_double_le(l->wmax, l->wtotal);
	ck_assert_double_le(l->hmin, l->havg);
	ck_assert_double_le(l->havg, l->hmax);
	ck_assert_double_le(l->hmax, l->htotal);
}

START_TEST(test_table_has_the_layout_and_counts_the_user_lock)
{
	struct ls_line u, b;
	const char *table, *report_end;

	if (!futexsim(&co, SMALL, "--lock-stat=yes"))
		return;
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	table = strstr(co.out, "# lock-stat: lock=ww seed=3\nlock_stat version 0.4\n");
	report_end = strstr(co.out, "Jain's fairness index");
	ck_assert_msg(table && report_end && report_end < table,
		      "the table does not follow the report: %s", co.out);
	ck_assert_int_ge(parse_table(table, "ww (user lock)", &u), 3);
	ck_assert_uint_eq(u.acquisitions, 2000);
	ck_assert_uint_gt(u.contentions, 0);	/* 8 threads on 4 CPUs */
	check_consistent(&u);
	ck_assert_double_gt(u.wtotal, 0);
	ck_assert_double_gt(u.htotal, 0);
	/* the bucket locks, by index, and their sum */
	ck_assert_ptr_nonnull(strstr(table, "futex_hash_bucket["));
	parse_table(table, "futex_hash_bucket[all 1].lock", &b);
	ck_assert_uint_gt(b.acquisitions, 0);
	check_consistent(&b);
}
END_TEST

/* The part of a report that describes the run (not the scenario echo). */
static const char *run_part(const char *out)
{
	const char *p = strstr(out, "\nelapsed ");

	ck_assert_msg(p != NULL, "no report in: %s", out);
	return p;
}

START_TEST(test_same_seed_same_table_and_the_run_is_unchanged)
{
	const char *a, *b, *plain_end;
	size_t n;

	if (!futexsim(&co, SMALL, "--lock-stat=yes"))
		return;
	futexsim(&co2, SMALL, "--lock-stat=yes");
	ck_assert_int_eq(co.status, 0);
	ck_assert_str_eq(co.out, co2.out);
	futexsim(&co2, SMALL);
	ck_assert_int_eq(co2.status, 0);
	ck_assert_ptr_null(strstr(co2.out, "lock_stat"));
	a = run_part(co.out);
	b = run_part(co2.out);
	plain_end = strstr(a, "# lock-stat");
	ck_assert_ptr_nonnull(plain_end);
	n = (size_t)(plain_end - a);
	ck_assert_msg(strlen(b) + 1 == n && !strncmp(a, b, n - 1),
		      "--lock-stat changed the run:\n%s\n---\n%s", a, b);
}
END_TEST

START_TEST(test_table_to_a_file_one_per_lock)
{
	char dir[] = "/tmp/futexsim-lockstat-XXXXXX", path[96], *buf;
	struct ls_line u;
	FILE *f;
	long n;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/ls.txt", dir);
	if (!futexsim(&co, SMALL, "--lock=ww,pi", "--lock-stat", path)) {
		rmdir(dir);
		return;
	}
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	ck_assert_ptr_null(strstr(co.out, "lock_stat version"));
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
	fclose(f);
	unlink(path);
	rmdir(dir);
	ck_assert_ptr_nonnull(strstr(buf, "# lock-stat: lock=ww seed=3\n"));
	parse_table(strstr(buf, "lock=ww"), "ww (user lock)", &u);
	ck_assert_uint_eq(u.acquisitions, 2000);
	ck_assert_ptr_nonnull(strstr(buf, "# lock-stat: lock=pi seed=3\n"));
	parse_table(strstr(buf, "lock=pi"), "pi (user lock)", &u);
	ck_assert_uint_eq(u.acquisitions, 2000);
	check_consistent(&u);
	free(buf);
}
END_TEST

START_TEST(test_bad_lock_stat_values_get_one_line_and_status_2)
{
	if (!futexsim(&co, "--lock-stat="))
		return;
	assert_one_line_error(&co, "lock-stat", "yes, no or a file name");
	futexsim(&co, "--ops=10", "--lock-stat=/nonexistent-dir/ls.txt");
	assert_one_line_error(&co, "lock-stat", "a writable file");
}
END_TEST

Suite *lockstat_suite(void)
{
	return one_case_suite("lockstat", 120, (const TTest *const[]){
		test_table_has_the_layout_and_counts_the_user_lock,
		test_same_seed_same_table_and_the_run_is_unchanged,
		test_table_to_a_file_one_per_lock,
		test_bad_lock_stat_values_get_one_line_and_status_2,
		NULL });
}
