/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_qspinlock.c - the real kernel qspinlock (kernel/locking/
 * qspinlock.c through tests/k_qspin.c) on a simulated machine.
 *
 * Tasks on 8 CPUs take the lock and increment a counter that is NOT
 * atomic, with a scheduling point between the read and the write: any
 * failure of mutual exclusion loses increments.  The same harness runs a
 * deliberately broken lock (check-then-set), which must fail it.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "sim/host/arena.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "workloads/ulock/uatomic.h"

/* tests/k_qspin.c (kernel TU) */
void ksim_test_spin_lock(void *lock);
void ksim_test_spin_unlock(void *lock);
void ksim_test_busted_lock(void *lock);
void ksim_test_busted_unlock(void *lock);

struct spin_ops {
	void (*lock)(void *);
	void (*unlock)(void *);
};

static const struct spin_ops real_ops = { ksim_test_spin_lock, ksim_test_spin_unlock };
static const struct spin_ops busted_ops = { ksim_test_busted_lock, ksim_test_busted_unlock };

static struct {
	const struct spin_ops *ops;
	uint32_t *lock;			/* simulated memory	*/
	uint32_t *counter;		/* simulated memory	*/
	int iters;
	int inside, violations;
} h;

static void spinner(void *arg)
{
	for (int i = 0; i < h.iters; i++) {
		h.ops->lock(h.lock);
		if (h.inside++)
			h.violations++;
		uint32_t v = uatomic_load(h.counter);	/* scheduling point */

		uatomic_pause();			/* and another	  */
		uatomic_store(h.counter, v + 1);
		h.inside--;
		h.ops->unlock(h.lock);
		sim_progress();
	}
}

static void run_spinners(const struct spin_ops *ops, int cpus, int iters,
			 uint64_t seed)
{
	static struct sim_preset p;

	sim_preset_defaults(&p);
	p.sockets = 1;
	p.threads_per_core = 1;
	p.cores_per_socket = cpus;
	setenv("FUTEXSIM_CHECK_STATE", "1", 1);	/* sched_assert_state() */
	sim_machine_init(&p, cpus, seed);
	h.ops = ops;
	h.iters = iters;
	h.lock = sim_arena_alloc(4, 64);
	h.counter = sim_arena_alloc(4, 64);
	for (int i = 0; i < cpus; i++)
		sim_task_create("spinner", spinner, NULL, i);
	sim_run();
}

START_TEST(test_real_qspinlock_gives_mutual_exclusion_on_8_cpus)
{
	run_spinners(&real_ops, 8, 5000, (uint64_t)_i + 1);
	ck_assert_int_eq(h.violations, 0);
	ck_assert_uint_eq(*h.counter, 8 * 5000);
	ck_assert_uint_eq(*h.lock, 0);		/* (0,0,0) at the end */
}
END_TEST

START_TEST(test_busted_spinlock_fails_the_same_harness)
{
	run_spinners(&busted_ops, 8, 5000, 1);
	ck_assert_int_gt(h.violations, 0);
	ck_assert_uint_lt(*h.counter, 8 * 5000);
}
END_TEST

Suite *qspinlock_suite(void)
{
	Suite *s = suite_create("qspinlock");
	TCase *tc = tcase_create("qspinlock");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_real_qspinlock_gives_mutual_exclusion_on_8_cpus, 0, 3);
	tcase_add_test(tc, test_busted_spinlock_fails_the_same_harness);
	suite_add_tcase(s, tc);
	return s;
}
