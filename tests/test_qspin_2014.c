/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_qspin_2014.c - suite "qspin_2014": the 2014 pending-bit
 * policies of the queued spinlock (futex/qspin_2014.c: qspinlock-v10,
 * -v11, -v12, -peterz of workload=spin).
 *
 * Stage: workload -> kernel -> machine, end to end.  Run by
 * tests/check_main.c.  Runs of workload=spin happen in a child
 * (tests/run_child.h) and send their figures back as text; the crafted
 * runs build their own machine (sim_preset_defaults(), the built-in
 * 4-CPU machine, with the line hand-over pinned) in the test's process.
 *
 * What is checked: each policy gives mutual exclusion on 16 CPUs of two
 * sockets over several seeds, and its fast/pending/queue counts cover
 * every acquisition; a v10 whose pending waiter does not wait for the
 * owner fails the same driver; the policies are listed and run when
 * named, not by default; two tasks taking turns make v10 queue on
 * most acquisitions (it finds (0,1,0) and queues) while v11, v12 and
 * peterz take the pending path and never queue; and one CPU whose
 * cmpxchg fails on (0,1,0) waits under v11 but queues under peterz (the
 * narrow difference argued in the 2014 thread), found by sliding a scripted hand-over
 * across its slow path; and one that finds (0,1,1) just before the owner
 * leaves queues under v11 but, under v12, looks again, finds (0,1,0) and
 * takes the pending path.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "futex/kspin.h"
#include "futex/qspin_2014.h"
#include "sim/host/arena.h"
#include "sim/cache/cache.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"
#include "tests/run_child.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/workload.h"

static const struct sim_origin cmd = { .file = "command line" };
static struct child_out co;

static const char *const policies[] = {
	"qspinlock-v10", "qspinlock-v11", "qspinlock-v12", "qspinlock-peterz",
};
#define NR_POLICIES	4

/* ---- workload=spin in a child ---------------------------------------------- */

struct q14_run {
	const char *lock;
	const struct wl_klock *own;	/* instead of ->lock		*/
	const char *seed;
};

static void q14_child(void *arg)
{
	const struct q14_run *a = arg;
	static struct sim_preset p;
	const struct wl_klock *k;
	struct sim_scenario s;
	struct sim_result r;

	sim_preset_load(&p, "westmere-ex-4s");
	sim_scenario_defaults(&s);
	sim_scenario_set(&s, "machine", "westmere-ex-4s", &cmd);
	sim_scenario_set(&s, "workload", "spin", &cmd);
	sim_scenario_set(&s, "lock", a->own ? "ticket" : a->lock, &cmd);
	sim_scenario_set(&s, "cpus", "16", &cmd);	/* 10 + 6 on 2 sockets */
	sim_scenario_set(&s, "threads", "16", &cmd);
	sim_scenario_set(&s, "ops-per-thread", "1000", &cmd);
	sim_scenario_set(&s, "data", "standalone", &cmd);
	sim_scenario_set(&s, "cs", "pause:2", &cmd);
	sim_scenario_set(&s, "between", "none", &cmd);
	sim_scenario_set(&s, "seed", a->seed, &cmd);
	sim_scenario_set(&s, "cost-jitter", "20", &cmd);
	sim_scenario_resolve(&s, sim_preset_nr_cpus(&p));
	sim_machine_init(&p, s.cpus, s.seed);
	k = a->own ? a->own : wl_klock_find(&wl_spin, a->lock);
	wl_spin_run_lock(&s, k, &r);
	printf("%llu %d %llu %llu %llu\n", (unsigned long long)r.ops,
	       r.paths_counted, (unsigned long long)r.path_fast,
	       (unsigned long long)r.path_pending,
	       (unsigned long long)r.path_queue);
}

START_TEST(test_each_policy_gives_mutual_exclusion_on_16_cpus)
{
	static const char *const seeds[] = { "1", "7", "2014" };
	struct q14_run a = {
		.lock = policies[_i % NR_POLICIES], .seed = seeds[_i / NR_POLICIES],
	};
	unsigned long long ops, fast, pending, queue;
	int counted;

	/* the driver checks exclusion itself (exit 3 on a lost update) */
	run_child(q14_child, &a, &co);
	ck_assert_msg(co.status == 0, "%s seed %s: status %d: %s", a.lock,
		      a.seed, co.status, co.err);
	ck_assert_int_eq(sscanf(co.out, "%llu %d %llu %llu %llu", &ops,
				&counted, &fast, &pending, &queue), 5);
	ck_assert_uint_eq(ops, 16 * 1000);
	ck_assert_int_eq(counted, 1);
	ck_assert_uint_eq(fast + pending + queue, ops);
	/* 16 contenders: most of them queue */
	ck_assert_uint_gt(queue, ops / 2);
}
END_TEST

static const struct wl_klock broken = {
	.name = "q2014-broken", .description = "v10 without the owner wait",
	.lock = ksim_spin_q2014_broken_lock, .unlock = ksim_spin_q2014_unlock,
	.paths = true, .broken = true,
};

START_TEST(test_broken_policy_fails_the_exclusion_check)
{
	struct q14_run a = { .own = &broken, .seed = "1" };

	run_child(q14_child, &a, &co);
	ck_assert_msg(co.status == 3, "status %d: %s", co.status, co.err);
	ck_assert_ptr_nonnull(strstr(co.err, "mutual exclusion violated"));
}
END_TEST

/* `futexsim list locks` shows them (not broken); a spin run without lock=
 * runs ticket and the two builds of the real file only; named, they run. */
START_TEST(test_policies_are_listed_and_run_when_named)
{
	struct sim_scenario s;

	for (int i = 0; i < NR_POLICIES; i++) {
		const struct wl_klock *k = wl_klock_find(&wl_spin, policies[i]);

		ck_assert_ptr_nonnull(k);
		ck_assert(!k->broken && k->opt_in && k->paths);
	}
	sim_scenario_defaults(&s);
	sim_scenario_set(&s, "workload", "spin", &cmd);
	sim_scenario_resolve(&s, 4);
	ck_assert_int_eq(s.nr_locks, 3);
	sim_scenario_set(&s, "lock", "qspinlock-v10,qspinlock-peterz", &cmd);
	sim_scenario_resolve(&s, 4);
	ck_assert_int_eq(s.nr_locks, 2);
	ck_assert_str_eq(s.locks[1], "qspinlock-peterz");
}
END_TEST

/* ---- crafted runs on the built-in machine -------------------------------------- */

static void (*const lock_of[NR_POLICIES])(void *) = {
	ksim_spin_qv10_lock, ksim_spin_qv11_lock, ksim_spin_qv12_lock,
	ksim_spin_qpeterz_lock,
};

static struct {
	uint32_t *word, *counter;	/* simulated memory		*/
	void (*lock)(void *);
	int iters, inside, violations;
	uint64_t start_ps, step_ps;	/* the scripted hand-over	*/
	uint64_t gap_ps;		/* B's pending to A's unlock	*/
} h;

/*
 * The built-in machine (one socket, 4 CPUs, cache model on), with the
 * line hand-over and lock-call pinned to the values these runs were
 * crafted for: a miss takes its line at its issue, and the lock calls
 * cost only their accesses.  (With line-handover = arrival, exact costs
 * lock the two CPUs into step: the waiter's cmpxchg always finds the
 * owner's next state, and no path but the loop's cmpxchg is taken.)
 */
static void machine_4(void)
{
	static struct sim_preset p;

	sim_preset_defaults(&p);
	p.line_handover = SIM_HANDOVER_ISSUE;
	p.lock_call_ps = 0;
	sim_machine_init(&p, 4, 1);
	memset(&h, 0, sizeof(h));
	h.word = sim_arena_alloc(64, 64);
	h.counter = sim_arena_alloc(64, 64);
	ksim_spin_paths_reset();
}

static void turns_task(void *arg)
{
	for (int i = 0; i < h.iters; i++) {
		h.lock(h.word);
		if (h.inside++)
			h.violations++;
		uatomic_store(h.counter, uatomic_load(h.counter) + 1);
		h.inside--;
		ksim_spin_q2014_unlock(h.word);
		sim_progress();
	}
}

/*
 * The 2014 thread's case: with two CPUs, the one that unlocks comes back while the
 * other holds the pending bit and has not yet taken over, and finds
 * (0,1,0).  v10 queues behind it; the others wait for the hand-over.
 */
START_TEST(test_two_tasks_v10_queues_others_take_pending)
{
	struct ksim_spin_paths p;
	uint64_t ops = 2 * 2000;

	machine_4();
	h.lock = lock_of[_i];
	h.iters = 2000;
	sim_task_create("turns", turns_task, NULL, 0);
	sim_task_create("turns", turns_task, NULL, 1);
	sim_run();
	ck_assert_int_eq(h.violations, 0);
	ck_assert_uint_eq(*h.counter, ops);
	ck_assert_uint_eq(*h.word, 0);
	ksim_spin_paths_read(&p);
	ck_assert_uint_le(p.pending + p.queue, ops);
	if (_i == 0) {
		ck_assert_msg(p.queue > ops / 2, "v10: %llu queued of %llu",
			      p.queue, (unsigned long long)ops);
	} else {
		ck_assert_msg(p.queue == 0 && p.pending > ops / 10,
			      "%s: %llu pending, %llu queued of %llu",
			      policies[_i], p.pending, p.queue,
			      (unsigned long long)ops);
	}
}
END_TEST

/* ---- a cmpxchg that fails on (0,1,0) ------------------------------------------ */

#define Q_LOCKED	1U
#define Q_PENDING	(1U << 8)

enum path { PATH_FAST, PATH_PENDING, PATH_QUEUE };

/* CPU 0: arrives while CPU "A" (the script) holds the lock, takes it once. */
static void victim_task(void *arg)
{
	sim_delay_ps(h.start_ps);
	h.lock(h.word);
	ksim_spin_q2014_unlock(h.word);
}

/*
 * CPU 1, the script: A holds (0,0,1) from the start; at step_ps (the
 * victim arrives at start_ps), B sets pending and A unlocks: at once,
 * (0,0,1) -> (0,1,0) in one cmpxchg, or with gap_ps between (0,1,1) and
 * (0,1,0); B takes over 300 ns later (0,0,1), then unlocks.  If the
 * victim set pending first, B gives up and only A unlocks.  All hooked
 * atomics, as real CPUs.
 */
static void script_task(void *arg)
{
	uint32_t b = h.gap_ps ? Q_LOCKED | Q_PENDING : Q_PENDING;

	sim_delay_ps(h.step_ps);
	if (uatomic_cmpxchg(h.word, Q_LOCKED, b) != Q_LOCKED) {
		uatomic_fetch_sub(h.word, Q_LOCKED);		/* A: unlock  */
		return;
	}
	if (h.gap_ps) {
		sim_delay_ps(h.gap_ps);
		uatomic_fetch_sub(h.word, Q_LOCKED);		/* A: unlock  */
	}
	sim_delay_ps(300000);
	uatomic_fetch_sub(h.word, Q_PENDING - Q_LOCKED);	/* B: 0,1,0 -> 0,0,1 */
	sim_delay_ps(300000);
	uatomic_fetch_sub(h.word, Q_LOCKED);			/* B: unlock  */
}

/* One scripted run of policy @pol with the hand-over at @step_ps (B's
 * pending @gap_ps before A's unlock), the victim arriving at 1 us.
 * Return: the victim's path. */
static enum path scripted(int pol, uint64_t step_ps, uint64_t gap_ps)
{
	struct ksim_spin_paths p;

	machine_4();
	h.lock = lock_of[pol];
	h.start_ps = 1000000;				/* 1 us	*/
	h.step_ps = step_ps;
	h.gap_ps = gap_ps;
	*h.word = Q_LOCKED;	/* before the run: no hook, A holds it */
	sim_task_create("victim", victim_task, NULL, 0);
	sim_task_create("script", script_task, NULL, 1);
	sim_run();
	ck_assert_uint_eq(*h.word, 0);
	ksim_spin_paths_read(&p);
	ck_assert_uint_le(p.pending + p.queue, 1);
	return p.pending ? PATH_PENDING : p.queue ? PATH_QUEUE : PATH_FAST;
}

/*
 * Slide the hand-over from 100 ns before the victim's arrival to 300 ns
 * after it, 0.25 ns at a time.  Early, the victim's fast path finds
 * (0,1,0): v10 queues, v11 and peterz wait and take the pending path (the
 * published v10/v11 difference).  Then comes a window where the fast path
 * found (0,0,1) but the loop's cmpxchg (0,0,1) -> (0,1,1) fails and
 * returns (0,1,0): v11 goes back to waiting and takes the pending path,
 * peterz queues (its pre-wait looked at the fast path's value only).
 * Later, the victim sets pending first under every policy.
 */
START_TEST(test_failed_cmpxchg_on_010_v11_waits_peterz_queues)
{
	enum path v11, peterz, v10;
	int differ = 0, v10_queued = 0, all_pending = 0;

	for (uint64_t step = 900000; step <= 1300000; step += 250) {
		v10 = scripted(0, step, 0);
		v11 = scripted(1, step, 0);
		peterz = scripted(3, step, 0);
		if (v11 == PATH_PENDING && peterz == PATH_QUEUE)
			differ++;
		if (v10 == PATH_QUEUE && v11 == PATH_PENDING &&
		    peterz == PATH_PENDING)
			v10_queued++;
		if (v10 == PATH_PENDING)
			all_pending += v11 == PATH_PENDING && peterz == PATH_PENDING;
		/* peterz never waits where v11 queues */
		ck_assert_msg(!(peterz == PATH_PENDING && v11 == PATH_QUEUE),
			      "step %llu ps", (unsigned long long)step);
	}
	ck_assert_int_gt(v10_queued, 0);
	ck_assert_int_gt(differ, 0);
	ck_assert_int_gt(all_pending, 0);
}
END_TEST

/*
 * (0,1,1) then (0,1,0): B sets pending 30 ns before A unlocks.  A victim
 * whose fast path finds (0,1,1) queues under v11 (and v10, peterz); under
 * v12 it looks again after two cpu_relax(), and if A unlocked meanwhile it
 * finds (0,1,0), waits for B and takes the pending path.
 */
START_TEST(test_v12_retries_011_once_v11_queues)
{
	enum path v11, v12, peterz;
	int v12_won = 0, v11_queued = 0;

	for (uint64_t step = 900000; step <= 1100000; step += 250) {
		v11 = scripted(1, step, 30000);
		v12 = scripted(2, step, 30000);
		peterz = scripted(3, step, 30000);
		v11_queued += v11 == PATH_QUEUE;
		if (v11 == PATH_QUEUE && v12 == PATH_PENDING)
			v12_won++;
		/* on (0,1,1) peterz's v10 loop queues as v11 does */
		ck_assert_msg(v11 != PATH_QUEUE || peterz == PATH_QUEUE,
			      "step %llu ps", (unsigned long long)step);
	}
	ck_assert_int_gt(v11_queued, 0);
	ck_assert_int_gt(v12_won, 0);
}
END_TEST

Suite *qspin_2014_suite(void)
{
	Suite *s = suite_create("qspin_2014");
	TCase *tc = tcase_create("qspin_2014");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_each_policy_gives_mutual_exclusion_on_16_cpus,
			    0, 3 * NR_POLICIES);
	tcase_add_test(tc, test_broken_policy_fails_the_exclusion_check);
	tcase_add_test(tc, test_policies_are_listed_and_run_when_named);
	tcase_add_loop_test(tc, test_two_tasks_v10_queues_others_take_pending,
			    0, NR_POLICIES);
	tcase_add_test(tc, test_failed_cmpxchg_on_010_v11_waits_peterz_queues);
	tcase_add_test(tc, test_v12_retries_011_once_v11_queues);
	suite_add_tcase(s, tc);
	return s;
}
