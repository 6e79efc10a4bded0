/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_spin_reload.c - a spin-wait's reload made by the dispatcher
 * (sim_spin_wait_reload(), sim/machine/hooks.h) gives the run the code
 * gives.
 *
 * Stage: tests.  Tasks on a small machine take the kernel spinlocks of
 * workload=spin (futex/kspin.h: the ticket lock, whose every release
 * unparks every waiter, and both builds of the real qspinlock) and a
 * program's pthread_spin_lock() and, while they hold one, may store to
 * the lock's line, which unparks its spinners with their condition still
 * false; between acquisitions they run or sleep, and with more tasks than
 * CPUs a woken task lands on a spinner's CPU, whose tick then unparks it
 * with need_resched set.  Each run is made twice, with the reloads made
 * by the dispatcher and with FUTEXSIM_SPIN_RELOAD_RUN=0, and compared by
 * a digest of every acquisition (task, simulated time), every CPU's final
 * clock and the hook count.  The dispatcher must have made reloads, some
 * whose charge reached the horizon, and left some to the task; the waits
 * for a value (sim_spin_wait_reload_until(): the ticket lock's wait for
 * its turn, the qspinlocks' MCS wait, pthread_spin_lock()'s wait for 0)
 * must have been parked again by the dispatcher, with every lock, right
 * after the reload and when the CPU ran again after its charge reached
 * the horizon.  Negative controls (broken machines): a dispatcher that
 * does not announce the reload to the spin-exit overlap
 * (sim_spin_reload()), one that forgets the arrival's rest, and one that
 * forgets that a reload it parked again saw the word change, must each
 * give another digest.  That pthread_spin_lock()'s reloads are not
 * announced, as its loop announces none, has no control: an announcement
 * changes a run only while the task's credit from a kernel wait that
 * ended at the first change is pending, and the loop's exchange, a miss
 * whenever another CPU holds the lock, takes it before any reload the
 * dispatcher makes (announcing them all changed none of these runs).
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "futex/kspin.h"
#include "sim/cache/cache.h"
#include "sim/host/arena.h"
#include "sim/machine/hooks.h"
#include "sim/machine/machine.h"
#include "sim/report/failure.h"
#include "sim/scenario/preset.h"
#include "tests/same_run.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/ulock/uatomic.h"

#define TASKS	6
#define CPUS	4
#define ITERS	300

/* A program's pthread_spin_lock() (workloads/libsim/barrier.c), whose
 * wait does not announce its reloads. */
static void uspin_lock(void *word)
{
	futexsim_pthread_spin_lock(word);
}

static void uspin_unlock(void *word)
{
	futexsim_pthread_spin_unlock(word);
}

/* the locks, by number */
#define LOCKS	4
static const struct {
	void (*lock)(void *);
	void (*unlock)(void *);
} locks[LOCKS] = {
	{ ksim_spin_ticket_lock, ksim_spin_ticket_unlock },
	{ ksim_spin_qgeneric_lock, ksim_spin_qgeneric_unlock },
	{ ksim_spin_qx86_lock, ksim_spin_qx86_unlock },
	{ uspin_lock, uspin_unlock },
};

static struct {
	int lock;		/* locks[] index			*/
	void *word;		/* the lock, simulated memory		*/
} h;

static void worker(void *arg)
{
	uint64_t s = same_run.seed * 1000003 + (uintptr_t)arg;

	for (int i = 0; i < ITERS; i++) {
		uint32_t r = same_run_draw(&s);

		locks[h.lock].lock(h.word);
		same_run_enter((uintptr_t)arg);
		if (r % 4 == 0) {
			/* a write to the line: its spinners reload, and
			 * their condition is still false */
			same_run_pauses(r >> 8 & 63);
			uatomic_store(same_run.neighbour, (uint32_t)i);
			same_run_pauses(r >> 14 & 63);
		} else {
			same_run_pauses(r >> 8 & 127);
		}
		same_run_leave();
		locks[h.lock].unlock(h.word);
		if ((r >> 21 & 7) == 0)
			ksim_nanosleep(300 + (r >> 24));
		else
			same_run_pauses(r >> 24);
		sim_progress();
	}
}

#define MACHINES	5	/* all five of tests/same_run.h */

/* One run of lock @lock on @seed and machine @v; @on: the dispatcher
 * makes the reloads.  Return: its digest. */
static uint64_t run(int lock, uint64_t seed, int v, int on)
{
	static struct sim_preset p;
	char *line;

	memset(&h, 0, sizeof(h));
	h.lock = lock;
	same_run_begin(seed);
	same_run_preset(&p, CPUS, v);
	setenv("FUTEXSIM_CHECK_STATE", "1", 1);
	setenv("FUTEXSIM_SPIN_RELOAD_RUN", on ? "1" : "0", 1);
	sim_machine_init(&p, CPUS, seed);
	if (v == SAME_RUN_SPIN_EXIT_OVERLAP)
		sim_cache_set_jitter(10);
	line = sim_arena_alloc(64, 64);
	h.word = line;
	same_run.neighbour = (uint32_t *)(line + 32);
	for (int i = 0; i < TASKS; i++)
		sim_task_create("w", worker, (void *)(uintptr_t)i, i % CPUS);
	sim_fail_hook = same_run_failed;
	sim_run();
	sim_fail_hook = NULL;
	unsetenv("FUTEXSIM_SPIN_RELOAD_RUN");
	unsetenv("FUTEXSIM_CHECK_STATE");
	if (v == SAME_RUN_SPIN_EXIT_OVERLAP)
		sim_cache_set_jitter(0);
	return same_run_end(CPUS);
}

/* What the dispatcher did over the runs of one test; its re-parks by lock
 * (the ticket lock's wait for its turn, the qspinlocks' MCS wait,
 * pthread_spin_lock()'s wait for 0). */
static struct sim_spin_reload_stats total;
static uint64_t reparked_by_lock[LOCKS];

/* Runs with and without the reloads made by the dispatcher, for every
 * lock and machine and seeds 1..@seeds, the test bits @test set.
 * Return: 1 if every digest was the same and no run failed, else 0
 * (@want_same: a run that differs or fails fails the test). */
static int compare(int test, int seeds, int want_same)
{
	int same = 1;

	memset(&total, 0, sizeof(total));
	memset(reparked_by_lock, 0, sizeof(reparked_by_lock));
	for (int l = 0; l < LOCKS; l++)
		for (int v = 0; v < MACHINES; v++)
			for (uint64_t seed = 1; seed <= (uint64_t)seeds; seed++) {
				uint64_t off = run(l, seed, v, 0), on;

				ck_assert_uint_eq(sim_spin_reload_stats.made, 0);
				sim__spin_reload_test = test;
				on = run(l, seed, v, 1);
				sim__spin_reload_test = 0;
				total.made += sim_spin_reload_stats.made;
				total.past_horizon += sim_spin_reload_stats.past_horizon;
				total.left += sim_spin_reload_stats.left;
				total.reparked += sim_spin_reload_stats.reparked;
				reparked_by_lock[l] += sim_spin_reload_stats.reparked;
				total.reparked_late += sim_spin_reload_stats.reparked_late;
				if (want_same)
					ck_assert_msg(on == off && !same_run.failed, "lock %d machine %d seed %llu: digest %016llx with the reloads made by the dispatcher, %016llx without%s",
						      l, v, (unsigned long long)seed,
						      (unsigned long long)on,
						      (unsigned long long)off,
						      same_run.failed ? " (the run failed)" : "");
				same = same && on == off && !same_run.failed;
			}
	return same;
}

START_TEST(test_reloads_made_by_the_dispatcher_give_the_run_the_code_gives)
{
	compare(0, 3, 1);
	ck_assert_uint_gt(total.made, 10000);
	ck_assert_uint_gt(total.past_horizon, 1000);
	ck_assert_uint_gt(total.made - total.past_horizon, 100);
	ck_assert_uint_gt(total.left, 0);
	ck_assert_uint_gt(total.reparked, 1000);
	ck_assert_uint_gt(total.reparked_late, 100);
	ck_assert_uint_gt(total.reparked - total.reparked_late, 100);
	for (int l = 0; l < LOCKS; l++)
		ck_assert_msg(reparked_by_lock[l] > 100,
			      "lock %d: %llu waits parked again by the dispatcher",
			      l, (unsigned long long)reparked_by_lock[l]);
}
END_TEST

/* The negative controls: each machine makes reloads the code would not
 * have made as it made them; the comparison must see it. */
START_TEST(test_a_reload_that_is_not_announced_gives_another_run)
{
	ck_assert_msg(!compare(SPIN_RELOAD_TEST_NO_ANNOUNCE, 1, 0),
		      "a reload made without sim_spin_reload()'s mark changed no run");
}
END_TEST

START_TEST(test_a_reload_that_forgets_the_arrival_gives_another_run)
{
	ck_assert_msg(!compare(SPIN_RELOAD_TEST_NO_ARRIVAL, 1, 0),
		      "forgetting the arrival's rest changed no run");
}
END_TEST

START_TEST(test_a_reload_parked_again_that_forgets_a_change_gives_another_run)
{
	ck_assert_msg(!compare(SPIN_RELOAD_TEST_NO_CHANGED, 1, 0),
		      "forgetting a change seen by a reload parked again changed no run");
}
END_TEST

Suite *spin_reload_suite(void)
{
	Suite *s = suite_create("spin_reload");
	TCase *tc = tcase_create("spin_reload");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_reloads_made_by_the_dispatcher_give_the_run_the_code_gives);
	tcase_add_test(tc, test_a_reload_that_is_not_announced_gives_another_run);
	tcase_add_test(tc, test_a_reload_that_forgets_the_arrival_gives_another_run);
	tcase_add_test(tc, test_a_reload_parked_again_that_forgets_a_change_gives_another_run);
	suite_add_tcase(s, tc);
	return s;
}
