/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_plot.c - suite "plot": the SVG writer (sim/report/plot.c),
 * the run's SVG (sim/report/plot_run.c) and the options that write them.
 * An SVG is well-formed (its tags balance, by a minimal parser here), the
 * same data gives the same bytes, a fairness panel has one bar per
 * thread and lock, and a CDF, parsed back from its path, is monotonic and
 * ends at the top of its plot area (1.0).  The checkers are shown to
 * catch an unbalanced document and a falling CDF (the negative
 * controls), and the writer refuses a CDF that is not one.  End to end:
 * `run --plot` twice gives one file, a plot per lock; `compare --plot`
 * has its stars; a plot to an unwritable place or without .svg is bad
 * input, one line, exit 2; `plot-table` draws a table file and names the
 * line of a bad one.
 *
 * Stage: tests, unit and CLI level.  Run by tests/check_main.c; the CLI
 * tests run $FUTEXSIM (make check sets it) in a temporary directory
 * through tests/run_child.h, and skip without it.
 */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/report/plot.h"
#include "sim/report/plot_run.h"
#include "tests/run_child.h"

/* ---- checkers ------------------------------------------------------------ */

/* Do the tags of @svg balance (<a>...</a>, <a/>, <?...?> skipped)?
 * Return: 1 if so; 0 with @why (64 bytes) said. */
static int well_formed(const char *svg, char *why)
{
	char stack[64][32];
	int depth = 0, roots = 0;

	for (const char *p = strchr(svg, '<'); p; p = strchr(p + 1, '<')) {
		const char *end = strchr(p, '>');
		size_t n;

		if (!end)
			return snprintf(why, 64, "an unclosed tag"), 0;
		if (p[1] == '?')
			continue;
		if (p[1] == '/') {
			n = strcspn(p + 2, " >");
			if (!depth || strncmp(stack[depth - 1], p + 2, n) ||
			    stack[depth - 1][n])
				return snprintf(why, 64, "</%.*s> does not close the open tag",
						(int)n, p + 2), 0;
			depth--;
		} else if (end[-1] != '/') {
			n = strcspn(p + 1, " />");
			if (depth == 64 || n >= 32)
				return snprintf(why, 64, "too deep"), 0;
			memcpy(stack[depth], p + 1, n);
			stack[depth++][n] = '\0';
			roots += depth == 1;
		}
	}
	if (depth)
		return snprintf(why, 64, "<%s> is never closed", stack[depth - 1]), 0;
	if (roots != 1 || !strstr(svg, "<svg "))
		return snprintf(why, 64, "not one <svg> root"), 0;
	return 1;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (s = strstr(s, what); s; s = strstr(s + 1, what))
		n++;
	return n;
}

/* The CDF path of series @series of the chart starting at @chart: its
 * points into @x, @y (at most @max), the top of its plot area into *@top.
 * Return: the points, -1 if there is no such path. */
static int cdf_path(const char *chart, int series, double *x, double *y,
		    int max, double *top)
{
	char cls[32];
	const char *p = strstr(chart, "class=\"plot-area\""), *d;
	int n = 0;

	if (!p || sscanf(strstr(p, "y=\""), "y=\"%lf", top) != 1)
		return -1;
	snprintf(cls, sizeof(cls), "class=\"line s%d\"", series);
	if (!(p = strstr(chart, cls)) || !(d = strstr(p, " d=\"")))
		return -1;
	for (d += 4; *d && *d != '"' && n < max; ) {
		int used;

		if (*d == 'M' || *d == 'L' || *d == ' ') {
			d++;
			continue;
		}
		if (sscanf(d, "%lf,%lf%n", &x[n], &y[n], &used) != 2)
			return -1;
		d += used;
		n++;
	}
	return n;
}

/* Is the path a CDF drawn on screen: x never goes left, y never goes down
 * (screen y grows downwards), and the last point is at the top (1.0)?
 * Return: 1, or 0 with @why said. */
static int cdf_drawn(const double *x, const double *y, int n, double top,
		     char *why)
{
	for (int i = 1; i < n; i++)
		if (x[i] < x[i - 1] || y[i] > y[i - 1])
			return snprintf(why, 64, "point %d goes back", i), 0;
	if (n < 2 || fabs(y[n - 1] - top) > 0.005)
		return snprintf(why, 64, "it ends at %.2f, not at 1.0 (%.2f)",
				n ? y[n - 1] : -1, top), 0;
	return 1;
}

/* ---- a run's SVG from made-up figures -------------------------------------- */

#define THREADS	5

static char *run_svg(size_t *len)
{
	static struct sim_hist h[2];
	static uint64_t ops[2][THREADS] = { { 10, 20, 30, 40, 50 },
					    { 30, 30, 30, 30, 30 } };
	struct sim_scenario s;
	struct sim_result r[2];
	struct sim_detail d[2];
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	memset(h, 0, sizeof(h));
	for (uint64_t v = 1; v < 100000; v = v * 3 + 1) {
		sim_hist_add(&h[0], v);
		sim_hist_add(&h[1], v / 2 + 3);
	}
	sim_scenario_defaults(&s);
	strcpy(s.locks[1], "tp");
	s.nr_locks = 2;
	s.threads = THREADS;
	memset(r, 0, sizeof(r));
	strcpy(r[0].lock, "ww");
	strcpy(r[1].lock, "tp");
	r[0].jain = sim_jain(ops[0], THREADS);
	r[1].jain = sim_jain(ops[1], THREADS);
	for (int i = 0; i < 2; i++)
		d[i] = (struct sim_detail){ THREADS, ops[i], &h[i] };
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(sim_plot_run_svg(f, &s, r, d, 2), 0);
	fclose(f);
	return buf;
}

START_TEST(test_a_run_svg_is_well_formed_and_the_same_twice)
{
	size_t l1, l2;
	char *a = run_svg(&l1), *b = run_svg(&l2), why[64];

	ck_assert_msg(well_formed(a, why), "%s", why);
	ck_assert_uint_eq(l1, l2);
	ck_assert_msg(!memcmp(a, b, l1), "two writes of one run differ");
	ck_assert_ptr_nonnull(strstr(a, "ww (Jain 0.818)"));
	ck_assert_ptr_nonnull(strstr(a, "tp (Jain 1.000)"));
	free(a);
	free(b);
}
END_TEST

START_TEST(test_a_run_svg_has_one_bar_per_thread_and_lock)
{
	size_t len;
	char *svg = run_svg(&len), cls[32];

	ck_assert_int_eq(count(svg, "class=\"bar "), 2 * THREADS);
	for (int t = 0; t < THREADS; t++) {
		snprintf(cls, sizeof(cls), "class=\"bar s0 c%d\"", t);
		ck_assert_int_eq(count(svg, cls), 1);
		snprintf(cls, sizeof(cls), "class=\"bar s1 c%d\"", t);
		ck_assert_int_eq(count(svg, cls), 1);
	}
	ck_assert_int_eq(count(svg, "class=\"bar s2"), 0);
	free(svg);
}
END_TEST

START_TEST(test_a_run_svg_cdf_is_monotonic_and_ends_at_one)
{
	size_t len;
	char *svg = run_svg(&len), why[64];
	const char *lat = strstr(svg, "acquire latency");
	static double x[20000], y[20000];
	double top;

	ck_assert_ptr_nonnull(lat);
	for (int s = 0; s < 2; s++) {
		int n = cdf_path(lat, s, x, y, 20000, &top);

		ck_assert_int_gt(n, 10);
		ck_assert_msg(cdf_drawn(x, y, n, top, why), "series %d: %s", s, why);
	}
	free(svg);
}
END_TEST

/* The negative controls: the checkers catch what they are for, and the
 * writer refuses a CDF that is not one. */
START_TEST(test_the_checkers_catch_a_falling_cdf_and_unbalanced_tags)
{
	static const char falling[] =
		"<svg x=\"1\"><rect class=\"plot-area\" x=\"0\" y=\"10.00\"/>"
		"<path class=\"line s0\" d=\"M 1,100 L 2,50 L 3,70 L 4,10.00\"/></svg>";
	static const char short_of_one[] =
		"<svg x=\"1\"><rect class=\"plot-area\" x=\"0\" y=\"10.00\"/>"
		"<path class=\"line s0\" d=\"M 1,100 L 2,50 L 3,40\"/></svg>";
	double x[8], y[8], top, cx[3] = { 1, 2, 3 }, cy[3] = { 0.2, 0.6, 0.5 };
	char why[64];
	int n = cdf_path(falling, 0, x, y, 8, &top);
	struct sim_chart_series se = { .name = "bad", .n = 3, .x = cx, .y = cy };
	struct sim_chart c = { .kind = SIM_CHART_LINES, .cdf = 1, .xlog = 1,
			       .nr_series = 1, .series = &se };
	char *buf = NULL;
	size_t len;
	FILE *f;

	ck_assert_int_eq(n, 4);
	ck_assert(!cdf_drawn(x, y, n, top, why));
	ck_assert_ptr_nonnull(strstr(why, "point 2"));
	n = cdf_path(short_of_one, 0, x, y, 8, &top);
	ck_assert(!cdf_drawn(x, y, n, top, why));
	ck_assert(!well_formed("<svg a=\"1\"><g></svg>", why));
	ck_assert(!well_formed("<svg a=\"1\"><g></g></svg><svg a=\"1\"></svg>", why));
	ck_assert(well_formed("<?xml?><svg a=\"1\"><g><rect/></g></svg>", why));
	/* the writer: a falling CDF, and one that ends below 1 */
	ck_assert_int_eq(sim_plot_cdf_check(cx, cy, 3), 2);
	cy[2] = 0.9;
	ck_assert_int_eq(sim_plot_cdf_check(cx, cy, 3), 3);
	cy[2] = 0.5;
	f = open_memstream(&buf, &len);
	ck_assert_int_eq(sim_plot_chart(f, &c, 0, 0, 800, 500), -1);
	fclose(f);
	ck_assert_uint_eq(len, 0);	/* nothing written */
	free(buf);
	cy[2] = 1;
	ck_assert_int_eq(sim_plot_cdf_check(cx, cy, 3), 0);
}
END_TEST

/* ---- end to end -------------------------------------------------------------- */

static char dir[64];
static struct child_out co;

static int in_dir(void)
{
	if (!getenv("FUTEXSIM") || !*getenv("FUTEXSIM")) {
		fprintf(stderr, "plot: FUTEXSIM is not set: test skipped\n");
		return 0;
	}
	snprintf(dir, sizeof(dir), "/tmp/futexsim-plot.%d", (int)getpid());
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	return 1;
}

START_TEST(test_run_plot_twice_is_one_file_with_each_lock)
{
	char p1[128], p2[128], a1[160], a2[160], why[64];
	char *s1, *s2;
	size_t l1, l2;

	if (!in_dir())
		return;
	snprintf(p1, sizeof(p1), "%s/one.svg", dir);
	snprintf(p2, sizeof(p2), "%s/two.svg", dir);
	snprintf(a1, sizeof(a1), "--plot=%s", p1);
	snprintf(a2, sizeof(a2), "--plot=%s", p2);
	run_futexsim(&co, (const char *const[]){ "futexsim", "run",
		"--lock=ww,tp", "--threads=3", "--ops=3000", a1, NULL });
	ck_assert_msg(co.status == 0, "%s", co.err);
	run_futexsim(&co, (const char *const[]){ "futexsim", "run",
		"--lock=ww,tp", "--threads=3", "--ops=3000", a2, NULL });
	ck_assert_msg(co.status == 0, "%s", co.err);
	s1 = slurp(p1, &l1);
	s2 = slurp(p2, &l2);
	ck_assert_uint_eq(l1, l2);
	ck_assert(!memcmp(s1, s2, l1));
	ck_assert_msg(well_formed(s1, why), "%s", why);
	ck_assert_int_eq(count(s1, "class=\"bar "), 2 * 3);
	ck_assert_int_eq(count(s1, "class=\"line "), 2);
	ck_assert_ptr_nonnull(strstr(s1, "ww (Jain "));
	ck_assert_ptr_nonnull(strstr(s1, "tp (Jain "));
	free(s1);
	free(s2);
	unlink(p1);
	unlink(p2);
	rmdir(dir);
}
END_TEST

START_TEST(test_compare_plot_has_a_bar_pair_per_metric_and_stars)
{
	char p[128], a[160], why[64];
	char *s;

	if (!in_dir())
		return;
	snprintf(p, sizeof(p), "%s/cmp.svg", dir);
	snprintf(a, sizeof(a), "--plot=%s", p);
	run_futexsim(&co, (const char *const[]){ "futexsim", "compare",
		"--seeds=3", "--threads=3", "--ops=2000", "--b-set=lock=tp", a,
		NULL });
	ck_assert_msg(co.status == 0, "%s", co.err);
	s = slurp(p, NULL);
	ck_assert_msg(well_formed(s, why), "%s", why);
	ck_assert_int_eq(count(s, "class=\"bar s0 "), count(s, "class=\"bar s1 "));
	ck_assert_int_gt(count(s, "class=\"bar s0 "), 5);
	ck_assert_int_gt(count(s, "class=\"mark s1 "), 0);	/* tp differs */
	ck_assert_int_eq(count(s, "class=\"mark s0 "), 0);
	ck_assert_int_eq(count(s, "class=\"ref\""), 1);
	free(s);
	unlink(p);
	rmdir(dir);
}
END_TEST

static void assert_one_line_exit_2(const char *want)
{
	ck_assert_msg(co.status == 2, "status %d: %s", co.status, co.err);
	ck_assert_int_eq(count(co.err, "\n"), 1);
	ck_assert_msg(strstr(co.err, want), "%s", co.err);
}

START_TEST(test_plot_to_an_unwritable_place_or_not_svg_is_bad_input)
{
	run_futexsim(&co, (const char *const[]){ "futexsim", "run",
		"--plot=/nonexistent-dir/x.svg", "--ops=100", NULL });
	if (!getenv("FUTEXSIM"))
		return;
	assert_one_line_exit_2("--plot: expected a writable file");
	run_futexsim(&co, (const char *const[]){ "futexsim", "run",
		"--plot=x.png", "--ops=100", NULL });
	assert_one_line_exit_2("--plot: expected a file name ending in .svg");
	run_futexsim(&co, (const char *const[]){ "futexsim", "compare",
		"--seeds=2", "--b-set=lock=tp", "--plot=x.txt", NULL });
	assert_one_line_exit_2("--plot: expected a file name ending in .svg");
	run_futexsim(&co, (const char *const[]){ "futexsim", "compare",
		"--seeds=2", "--b-set=lock=tp", "--plot=/nonexistent-dir/c.svg",
		NULL });
	assert_one_line_exit_2("--plot: expected a writable file");
	/* the control: a plot in a writable place is drawn */
	if (!in_dir())
		return;
	ck_assert_int_eq(chdir(dir), 0);
	run_futexsim(&co, (const char *const[]){ "futexsim", "run",
		"--plot=ok.svg", "--ops=100", NULL });
	ck_assert_msg(co.status == 0, "%s", co.err);
	ck_assert_int_eq(access("ok.svg", R_OK), 0);
	unlink("ok.svg");
	ck_assert_int_eq(chdir("/"), 0);
	rmdir(dir);
}
END_TEST

/* plot-table: a good table draws its bars; a bad row names file and line */
START_TEST(test_plot_table_draws_a_table_and_names_a_bad_line)
{
	static const char good[] = "# a comment\ntitle\tT\ncolumns\tpub\tsim\n"
		"row\tmax\t3.5\t2.0\nrow\tmin\t3.2\t-\n";
	char tab[128], svg[128], why[64];
	FILE *f;
	char *s;

	if (!in_dir())
		return;
	snprintf(tab, sizeof(tab), "%s/t.tab", dir);
	snprintf(svg, sizeof(svg), "%s/t.svg", dir);
	f = fopen(tab, "w");
	ck_assert_ptr_nonnull(f);
	fputs(good, f);
	fclose(f);
	run_futexsim(&co, (const char *const[]){ "futexsim", "plot-table", tab,
		"-o", svg, NULL });
	ck_assert_msg(co.status == 0, "%s", co.err);
	s = slurp(svg, NULL);
	ck_assert_msg(well_formed(s, why), "%s", why);
	ck_assert_int_eq(count(s, "class=\"bar "), 3);	/* "-" draws none */
	free(s);
	f = fopen(tab, "w");
	ck_assert_ptr_nonnull(f);
	fputs("columns\ta\nrow\tx\t1\nrow\ty\tmany\n", f);
	fclose(f);
	run_futexsim(&co, (const char *const[]){ "futexsim", "plot-table", tab,
		"-o", svg, NULL });
	assert_one_line_exit_2("t.tab:3: row: expected a number or '-', got 'many'");
	unlink(tab);
	unlink(svg);
	rmdir(dir);
}
END_TEST

Suite *plot_suite(void)
{
	Suite *s = suite_create("plot");
	TCase *tc = tcase_create("plot");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_a_run_svg_is_well_formed_and_the_same_twice);
	tcase_add_test(tc, test_a_run_svg_has_one_bar_per_thread_and_lock);
	tcase_add_test(tc, test_a_run_svg_cdf_is_monotonic_and_ends_at_one);
	tcase_add_test(tc, test_the_checkers_catch_a_falling_cdf_and_unbalanced_tags);
	tcase_add_test(tc, test_run_plot_twice_is_one_file_with_each_lock);
	tcase_add_test(tc, test_compare_plot_has_a_bar_pair_per_metric_and_stars);
	tcase_add_test(tc, test_plot_to_an_unwritable_place_or_not_svg_is_bad_input);
	tcase_add_test(tc, test_plot_table_draws_a_table_and_names_a_bad_line);
	suite_add_tcase(s, tc);
	return s;
}
