/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_syscall.c - the futex(2) boundary (sim/syscall/syscall.c) into the
 * real sys_futex(): return values, errno, time accounting, timeouts.
 *
 * One task on a small machine makes the calls; the checks run inside it
 * and their results are asserted after the run.
 */
#include <check.h>
#include <errno.h>
#include <linux/futex.h>
#include <string.h>

#include "sim/host/arena.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "sim/syscall/syscall.h"

static struct sim_preset preset;

static struct {
	long wait_mismatch, wake_none, bad_op, tid, timed, conv;
	int err_after_conv;
	uint64_t timed_ns, sys_ps;
} r;

static void caller(void *arg)
{
	uint32_t *w = arg;
	struct timespec ts = { .tv_nsec = 200000 };	/* 200 us */
	uint64_t t0;

	r.wait_mismatch = sim_sys_futex(w, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
	r.wake_none = sim_sys_futex(w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	r.bad_op = sim_sys_futex(w, 99 | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
	r.tid = sim_sys_gettid();
	t0 = sim_now_ps();
	r.timed = sim_sys_futex(w, FUTEX_WAIT_PRIVATE, 0, &ts, NULL, 0);
	r.timed_ns = (sim_now_ps() - t0) / 1000;
	r.conv = sim_syscall_errno(r.wait_mismatch);
	r.err_after_conv = sim_errno();
	r.sys_ps = sim_current()->stats.sys_ps;
}

START_TEST(test_futex_calls_return_the_kernel_results_and_errno)
{
	uint32_t *w;
	struct sim_task *t;

	sim_preset_defaults(&preset);
	sim_machine_init(&preset, 2, 1);
	w = sim_arena_alloc(4, 64);
	t = sim_task_create("caller", caller, w, 0);
	sim_run();

	ck_assert_int_eq(r.wait_mismatch, -EAGAIN);
	ck_assert_int_eq(r.wake_none, 0);
	ck_assert_int_eq(r.bad_op, -ENOSYS);
	ck_assert_int_eq(r.tid, t->tid);
	ck_assert_int_eq(r.conv, -1);
	ck_assert_int_eq(r.err_after_conv, EAGAIN);
	/* a timed wait nobody wakes ends with ETIMEDOUT, no earlier than its
	 * timeout and no later than the timeout plus the task's slack */
	ck_assert_int_eq(r.timed, -ETIMEDOUT);
	ck_assert_uint_ge(r.timed_ns, 200000);
	ck_assert_uint_le(r.timed_ns, 200000 + preset.timer_slack_ps / 1000 +
			  preset.idle_exit_ps / 1000 + 10000);
	/* five calls made: at least their entry and exit cost as sys time */
	ck_assert_uint_ge(r.sys_ps, 5 * preset.syscall_ps * 7 / 8);
}
END_TEST

Suite *syscall_suite(void)
{
	Suite *s = suite_create("syscall");
	TCase *tc = tcase_create("syscall");

	tcase_add_test(tc, test_futex_calls_return_the_kernel_results_and_errno);
	suite_add_tcase(s, tc);
	return s;
}
