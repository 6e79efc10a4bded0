/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_scripts.c - the study scripts of workloads/scenarios/ run
 * short (spin-2014.sh, glibc-tables.sh) on the futexsim binary of
 * $FUTEXSIM: each ends with its block of expected shapes or directions,
 * one verdict line each (met or MISSED), and a count of the missed ones
 * that agrees with the lines; bad usage is exit 2.
 *
 * Stage: tests.  What the figures are is the scripts' business (and the
 * closing notes'); this checks that the verdicts are there and counted.
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/run_child.h"
#include "version.h"

#define SCRIPTS	FUTEXSIM_SOURCE_DIR "/workloads/scenarios/"

/* Run `sh SCRIPTS@script -f $FUTEXSIM @args...` (NULL-ended) into @o.
 * Return: 0 when FUTEXSIM is not set (the test is skipped). */
static int run_script(struct child_out *o, const char *script, ...)
{
	const char *bin = getenv("FUTEXSIM"), *argv[16];
	char path[512];
	va_list ap;
	int n = 0;

	if (!bin || !*bin) {
		fprintf(stderr, "FUTEXSIM is not set: test skipped\n");
		return 0;
	}
	snprintf(path, sizeof(path), "%s%s", SCRIPTS, script);
	argv[n++] = "sh";
	argv[n++] = path;
	argv[n++] = "-f";
	argv[n++] = bin;
	va_start(ap, script);
	while (n < 15 && (argv[n] = va_arg(ap, const char *)))
		n++;
	va_end(ap);
	argv[n] = NULL;
	run_program("/bin/sh", (char *const *)argv, o);
	return 1;
}

/*
 * The verdict block after @title in @out: assert it has @want lines that
 * end in "met" or "MISSED" and a last line "K of @want missed" with K the
 * MISSED lines.
 */
static void assert_verdicts(const char *out, const char *title, int want)
{
	const char *p = strstr(out, title), *eol;
	int met = 0, missed = 0, k = -1, of = -1;

	ck_assert_msg(p != NULL, "no \"%s\" in:\n%s", title, out);
	for (p = strchr(p, '\n'); p && p[1]; p = eol) {
		size_t len;

		p++;
		eol = strchr(p, '\n');
		len = eol ? (size_t)(eol - p) : strlen(p);
		if (sscanf(p, " %d of %d missed", &k, &of) == 2)
			break;
		if (len > 4 && !strncmp(p + len - 4, " met", 4))
			met++;
		else if (len > 7 && !strncmp(p + len - 7, " MISSED", 7))
			missed++;
		else
			ck_abort_msg("not a verdict line: %.*s", (int)len, p);
	}
	ck_assert_int_eq(met + missed, want);
	ck_assert_int_eq(of, want);
	ck_assert_int_eq(k, missed);
}

/* The line of @out that starts with @start ends with @end. */
static void assert_line_ends(const char *out, const char *start,
			     const char *end)
{
	const char *p = strstr(out, start), *eol;
	size_t n = strlen(end);

	ck_assert_msg(p != NULL, "no line \"%s\"", start);
	eol = strchr(p, '\n');
	ck_assert_ptr_nonnull(eol);
	ck_assert_msg((size_t)(eol - p) > n && !strncmp(eol - n, end, n),
		      "%.*s: does not end in \"%s\"", (int)(eol - p), p, end);
}

START_TEST(test_spin_2014_ends_with_the_ten_shapes)
{
	static struct child_out o;

	if (!run_script(&o, "spin-2014.sh", "-n", "2000", "-p", "0", "-j", "2",
			NULL))
		return;
	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	ck_assert_ptr_nonnull(strstr(o.out, "same node (westmere-ex), embedded:"));
	assert_verdicts(o.out, "Expected shapes", 10);
	/* 1 task: every lock takes its fast path (0.94 at any length) */
	assert_line_ends(o.out, "  1 task: qspinlock within 10% of ticket", " met");
}
END_TEST

START_TEST(test_glibc_tables_end_with_the_directions_of_the_tables_run)
{
	static struct child_out o;

	if (!run_script(&o, "glibc-tables.sh", "-d", "1ms", "-j", "2",
			"mutex-2017", "rw-groups-2017", NULL))
		return;
	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	/* mutex: one direction; groups: four for each of two betweens */
	assert_verdicts(o.out, "Expected directions", 9);
	ck_assert_ptr_nonnull(strstr(o.out, "mutex: tp ahead of ww at every point"));
	ck_assert_ptr_null(strstr(o.out, "x86: seed2018"));

	run_script(&o, "glibc-tables.sh", "rw-groups-2018", NULL);
	ck_assert_int_eq(o.status, 2);
	ck_assert_ptr_nonnull(strstr(o.err, "usage:"));

	/* -k: a scenario key for every cell; not one the tables set */
	run_script(&o, "glibc-tables.sh", "-d", "1ms", "-j", "2", "-k",
		   "roles=split", "-k", "tp-mutex=4.8", "rw-groups-2017", NULL);
	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	ck_assert_ptr_nonnull(strstr(o.out, "every cell: --roles=split --tp-mutex=4.8\n"));
	assert_verdicts(o.out, "Expected directions", 8);
	/* ... and it reaches the cells: a bad value fails them */
	run_script(&o, "glibc-tables.sh", "-d", "1ms", "-j", "2", "-k",
		   "roles=first", "rw-groups-2017", NULL);
	ck_assert_int_eq(o.status, 1);
	ck_assert_ptr_nonnull(strstr(o.err, "--roles: expected alternate or split, got 'first'"));
	run_script(&o, "glibc-tables.sh", "-k", "between=none", "rw-groups-2017", NULL);
	ck_assert_int_eq(o.status, 2);
	ck_assert_ptr_nonnull(strstr(o.err, "-k between: the tables set it per cell"));
}
END_TEST

Suite *scripts_suite(void)
{
	return one_case_suite("scripts", 120, (const TTest *const[]){
		test_spin_2014_ends_with_the_ten_shapes,
		test_glibc_tables_end_with_the_directions_of_the_tables_run,
		NULL });
}
