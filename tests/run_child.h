/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/run_child.h - run a piece of code, or a command, in a child
 * process and capture its exit status, stdout and stderr, so tests can
 * assert on the one-line bad-input errors (exit 2) and on whole runs;
 * and one_case_suite(), the Check registration of a one-case suite.
 *
 * Stage: tests.  Used by most tests/test_*.c; calls fork(), exec, Check
 * and libc only.  Static functions: each test file gets its own copy.
 */
#ifndef TESTS_RUN_CHILD_H
#define TESTS_RUN_CHILD_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILD_OUT_MAX	(256 * 1024)	/* a narrated failure report fits */

struct child_out {
	int status;		/* exit status, or 128 + signal number	*/
	char out[CHILD_OUT_MAX];	/* stdout, NUL-terminated	*/
	char err[CHILD_OUT_MAX];	/* stderr, NUL-terminated	*/
};

static void child__slurp(FILE *f, char *buf, size_t len)
{
	size_t n;

	rewind(f);
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
}

/*
 * run_child - call @fn(@arg) in a forked child whose stdout and stderr go
 * to temporary files; the child exits 0 if @fn returns.
 * Return: @o, filled.
 */
static __attribute__((unused)) struct child_out *run_child(void (*fn)(void *arg), void *arg,
				   struct child_out *o)
{
	FILE *out = tmpfile(), *err = tmpfile();
	int st;
	pid_t pid;

	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_nonnull(err);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		dup2(fileno(out), 1);
		dup2(fileno(err), 2);
		fn(arg);
		fflush(NULL);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	o->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	child__slurp(out, o->out, sizeof(o->out));
	child__slurp(err, o->err, sizeof(o->err));
	return o;
}

static char *const *child__argv;

static void child__exec(void *arg)
{
	execv(arg, child__argv);
	fprintf(stderr, "exec %s failed\n", (const char *)arg);
	_exit(127);
}

/* run_program - run @path with @argv (argv[0] included, NULL-ended). */
static __attribute__((unused)) struct child_out *run_program(const char *path, char *const argv[],
				     struct child_out *o)
{
	child__argv = argv;
	run_child(child__exec, (void *)path, o);
	child__argv = NULL;	/* @argv may be the caller's local */
	return o;
}

/*
 * run_futexsim - run the futexsim binary named by $FUTEXSIM (make check
 * sets it) with the NULL-terminated @argv (argv[0] "futexsim") into @o.
 * Return: 1, or 0 with a note on stderr (the test is skipped) when
 * FUTEXSIM is not set.
 */
static __attribute__((unused)) int run_futexsim(struct child_out *o,
						const char *const *argv)
{
	const char *bin = getenv("FUTEXSIM");

	if (!bin || !*bin) {
		fprintf(stderr, "FUTEXSIM is not set (make check sets it to the "
			"built binary): test skipped\n");
		return 0;
	}
	run_program(bin, (char *const *)argv, o);
	return 1;
}

/*
 * assert_broken_then_ok - run $FUTEXSIM with @broken (a negative
 * control: it must fail with a simulated failure, exit 3, whose report
 * has @why), then with @ok (the same run of the correct lock: exit 0,
 * its report has @ok_has).  NULL-terminated argv, argv[0] "futexsim".
 */
static __attribute__((unused)) void
assert_broken_then_ok(const char *const *broken, const char *const *ok,
		      const char *why, const char *ok_has)
{
	struct child_out *o = malloc(sizeof(*o));

	ck_assert_ptr_nonnull(o);
	ck_assert_msg(run_futexsim(o, broken), "FUTEXSIM must name the binary (make check sets it)");
	ck_assert_int_eq(o->status, 3);
	ck_assert_ptr_nonnull(strstr(o->err, why));
	run_futexsim(o, ok);
	ck_assert_msg(o->status == 0, "status %d: %s", o->status, o->err);
	ck_assert_ptr_nonnull(strstr(o->out, ok_has));
	free(o);
}

/* slurp - the whole file @path, NUL-terminated (free() it); its length
 * into *@len unless @len is NULL. */
static __attribute__((unused)) char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
	buf[n] = '\0';
	fclose(f);
	if (len)
		*len = (size_t)n;
	return buf;
}

/*
 * assert_one_line_error - @o exited with status 2 and its stderr is one
 * line "futexsim: ..." that contains each of the NULL-terminated @parts.
 */
#define assert_one_line_error(o, ...) \
	child__assert_error((o), (const char *const[]){ __VA_ARGS__, NULL })

static __attribute__((unused)) void child__assert_error(const struct child_out *o,
				const char *const *parts)
{
	const char *nl = strchr(o->err, '\n');

	ck_assert_msg(o->status == 2, "exit status %d, not 2; stderr: %s",
		      o->status, o->err);
	ck_assert_msg(!strncmp(o->err, "futexsim: ", 10),
		      "error does not start with 'futexsim: ': %s", o->err);
	ck_assert_msg(nl && nl[1] == '\0',
		      "error is not exactly one line: [%s]", o->err);
	for (; *parts; parts++)
		ck_assert_msg(strstr(o->err, *parts), "'%s' missing from: %s",
			      *parts, o->err);
}

/*
 * one_case_suite - the suite @name with one test case, also @name, of
 * the NULL-terminated @tests, each allowed @timeout_s seconds (0: Check's
 * default, CK_DEFAULT_TIMEOUT).
 * Return: the suite, for tests/check_main.c.
 */
static __attribute__((unused)) Suite *one_case_suite(const char *name,
						     double timeout_s,
						     const TTest *const *tests)
{
	Suite *s = suite_create(name);
	TCase *tc = tcase_create(name);

	if (timeout_s > 0)
		tcase_set_timeout(tc, timeout_s);
	for (; *tests; tests++)
		tcase_add_test(tc, *tests);
	suite_add_tcase(s, tc);
	return s;
}

/* replay_file_of - the file named after "explore: replay file " in an
 * explore command's stdout @out, into @file. */
static __attribute__((unused)) void replay_file_of(const char *out, char *file,
						   size_t len)
{
	const char *p = strstr(out, "explore: replay file ");

	ck_assert_msg(p != NULL, "no replay file in: %s", out);
	p += strlen("explore: replay file ");
	snprintf(file, len, "%.*s", (int)strcspn(p, "\n"), p);
}

#endif /* TESTS_RUN_CHILD_H */
