/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_coro.c - coroutines (sim/host/coro.c, sim/host/coro_x86_64.S,
 * sim/host/coro_ucontext.c): switching, stacks, guard pages.
 *
 * Every test runs once per backend (a loop test over coro_backends[]):
 * the asm switch, the ucontext fallback forced explicitly, and whatever
 * sim_coro_init()/sim_coro_switch() were built as.  The stack overflow
 * test runs in a child process of its own and reads its stderr, so it
 * checks the report, not just the exit status.
 */
#include <check.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sim/host/coro.h"
#include "sim/report/failure.h"
#include "sim/machine/machine.h"
#include "tests/run_child.h"

struct coro_backend {
	const char *name;
	int (*init)(struct sim_coro *co, size_t size,
		    void (*entry)(void *), void *arg);
	void (*switch_to)(struct sim_coro *from, struct sim_coro *to);
};

static const struct coro_backend coro_backends[] = {
	{ "asm", sim_coro_init_asm, sim_coro_switch_asm },
	{ "ucontext", sim_coro_init_ucontext, sim_coro_switch_ucontext },
	{ "selected", sim_coro_init, sim_coro_switch },
};
#define NR_BACKENDS ((int)(sizeof(coro_backends) / sizeof(coro_backends[0])))

static const struct coro_backend *be;
static struct sim_coro co_main, co_a;

/* Select backend @i; false if it does not exist on this host. */
static bool use_backend(int i)
{
	be = &coro_backends[i];
#ifndef __x86_64__
	if (i == 0)
		return false;
#endif
	sim_coro_init_main(&co_main);
	return true;
}

/* ---- ping-pong ------------------------------------------------------------ */

static volatile long pp_mailbox;
static volatile unsigned long pp_checksum;	/* wraps, as intended */

/* Six accumulators stay live across every switch: if a callee-saved
 * register were not restored, the checksums would disagree. */
#define PP_MIX(r, v) do {						\
	r[0] += (v); r[1] ^= (v) * 7; r[2] += r[0];			\
	r[3] = r[3] * 3 + (v); r[4] -= r[1]; r[5] += r[2] ^ r[3];	\
} while (0)

static void pp_body(void *arg)
{
	unsigned long r0 = 1, r1 = 2, r2 = 3, r3 = 5, r4 = 7, r5 = 11;

	ck_assert_ptr_eq(arg, (void *)&pp_mailbox);
	for (;;) {
		long v = pp_mailbox;
		unsigned long r[6] = { r0, r1, r2, r3, r4, r5 };

		PP_MIX(r, (unsigned long)v);
		r0 = r[0]; r1 = r[1]; r2 = r[2]; r3 = r[3]; r4 = r[4]; r5 = r[5];
		pp_checksum = r0 + r1 + r2 + r3 + r4 + r5;
		pp_mailbox = v * 2 + 1;
		be->switch_to(&co_a, &co_main);
	}
}

START_TEST(test_coro_ping_pong_passes_values_and_keeps_registers)
{
	unsigned long r[6] = { 1, 2, 3, 5, 7, 11 };

	if (!use_backend(_i))
		return;
	ck_assert_int_eq(be->init(&co_a, SIM_CORO_STACK_SIZE, pp_body,
				  (void *)&pp_mailbox), 0);
	for (long i = 0; i < 10000; i++) {
		pp_mailbox = i;
		be->switch_to(&co_main, &co_a);
		ck_assert_int_eq(pp_mailbox, 2 * i + 1);
		PP_MIX(r, (unsigned long)i);
		ck_assert_uint_eq(pp_checksum, r[0] + r[1] + r[2] + r[3] + r[4] + r[5]);
	}
	sim_coro_destroy(&co_a);
	sim_coro_destroy(&co_main);
}
END_TEST

/* ---- round robin ------------------------------------------------------------ */

#define RR_N		64
#define RR_ROUNDS	40

static struct sim_coro rr[RR_N];
static int rr_log[RR_N * RR_ROUNDS];
static int rr_len;

/* Each coroutine logs (its id, its own round count kept on its stack)
 * and passes control to the next one; the last returns to main. */
static void rr_body(void *arg)
{
	int id = (int)(intptr_t)arg;

	for (int round = 0;; round++) {
		if (rr_len < RR_N * RR_ROUNDS)
			rr_log[rr_len++] = id * 1000 + round;
		be->switch_to(&rr[id], id + 1 < RR_N ? &rr[id + 1] : &co_main);
	}
}

START_TEST(test_coro_many_coroutines_run_round_robin_in_order)
{
	if (!use_backend(_i))
		return;
	rr_len = 0;
	for (int i = 0; i < RR_N; i++)
		ck_assert_int_eq(be->init(&rr[i], 64 * 1024, rr_body,
					  (void *)(intptr_t)i), 0);
	for (int round = 0; round < RR_ROUNDS; round++) {
		be->switch_to(&co_main, &rr[0]);
		ck_assert_int_eq(rr_len, (round + 1) * RR_N);
	}
	for (int k = 0; k < RR_N * RR_ROUNDS; k++)
		ck_assert_int_eq(rr_log[k], (k % RR_N) * 1000 + k / RR_N);
	for (int i = 0; i < RR_N; i++)
		sim_coro_destroy(&rr[i]);
	sim_coro_destroy(&co_main);
}
END_TEST

/* ---- stacks ------------------------------------------------------------------ */

static struct {
	uintptr_t frame, aligned, local;
} st_seen;

static void st_body(void *arg)
{
	_Alignas(16) volatile char aligned[16];
	volatile char local = 1;

	st_seen.frame = (uintptr_t)__builtin_frame_address(0);
	st_seen.aligned = (uintptr_t)aligned;
	st_seen.local = (uintptr_t)&local;
	aligned[0] = local;
	for (;;)
		be->switch_to(&co_a, &co_main);
}

START_TEST(test_coro_entry_runs_on_its_own_aligned_stack)
{
	uintptr_t lo, hi;

	if (!use_backend(_i))
		return;
	ck_assert_int_eq(be->init(&co_a, 32 * 1024, st_body, NULL), 0);
	be->switch_to(&co_main, &co_a);
	lo = (uintptr_t)co_a.stack;
	hi = lo + co_a.stack_size;
	ck_assert_uint_ge(co_a.stack_size, 32 * 1024);
	ck_assert(st_seen.local >= lo && st_seen.local < hi);
	ck_assert(st_seen.frame >= lo && st_seen.frame < hi);
	ck_assert_uint_eq(st_seen.frame % 16, 0);	/* rsp%16 == 8 at entry */
	ck_assert_uint_eq(st_seen.aligned % 16, 0);
	sim_coro_destroy(&co_a);
	sim_coro_destroy(&co_main);
}
END_TEST

START_TEST(test_coro_guard_region_lies_just_below_the_stack)
{
	long page = sysconf(_SC_PAGESIZE);
	char *g;

	if (!use_backend(_i))
		return;
	ck_assert_int_eq(be->init(&co_a, 10000, st_body, NULL), 0);
	g = co_a.guard;
	ck_assert_ptr_eq(g + SIM_CORO_GUARD_SIZE, co_a.stack);
	ck_assert_uint_eq(co_a.stack_size % page, 0);
	ck_assert(sim_coro_guard_hit(&co_a, g));
	ck_assert(sim_coro_guard_hit(&co_a, g + page));
	ck_assert(sim_coro_guard_hit(&co_a, g + SIM_CORO_GUARD_SIZE - 1));
	ck_assert(!sim_coro_guard_hit(&co_a, g + SIM_CORO_GUARD_SIZE));
	ck_assert(!sim_coro_guard_hit(&co_a, g - 1));
	sim_coro_destroy(&co_a);
	ck_assert_ptr_null(co_a.guard);
	ck_assert(!sim_coro_guard_hit(&co_a, g));
}
END_TEST

START_TEST(test_coro_backend_is_the_one_built)
{
#ifdef SIM_CORO_asm
	ck_assert_str_eq(sim_coro_backend(), "asm");
#else
	ck_assert_str_eq(sim_coro_backend(), "ucontext");
#endif
}
END_TEST

/* ---- stack overflow ---------------------------------------------------------- */

static volatile unsigned long ov_limit = ~0UL;

__attribute__((noinline))
static unsigned long coro_recurse(unsigned long n)
{
	volatile char pad[200];

	pad[0] = (char)n;
	if (n >= ov_limit)
		return pad[0];
	return coro_recurse(n + 1) + pad[0];	/* not a tail call */
}

static void ov_body(void *arg)
{
	coro_recurse(0);
	for (;;)
		be->switch_to(&co_a, &co_main);
}

/* In the child: a machine with one task that overflows its stack. */
static void ov_child(void *arg)
{
	static struct sim_task task = { .tid = 7, .name = "deep",
					.state = SIM_TASK_RUNNING };

	if (be->init(&task.coro, 64 * 1024, ov_body, NULL))
		_exit(1);
	sim.tasks[0] = &task;
	sim.nr_tasks = 1;
	sim.seed = 99;
	sim_failure_install();
	be->switch_to(&co_main, &task.coro);
	_exit(0);
}

START_TEST(test_coro_stack_overflow_is_reported_on_the_guard_page)
{
	static const char want[] = "futexsim: STACK OVERFLOW: task 7 \"deep\" "
				   "overflowed its 65536-byte stack\n";
	static struct child_out o;

	if (!use_backend(_i))
		return;
	run_child(ov_child, NULL, &o);
	ck_assert_msg(o.status == 3, "status %d, stderr:\n%s", o.status, o.err);
	ck_assert_msg(!strncmp(o.err, want, strlen(want)), "got:\n%s", o.err);
	ck_assert_msg(strstr(o.err, "\nseed: 99\n"), "got:\n%s", o.err);
	ck_assert_msg(strstr(o.err, "\ntask 7 \"deep\" RUNNING on CPU 0\n"
			     "    coro_recurse"), "got:\n%s", o.err);	/* file:line may follow */
	ck_assert_msg(strstr(o.err, " more frames\n"), "got:\n%s", o.err);
}
END_TEST

Suite *coro_suite(void)
{
	Suite *s = suite_create("coro");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_coro_ping_pong_passes_values_and_keeps_registers,
			    0, NR_BACKENDS);
	tcase_add_loop_test(tc, test_coro_many_coroutines_run_round_robin_in_order,
			    0, NR_BACKENDS);
	tcase_add_loop_test(tc, test_coro_entry_runs_on_its_own_aligned_stack,
			    0, NR_BACKENDS);
	tcase_add_loop_test(tc, test_coro_guard_region_lies_just_below_the_stack,
			    0, NR_BACKENDS);
	tcase_add_test(tc, test_coro_backend_is_the_one_built);
	tcase_add_loop_test(tc, test_coro_stack_overflow_is_reported_on_the_guard_page,
			    0, NR_BACKENDS);
	suite_add_tcase(s, tc);
	return s;
}
