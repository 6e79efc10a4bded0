/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_nptl.c - the pthread error returns that glibc's nptl tests
 * check (make check-glibc runs those tests themselves): the program
 * tests/programs/nptl_errors.c, built with $FUTEXSIM build and run over
 * seeds, prints "ok" for each, and its negative control (every check
 * expecting a wrong value) fails every one of them.
 *
 * Stage: tests.  Everything is built in a scratch directory
 * (tests/build_scratch.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/build_scratch.h"
#include "tests/run_child.h"
#include "version.h"

static const char *const checks[] = {
	"rwlock-rdlock-by-writer", "rwlock-wrlock-by-writer",
	"cond-wait-unowned-errorcheck", "cond-timedwait-nsec-negative",
	"cond-timedwait-nsec-2e9", "mutex-errorcheck-timedlock-relock",
	"sem-post-at-max", "sem-value-stays-at-max", "pi-timedlock-free",
	"pi-timedlock-held", "rwlock-initializer-kind-busy",
	"rwlock-initializer-writer-times-out", "spin-lock-after-a-sleeping-owner",
	NULL
};

static int build_errors(struct child_out *o)
{
	const char *argv[] = { "futexsim", "build",
		FUTEXSIM_SOURCE_DIR "/tests/programs/nptl_errors.c",
		"-o", "nptl-errors", NULL };

	if (!run_futexsim(o, argv))
		return 0;
	ck_assert_msg(o->status == 0, "build failed: %s", o->err);
	return 1;
}

static void run_errors(struct child_out *o, const char *args, int seed)
{
	char a[64], s[32];
	const char *argv[] = { "futexsim", "run", "--program=./nptl-errors",
			       a, s, NULL };

	snprintf(a, sizeof(a), "--args=%s", args);
	snprintf(s, sizeof(s), "--seed=%d", seed);
	run_futexsim(o, argv);
}

START_TEST(test_glibc_error_returns_hold_over_seeds_and_the_control_fails_each)
{
	struct child_out *o = malloc(sizeof(*o));
	char line[96];

	ck_assert_ptr_nonnull(o);
	scratch_enter();
	if (!build_errors(o)) {
		scratch_leave();
		free(o);
		return;
	}
	for (int seed = 1; seed <= 3; seed++) {
		run_errors(o, "", seed);
		ck_assert_msg(o->status == 0, "seed %d: exit %d: %s%s", seed,
			      o->status, o->out, o->err);
		for (int i = 0; checks[i]; i++) {
			snprintf(line, sizeof(line), "ok %s\n", checks[i]);
			ck_assert_msg(strstr(o->out, line), "seed %d: no %s",
				      seed, line);
		}
	}
	run_errors(o, "control", 1);
	/* a program's exit status other than 0 is futexsim's 6 */
	ck_assert_int_eq(o->status, 6);
	ck_assert_ptr_nonnull(strstr(o->out, "exit status 13,"));
	for (int i = 0; checks[i]; i++) {
		snprintf(line, sizeof(line), "FAIL %s:", checks[i]);
		ck_assert_msg(strstr(o->out, line), "control: no %s", line);
	}
	scratch_leave();
	free(o);
}
END_TEST

/* tests/programs/at_exit.c: the handlers run newest first with exit()'s
 * status at return from main(), exit() in a thread and the last
 * thread's end after main()'s pthread_exit(); _exit() runs none (the
 * control: the same check of handler lines fails there). */
START_TEST(test_exit_handlers_run_at_the_simulated_exit)
{
	static const struct {
		const char *how;
		int status;		/* futexsim's: 6 for a non-zero exit	*/
		const char *tail;	/* the program's last lines		*/
	} runs[] = {
		{ "return", 6, "main returns\natexit third\non_exit second status=3 arg=two\natexit first\n" },
		{ "exit", 6, "atexit third\non_exit second status=4 arg=two\natexit first\n" },
		{ "pthread_exit", 0, "thread done\natexit third\non_exit second status=0 arg=two\natexit first\n" },
		{ "_exit", 6, NULL },
	};
	struct child_out *o = malloc(sizeof(*o));
	const char *bargv[] = { "futexsim", "build",
		FUTEXSIM_SOURCE_DIR "/tests/programs/at_exit.c", "-o", "at-exit",
		NULL };

	ck_assert_ptr_nonnull(o);
	scratch_enter();
	if (!run_futexsim(o, bargv)) {
		scratch_leave();
		free(o);
		return;
	}
	ck_assert_msg(o->status == 0, "build failed: %s", o->err);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		char a[64];
		const char *argv[] = { "futexsim", "run", "--program=./at-exit",
				       a, NULL };

		snprintf(a, sizeof(a), "--args=%s", runs[i].how);
		run_futexsim(o, argv);
		ck_assert_msg(o->status == runs[i].status, "%s: exit %d: %s%s",
			      runs[i].how, o->status, o->out, o->err);
		if (runs[i].tail)
			ck_assert_msg(strstr(o->out, runs[i].tail), "%s: no\n%s\nin\n%s",
				      runs[i].how, runs[i].tail, o->out);
		else
			ck_assert_msg(!strstr(o->out, "atexit") &&
				      !strstr(o->out, "on_exit"),
				      "_exit ran a handler: %s", o->out);
	}
	scratch_leave();
	free(o);
}
END_TEST

Suite *nptl_suite(void)
{
	return one_case_suite("nptl", 120, (const TTest *const[]){
		test_glibc_error_returns_hold_over_seeds_and_the_control_fails_each,
		test_exit_handlers_run_at_the_simulated_exit,
		NULL });
}
