/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_sched.c - the scheduler's CFS-like policy (sched/sched.h):
 * a task woken from a sleep preempts a CPU hog at once (sleeper credit,
 * wakeup preemption) instead of waiting for the hog's timeslice, two
 * hogs on one CPU share it evenly, each tick of a busy CPU costs its
 * task the preset's tick-cost (an idle CPU's none), and a task never runs
 * before it was made runnable, even in explore mode, where CPU clocks
 * drift apart.
 *
 * Tasks on a one-CPU machine (two for the last); their measurements are
 * asserted after the run.
 */
#include <check.h>
#include <string.h>

#include "sim/explore/explore.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "sim/syscall/syscall.h"

#define SLEEPS		20
#define SLEEP_NS	100000		/* 100 us */

static struct sim_preset preset;

static struct {
	uint64_t worst_late_ps;		/* sleeper: wakeup to running	*/
	int sleeps_done;
	uint64_t hog_end_ps[2];
} r;

/* Runs in 1 us steps (each a scheduling point) for @arg microseconds. */
static void hog(void *arg)
{
	long us = (long)arg;

	for (long i = 0; i < us; i++)
		sim_delay_ps(1000000);
}

static void hog0(void *arg)
{
	hog(arg);
	r.hog_end_ps[0] = sim_now_ps();
}

static void hog1(void *arg)
{
	hog(arg);
	r.hog_end_ps[1] = sim_now_ps();
}

static void sleeper(void *arg)
{
	(void)arg;
	for (int i = 0; i < SLEEPS; i++) {
		uint64_t t0 = sim_now_ps(), late;

		sim_sys_nanosleep(SLEEP_NS);
		late = sim_now_ps() - t0 - SLEEP_NS * 1000ULL;
		if (late > r.worst_late_ps)
			r.worst_late_ps = late;
		r.sleeps_done++;
	}
}

static void boot(void)
{
	memset(&r, 0, sizeof(r));
	sim_preset_defaults(&preset);
	sim_machine_init(&preset, 1, 1);
}

/* ---- the state checkers' registry (sim/machine/hooks.h) ---- */

static int checks_run;

static void count_checks(void)
{
	checks_run++;
}

/* The scheduler and the TP futex register their checkers themselves, in
 * their order; a checker added at run time is called at every dispatch
 * of a checked run, and never in an unchecked one (the negative control). */
START_TEST(test_state_checkers_register_themselves_and_run_when_checked)
{
	ck_assert_str_eq(sim_state_checker_name(0), "sched_assert_state");
	ck_assert_str_eq(sim_state_checker_name(1), "ksim_futex_tp_assert_state");
	ck_assert_ptr_null(sim_state_checker_name(2));
	sim_state_checker_add("count_checks", count_checks, 99);
	ck_assert_str_eq(sim_state_checker_name(2), "count_checks");

	checks_run = 0;
	boot();
	sim_set_check_state(0);
	sim_task_create("hog", hog, (void *)100L, 0);
	sim_run();
	ck_assert_int_eq(checks_run, 0);

	boot();
	sim_set_check_state(1);
	sim_task_create("hog", hog, (void *)100L, 0);
	sim_run();
	ck_assert_int_gt(checks_run, 0);
	sim_set_check_state(0);
}
END_TEST

START_TEST(test_a_woken_sleeper_preempts_a_hog_at_once)
{
	boot();
	sim_task_create("hog", hog, (void *)20000L, 0);	/* 20 ms */
	sim_task_create("sleeper", sleeper, NULL, 0);
	sim_run();

	ck_assert_int_eq(r.sleeps_done, SLEEPS);
	/*
	 * Round-robin would leave the woken sleeper queued behind the hog
	 * for the rest of its timeslice (2.25 ms here); CFS places it
	 * half a latency below the hog's vruntime and preempts the hog at
	 * its next scheduling point: the sleeper is late by its timer
	 * slack, the wakeup and a context switch only.
	 */
	ck_assert_msg(r.worst_late_ps < preset.timer_slack_ps + 20 * 1000000ULL,
		      "sleeper late by up to %llu ns",
		      (unsigned long long)r.worst_late_ps / 1000);
	ck_assert_uint_lt(r.worst_late_ps, preset.timeslice_ps / 4);
}
END_TEST

START_TEST(test_two_hogs_share_one_cpu_evenly)
{
	boot();
	sim_task_create("hog0", hog0, (void *)10000L, 0);	/* 10 ms each */
	sim_task_create("hog1", hog1, (void *)10000L, 0);
	sim_run();

	/* both need 10 ms of CPU; sharing, both end near 20 ms, within a
	 * timeslice of each other */
	ck_assert_uint_gt(r.hog_end_ps[0], 10000 * 1000000ULL);
	ck_assert_uint_gt(r.hog_end_ps[1], 10000 * 1000000ULL);
	ck_assert_uint_le(r.hog_end_ps[0] > r.hog_end_ps[1] ?
			  r.hog_end_ps[0] - r.hog_end_ps[1] :
			  r.hog_end_ps[1] - r.hog_end_ps[0],
			  preset.timeslice_ps + preset.tick_ps);
}
END_TEST

/* @fn alone on a one-CPU machine with @tick_cost_ps: when it ended. */
static uint64_t hog_alone(uint64_t tick_cost_ps, void (*fn)(void *))
{
	memset(&r, 0, sizeof(r));
	sim_preset_defaults(&preset);
	preset.tick_cost_ps = tick_cost_ps;
	sim_machine_init(&preset, 1, 1);
	sim_task_create("t", fn, (void *)10000L, 0);
	sim_run();
	return r.hog_end_ps[0];
}

static void sleep10(void *arg)
{
	(void)arg;
	sim_sys_nanosleep(10000000);
	r.hog_end_ps[0] = sim_now_ps();
}

START_TEST(test_each_tick_of_a_busy_cpu_costs_tick_cost)
{
	const uint64_t cost = 7 * 1000000ULL;			/* 7 us */
	uint64_t free_end = hog_alone(0, hog0);
	uint64_t end = hog_alone(cost, hog0);
	uint64_t ticks = 10000 * 1000000ULL / preset.tick_ps;	/* 10 */

	/* free ticks: the hog's 10 ms and nothing else */
	ck_assert_uint_eq(free_end, 10000 * 1000000ULL);
	/* one tick per 1/HZ of its run, each taking tick-cost from it (the
	 * delays push the end past one more tick at most) */
	ck_assert_uint_ge(end - free_end, ticks * cost);
	ck_assert_uint_le(end - free_end, (ticks + 1) * cost);
	/* a sleeping task's CPU is idle: no tick, no cost (the wakeup's
	 * own costs are the same either way) */
	ck_assert_uint_eq(hog_alone(cost, sleep10), hog_alone(0, sleep10));
}
END_TEST

/* Races ahead: 1 ms per step (each a scheduling point). */
static void runner(void *arg)
{
	hog(arg);
}

/*
 * Explore mode (random): each step runs the chosen CPU, and CPU 1's
 * runner gains 1 ms a step while CPU 0's hog gains 1 us, so clocks drift
 * far apart.  The sleeper's timer fires when the clock of whichever CPU
 * runs passes it; the sleeper, queued behind the hog on CPU 0, must not
 * then run at CPU 0's clock if that is earlier: it would wake before it
 * slept its 100 us (measured "late" by a negative amount).
 */
START_TEST(test_no_task_runs_before_it_is_runnable_in_explore_mode)
{
	const struct sim_strategy random = { SIM_STRAT_RANDOM, 0 };

	for (uint64_t seed = 1; seed <= 8; seed++) {
		memset(&r, 0, sizeof(r));
		sim_preset_defaults(&preset);
		sim_machine_init(&preset, 2, seed);
		sim_explore_start(&random, seed, NULL, 0, 0);
		sim_task_create("hog", hog, (void *)3000L, 0);	/* 3 ms */
		sim_task_create("sleeper", sleeper, NULL, 0);
		sim_task_create("runner", runner, (void *)(1000L * 1000), 1);
		sim_run();
		sim_explore_stop();
		ck_assert_int_eq(r.sleeps_done, SLEEPS);
		/* "late" is unsigned: a wakeup before the sleep's end wraps */
		ck_assert_msg(r.worst_late_ps < 1000ULL * 1000000000ULL,
			      "seed %llu: the sleeper ran %llu ps before its timer",
			      (unsigned long long)seed,
			      (unsigned long long)-r.worst_late_ps);
	}
}
END_TEST

Suite *sched_suite(void)
{
	Suite *s = suite_create("sched");
	TCase *tc = tcase_create("sched");

	tcase_add_test(tc, test_a_woken_sleeper_preempts_a_hog_at_once);
	tcase_add_test(tc, test_two_hogs_share_one_cpu_evenly);
	tcase_add_test(tc, test_each_tick_of_a_busy_cpu_costs_tick_cost);
	tcase_add_test(tc, test_no_task_runs_before_it_is_runnable_in_explore_mode);
	tcase_add_test(tc, test_state_checkers_register_themselves_and_run_when_checked);
	suite_add_tcase(s, tc);
	return s;
}
