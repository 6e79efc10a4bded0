/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_cache.c - the cache-line cost model (sim/cache/cache.c) and its use
 * by the machine: transfer costs by distance, reads of shared lines,
 * invalidation of N sharers, serialised RMWs, flat costs when the model is
 * off, a store buffer (store-buffer = on), a shared read waiting for
 * the data still on its way from the owner, and spin-wait parking that
 * ends exactly as the loop would.
 *
 * Stage: tests.  Builds machines from hand-made presets, calls
 * sim_cache_access() directly on arena lines, and runs small tasks through
 * sim_hook() and sim_spin_wait_reload().  Costs are chosen all different, so
 * that a wrong case cannot give a right total.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "sim/host/arena.h"
#include "sim/cache/cache.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "sim/machine/prng.h"
#include "tests/run_child.h"

#define NS	1000ULL

#define LOAD_PS		(1 * NS)
#define STORE_PS	(2 * NS)
#define RMW_PS		(8 * NS)
#define RELAX_PS	(4 * NS)
#define FENCE_PS	(9 * NS)
#define SMT_PS		(7 * NS)
#define SOCKET_PS	(50 * NS)
#define REMOTE_PS	(130 * NS)
#define HOP2_PS		(190 * NS)
#define SHARED_PS	(20 * NS)
#define PENALTY_PS	(12 * NS)

static struct sim_preset preset;
static uint64_t now_ps;		/* acc()'s clock: far apart, no waits */
static bool sb_on;		/* machine(): with a store buffer */
static int handover;		/* machine(): enum sim_handover */

static void machine(int sockets, int cores, int threads, bool model)
{
	sim_preset_defaults(&preset);
	preset.sockets = sockets;
	preset.cores_per_socket = cores;
	preset.threads_per_core = threads;
	preset.access_ps[SIM_LOAD] = LOAD_PS;
	preset.access_ps[SIM_STORE] = STORE_PS;
	preset.access_ps[SIM_RMW] = RMW_PS;
	preset.access_ps[SIM_RELAX] = RELAX_PS;
	preset.access_ps[SIM_FENCE] = FENCE_PS;
	preset.xfer_smt_ps = SMT_PS;
	preset.xfer_socket_ps = SOCKET_PS;
	preset.xfer_remote_ps = REMOTE_PS;
	preset.xfer_2hop_ps = 0;
	preset.shared_read_ps = SHARED_PS;
	preset.sharer_penalty_ps = PENALTY_PS;
	preset.cache_model = model;
	preset.store_buffer = sb_on;
	preset.line_handover = handover;
	sim_machine_init(&preset, sim_preset_nr_cpus(&preset), 1);
	now_ps = 0;
}

/* One access by @cpu at @at_ps. Return: its cost. */
static uint64_t acc_at(int cpu, enum sim_access kind, const void *addr,
		       uint64_t at_ps)
{
	return sim_cache_access(&sim.cpus[cpu], kind, addr, 4, at_ps);
}

/* One access by @cpu 1 us after the previous one. Return: its cost. */
static uint64_t acc(int cpu, enum sim_access kind, const void *addr)
{
	now_ps += 1000 * NS;
	return acc_at(cpu, kind, addr, now_ps);
}

static void assert_line_ok(const void *addr)
{
	const char *bad = sim_cache_check(sim_cache_line(addr));

	ck_assert_msg(bad == NULL, "line invariant: %s", bad);
}

/* ---- costs by distance ---------------------------------------------------- */

START_TEST(test_line_written_by_cpu_0_costs_a_remote_transfer_to_read_on_cpu_1_of_another_socket)
{
	uint32_t *x;

	machine(2, 1, 1, true);
	x = sim_arena_alloc(64, 64);
	ck_assert_uint_eq(acc(0, SIM_STORE, x), SHARED_PS + STORE_PS);
	ck_assert_uint_eq(acc(1, SIM_LOAD, x), REMOTE_PS);
	ck_assert_uint_eq(acc(1, SIM_LOAD, x + 1), LOAD_PS);	/* now a hit */
	ck_assert_uint_eq(acc(0, SIM_LOAD, x), LOAD_PS);	/* kept a copy */
	ck_assert_int_eq(sim_cache_line(x)->owner, -1);
	ck_assert_int_eq(sim_cache_line(x)->nr_holders, 2);
	assert_line_ok(x);
}
END_TEST

/* 2 sockets x 2 cores x 2 threads: CPUs 0,1 socket 0; 2,3 socket 1;
 * 4..7 their SMT siblings (4 is 0's, 6 is 2's). */
START_TEST(test_transfers_within_a_socket_and_between_siblings_cost_their_own_figures)
{
	uint32_t *a, *b, *c;

	machine(2, 2, 2, true);
	a = sim_arena_alloc(64, 64);
	b = sim_arena_alloc(64, 64);
	c = sim_arena_alloc(64, 64);
	acc(0, SIM_STORE, a);
	ck_assert_uint_eq(acc(1, SIM_LOAD, a), SOCKET_PS);
	acc(0, SIM_STORE, b);
	ck_assert_uint_eq(acc(4, SIM_LOAD, b), SMT_PS);
	acc(0, SIM_RMW, c);
	ck_assert_uint_eq(acc(1, SIM_RMW, c), SOCKET_PS + RMW_PS);
	ck_assert_uint_eq(acc(3, SIM_STORE, c), REMOTE_PS + STORE_PS);
	ck_assert_uint_eq(acc(3, SIM_RMW, c), RMW_PS);	/* owner: local */
	ck_assert_int_eq(sim_cache_line(c)->owner, 3);
	assert_line_ok(c);
}
END_TEST

START_TEST(test_sockets_two_hops_apart_cost_xfer_2hop_when_the_preset_has_it)
{
	uint32_t *x;

	machine(4, 1, 1, true);
	preset.xfer_2hop_ps = HOP2_PS;
	sim_cache_init(&preset);
	x = sim_arena_alloc(64, 64);
	acc(0, SIM_STORE, x);
	ck_assert_uint_eq(acc(3, SIM_RMW, x), HOP2_PS + RMW_PS);	/* 0^3: 2 bits */
	ck_assert_uint_eq(acc(1, SIM_RMW, x), REMOTE_PS + RMW_PS);	/* 3^1: 1 bit */
	ck_assert_uint_eq(acc(2, SIM_RMW, x), HOP2_PS + RMW_PS);	/* 1^2: 2 bits */
	preset.xfer_2hop_ps = 0;
	sim_cache_init(&preset);
	acc(0, SIM_STORE, x);
	ck_assert_uint_eq(acc(3, SIM_RMW, x), REMOTE_PS + RMW_PS);
}
END_TEST

START_TEST(test_a_shared_line_is_read_from_the_nearest_holder)
{
	uint32_t *x;

	machine(2, 2, 2, true);
	x = sim_arena_alloc(64, 64);
	acc(0, SIM_STORE, x);
	ck_assert_uint_eq(acc(2, SIM_LOAD, x), REMOTE_PS);	/* M -> S, S */
	ck_assert_uint_eq(acc(3, SIM_LOAD, x), SHARED_PS);	/* 2: my socket */
	ck_assert_uint_eq(acc(6, SIM_LOAD, x), SMT_PS);	/* 2: my core */
	ck_assert_uint_eq(acc(5, SIM_LOAD, x), SHARED_PS);
	ck_assert_int_eq(sim_cache_line(x)->nr_holders, 5);
	assert_line_ok(x);
}
END_TEST

START_TEST(test_an_untouched_line_comes_from_l3_and_a_load_then_owns_it)
{
	uint32_t *x;

	machine(1, 2, 1, true);
	x = sim_arena_alloc(64, 64);
	ck_assert_uint_eq(acc(0, SIM_LOAD, x), SHARED_PS);
	ck_assert_int_eq(sim_cache_line(x)->owner, 0);		/* Exclusive */
	ck_assert_uint_eq(acc(0, SIM_STORE, x), STORE_PS);	/* silent E->M */
	ck_assert_uint_eq(acc(0, SIM_RELAX, NULL), RELAX_PS);
	ck_assert_uint_eq(acc(0, SIM_FENCE, NULL), FENCE_PS);
}
END_TEST

/*
 * Three readers of a line CPU 0 wrote, one socket: the first is served by
 * CPU 0; the second, 10 ns later, finds the line shared but cannot have
 * its data from L3 before the first transfer completes; the third, after
 * that, reads it from L3.  _i 0: issue mode, 1: arrival (the cost is
 * split at the request's arrival; the sum is the same).
 */
START_TEST(test_a_shared_read_waits_for_the_data_still_on_its_way)
{
	uint64_t t, c;
	uint32_t *x;

	handover = _i ? SIM_HANDOVER_ARRIVAL : SIM_HANDOVER_ISSUE;
	machine(1, 4, 1, true);
	x = sim_arena_alloc(64, 64);
	acc(0, SIM_STORE, x);
	t = now_ps += 1000 * NS;
	c = acc_at(1, SIM_LOAD, x, t) + sim__cache_post_ps;
	ck_assert_uint_eq(c, SOCKET_PS);
	sim__cache_post_ps = 0;
	c = acc_at(2, SIM_LOAD, x, t + 10 * NS) + sim__cache_post_ps;
	ck_assert_uint_eq(c, SOCKET_PS - 10 * NS);
	sim__cache_post_ps = 0;
	c = acc_at(3, SIM_LOAD, x, t + SOCKET_PS + NS) + sim__cache_post_ps;
	ck_assert_uint_eq(c, SHARED_PS);
	sim__cache_post_ps = 0;
	assert_line_ok(x);
	handover = SIM_HANDOVER_ISSUE;
}
END_TEST

/*
 * spin-exit overlap (sim/cache/cache.h): after a spin-wait that ended at the
 * first change, CPU 1's next load miss started with the wait's last
 * reload, 10 ns earlier; after one the word changed under first, or with
 * a store miss in between, or with the key off, it pays in full.
 */
START_TEST(test_a_load_after_a_first_change_spin_exit_starts_with_its_reload)
{
	uint64_t t, c;
	uint32_t *x, *y;
	int overlap = _i != 2, first = _i != 1;	/* _i 3: a store between */

	machine(1, 2, 1, true);
	preset.spin_exit_overlap = overlap;
	sim_machine_init(&preset, sim_preset_nr_cpus(&preset), 1);
	x = sim_arena_alloc(64, 64);
	y = sim_arena_alloc(64, 64);
	acc(0, SIM_STORE, x);
	acc(0, SIM_STORE, y);
	t = now_ps += 1000 * NS;
	sim_cache_spin_reload(&sim.cpus[1], t);
	sim_cache_spin_done(&sim.cpus[1], first);
	if (_i == 3)
		acc_at(1, SIM_STORE, y, t + 5 * NS);	/* a miss: drops it */
	c = acc_at(1, SIM_LOAD, x, t + 10 * NS);
	ck_assert_uint_eq(c, _i == 0 ? SOCKET_PS - 10 * NS : SOCKET_PS);
	/* once only */
	acc(0, SIM_STORE, x);
	ck_assert_uint_eq(acc(1, SIM_LOAD, x), SOCKET_PS);
}
END_TEST

/* ---- invalidation and serialisation ------------------------------------- */

/* _i = N sharers besides the writer, 1..7. */
/* 3 sockets of one core (CPU n on socket n); then 1 socket of 2 cores. */
START_TEST(test_remote_read_misses_of_one_line_are_served_one_at_a_time)
{
	uint32_t *x, *y;
	uint64_t t;

	machine(3, 1, 1, true);
	x = sim_arena_alloc(64, 64);
	acc(0, SIM_STORE, x);
	t = now_ps += 1000 * NS;
	/* readers on two other sockets at the same time: the second waits
	 * for the first transfer, then makes its own */
	ck_assert_uint_eq(acc_at(1, SIM_LOAD, x, t), REMOTE_PS);
	ck_assert_uint_eq(acc_at(2, SIM_LOAD, x, t), REMOTE_PS + REMOTE_PS);
	assert_line_ok(x);

	machine(1, 3, 1, true);
	y = sim_arena_alloc(64, 64);
	acc(0, SIM_STORE, y);
	t = now_ps += 1000 * NS;
	/* inside a socket, side by side */
	ck_assert_uint_eq(acc_at(1, SIM_LOAD, y, t), SOCKET_PS);
	ck_assert_uint_eq(acc_at(2, SIM_LOAD, y, t), SOCKET_PS);
	assert_line_ok(y);
}
END_TEST

START_TEST(test_invalidating_n_sharers_costs_n_minus_1_penalties_and_leaves_one_owner)
{
	int n = _i;
	uint32_t *x;

	machine(1, 9, 1, true);
	x = sim_arena_alloc(64, 64);
	acc(0, SIM_STORE, x);
	for (int cpu = 1; cpu <= n; cpu++)
		acc(cpu, SIM_LOAD, x);
	/* the writer holds a copy too: its upgrade invalidates N others */
	ck_assert_uint_eq(acc(0, SIM_STORE, x),
			  SOCKET_PS + (n - 1) * PENALTY_PS + STORE_PS);
	ck_assert_int_eq(sim_cache_line(x)->owner, 0);
	ck_assert_int_eq(sim_cache_line(x)->nr_holders, 1);
	assert_line_ok(x);
	for (int cpu = 1; cpu <= n; cpu++)
		ck_assert(!sim_cache_holds(sim_cache_line(x), cpu));
	ck_assert_uint_eq(acc(1, SIM_LOAD, x), SOCKET_PS);

	/* a writer that holds no copy: N sharers + the old owner */
	for (int cpu = 2; cpu <= n; cpu++)
		acc(cpu, SIM_LOAD, x);
	ck_assert_uint_eq(acc(8, SIM_RMW, x),
			  SOCKET_PS + n * PENALTY_PS + RMW_PS);
	ck_assert_int_eq(sim_cache_line(x)->owner, 8);
	assert_line_ok(x);
}
END_TEST

START_TEST(test_concurrent_rmws_on_one_line_serialise)
{
	const uint64_t t0 = 100 * NS, c1 = SOCKET_PS + RMW_PS;
	uint32_t *x;

	machine(1, 4, 1, true);
	x = sim_arena_alloc(64, 64);
	acc_at(3, SIM_STORE, x, 0);
	ck_assert_uint_eq(acc_at(0, SIM_RMW, x, t0), c1);	/* done t0 + c1 */
	ck_assert_uint_eq(sim_cache_line(x)->busy_until_ps, t0 + c1);
	/* issued at t0 too: starts when 0's completes, then gets it from 0 */
	ck_assert_uint_eq(acc_at(1, SIM_RMW, x, t0), c1 + c1);
	ck_assert_uint_eq(acc_at(2, SIM_RMW, x, t0 + 10 * NS), 3 * c1 - 10 * NS);
	/* a load miss waits for the last one too */
	ck_assert_uint_eq(acc_at(3, SIM_LOAD, x, t0 + 20 * NS),
			  3 * c1 - 20 * NS + SOCKET_PS);
	ck_assert_uint_eq(sim_cache_stats()->waits, 3);
	/* long after: no wait; 2 and 3 share it now */
	ck_assert_uint_eq(acc_at(0, SIM_RMW, x, 10000 * NS),
			  SOCKET_PS + PENALTY_PS + RMW_PS);
	assert_line_ok(x);
}
END_TEST

/* store-buffer = on: stores retire at once, complete in order, and an RMW
 * or a fence waits for them; others see a store when it completes. */
START_TEST(test_a_store_buffer_hides_store_misses_from_their_cpu_only)
{
	const uint64_t t0 = 100 * NS, miss = SOCKET_PS + STORE_PS;
	uint32_t *x, *y, *z;

	machine(1, 4, 1, true);
	preset.store_buffer = true;
	sim_cache_init(&preset);
	x = sim_arena_alloc(64, 64);
	y = sim_arena_alloc(64, 64);
	z = sim_arena_alloc(64, 64);
	acc_at(1, SIM_STORE, x, 0);
	acc_at(1, SIM_STORE, y, 0);
	acc_at(2, SIM_STORE, z, 0);		/* 0..22 ns, no more pending */
	ck_assert_uint_eq(acc_at(0, SIM_STORE, x, t0), STORE_PS);
	ck_assert_uint_eq(sim_cache_line(x)->busy_until_ps, t0 + miss);
	ck_assert_uint_eq(acc_at(0, SIM_LOAD, x, t0 + 2 * NS), LOAD_PS); /* forwarded */
	ck_assert_uint_eq(acc_at(0, SIM_LOAD, z, t0 + 3 * NS), SOCKET_PS); /* passes */
	/* a second miss, issued 60 ns later, completes after the first */
	ck_assert_uint_eq(acc_at(0, SIM_STORE, y, t0 + 60 * NS), STORE_PS);
	ck_assert_uint_eq(sim_cache_line(y)->busy_until_ps, t0 + 60 * NS + miss);
	/* a hit behind them is seen no earlier than they are */
	ck_assert_uint_eq(acc_at(0, SIM_STORE, x, t0 + 61 * NS), STORE_PS);
	ck_assert_uint_eq(sim_cache_line(x)->busy_until_ps, t0 + 60 * NS + miss);
	/* another CPU's load waits for the store, then gets the line */
	ck_assert_uint_eq(acc_at(1, SIM_LOAD, x, t0 + 70 * NS),
			  (60 * NS + miss - 70 * NS) + SOCKET_PS);
	/* the fence and the RMW drain the buffer */
	ck_assert_uint_eq(acc_at(0, SIM_FENCE, NULL, t0 + 62 * NS),
			  miss - 2 * NS + FENCE_PS);
	ck_assert_uint_eq(acc_at(0, SIM_RMW, z, t0 + 62 * NS),
			  miss - 2 * NS + SOCKET_PS + RMW_PS);	/* 2 shares z */
	ck_assert_uint_eq(acc_at(0, SIM_RMW, z, t0 + 200 * NS), RMW_PS);

	preset.store_buffer = false;		/* off: the CPU pays */
	sim_cache_init(&preset);
	acc_at(1, SIM_STORE, x, 0);
	ck_assert_uint_eq(acc_at(0, SIM_STORE, x, t0), miss);
}
END_TEST

START_TEST(test_random_accesses_keep_the_line_invariants_and_the_table_bounded)
{
	struct sim_prng r;
	uint8_t *mem;

	machine(2, 4, 2, true);
	mem = sim_arena_alloc(8 * 64, 64);
	sim_prng_seed(&r, 42);
	for (int i = 0; i < 20000; i++) {
		int cpu = (int)sim_prng_below(&r, 16);
		enum sim_access kind = (enum sim_access)sim_prng_below(&r, 3);
		const void *p = mem + sim_prng_below(&r, 8 * 64 / 4) * 4;
		const struct sim_cache_line *l;

		acc_at(cpu, kind, p, (uint64_t)i * NS);
		l = sim_cache_line(p);
		assert_line_ok(p);
		ck_assert(sim_cache_holds(l, cpu));
		if (kind != SIM_LOAD)
			ck_assert_int_eq(l->owner, cpu);
	}
	ck_assert_uint_eq(sim_cache_stats()->lines, 8);
}
END_TEST

/* ---- through the machine: tasks, hooks, parking ---------------------------- */

static struct {
	uint32_t *x;		/* simulated memory */
	uint64_t delay_ps;	/* the writer's, before its store */
	uint64_t cost_ps[SIM_NR_ACCESS];	/* what the reader's hooks cost */
	bool park;		/* the spinner parks (else it iterates) */
	bool two_writes;	/* the writer first writes x[2], same line */
	uint64_t end_ps;	/* the spinner's clock when it saw x[0] */
	uint64_t last_ps;	/* ... and when it issued that load */
} h;

static void writer(void *arg)
{
	sim_delay_ps(h.delay_ps);
	if (h.two_writes) {
		sim_hook(SIM_STORE, &h.x[2], 4);
		__atomic_store_n(&h.x[2], 1, __ATOMIC_RELAXED);
		sim_delay_ps(300 * NS);
	}
	sim_hook(SIM_STORE, &h.x[0], 4);
	__atomic_store_n(&h.x[0], 1, __ATOMIC_RELAXED);
}

static uint64_t timed_hook(enum sim_access kind, void *addr)
{
	uint64_t t = sim_now_ps();

	sim_hook(kind, addr, addr ? 4 : 0);
	return sim_now_ps() - t;
}

static void reader(void *arg)
{
	sim_delay_ps(h.delay_ps + 500 * NS);	/* after the writer's store */
	h.cost_ps[SIM_LOAD] = timed_hook(SIM_LOAD, h.x);
	h.cost_ps[SIM_RMW] = timed_hook(SIM_RMW, h.x + 1);
	h.cost_ps[SIM_STORE] = timed_hook(SIM_STORE, h.x + 2);
	h.cost_ps[SIM_RELAX] = timed_hook(SIM_RELAX, NULL);
	h.cost_ps[SIM_FENCE] = timed_hook(SIM_FENCE, NULL);
}

/* sim_run() for spinners that make their reloads themselves: the
 * dispatcher's are off (tests/test_spin_reload.c compares them). */
static void run_spinners(void)
{
	setenv("FUTEXSIM_SPIN_RELOAD_RUN", "0", 1);
	sim_run();
	unsetenv("FUTEXSIM_SPIN_RELOAD_RUN");
}

static void run_pair(void (*second)(void *), bool model)
{
	machine(1, 2, 1, model);
	h.x = sim_arena_alloc(64, 64);
	sim_task_create("writer", writer, NULL, 0);
	sim_task_create("second", second, NULL, 1);
	run_spinners();
}

START_TEST(test_hooks_of_a_task_pay_the_transfer_with_the_model_and_flat_costs_without)
{
	h.delay_ps = 100 * NS;
	h.two_writes = false;
	run_pair(reader, true);
	ck_assert_uint_eq(h.cost_ps[SIM_LOAD], SOCKET_PS);	/* M in CPU 0 */
	ck_assert_uint_eq(h.cost_ps[SIM_RMW], SOCKET_PS + RMW_PS); /* S -> M */
	ck_assert_uint_eq(h.cost_ps[SIM_STORE], STORE_PS);	/* now ours */
	ck_assert_uint_eq(h.cost_ps[SIM_RELAX], RELAX_PS);
	ck_assert_uint_eq(h.cost_ps[SIM_FENCE], FENCE_PS);

	run_pair(reader, false);				/* cache-model = off */
	ck_assert_uint_eq(h.cost_ps[SIM_LOAD], LOAD_PS);
	ck_assert_uint_eq(h.cost_ps[SIM_RMW], RMW_PS);
	ck_assert_uint_eq(h.cost_ps[SIM_STORE], STORE_PS);
	ck_assert_uint_eq(h.cost_ps[SIM_RELAX], RELAX_PS);
	ck_assert_uint_eq(h.cost_ps[SIM_FENCE], FENCE_PS);
}
END_TEST

/* smp_cond_load_relaxed(x, VAL): reload, test, relax or park. */
static void spinner(void *arg)
{
	for (;;) {
		h.last_ps = sim_now_ps();
		sim_hook(SIM_LOAD, h.x, 4);
		if (__atomic_load_n(h.x, __ATOMIC_RELAXED))
			break;
		if (h.park)
			sim_spin_wait_reload(h.x, 4);
		else
			sim_hook(SIM_RELAX, NULL, 0);
	}
	h.end_ps = sim_now_ps();
}

/*
 * _i varies the write's time over more than one loop iteration, odd _i
 * add a store buffer, and _i from 40 on set line-handover = arrival, from
 * 80 on arrival-overlap (the reloads before the store's request arrives
 * are hits, the first after it misses; see arrived() for the end).  The spinner's first load takes the untouched
 * line (Exclusive); the writer's store gets it from the spinner at D +
 * SOCKET + STORE; the spinner's next reload misses, waits for that store
 * and gets the line back: D + 2 x SOCKET + STORE, whether it parks or
 * iterates, with a store buffer or not.
 */
/*
 * When the spinner's reload, issued at @load_ps, starts its transfer
 * after a store issued at @store_ps (the line busy until store + SOCKET
 * + STORE).  Return: that start (with arrival, its request leaves then);
 * with arrival-overlap the start less half the transfer (its request
 * arrives when the line is free, at least half a transfer after its
 * issue, and the other half follows).
 */
static uint64_t arrived(uint64_t store_ps, uint64_t load_ps)
{
	uint64_t free_ps = store_ps + SOCKET_PS + STORE_PS;

	if (handover != SIM_HANDOVER_OVERLAP)
		return free_ps;
	if (free_ps < load_ps + SOCKET_PS / 2)
		free_ps = load_ps + SOCKET_PS / 2;
	return free_ps - SOCKET_PS / 2;
}

START_TEST(test_a_parked_spinner_sees_the_write_when_the_loop_would_and_pays_the_miss)
{
	uint64_t d = 100 * NS + (uint64_t)(_i % 40) * 37, parked, looped, hooks;
	uint64_t last;			/* the parked spinner's last load */
	uint64_t first;			/* the writer's first store, to it */

	sb_on = _i & 1;
	handover = _i / 40;
	first = sb_on ? STORE_PS : SOCKET_PS + STORE_PS;

	h.delay_ps = d;
	h.two_writes = false;
	h.park = true;
	run_pair(spinner, true);
	parked = h.end_ps;
	last = h.last_ps;
	hooks = sim.counters.hooks;
	h.park = false;
	run_pair(spinner, true);
	looped = h.end_ps;
	ck_assert_uint_eq(parked, looped);
	ck_assert_uint_eq(last, h.last_ps);	/* the same reload saw it */
	ck_assert_uint_eq(parked, arrived(d, last) + SOCKET_PS);
	ck_assert_uint_lt(hooks * 4, sim.counters.hooks);	/* it did park */

	/* a first write elsewhere in the line: one extra miss, and exact */
	h.two_writes = true;
	h.park = true;
	run_pair(spinner, true);
	parked = h.end_ps;
	h.park = false;
	last = h.last_ps;
	run_pair(spinner, true);
	ck_assert_uint_eq(parked, h.end_ps);
	ck_assert_uint_eq(last, h.last_ps);
	ck_assert_uint_eq(parked, arrived(d + first + 300 * NS, last) +
			  SOCKET_PS);
	sb_on = false;
	handover = SIM_HANDOVER_ISSUE;
}
END_TEST

/* The first task of an aborted run: the run ends while the spinner is
 * parked on a line nobody writes. */
static void aborter(void *arg)
{
	sim_delay_ps(h.delay_ps);
	sim_run_abort();
}

/*
 * A run aborted with a CPU parked in a spin-wait (explore ends a run
 * when an oracle fires) leaves no waiter behind: the next machine's
 * lines have the same ids, and its spinner, parked on the same line,
 * sees the write when it would have without the aborted run before.
 * Every run checked: the machine's state checker finds the lines'
 * waiter lists whole (a CPU of the aborted machine left on a list is a
 * listed CPU that is not parked).
 */
START_TEST(test_a_run_aborted_with_a_parked_spinner_leaves_the_next_one_as_it_was)
{
	uint64_t end_ps, last_ps;

	setenv("FUTEXSIM_CHECK_STATE", "1", 1);	/* read by each boot */
	h.delay_ps = 100 * NS;
	h.two_writes = false;
	h.park = true;
	run_pair(spinner, true);
	end_ps = h.end_ps;
	last_ps = h.last_ps;

	machine(1, 2, 1, true);
	h.x = sim_arena_alloc(64, 64);
	sim_task_create("aborter", aborter, NULL, 0);
	sim_task_create("spinner", spinner, NULL, 1);
	h.end_ps = 0;
	run_spinners();
	ck_assert_uint_eq(h.end_ps, 0);		/* it was parked, not done */
	ck_assert(sim_check_state());

	run_pair(spinner, true);
	unsetenv("FUTEXSIM_CHECK_STATE");
	ck_assert_uint_gt(h.end_ps, h.delay_ps);
	ck_assert_uint_eq(h.end_ps, end_ps);
	ck_assert_uint_eq(h.last_ps, last_ps);
}
END_TEST

/* What corrupter() breaks while the spinner on CPU 1 is parked. */
static void corrupter(void *arg)
{
	struct sim_cpu *spin = &sim.cpus[1], *idle = &sim.cpus[2];

	sim_delay_ps(h.delay_ps);
	ck_assert(spin->parked);
	switch ((intptr_t)arg) {
	case 0:		/* a CPU flagged parked that no list holds */
		idle->parked = true;
		break;
	case 1:		/* a parked CPU whose flag is lost */
		spin->parked = false;
		break;
	case 2:		/* the head of a list with a back link */
		spin->park_prev = 0;
		break;
	case 3:		/* a CPU that is not parked, linked after the head */
		spin->park_next = idle->k.cpu;
		idle->park_prev = spin->k.cpu;
		break;
	}
	sim_delay_ps(h.delay_ps);
	*h.x = 1;
	sim_hook(SIM_STORE, h.x, 4);
	h.x[16] = 1;
	sim_hook(SIM_STORE, &h.x[16], 4);
}

/* A second spinner, on the next line, that parks after the corruption:
 * a change of the waiters, so the next dispatch checks them in full. */
static void late_spinner(void *arg)
{
	sim_delay_ps(h.delay_ps * 3 / 2);
	while (!__atomic_load_n(&h.x[16], __ATOMIC_RELAXED)) {
		sim_hook(SIM_LOAD, &h.x[16], 4);
		sim_spin_wait_reload(&h.x[16], 4);
	}
}

/* The runs of the two tests below: corrupter() breaks the lists as @how says
 * (4: not at all) while the spinner on CPU 1 is parked, and the late
 * spinner on CPU 3 parks after it, every dispatch checked. */
static void run_corrupted(intptr_t how)
{
	h.delay_ps = 100 * NS;
	h.park = true;
	machine(1, 4, 1, true);
	sim_set_check_state(1);
	h.x = sim_arena_alloc(128, 64);
	sim_task_create("corrupter", corrupter, (void *)how, 0);
	sim_task_create("spinner", spinner, NULL, 1);
	sim_task_create("late", late_spinner, NULL, 3);
	run_spinners();
}

static void run_corrupted_child(void *how)
{
	run_corrupted((intptr_t)how);
}

/* The negative control of the machine's state checker: each corruption
 * of the waiter lists ends the checked run, once the waiters change,
 * with its own invariant failure (exit status 3), not with what the
 * corruption would do next. */
START_TEST(test_the_machine_checker_fails_a_corrupted_waiter_list)
{
	static const char *const want[] = {
		"INVARIANT: a parked CPU is not on its line's waiter list",
		"INVARIANT: nr_parked is not the number of parked CPUs",
		"INVARIANT: a line's waiter list has a wrong back link",
		"INVARIANT: a CPU on a line's waiter list is not parked on that line",
	};
	static struct child_out o;

	run_child(run_corrupted_child, (void *)(intptr_t)_i, &o);
	ck_assert_int_eq(o.status, 3);
	ck_assert_msg(strstr(o.err, want[_i]), "case %d: %s", _i, o.err);
}
END_TEST

/* The same run with nothing corrupted passes the checks (the control of
 * the control: the failures above are the corruptions'). */
START_TEST(test_the_machine_checker_passes_the_same_run_uncorrupted)
{
	run_corrupted(4);
	ck_assert_uint_eq(__atomic_load_n(&h.x[16], __ATOMIC_RELAXED), 1);
}
END_TEST

static uint64_t stack_ids[2][3];

static void stack_body(void *arg)
{
	volatile uint8_t frame[512];
	uint64_t *ids = stack_ids[(intptr_t)arg];
	uint8_t *mem = sim_arena_alloc(128, 64);

	frame[0] = frame[511] = 0;
	ids[0] = sim_cache_line_id(&frame[0]);
	ids[1] = sim_cache_line_id(&frame[511]);
	ids[2] = sim_cache_line_id(mem) == sim_cache_line_id(mem + 63) &&
		 sim_cache_line_id(mem) != sim_cache_line_id(mem + 64);
}

/* cost-jitter: a remote read costs REMOTE_PS +- pct/2 %, spread over
 * the range (not one value), hits are never jittered, and the same seed
 * draws the same costs again; 0 gives the exact cost. */
static uint64_t jittered_reads(unsigned int pct, uint64_t *lo, uint64_t *hi)
{
	uint64_t sum = 0;
	uint32_t *x;

	machine(2, 1, 1, true);
	sim_cache_set_jitter(pct);
	x = sim_arena_alloc(64, 64);
	*lo = UINT64_MAX;
	*hi = 0;
	for (int i = 0; i < 200; i++) {
		uint64_t c;

		acc(0, SIM_STORE, x);
		c = acc(1, SIM_LOAD, x);
		ck_assert_uint_eq(acc(1, SIM_LOAD, x), LOAD_PS);
		*lo = c < *lo ? c : *lo;
		*hi = c > *hi ? c : *hi;
		sum += c;
	}
	return sum;
}

START_TEST(test_cost_jitter_spreads_misses_over_its_range_only_and_repeats_per_seed)
{
	uint64_t lo, hi, sum, again;

	sum = jittered_reads(20, &lo, &hi);
	ck_assert_uint_ge(lo, REMOTE_PS - REMOTE_PS / 10);
	ck_assert_uint_le(hi, REMOTE_PS + REMOTE_PS / 10);
	ck_assert_uint_lt(lo, REMOTE_PS - REMOTE_PS / 20);	/* spread */
	ck_assert_uint_gt(hi, REMOTE_PS + REMOTE_PS / 20);
	ck_assert_uint_ne(sum, 200 * REMOTE_PS);
	again = jittered_reads(20, &lo, &hi);
	ck_assert_uint_eq(again, sum);
	ck_assert_uint_eq(jittered_reads(0, &lo, &hi), 200 * REMOTE_PS);
	ck_assert_uint_eq(lo, hi);
}
END_TEST

START_TEST(test_a_task_stack_is_one_line_and_the_arena_has_64_byte_lines)
{
	machine(1, 2, 1, true);
	sim_task_create("a", stack_body, (void *)0, 0);
	sim_task_create("b", stack_body, (void *)1, 1);
	sim_run();
	ck_assert_uint_eq(stack_ids[0][0], stack_ids[0][1]);
	ck_assert_uint_eq(stack_ids[1][0], stack_ids[1][1]);
	ck_assert_uint_ne(stack_ids[0][0], stack_ids[1][0]);
	ck_assert_uint_eq(stack_ids[0][2], 1);
}
END_TEST

Suite *cache_suite(void)
{
	Suite *s = suite_create("cache");
	TCase *tc = tcase_create("cache");

	tcase_add_test(tc, test_line_written_by_cpu_0_costs_a_remote_transfer_to_read_on_cpu_1_of_another_socket);
	tcase_add_test(tc, test_transfers_within_a_socket_and_between_siblings_cost_their_own_figures);
	tcase_add_test(tc, test_sockets_two_hops_apart_cost_xfer_2hop_when_the_preset_has_it);
	tcase_add_test(tc, test_a_shared_line_is_read_from_the_nearest_holder);
	tcase_add_test(tc, test_an_untouched_line_comes_from_l3_and_a_load_then_owns_it);
	tcase_add_test(tc, test_remote_read_misses_of_one_line_are_served_one_at_a_time);
	tcase_add_loop_test(tc, test_a_shared_read_waits_for_the_data_still_on_its_way, 0, 2);
	tcase_add_loop_test(tc, test_a_load_after_a_first_change_spin_exit_starts_with_its_reload, 0, 4);
	tcase_add_loop_test(tc, test_invalidating_n_sharers_costs_n_minus_1_penalties_and_leaves_one_owner, 1, 8);
	tcase_add_test(tc, test_concurrent_rmws_on_one_line_serialise);
	tcase_add_test(tc, test_a_store_buffer_hides_store_misses_from_their_cpu_only);
	tcase_add_test(tc, test_random_accesses_keep_the_line_invariants_and_the_table_bounded);
	tcase_add_test(tc, test_hooks_of_a_task_pay_the_transfer_with_the_model_and_flat_costs_without);
	tcase_add_loop_test(tc, test_a_parked_spinner_sees_the_write_when_the_loop_would_and_pays_the_miss, 0, 120);
	tcase_add_test(tc, test_a_run_aborted_with_a_parked_spinner_leaves_the_next_one_as_it_was);
	tcase_add_loop_test(tc, test_the_machine_checker_fails_a_corrupted_waiter_list, 0, 4);
	tcase_add_test(tc, test_the_machine_checker_passes_the_same_run_uncorrupted);
	tcase_add_test(tc, test_a_task_stack_is_one_line_and_the_arena_has_64_byte_lines);
	tcase_add_test(tc, test_cost_jitter_spreads_misses_over_its_range_only_and_repeats_per_seed);
	suite_add_tcase(s, tc);
	return s;
}
