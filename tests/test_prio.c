/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_prio.c - scheduling classes and priority inheritance with
 * real priorities, through programs built with $FUTEXSIM build:
 *  - workloads/examples/prio_inversion.c on one CPU: with
 *    PTHREAD_PRIO_INHERIT the high-priority waiter's wait is bounded by
 *    the critical section and the boost is in the trace; the plain mutex
 *    is the negative control (the hog's whole run is in the wait, and no
 *    boost is traced);
 *  - tests/programs/pi_chain.c: the real rtmutex's chain walk boosts the
 *    owner of the second mutex through the blocked owner of the first;
 *    without the top waiter ("nochain") it gets only the middle prio;
 *  - tests/programs/sched_share.c: SCHED_RR threads take turns on one
 *    CPU, SCHED_FIFO ones (the control) do not; nice 5 gets a fraction
 *    of nice 0's CPU;
 *  - tests/programs/sched_calls.c: the scheduling calls' results and
 *    error returns, and a control that fails every check.
 *
 * Stage: tests.  Everything runs in a scratch directory
 * (tests/build_scratch.h).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/build_scratch.h"
#include "tests/run_child.h"
#include "version.h"

static char trace_buf[1 << 20];

static int build(struct child_out *o, const char *src, const char *out)
{
	char path[512];
	const char *argv[] = { "futexsim", "build", path, "-o", out, NULL };

	snprintf(path, sizeof(path), "%s/%s", FUTEXSIM_SOURCE_DIR, src);
	if (!run_futexsim(o, argv))
		return 0;
	ck_assert_msg(o->status == 0, "build of %s failed: %s", src, o->err);
	return 1;
}

/* Run ./@bin on one CPU with @args, tracing into trace.txt. */
static void run(struct child_out *o, const char *bin, const char *args)
{
	char p[64], a[96];
	const char *argv[] = { "futexsim", "run", p, "--cpus=1", a,
			       "--trace=trace.txt", NULL };

	snprintf(p, sizeof(p), "--program=./%s", bin);
	snprintf(a, sizeof(a), "--args=%s", args);
	run_futexsim(o, argv);
	ck_assert_msg(o->status == 0, "%s %s: exit %d: %s%s", bin, args,
		      o->status, o->out, o->err);
}

static const char *trace(void)
{
	FILE *f = fopen("trace.txt", "r");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(trace_buf, 1, sizeof(trace_buf) - 1, f);
	trace_buf[n] = '\0';
	fclose(f);
	return trace_buf;
}

static long waited_us(const char *out)
{
	const char *p = strstr(out, "high waited ");

	ck_assert_msg(p != NULL, "no wait line in: %s", out);
	return atol(p + strlen("high waited "));
}

START_TEST(test_pi_bounds_the_inversion_the_plain_mutex_does_not)
{
	struct child_out *o = malloc(sizeof(*o));
	long pi_us, plain_us;

	ck_assert_ptr_nonnull(o);
	scratch_enter();
	if (!build(o, "workloads/examples/prio_inversion.c", "pinv"))
		goto out;
	run(o, "pinv", "pi 1 5000 200");
	pi_us = waited_us(o->out);
	ck_assert_msg(pi_us > 0 && pi_us <= 400, "PI wait %ld us", pi_us);
	ck_assert_ptr_nonnull(strstr(o->out, "wait bounded by the critical"));
	/* low (thread1, prio 89) boosted to high's 69, and back */
	ck_assert_ptr_nonnull(strstr(trace(), "sched_pi_setprio: comm=thread1 pid=101 oldprio=89 newprio=69"));
	ck_assert_ptr_nonnull(strstr(trace_buf, "sched_pi_setprio: comm=thread1 pid=101 oldprio=69 newprio=89"));
	/* the negative control: same program, plain mutex */
	run(o, "pinv", "plain 1 5000 200");
	plain_us = waited_us(o->out);
	ck_assert_msg(plain_us >= 5000, "plain wait %ld us", plain_us);
	ck_assert_ptr_nonnull(strstr(o->out, "NOT bounded"));
	ck_assert_ptr_null(strstr(trace(), "sched_pi_setprio"));
	/* the hog's length is in the plain wait, not in the PI one */
	run(o, "pinv", "plain 1 10000 200");
	ck_assert_msg(waited_us(o->out) >= 10000, "plain wait %ld us",
		      waited_us(o->out));
	run(o, "pinv", "pi 1 10000 200");
	ck_assert_int_eq(waited_us(o->out), pi_us);
out:
	scratch_leave();
	free(o);
}
END_TEST

START_TEST(test_the_chain_walk_boosts_across_two_pi_mutexes)
{
	struct child_out *o = malloc(sizeof(*o));

	ck_assert_ptr_nonnull(o);
	scratch_enter();
	if (!build(o, "tests/programs/pi_chain.c", "chain"))
		goto out;
	run(o, "chain", "pi");
	/* C boosted by B (20), then B by A (30) and, through B, C to 30 */
	ck_assert_ptr_nonnull(strstr(trace(), "comm=thread1 pid=101 oldprio=89 newprio=79"));
	ck_assert_ptr_nonnull(strstr(trace_buf, "comm=thread2 pid=102 oldprio=79 newprio=69"));
	ck_assert_ptr_nonnull(strstr(trace_buf, "comm=thread1 pid=101 oldprio=79 newprio=69"));
	ck_assert_ptr_nonnull(strstr(o->out, "finished: CBA"));
	/* controls: without A nothing reaches 69; without PI, no boost */
	run(o, "chain", "nochain");
	ck_assert_ptr_nonnull(strstr(trace(), "comm=thread1 pid=101 oldprio=89 newprio=79"));
	ck_assert_ptr_null(strstr(trace_buf, "newprio=69"));
	run(o, "chain", "plain");
	ck_assert_ptr_null(strstr(trace(), "sched_pi_setprio"));
out:
	scratch_leave();
	free(o);
}
END_TEST

START_TEST(test_rr_takes_turns_fifo_does_not_nice_weighs)
{
	struct child_out *o = malloc(sizeof(*o));
	long a, b;

	ck_assert_ptr_nonnull(o);
	scratch_enter();
	if (!build(o, "tests/programs/sched_share.c", "share"))
		goto out;
	/* SCHED_FIFO (the control): the first ends a whole run before */
	run(o, "share", "fifo");
	ck_assert_int_eq(sscanf(o->out, "a %ld b %ld", &a, &b), 2);
	ck_assert_msg(b - a >= 5500, "fifo: a %ld b %ld", a, b);
	/* SCHED_RR: turns of a timeslice, ends within one slice */
	run(o, "share", "rr");
	ck_assert_int_eq(sscanf(o->out, "a %ld b %ld", &a, &b), 2);
	ck_assert_msg(b - a < 2500 && a > 9000, "rr: a %ld b %ld", a, b);
	/* nice 0 against nice 5: about 3 times the CPU */
	run(o, "share", "nice");
	ck_assert_int_eq(sscanf(o->out, "cpu %ld %ld", &a, &b), 2);
	ck_assert_msg(a > 2 * b && b > 1000, "nice: %ld %ld", a, b);
out:
	scratch_leave();
	free(o);
}
END_TEST

START_TEST(test_sched_calls_and_their_errors_and_the_control_fails_each)
{
	struct child_out *o = malloc(sizeof(*o));
	const char *argv[] = { "futexsim", "run", "--program=./calls", NULL,
			       NULL };
	int oks = 0;

	ck_assert_ptr_nonnull(o);
	scratch_enter();
	if (!build(o, "tests/programs/sched_calls.c", "calls"))
		goto out;
	for (int seed = 1; seed <= 3; seed++) {
		char s[32];

		snprintf(s, sizeof(s), "--seed=%d", seed);
		argv[3] = s;
		run_futexsim(o, argv);
		ck_assert_msg(o->status == 0, "seed %d: %s%s", seed, o->out,
			      o->err);
		ck_assert_ptr_null(strstr(o->out, "FAIL"));
	}
	for (const char *p = o->out; (p = strstr(p, "ok ")); p++)
		oks++;
	ck_assert_int_ge(oks, 20);
	argv[3] = "--args=control";
	run_futexsim(o, argv);
	ck_assert_int_eq(o->status, 6);
	for (const char *p = o->out; (p = strstr(p, "FAIL ")); p++)
		oks--;
	ck_assert_int_eq(oks, 0);	/* each check fails in the control */
out:
	scratch_leave();
	free(o);
}
END_TEST

Suite *prio_suite(void)
{
	return one_case_suite("prio", 120, (const TTest *const[]){
		test_pi_bounds_the_inversion_the_plain_mutex_does_not,
		test_the_chain_walk_boosts_across_two_pi_mutexes,
		test_rr_takes_turns_fifo_does_not_nice_weighs,
		test_sched_calls_and_their_errors_and_the_control_fails_each,
		NULL });
}
