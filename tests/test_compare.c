/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_compare.c - suite "compare": `futexsim compare` and its
 * statistics (sim/compare/).  The t distribution against published
 * values, Welch's test on data worked by hand, and the command end to
 * end: a binary compared with itself finds no significant metric, a
 * longer critical section is found to lower the throughput, the output
 * is the same bytes twice, the JSON file has its schema, bad input is
 * one line and exit 2, and a side whose run fails stops the comparison
 * with that run's status, naming the side and the seed.
 *
 * Stage: statistics (unit) and CLI (end to end).  Run by
 * tests/check_main.c; the end-to-end tests run $FUTEXSIM (`make check`
 * sets it) in a temporary directory that is also $TMPDIR, so that the
 * runs' private directory is seen to be removed.  Without $FUTEXSIM they
 * say so and pass.
 */
#include <check.h>
#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sim/compare/welch.h"
#include "tests/json_lex.h"
#include "tests/run_child.h"

/* ---- the statistics ------------------------------------------------------- */

#define assert_near(x, want, tol) \
	ck_assert_msg(fabs((x) - (want)) <= (tol), "%s = %.8f, not %.8f", #x, \
		      (double)(x), (double)(want))

START_TEST(test_t_distribution_matches_published_values)
{
	/* I_0.4(2,3) = P(Binomial(4, 0.4) >= 2) = 0.5248 exactly */
	assert_near(sim_beta_inc(2, 3, 0.4), 0.5248, 1e-12);
	assert_near(sim_beta_inc(3, 2, 0.6), 1 - 0.5248, 1e-12);
	/* two-sided p-values of Student t tables */
	assert_near(sim_t_p2(2.0, 10), 0.0734, 1e-4);
	assert_near(sim_t_p2(2.228, 10), 0.05, 1e-4);
	assert_near(sim_t_p2(-2.228, 10), 0.05, 1e-4);
	assert_near(sim_t_p2(2.0, 5), 0.1019, 1e-4);	/* df matters	*/
	assert_near(sim_t_p2(1.0, 1), 0.5, 1e-12);	/* Cauchy	*/
	assert_near(sim_t_p2(1.96, 1e6), 0.05, 1e-4);	/* the normal	*/
	ck_assert(sim_t_p2(0, 7) == 1);
	assert_near(sim_t_cdf(-1.0, 1), 0.25, 1e-12);
	assert_near(sim_t_cdf(2.0, 10), 1 - 0.0734 / 2, 1e-4);
	/* critical values: t(0.975, df) */
	assert_near(sim_t_quantile2(0.05, 10), 2.228, 1e-3);
	assert_near(sim_t_quantile2(0.05, 1), 12.706, 1e-3);
	assert_near(sim_t_quantile2(0.05, 4), 2.776, 1e-3);
	/* negative control: a p-value of the wrong df is not accepted */
	ck_assert(fabs(sim_t_p2(2.0, 5) - 0.0734) > 1e-2);
}
END_TEST

START_TEST(test_welch_matches_hand_computed_data)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 2, 4, 6, 8, 10 };
	const double far[] = { 11, 12, 13, 14, 15 };
	const double four[] = { 4, 4, 4 }, five[] = { 5, 5, 5 };
	struct sim_sample sa, sb, sf, s4, s5;
	struct sim_welch w;

	/* a: mean 3, s^2 2.5; b: mean 6, s^2 10.  se^2 = 0.5 + 2 = 2.5,
	 * t = 3 / sqrt(2.5) = 1.897367, df = 6.25 / (0.25/4 + 4/4)
	 * = 5.882353, p = 0.1075; ci95(a) = 2.776445 sqrt(2.5/5) */
	sim_sample_of(&sa, a, 5);
	sim_sample_of(&sb, b, 5);
	assert_near(sa.mean, 3, 1e-12);
	assert_near(sa.var, 2.5, 1e-12);
	assert_near(sb.var, 10, 1e-12);
	assert_near(sa.ci95, 2.776445 * sqrt(0.5), 1e-5);
	sim_welch_test(&w, &sa, &sb);
	assert_near(w.t, 1.897367, 1e-6);
	assert_near(w.df, 5.882353, 1e-6);
	assert_near(w.p, 0.1075, 1e-4);
	ck_assert(!w.significant);
	/* far: mean 13, s^2 2.5: t = 10 / 1 = 10, df = 8 */
	sim_sample_of(&sf, far, 5);
	sim_welch_test(&w, &sa, &sf);
	assert_near(w.t, 10, 1e-12);
	assert_near(w.df, 8, 1e-12);
	ck_assert(w.p < 1e-4);
	ck_assert(w.significant);
	/* no variance: significant exactly when the means differ */
	sim_sample_of(&s4, four, 3);
	sim_sample_of(&s5, five, 3);
	ck_assert(s4.ci95 == 0);
	sim_welch_test(&w, &s4, &s4);
	ck_assert(!w.significant && w.p == 1);
	sim_welch_test(&w, &s4, &s5);
	ck_assert(w.significant && w.p == 0);
}
END_TEST

/* ---- the command ---------------------------------------------------------- */

static struct child_out co;
static char bin[PATH_MAX];	/* $FUTEXSIM, absolute			*/
static char dir[64];		/* the working directory and $TMPDIR	*/
static const char *const *job_argv;

static void job_exec(void *arg)
{
	(void)arg;
	if (chdir(dir) || setenv("TMPDIR", dir, 1))
		_exit(126);
	execv(bin, (char *const *)job_argv);
	_exit(127);
}

/* futexsim compare with the arguments given, in dir */
#define cmp(...) do { \
	job_argv = (const char *const[]){ "futexsim", "compare", __VA_ARGS__, NULL }; \
	run_child(job_exec, NULL, &co); \
	job_argv = NULL; \
} while (0)

#define SMALL	"--machine=tiny4", "--threads=4", "--ops=400"

static int setup_dir(void)
{
	const char *b = getenv("FUTEXSIM");

	if (!b || !*b) {
		fprintf(stderr, "compare: FUTEXSIM is not set (make check sets it "
			"to the built binary): test skipped\n");
		return 0;
	}
	ck_assert_ptr_nonnull(realpath(b, bin));
	strcpy(dir, "/tmp/futexsim-compare-test-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return 1;
}

/* No private directory of a comparison is left in dir. */
static void assert_no_private_dir(void)
{
	struct dirent *de;
	DIR *d = opendir(dir);

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		ck_assert_msg(strncmp(de->d_name, "futexsim-compare.", 17),
			      "%s/%s was left behind", dir, de->d_name);
	closedir(d);
}

static void remove_dir(void)
{
	char p[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d)))
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) {
			snprintf(p, sizeof(p), "%s/%s", dir, de->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

static const char *in_dir(const char *name)
{
	static char p[PATH_MAX];

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return p;
}

/* ---- a reader of the JSON file's schema ------------------------------------- */

struct metric_seen {
	char name[80];
	double change, p, a_mean;
	int significant;
	int change_null;
};

static struct metric_seen seen[64];
static int nr_seen;

static void expect(const char **s, char c)
{
	jl_ws(s);
	ck_assert_msg(**s == c, "'%c' expected at: %.40s", c, *s);
	(*s)++;
}

static void expect_key(const char **s, const char *key)
{
	char k[80];

	jl_ws(s);
	ck_assert_int_eq(jl_string(s, k, sizeof(k)), 0);
	ck_assert_msg(!strcmp(k, key), "key \"%s\" where \"%s\" was expected",
		      k, key);
	expect(s, ':');
}

static double expect_number(const char **s)
{
	double v;

	jl_ws(s);
	ck_assert_msg(!jl_number(s, &v), "a number expected at: %.40s", *s);
	return v;
}

/* {"mean":R,"ci95":R}.  Return: the mean. */
static double expect_side(const char **s)
{
	double mean;

	expect(s, '{');
	expect_key(s, "mean");
	mean = expect_number(s);
	expect(s, ',');
	expect_key(s, "ci95");
	ck_assert(expect_number(s) >= 0);
	expect(s, '}');
	return mean;
}

static void expect_metric(const char **s, struct metric_seen *m)
{
	jl_ws(s);
	ck_assert_int_eq(jl_string(s, m->name, sizeof(m->name)), 0);
	expect(s, ':');
	expect(s, '{');
	expect_key(s, "a");
	m->a_mean = expect_side(s);
	expect(s, ',');
	expect_key(s, "b");
	expect_side(s);
	expect(s, ',');
	expect_key(s, "change");
	jl_ws(s);
	m->change_null = !strncmp(*s, "null", 4);
	if (m->change_null)
		*s += 4;
	else
		m->change = expect_number(s);
	expect(s, ',');
	expect_key(s, "significant");
	jl_ws(s);
	m->significant = !strncmp(*s, "true", 4);
	ck_assert(m->significant || !strncmp(*s, "false", 5));
	*s += m->significant ? 4 : 5;
	expect(s, ',');
	expect_key(s, "p");
	m->p = expect_number(s);
	ck_assert(m->p >= 0 && m->p <= 1);
	expect(s, '}');
	/* change is null exactly when a's mean is 0 */
	ck_assert_msg(m->change_null == (m->a_mean == 0),
		      "%s: change %s with a's mean %f", m->name,
		      m->change_null ? "null" : "given", m->a_mean);
}

/* Read @path, which must have the schema of docs/compare.md, into seen[]. */
static void read_json(const char *path, uint64_t seeds)
{
	char *text = slurp(path, NULL), str[512];
	const char *s = text;

	nr_seen = 0;
	expect(&s, '{');
	expect_key(&s, "a");
	ck_assert_int_eq(jl_string(&s, str, sizeof(str)), 0);
	expect(&s, ',');
	expect_key(&s, "b");
	ck_assert_int_eq(jl_string(&s, str, sizeof(str)), 0);
	expect(&s, ',');
	expect_key(&s, "seeds");
	ck_assert(expect_number(&s) == (double)seeds);
	expect(&s, ',');
	expect_key(&s, "test");
	ck_assert_int_eq(jl_string(&s, str, sizeof(str)), 0);
	ck_assert_str_eq(str, "welch-t");
	expect(&s, ',');
	expect_key(&s, "metrics");
	expect(&s, '{');
	do {
		ck_assert_int_lt(nr_seen, 64);
		expect_metric(&s, &seen[nr_seen++]);
		jl_ws(&s);
	} while (*s == ',' && s++);
	expect(&s, '}');
	expect(&s, '}');
	jl_ws(&s);
	ck_assert_msg(*s == '\0', "text after the document: %.40s", s);
	free(text);
}

static const struct metric_seen *metric(const char *name)
{
	for (int i = 0; i < nr_seen; i++)
		if (!strcmp(seen[i].name, name))
			return &seen[i];
	ck_abort_msg("metric %s missing from the JSON file", name);
	return NULL;
}

/* ---- end to end ----------------------------------------------------------- */

START_TEST(test_a_binary_against_itself_shows_no_significant_metric)
{
	char *first;

	if (!setup_dir())
		return;
	cmp("--seeds=5", SMALL, "--against", bin, "--json=self.json");
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	ck_assert_msg(!strstr(co.out, " yes ("), "a significant row: %s", co.out);
	ck_assert_ptr_nonnull(strstr(co.out, "Welch's t-test"));
	ck_assert_ptr_nonnull(strstr(co.out, "\nthroughput "));
	read_json(in_dir("self.json"), 5);
	for (int i = 0; i < nr_seen; i++) {
		ck_assert_msg(!seen[i].significant, "%s significant", seen[i].name);
		ck_assert(seen[i].p == 1);
		ck_assert(seen[i].change_null || seen[i].change == 0);
	}
	metric("throughput");
	metric("acquire_ns.p99");
	metric("thread_ns.avg");
	/* the same inputs: the same bytes */
	first = strdup(co.out);
	cmp("--seeds=5", SMALL, "--against", bin, "--json=again.json");
	ck_assert_int_eq(co.status, 0);
	ck_assert_str_eq(co.out, first);
	free(first);
	first = slurp(in_dir("self.json"), NULL);
	{
		char *again = slurp(in_dir("again.json"), NULL);

		ck_assert_str_eq(first, again);
		free(again);
	}
	free(first);
	assert_no_private_dir();
	remove_dir();
}
END_TEST

START_TEST(test_a_longer_critical_section_lowers_throughput_significantly)
{
	const struct metric_seen *tp;

	if (!setup_dir())
		return;
	cmp("--seeds=5", SMALL, "--b-set=cs=pause:40", "--json=cs.json");
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	read_json(in_dir("cs.json"), 5);
	tp = metric("throughput");
	ck_assert(tp->significant);
	ck_assert(tp->p < 0.05);
	ck_assert_msg(!tp->change_null && tp->change < 0,
		      "throughput change %f, not negative", tp->change);
	ck_assert(metric("elapsed_ns")->change > 0);
	ck_assert_ptr_nonnull(strstr(co.out, "with cs=pause:40"));
	ck_assert_ptr_nonnull(strstr(co.out, "\nthroughput "));
	/* two locks: LOCK:metric, and tp's own counters */
	cmp("--seeds=3", SMALL, "--lock=ww,tp", "--b-set=cs=pause:40",
	    "--json=two.json");
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	read_json(in_dir("two.json"), 3);
	ck_assert(metric("ww:throughput")->change < 0);
	metric("tp:throughput");
	metric("tp:tp.top_waiter");
	ck_assert(metric("tp:tp.steals")->change_null ||
		  metric("tp:tp.steals")->a_mean != 0);
	for (int i = 0; i < nr_seen; i++)
		ck_assert_msg(strncmp(seen[i].name, "ww:tp.", 6),
			      "%s: ww has no TP counters", seen[i].name);
	ck_assert_ptr_nonnull(strstr(co.out, "\nww:throughput "));
	assert_no_private_dir();
	remove_dir();
}
END_TEST

START_TEST(test_bad_input_is_one_line_and_exit_2)
{
	if (!setup_dir())
		return;
	/* the usage names the command */
	cmp("--help");
	ck_assert_int_eq(co.status, 0);
	ck_assert_ptr_nonnull(strstr(co.out, "futexsim compare [SCENARIO] --seeds=N"));
	job_argv = (const char *const[]){ "futexsim", "help", NULL };
	run_child(job_exec, NULL, &co);
	job_argv = NULL;
	ck_assert_ptr_nonnull(strstr(co.out, "futexsim compare [SCENARIO] --seeds=N"));
	cmp("--seeds=3", SMALL);
	assert_one_line_error(&co, "--against", "--b-set");
	cmp("--b-set=cs=pause:4");
	assert_one_line_error(&co, "--seeds");
	cmp("--seeds=1", "--b-set=cs=pause:4");
	assert_one_line_error(&co, "--seeds", "'1'");
	cmp("--seeds=many", "--b-set=cs=pause:4");
	assert_one_line_error(&co, "--seeds", "'many'");
	cmp("--seeds=3", "--against=./no-such-futexsim");
	assert_one_line_error(&co, "--against", "no-such-futexsim");
	cmp("--seeds=3", "--against", dir);
	assert_one_line_error(&co, "--against", "not a regular file");
	cmp("--seeds=3", "--b-set=cs=bogus");
	assert_one_line_error(&co, "--b-set: cs:", "'bogus'");
	cmp("--seeds=3", "--b-set=no-such-key=1");
	assert_one_line_error(&co, "--b-set: no-such-key:");
	cmp("--seeds=3", "--b-set=pause");
	assert_one_line_error(&co, "--b-set", "KEY=VALUE");
	cmp("--seeds=3", "--b-set=seed=2");
	assert_one_line_error(&co, "--b-set: seed:");
	cmp("--seeds=3", "--b-set=cs=pause:4", "--seed=2");
	assert_one_line_error(&co, "--seed:");
	cmp("--seeds=3", "--b-set=cs=pause:4", "--trace=t.txt");
	assert_one_line_error(&co, "--trace:");
	cmp("--seeds=3", "--b-set=cs=pause:4", "--threads=lots");
	assert_one_line_error(&co, "--threads:", "'lots'");
	cmp("--seeds=3", "--b-set=lock=ww,tp");
	assert_one_line_error(&co, "--b-set", "as many locks");
	cmp("--seeds=3", "--b-set=cs=pause:4", "--json=no-such-dir/c.json");
	assert_one_line_error(&co, "--json:");
	cmp("--seeds=3", "--b-set=cs=pause:4", "no-such-scenario.scn");
	assert_one_line_error(&co, "no-such-scenario.scn");
	/* the positive control: the same arguments, well formed, run */
	cmp("--seeds=2", SMALL, "--b-set=cs=pause:4");
	ck_assert_msg(co.status == 0, "status %d: %s", co.status, co.err);
	assert_no_private_dir();
	remove_dir();
}
END_TEST

START_TEST(test_a_failing_side_exits_with_its_status_naming_side_and_seed)
{
	FILE *f;

	if (!setup_dir())
		return;
	/* B a deliberately broken lock: a simulated failure, exit 3 */
	cmp("--seeds=3", SMALL, "--b-set=lock=racy");
	ck_assert_msg(co.status == 3, "status %d: %s", co.status, co.err);
	ck_assert_ptr_nonnull(strstr(co.err, "compare: B, seed 1: "));
	ck_assert_ptr_nonnull(strstr(co.err, "status 3"));
	ck_assert_ptr_nonnull(strstr(co.err, "reproduce: "));
	ck_assert_ptr_nonnull(strstr(co.err, "--seed=1"));
	ck_assert_ptr_nonnull(strstr(co.err, "--lock=racy"));
	ck_assert_msg(strchr(co.err, '\n')[1] == '\0', "not one line: %s", co.err);
	ck_assert(!strstr(co.out, "throughput"));
	/* A broken: A is named */
	cmp("--seeds=3", SMALL, "--lock=racy", "--b-set=cs=pause:4");
	ck_assert_int_eq(co.status, 3);
	ck_assert_ptr_nonnull(strstr(co.err, "compare: A, seed 1: "));
	/* an OTHER that exits 3 with a line of its own */
	f = fopen(in_dir("fails.sh"), "w");
	ck_assert_ptr_nonnull(f);
	fputs("#!/bin/sh\necho 'other: it broke' >&2\nexit 3\n", f);
	fclose(f);
	ck_assert_int_eq(chmod(in_dir("fails.sh"), 0755), 0);
	cmp("--seeds=2", SMALL, "--against=./fails.sh");
	ck_assert_int_eq(co.status, 3);
	ck_assert_ptr_nonnull(strstr(co.err, "compare: B, seed 1: "));
	ck_assert_ptr_nonnull(strstr(co.err, "other: it broke"));
	ck_assert_ptr_nonnull(strstr(co.err, "reproduce: ./fails.sh run --seed=1"));
	/* an OTHER that exits 0 without a report is not futexsim */
	f = fopen(in_dir("quiet.sh"), "w");
	ck_assert_ptr_nonnull(f);
	fputs("#!/bin/sh\nexit 0\n", f);
	fclose(f);
	ck_assert_int_eq(chmod(in_dir("quiet.sh"), 0755), 0);
	cmp("--seeds=2", SMALL, "--against=./quiet.sh");
	ck_assert_int_eq(co.status, 2);
	ck_assert_ptr_nonnull(strstr(co.err, "B, seed 1"));
	assert_no_private_dir();
	remove_dir();
}
END_TEST

Suite *compare_suite(void)
{
	return one_case_suite("compare", 120, (const TTest *const[]){
		test_t_distribution_matches_published_values,
		test_welch_matches_hand_computed_data,
		test_a_binary_against_itself_shows_no_significant_metric,
		test_a_longer_critical_section_lowers_throughput_significantly,
		test_bad_input_is_one_line_and_exit_2,
		test_a_failing_side_exits_with_its_status_naming_side_and_seed,
		NULL });
}
