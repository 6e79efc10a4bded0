/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_cache_arrival.c - line-handover = arrival (and arrival-overlap,
 * where a queued request travels while it waits) in the cache-line
 * model (sim/cache/cache.h): a miss takes the line from its holders when its
 * request arrives, half its transfer after it is issued.  An owner's RMW
 * that completes before that is an L1 hit, one after it misses behind
 * the miss in flight, and the requester sees the memory of the arrival;
 * with line-handover = issue (the default) none of that.
 *
 * Stage: tests.  Calls sim_cache_access() and sim_cache_arrive() directly
 * on arena lines, and runs two tasks through sim_hook().  The parked
 * spinner's exactness in arrival mode is in tests/test_cache.c.
 */
#include <check.h>
#include <stdint.h>

#include "sim/host/arena.h"
#include "sim/cache/cache.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"

#define NS	1000ULL

#define LOAD_PS		(1 * NS)
#define STORE_PS	(2 * NS)
#define RMW_PS		(8 * NS)
#define REMOTE_PS	(130 * NS)
#define SHARED_PS	(20 * NS)
#define T0		(1000 * NS)	/* the requester's issue */

static struct sim_preset preset;

/* Two sockets of one CPU each, without a store buffer. */
static void machine(enum sim_handover handover)
{
	sim_preset_defaults(&preset);
	preset.sockets = 2;
	preset.cores_per_socket = 1;
	preset.threads_per_core = 1;
	preset.access_ps[SIM_LOAD] = LOAD_PS;
	preset.access_ps[SIM_STORE] = STORE_PS;
	preset.access_ps[SIM_RMW] = RMW_PS;
	preset.xfer_remote_ps = REMOTE_PS;
	preset.shared_read_ps = SHARED_PS;
	preset.cache_model = true;
	preset.store_buffer = false;
	preset.line_handover = handover;
	sim_machine_init(&preset, sim_preset_nr_cpus(&preset), 1);
}

/* One access; its rest (arrival mode) in *@post_ps. Return: its cost. */
static uint64_t acc(int cpu, enum sim_access kind, const void *addr,
		    uint64_t at_ps, uint64_t *post_ps)
{
	uint64_t c = sim_cache_access(&sim.cpus[cpu], kind, addr, 4, at_ps);

	*post_ps = sim__cache_post_ps;
	sim__cache_post_ps = 0;
	return c;
}

START_TEST(test_an_owner_rmw_before_the_request_arrives_is_a_hit_and_one_after_misses)
{
	uint64_t post, half = REMOTE_PS / 2;
	uint32_t *x;

	machine(_i);		/* arrival, arrival-overlap */
	x = sim_arena_alloc(64, 64);
	acc(0, SIM_RMW, x, 0, &post);			/* CPU 0 owns it */
	ck_assert_uint_eq(acc(1, SIM_RMW, x, T0, &post), half);
	ck_assert_uint_eq(post, REMOTE_PS - half + RMW_PS);
	ck_assert_int_eq(sim_cache_line(x)->owner, 1);	/* state: at issue */
	/* completes at T0 + 20 ns, before the arrival at T0 + 65 ns: local */
	ck_assert_uint_eq(acc(0, SIM_RMW, x, T0 + 12 * NS, &post), RMW_PS);
	ck_assert_uint_eq(post, 0);
	ck_assert_uint_eq(acc(0, SIM_LOAD, x, T0 + 30 * NS, &post), LOAD_PS);
	/*
	 * would complete at T0 + 65 ns: too late.  Its request leaves when
	 * CPU 1's RMW completes (T0 + 138 ns); with arrival-overlap it has
	 * travelled meanwhile, and arrives then.
	 */
	ck_assert_uint_eq(acc(0, SIM_RMW, x, T0 + 57 * NS, &post),
			  (T0 + REMOTE_PS + RMW_PS) - (T0 + 57 * NS) +
			  (_i == SIM_HANDOVER_OVERLAP ? 0 : half));
	ck_assert_uint_eq(post, REMOTE_PS - half + RMW_PS);
	ck_assert_int_eq(sim_cache_line(x)->owner, 0);
	ck_assert_ptr_null(sim_cache_check(sim_cache_line(x)));
}
END_TEST

START_TEST(test_the_grace_ends_when_the_requester_performs_its_access)
{
	uint64_t post;
	uint32_t *x;

	machine(SIM_HANDOVER_ARRIVAL);
	x = sim_arena_alloc(64, 64);
	acc(0, SIM_STORE, x, 0, &post);
	acc(1, SIM_RMW, x, T0, &post);
	sim_cache_arrive(&sim.cpus[1]);
	/* before the arrival by the clock, but CPU 1 has done its RMW */
	ck_assert_uint_gt(acc(0, SIM_RMW, x, T0 + 12 * NS, &post), RMW_PS);
}
END_TEST

START_TEST(test_a_load_takes_only_the_owners_right_to_write_until_it_arrives)
{
	uint64_t post, half = REMOTE_PS / 2;
	uint32_t *x;

	machine(SIM_HANDOVER_ARRIVAL);
	x = sim_arena_alloc(64, 64);
	acc(0, SIM_STORE, x, 0, &post);
	ck_assert_uint_eq(acc(1, SIM_LOAD, x, T0, &post), half);
	ck_assert_uint_eq(post, REMOTE_PS - half);
	ck_assert_uint_eq(acc(0, SIM_STORE, x, T0 + 10 * NS, &post), STORE_PS);
	ck_assert_uint_eq(acc(0, SIM_LOAD, x, T0 + 300 * NS, &post), LOAD_PS);
	sim_cache_arrive(&sim.cpus[1]);
	/* after it: an upgrade, invalidating CPU 1's copy */
	ck_assert_uint_eq(acc(0, SIM_STORE, x, T0 + 400 * NS, &post),
			  half);
	ck_assert_uint_eq(post, REMOTE_PS - half + STORE_PS);
}
END_TEST

START_TEST(test_issue_mode_has_no_grace_and_no_rest)
{
	uint64_t post;
	uint32_t *x;

	machine(SIM_HANDOVER_ISSUE);
	x = sim_arena_alloc(64, 64);
	acc(0, SIM_RMW, x, 0, &post);
	ck_assert_uint_eq(acc(1, SIM_RMW, x, T0, &post), REMOTE_PS + RMW_PS);
	ck_assert_uint_eq(post, 0);
	/* issued after CPU 1's RMW: waits for it, then takes the line back */
	ck_assert_uint_eq(acc(0, SIM_RMW, x, T0 + 12 * NS, &post),
			  REMOTE_PS + RMW_PS - 12 * NS + REMOTE_PS + RMW_PS);
}
END_TEST

/* ---- through the machine: what the requester's RMW sees ------------------ */

static struct {
	uint32_t *x;
	uint32_t seen;		/* the requester's fetch-add's old value */
	uint64_t seen_at_ps;	/* its clock after the RMW */
	uint64_t first_ps;	/* what the owner's first increment cost */
} r;

static void delay_to(uint64_t at_ps)
{
	if (sim_now_ps() < at_ps)
		sim_delay_ps(at_ps - sim_now_ps());
}

static void rmw_add(uint32_t v)
{
	sim_hook(SIM_RMW, r.x, 4);
	__atomic_fetch_add(r.x, v, __ATOMIC_RELAXED);
}

/* CPU 0: owns the word, adds 1 at T0 + 10 ns and 10 at T0 + 100 ns. */
static void owner(void *arg)
{
	uint64_t t;

	rmw_add(0);
	delay_to(T0 + 10 * NS);
	t = sim_now_ps();
	rmw_add(1);
	r.first_ps = sim_now_ps() - t;
	delay_to(T0 + 100 * NS);
	rmw_add(10);
}

/* CPU 1: adds 100 at T0, the request arriving at T0 + 65 ns. */
static void requester(void *arg)
{
	delay_to(T0);
	sim_hook(SIM_RMW, r.x, 4);
	r.seen = __atomic_fetch_add(r.x, 100, __ATOMIC_RELAXED);
	r.seen_at_ps = sim_now_ps();
}

static void run_race(bool arrival)
{
	machine(arrival ? SIM_HANDOVER_ARRIVAL : SIM_HANDOVER_ISSUE);
	r.x = sim_arena_alloc(64, 64);
	sim_task_create("owner", owner, NULL, 0);
	sim_task_create("requester", requester, NULL, 1);
	sim_run();
	ck_assert_uint_eq(*r.x, 111);
}

START_TEST(test_the_requester_sees_the_owners_rmw_issued_before_its_arrival)
{
	run_race(true);
	ck_assert_uint_eq(r.seen, 1);		/* the +1, not the +10 */
	ck_assert_uint_eq(r.first_ps, RMW_PS);	/* a local hit */
	ck_assert_uint_eq(r.seen_at_ps, T0 + REMOTE_PS + RMW_PS);

	run_race(false);			/* issue: the owner lost it */
	ck_assert_uint_eq(r.seen, 0);
	ck_assert_uint_gt(r.first_ps, REMOTE_PS);
	ck_assert_uint_eq(r.seen_at_ps, T0 + REMOTE_PS + RMW_PS);
}
END_TEST

Suite *cache_arrival_suite(void)
{
	Suite *s = suite_create("cache_arrival");
	TCase *tc = tcase_create("cache_arrival");

	tcase_add_loop_test(tc, test_an_owner_rmw_before_the_request_arrives_is_a_hit_and_one_after_misses,
			    SIM_HANDOVER_ARRIVAL, SIM_HANDOVER_OVERLAP + 1);
	tcase_add_test(tc, test_the_grace_ends_when_the_requester_performs_its_access);
	tcase_add_test(tc, test_a_load_takes_only_the_owners_right_to_write_until_it_arrives);
	tcase_add_test(tc, test_issue_mode_has_no_grace_and_no_rest);
	tcase_add_test(tc, test_the_requester_sees_the_owners_rmw_issued_before_its_arrival);
	suite_add_tcase(s, tc);
	return s;
}
