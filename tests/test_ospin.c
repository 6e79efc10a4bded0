/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_ospin.c - owner-spin rounds made by the dispatcher
 * (sim/machine/ospin.h) give the run the code gives.
 *
 * Stage: tests.  Tasks on a small machine take the real kernel mutex
 * (kernel/locking/mutex.c through tests/k_kmutex.h) and, while they hold
 * it, do what ends a spinner's rounds: run, store to the mutex's line
 * (its A), store to their own on_cpu line (its B), sleep (B's value),
 * and, with more tasks than CPUs, get woken onto a spinner's CPU and
 * ticked (need_resched).  Each run is made twice, with the rounds made
 * by the dispatcher and with FUTEXSIM_OWNER_SPIN_RUN=0, and compared by
 * a digest of every acquisition (task, simulated time), every CPU's
 * final clock and the hook count.  The dispatcher must have made rounds
 * and left them for each cause, replaying hooks, some with A changed.
 * Negative control: ignoring need_resched while making rounds (a broken
 * machine) must give another digest.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cache/cache.h"
#include "sim/host/arena.h"
#include "sim/machine/machine.h"
#include "sim/report/failure.h"
#include "sim/scenario/preset.h"
#include "tests/same_run.h"
#include "tests/k_kmutex.h"
#include "workloads/ulock/uatomic.h"

#define TASKS	6
#define CPUS	4
#define ITERS	300

static struct {
	void *m;		/* the mutex, simulated memory		*/
} h;

static void worker(void *arg)
{
	uint64_t s = same_run.seed * 1000003 + (uintptr_t)arg;

	for (int i = 0; i < ITERS; i++) {
		uint32_t r = same_run_draw(&s);

		ksim_test_mutex_lock(h.m);
		same_run_enter((uintptr_t)arg);
		switch (r % 8) {
		case 4:		/* a store to A's line */
			same_run_pauses(r >> 8 & 63);
			uatomic_store(same_run.neighbour, (uint32_t)i);
			same_run_pauses(40);
			break;
		case 5:		/* a store to B's line */
			same_run_pauses(r >> 8 & 63);
			ksim_test_touch_own_on_cpu_line();
			same_run_pauses(40);
			break;
		case 6:		/* the owner sleeps: B's value */
			ksim_nanosleep(1000 + (r >> 8 & 4095));
			break;
		default:	/* the owner runs */
			same_run_pauses(r >> 8 & 255);
		}
		same_run_leave();
		ksim_test_mutex_unlock(h.m);
		if (r >> 20 & 1)	/* right after the unlock: B's line */
			ksim_test_touch_own_on_cpu_line();
		if ((r >> 21 & 7) == 0)
			ksim_nanosleep(500 + (r >> 24));
		else
			same_run_pauses(r >> 24);
		sim_progress();
	}
}

#define MACHINES	4	/* the first four of tests/same_run.h */

/* One run on @seed and machine @v; @on: the dispatcher makes rounds.
 * Return: its digest. */
static uint64_t run(uint64_t seed, int v, int on)
{
	static struct sim_preset p;
	unsigned long size = ksim_test_mutex_size();
	char *line;

	memset(&h, 0, sizeof(h));
	same_run_begin(seed);
	same_run_preset(&p, CPUS, v);
	setenv("FUTEXSIM_CHECK_STATE", "1", 1);
	setenv("FUTEXSIM_OWNER_SPIN_RUN", on ? "1" : "0", 1);
	sim_machine_init(&p, CPUS, seed);
	ck_assert_uint_le(size, 60);	/* the neighbour shares its line */
	line = sim_arena_alloc(64, 64);
	h.m = line;
	same_run.neighbour = (uint32_t *)(line + 60);
	ksim_test_mutex_init(h.m);
	for (int i = 0; i < TASKS; i++)
		sim_task_create("w", worker, (void *)(uintptr_t)i, i % CPUS);
	sim_fail_hook = same_run_failed;
	sim_run();
	sim_fail_hook = NULL;
	unsetenv("FUTEXSIM_OWNER_SPIN_RUN");
	if (!same_run.failed)
		ck_assert(ksim_test_mutex_at_rest(h.m));
	return same_run_end(CPUS);
}

/* Everything the dispatcher made over the seeds of one test. */
static struct sim_ospin_stats total;

static void add_stats(void)
{
	const struct sim_ospin_stats *s = &sim_ospin_stats;

	total.runs += s->runs;
	for (int c = 0; c < OSPIN_NR_CAUSES; c++)
		for (int p = 0; p < OSPIN_HOOKS; p++)
			total.leaves[c][p] += s->leaves[c][p];
	total.replays += s->replays;
	total.stale_a += s->stale_a;
}

/* Runs with and without rounds made by the dispatcher, on every machine
 * and seeds 1..@seeds, the test bits @test set.  Return: 1 if every
 * digest was the same and no run failed, else 0 (@want_same: a run
 * that differs or fails fails the test). */
static int compare(int test, int seeds, int want_same)
{
	int same = 1;

	for (int v = 0; v < MACHINES; v++) {
		for (uint64_t seed = 1; seed <= (uint64_t)seeds; seed++) {
			uint64_t off = run(seed, v, 0), on;

			/* it was off */
			ck_assert_uint_eq(sim_ospin_stats.runs, 0);
			sim__ospin_test = test;
			on = run(seed, v, 1);
			sim__ospin_test = 0;
			add_stats();
			if (want_same)
				ck_assert_msg(on == off && !same_run.failed, "machine %d seed %llu: digest %016llx with the rounds made by the dispatcher, %016llx without%s",
					      v, (unsigned long long)seed,
					      (unsigned long long)on,
					      (unsigned long long)off,
					      same_run.failed ? " (the run failed)" : "");
			same = same && on == off && !same_run.failed;
		}
	}
	return same;
}

START_TEST(test_rounds_made_by_the_dispatcher_give_the_run_the_code_gives)
{
	uint64_t leaves[OSPIN_NR_CAUSES] = { 0 };

	memset(&total, 0, sizeof(total));
	compare(0, 8, 1);
	/* resumed early at every B: the replay of A, often changed since */
	compare(OSPIN_TEST_LEAVE_AT_B, 4, 1);
	for (int c = 0; c < OSPIN_NR_CAUSES; c++)
		for (int p = 0; p < OSPIN_HOOKS; p++)
			leaves[c] += total.leaves[c][p];
	ck_assert_uint_gt(total.runs, 1000);
	ck_assert_uint_gt(leaves[OSPIN_RESCHED], 0);
	ck_assert_uint_gt(leaves[OSPIN_VALUE], 0);
	ck_assert_uint_gt(leaves[OSPIN_CHARGE], 0);
	ck_assert_uint_gt(total.replays, 100);
	ck_assert_uint_gt(total.stale_a, 0);
}
END_TEST

/* The negative controls: a dispatcher that does not look at need_resched,
 * or that replays A with what memory has now, makes rounds the code would
 * not have made; the comparison must see it. */
START_TEST(test_rounds_that_miss_need_resched_give_another_run)
{
	ck_assert_msg(!compare(OSPIN_TEST_NO_RESCHED, 8, 0),
		      "ignoring need_resched changed no run: the comparison cannot see a wrong round");
}
END_TEST

START_TEST(test_a_replay_that_reads_memory_as_it_is_now_gives_another_run)
{
	memset(&total, 0, sizeof(total));
	ck_assert_msg(!compare(OSPIN_TEST_LEAVE_AT_B | OSPIN_TEST_NO_SWAP, 4, 0),
		      "A's changed bytes in the replay changed no run (%llu replays with A changed)",
		      (unsigned long long)total.stale_a);
}
END_TEST

Suite *ospin_suite(void)
{
	Suite *s = suite_create("ospin");
	TCase *tc = tcase_create("ospin");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_rounds_made_by_the_dispatcher_give_the_run_the_code_gives);
	tcase_add_test(tc, test_rounds_that_miss_need_resched_give_another_run);
	tcase_add_test(tc, test_a_replay_that_reads_memory_as_it_is_now_gives_another_run);
	suite_add_tcase(s, tc);
	return s;
}
