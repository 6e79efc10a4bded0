/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_tp_owner_death.c - a task that exits while it owns a TP
 * futex (v3+ of the series): the top waiter takes the word over, whether it
 * was spinning on the owner or sleeping (the exit wakes it:
 * ksim_futex_tp_exit(), futex/tp_state.c), and the word then carries
 * FUTEX_OWNER_DIED.
 *
 * Stage: tests.  Boots a two-CPU machine per test (Check forks per test)
 * with FUTEXSIM_CHECK_STATE=1 (the TP invariants, at every dispatch:
 * a word may name an exited task); the tasks call futex(2) directly
 * (sim/syscall/syscall.h).  Without the exit's wakeup the sleeping case is a
 * deadlock, a simulated failure (exit 3) that fails the test.
 */
#include <check.h>
#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <string.h>

#include "futex/tp.h"
#include "sim/host/arena.h"
#include "sim/machine/hooks.h"
#include "sim/machine/machine.h"
#include "sim/syscall/syscall.h"
#include "workloads/ulock/uatomic.h"
#include "tests/checked_lock.h"

static struct {
	uint32_t *word, *phase;		/* simulated memory		*/
	uint32_t a_tid, b_tid;
	long b_ret, b_unlock;
	unsigned long long a_exit, b_got;
	uint32_t word_at_got;
} d;

static long tp_op(int op)
{
	return sim_sys_futex(d.word, op, 0, NULL, NULL, 0);
}

/* The owner: takes the word, then runs on (@arg 0) or sleeps for @arg
 * ns, and returns still holding it. */
static void owner_exits(void *arg)
{
	unsigned long long ns = (unsigned long long)(uintptr_t)arg, end;

	d.a_tid = my_tid();
	ck_assert_int_eq(tp_op(FUTEX_TP_LOCK_PRIVATE), TP_STATUS_STOLEN);
	uatomic_store(d.phase, 1);
	if (ns) {
		sim_sys_nanosleep(ns);
	} else {
		end = sim_now_ns() + 200000;	/* on CPU: b spins */
		while (sim_now_ns() < end)
			uatomic_pause();
	}
	d.a_exit = sim_now_ns();
}

static void waiter(void *arg)
{
	wait_phase_from(d.phase, 1);
	d.b_tid = my_tid();
	d.b_ret = tp_op(FUTEX_TP_LOCK_PRIVATE);
	d.b_got = sim_now_ns();
	d.word_at_got = uatomic_load(d.word);
	/* FUTEX_OWNER_DIED keeps the user-space unlock out: the kernel's */
	ck_assert_uint_ne(uatomic_cmpxchg(d.word, d.b_tid, 0), d.b_tid);
	d.b_unlock = tp_op(FUTEX_TP_UNLOCK_PRIVATE);
}

static void run_death(unsigned long long owner_sleep_ns)
{
	struct ksim_futex_tp_census c;

	memset(&d, 0, sizeof(d));
	boot_word_and_phase(2, &d.word, &d.phase);
	sim_task_create("a", owner_exits, (void *)(uintptr_t)owner_sleep_ns, 0);
	sim_task_create("b", waiter, NULL, 1);
	sim_run();
	/* b took it over as the top waiter, once a was gone */
	ck_assert_int_eq(TP_STATUS_CODE(d.b_ret), TP_STATUS_TOP_WAITER);
	ck_assert_uint_ge(d.b_got, d.a_exit);
	ck_assert_uint_le(d.b_got, d.a_exit + 20000);
	ck_assert_uint_eq(d.word_at_got, d.b_tid | FUTEX_OWNER_DIED);
	ck_assert_int_eq(d.b_unlock, 0);
	ck_assert_uint_eq(*d.word, 0);
	ksim_futex_tp_census(&c);
	ck_assert_int_eq(c.attached, 0);
	ck_assert_int_eq(c.allocated, c.cached);
}

START_TEST(test_owner_exits_while_the_top_waiter_spins)
{
	run_death(0);
	ck_assert_int_eq(TP_STATUS_SLEEPS(d.b_ret), 0);
}
END_TEST

START_TEST(test_owner_exits_while_the_top_waiter_sleeps)
{
	/* a sleeps 300 us: b sets FUTEX_WAITERS and sleeps on a's exit */
	run_death(300000);
	ck_assert_uint_ge(d.a_exit, 300000);
	ck_assert_int_ge(TP_STATUS_SLEEPS(d.b_ret), 1);
}
END_TEST

Suite *tp_owner_death_suite(void)
{
	Suite *s = suite_create("tp_owner_death");
	TCase *tc = tcase_create("tp_owner_death");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_owner_exits_while_the_top_waiter_spins);
	tcase_add_test(tc, test_owner_exits_while_the_top_waiter_sleeps);
	suite_add_tcase(s, tc);
	return s;
}
