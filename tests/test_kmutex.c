/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_kmutex.c - the real kernel mutex (kernel/locking/mutex.c and
 * osq_lock.c, through tests/k_kmutex.c) on a simulated machine.
 *
 * Stage: tests.  Drives the machine (sim/machine/machine.h) with tasks that call
 * the kernel glue of tests/k_kmutex.h.
 *
 *  - Mutual exclusion with more tasks than CPUs: 16 tasks on 4 CPUs
 *    increment a counter that is NOT atomic, with scheduling points
 *    between the read and the write, and are preempted by the tick while
 *    they hold the mutex or spin for it.  The same harness runs a
 *    deliberately broken mutex (check-then-set), which must fail it.
 *  - Optimistic spinning: while the owner runs on its CPU, a contender
 *    spins (an observer task sees the OSQ occupied), never sleeps and
 *    never joins the wait list (no MUTEX_FLAG_WAITERS at unlock).
 *  - Sleeping: while the owner sleeps holding the mutex, a contender does
 *    not spin (the OSQ stays empty), sleeps, and is on the wait list.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/host/arena.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "tests/k_kmutex.h"
#include "workloads/ulock/uatomic.h"

#define FLAG_WAITERS	1UL	/* mutex.c's MUTEX_FLAG_* */
#define FLAG_HANDOFF	2UL

struct kmutex_ops {
	void (*lock)(void *);
	void (*unlock)(void *);
	void (*init)(void *);
	int (*at_rest)(const void *);
};

static const struct kmutex_ops real_ops = {
	ksim_test_mutex_lock, ksim_test_mutex_unlock,
	ksim_test_mutex_init, ksim_test_mutex_at_rest
};
static const struct kmutex_ops busted_ops = {
	ksim_test_busted_mutex_lock, ksim_test_busted_mutex_unlock,
	ksim_test_mutex_init, ksim_test_mutex_at_rest
};
static const struct kmutex_ops m48_ops = {
	ksim_test_mutex48_lock, ksim_test_mutex48_unlock,
	ksim_test_mutex48_init, ksim_test_mutex48_at_rest
};

static struct {
	const struct kmutex_ops *ops;
	void *m;			/* the mutex, simulated memory	*/
	uint32_t *counter;		/* simulated memory		*/
	uint32_t *phase;		/* simulated memory: 1 = held	*/
	int iters;
	int inside, violations;
	int waiters_seen, handoffs_seen;	/* flags found at unlock*/
	unsigned long flags_at_unlock;
	int osq_seen;			/* observer samples, OSQ busy	*/
	uint64_t contender_sleeps;	/* its switches in mutex_lock	*/
	int done;
} h;

static void machine(int cpus, uint64_t seed, const struct kmutex_ops *ops)
{
	static struct sim_preset p;
	unsigned long size = ksim_test_mutex_size();

	memset(&h, 0, sizeof(h));
	sim_preset_defaults(&p);
	p.sockets = 1;
	p.threads_per_core = 1;
	p.cores_per_socket = cpus;
	setenv("FUTEXSIM_CHECK_STATE", "1", 1);	/* sched_assert_state() */
	sim_machine_init(&p, cpus, seed);
	if (ksim_test_mutex48_size() > size)
		size = ksim_test_mutex48_size();
	h.ops = ops;
	h.m = sim_arena_alloc(size, 64);
	h.counter = sim_arena_alloc(4, 64);
	h.phase = sim_arena_alloc(4, 64);
	ops->init(h.m);
}

static void pauses(int n)
{
	while (n--)
		uatomic_pause();
}

/* ---- mutual exclusion, 16 tasks on 4 CPUs ---- */

static void incrementer(void *arg)
{
	for (int i = 0; i < h.iters; i++) {
		h.ops->lock(h.m);
		if (h.inside++)
			h.violations++;
		uint32_t v = uatomic_load(h.counter);	/* scheduling point */

		pauses(20);				/* more of them	   */
		uatomic_store(h.counter, v + 1);
		h.inside--;
		if (h.ops == &real_ops) {
			unsigned long f = ksim_test_mutex_flags(h.m);

			h.waiters_seen += !!(f & FLAG_WAITERS);
			h.handoffs_seen += !!(f & FLAG_HANDOFF);
		}
		h.ops->unlock(h.m);
		sim_progress();
		pauses(10);
	}
}

static void run_incrementers(const struct kmutex_ops *ops, int tasks,
			     int iters, uint64_t seed)
{
	machine(4, seed, ops);
	h.iters = iters;
	for (int i = 0; i < tasks; i++)
		sim_task_create("incr", incrementer, NULL, i % 4);
	sim_run();
}

/* Switches away other than the one each task makes when it exits. */
static uint64_t switches_before_exit(void)
{
	uint64_t n = 0;

	for (int i = 0; i < sim.nr_tasks; i++)
		n += sim.tasks[i]->stats.switches - 1;
	return n;
}

START_TEST(test_kernel_mutex_gives_mutual_exclusion_16_tasks_4_cpus)
{
	run_incrementers(&real_ops, 16, 2000, (uint64_t)_i + 1);
	ck_assert_int_eq(h.violations, 0);
	ck_assert_uint_eq(*h.counter, 16 * 2000);
	ck_assert(ksim_test_mutex_at_rest(h.m));
	/* Oversubscribed: waiters did queue, sleep and ask for handoff. */
	ck_assert_int_gt(h.waiters_seen, 0);
	ck_assert_int_gt(h.handoffs_seen, 0);
	ck_assert_uint_gt(switches_before_exit(), 0);
}
END_TEST

START_TEST(test_busted_mutex_fails_the_same_harness)
{
	run_incrementers(&busted_ops, 16, 2000, 1);
	ck_assert_int_gt(h.violations, 0);
	ck_assert_uint_lt(*h.counter, 16 * 2000);
}
END_TEST

START_TEST(test_mutex48_gives_mutual_exclusion_16_tasks_4_cpus)
{
	run_incrementers(&m48_ops, 16, 2000, (uint64_t)_i + 1);
	ck_assert_int_eq(h.violations, 0);
	ck_assert_uint_eq(*h.counter, 16 * 2000);
	ck_assert(ksim_test_mutex48_at_rest(h.m));
	ck_assert_uint_gt(switches_before_exit(), 0);	/* waiters slept */
}
END_TEST

/*
 * ---- handoff (6.1) or none (4.8): a sleeping waiter and a relocker ----
 * The relocker takes the mutex and sleeps holding it, so that the waiter
 * queues and sleeps; then it unlocks and relocks RELOCKS times, running.
 * Each unlock wakes the waiter, which needs microseconds to run while
 * the relocker is back in well under one.  The 6.1 mutex's woken waiter
 * fails once, sets MUTEX_FLAG_HANDOFF and spins: the next unlock hands
 * it the mutex (about 50 relocks after the first unlock: the time its
 * idle CPU takes to run it), after one sleep.  The 4.8 one fails and
 * sleeps again, woken by each unlock that finds it listed, until one
 * wakeup finds it still on its CPU at an unlock (6 sleeps, 402 relocks
 * here).
 */
#define RELOCKS	1000

static int relocks_done, relocks_at_grant;

static void relocker(void *arg)
{
	h.ops->lock(h.m);
	uatomic_store(h.phase, 1);
	ksim_nanosleep(50000);
	for (relocks_done = 0; relocks_done < RELOCKS; relocks_done++) {
		h.ops->unlock(h.m);
		pauses(2);
		h.ops->lock(h.m);
		pauses(20);
	}
	h.ops->unlock(h.m);
}

static void sleeper(void *arg)
{
	struct sim_task *me = sim_current();
	uint64_t before;

	while (uatomic_load(h.phase) != 1)
		uatomic_pause();
	before = me->stats.switches;
	h.ops->lock(h.m);
	h.contender_sleeps = me->stats.switches - before;
	relocks_at_grant = relocks_done;
	h.ops->unlock(h.m);
	h.done = 1;
}

static void run_relocker(const struct kmutex_ops *ops)
{
	machine(2, 1, ops);
	relocks_done = relocks_at_grant = -1;
	sim_task_create("relocker", relocker, NULL, 0);
	sim_task_create("sleeper", sleeper, NULL, 1);
	sim_run();
	ck_assert_int_eq(h.done, 1);
	ck_assert(ops->at_rest(h.m));
}

START_TEST(test_woken_waiter_is_handed_the_mutex_by_6_1_not_by_4_8)
{
	run_relocker(_i ? &m48_ops : &real_ops);
	if (_i) {
		/* woken, overtaken, asleep again: several times */
		ck_assert_uint_ge(h.contender_sleeps, 3);
	} else {
		/* one sleep; woken, it spins and is handed the mutex */
		ck_assert_uint_eq(h.contender_sleeps, 1);
		ck_assert_int_le(relocks_at_grant, RELOCKS / 10);
	}
}
END_TEST

/* ---- spinning vs sleeping: owner, contender, observer ---- */

/* The owner holds the mutex for @arg: 0 = running (pauses on its CPU),
 * 1 = asleep in the kernel (ksim_nanosleep(), 50 us). */
static void owner(void *arg)
{
	ksim_test_mutex_lock(h.m);
	uatomic_store(h.phase, 1);
	if (arg)
		ksim_nanosleep(50000);
	else
		pauses(5000);
	h.flags_at_unlock = ksim_test_mutex_flags(h.m);
	uatomic_store(h.phase, 2);
	ksim_test_mutex_unlock(h.m);
}

static void contender(void *arg)
{
	struct sim_task *me = sim_current();
	uint64_t before;

	while (uatomic_load(h.phase) != 1)
		uatomic_pause();
	before = me->stats.switches;
	ksim_test_mutex_lock(h.m);
	h.contender_sleeps = me->stats.switches - before;
	ck_assert(ksim_test_mutex_owner_is_current(h.m));
	ksim_test_mutex_unlock(h.m);
	h.done = 1;
}

/* Samples the OSQ while the owner holds the mutex. */
static void observer(void *arg)
{
	while (uatomic_load(h.phase) != 2) {
		h.osq_seen += ksim_test_mutex_osq_busy(h.m);
		pauses(10);
	}
}

static void run_owner(int owner_sleeps)
{
	machine(3, 1, &real_ops);
	sim_task_create("owner", owner, owner_sleeps ? (void *)1 : NULL, 0);
	sim_task_create("contender", contender, NULL, 1);
	sim_task_create("observer", observer, NULL, 2);
	sim_run();
	ck_assert_int_eq(h.done, 1);
	ck_assert(ksim_test_mutex_at_rest(h.m));
}

START_TEST(test_contender_spins_while_the_owner_runs)
{
	run_owner(0);
	ck_assert_int_gt(h.osq_seen, 10);		/* spun in the OSQ */
	ck_assert_uint_eq(h.contender_sleeps, 0);	/* never slept	    */
	ck_assert_uint_eq(h.flags_at_unlock, 0);	/* never queued	    */
}
END_TEST

START_TEST(test_contender_sleeps_while_the_owner_sleeps)
{
	run_owner(1);
	ck_assert_int_eq(h.osq_seen, 0);		/* did not spin	    */
	ck_assert_uint_ge(h.contender_sleeps, 1);	/* slept	    */
	ck_assert_uint_eq(h.flags_at_unlock & FLAG_WAITERS, FLAG_WAITERS);
}
END_TEST

Suite *kmutex_suite(void)
{
	Suite *s = suite_create("kmutex");
	TCase *tc = tcase_create("kmutex");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_kernel_mutex_gives_mutual_exclusion_16_tasks_4_cpus, 0, 3);
	tcase_add_test(tc, test_busted_mutex_fails_the_same_harness);
	tcase_add_loop_test(tc, test_mutex48_gives_mutual_exclusion_16_tasks_4_cpus, 0, 3);
	tcase_add_loop_test(tc, test_woken_waiter_is_handed_the_mutex_by_6_1_not_by_4_8, 0, 2);
	tcase_add_test(tc, test_contender_spins_while_the_owner_runs);
	tcase_add_test(tc, test_contender_sleeps_while_the_owner_sleeps);
	suite_add_tcase(s, tc);
	return s;
}
