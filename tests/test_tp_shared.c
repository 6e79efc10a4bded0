/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_tp_shared.c - TP shared locking (futex/tp_shared.c) and the
 * TP rwlock (workloads/ulock/rwlock_tp.c, lock=rw-tp and rw-tp-preader):
 * exclusion over many seeds, the writer top waiter's 50 us window on a
 * reader-owned word (and its restart on reader activity), the
 * prefer-reader flag,
 * FUTEX_TP_LOCK_SHARED/UNLOCK_SHARED called directly, and the
 * futex_state objects all detached at the end of a run.
 *
 * Stage: tests.  Each START_TEST runs in its own process (Check forks)
 * and boots its own machine (boot() of tests/checked_lock.h) with
 * FUTEXSIM_CHECK_STATE=1, so the TP invariants
 * (ksim_futex_tp_assert_state()) are checked at every dispatch; the
 * crafted cases create their tasks themselves and call the lock's ops
 * table or futex(2) (sim/syscall/syscall.h) directly.  The lock's ops are the
 * checked ones of tests/checked_lock.h (checked_ops()): after every write
 * lock the word names the caller, after every read lock it is
 * FUTEX_SHARED (not FUTEX_SHARED_UNLOCK) with a count of at least one,
 * and a kernel acquisition made one FUTEX_TP_LOCK(_SHARED) call.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "futex/tp.h"
#include "sim/host/arena.h"
#include "sim/machine/machine.h"
#include "sim/scenario/scenario.h"
#include "sim/syscall/syscall.h"
#include "workloads/ulock/rwlock.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/workload.h"
#include "tests/checked_lock.h"

static struct sim_scenario scn;
static struct sim_result res;

#define US(n)	((uint64_t)(n) * 1000000)

/* @lock (an rw-tp kind) with both sides checked: a read-held word is
 * FUTEX_SHARED, not FUTEX_SHARED_UNLOCK, with a count of one or more. */
static const struct ulock_ops *checked_rw_tp(const char *lock)
{
	return checked_ops(ulock_find(lock), FUTEX_TP_TID_MASK,
			   FUTEX_SHARED | FUTEX_SHARED_UNLOCK, FUTEX_SHARED,
			   FUTEX_SHARED_COUNT);
}

/* Every acquisition of the checked lock was right and none failed. */
static void assert_checked_clean(void)
{
	ck_assert_uint_eq(chk.errors, 0);
	ck_assert_uint_eq(chk.bad_word, 0);
	ck_assert_uint_eq(chk.bad_rd_word, 0);
	ck_assert_uint_eq(chk.bad_calls, 0);
}


/* ---- exclusion over many seeds, 16 CPUs ---------------------------- */

#define SEEDS	16

/* _i: lock x seed.  Odd seeds: 8 readers + 8 writers; even: 24 threads, 70% reads; the
 * section is 400 or 20 PAUSEs, or, every third seed, a 20 us sleep, so
 * that waiters sleep too. */
static const char *const locks[] = { "rw-tp", "rw-tp-preader" };

START_TEST(test_rw_tp_excludes_over_many_seeds_on_16_cpus)
{
	int seed = _i % SEEDS + 1;
	const char *lock = locks[_i / SEEDS];
	const struct wl_workload *w = wl_find("rwlock");

	sim_scenario_defaults(&scn);
	scn.threads = 24;
	scn.read_ratio = 70;
	if (seed % 2) {
		scn.readers = scn.writers = 8;
		scn.readers_at = scn.writers_at = (struct sim_origin){ "test", 1 };
		scn.threads = 16;
	}
	scn.cpus = 16;
	scn.ops = 4800;
	scn.seed = seed;
	scn.cs = (struct sim_work){ .kind = SIM_WORK_PAUSE,
				    .n = seed % 4 < 2 ? 400 : 20 };
	if (seed % 3 == 0)
		scn.cs = (struct sim_work){ .kind = SIM_WORK_SLEEP,
					    .sleep_ps = US(20) };
	boot(16, seed);
	w->run(&scn, checked_rw_tp(lock), &res);
	ck_assert_uint_eq(res.ops, 4800);
	/* every operation acquired through the checked ops, rightly */
	assert_checked_clean();
	ck_assert_uint_eq(chk.fast + chk.kernel, res.ops_writers);
	ck_assert_uint_eq(chk.rd_fast + chk.rd_kernel, res.ops_readers);
	ck_assert_uint_eq(chk.kernel + chk.rd_kernel, res.lock_syscalls);
	ck_assert_int_eq(res.groups_counted, 1);
	ck_assert_uint_eq(res.ops_readers + res.ops_writers, 4800);
	ck_assert_uint_eq(res.ops_readers, seed % 2 ? 2400 : 4800 * 70 / 100);
	/* readers share; but a section of 20 PAUSEs is shorter than the
	 * word's cache-line transfers of the next reader's cmpxchg, and with
	 * separate groups some seeds never see two readers inside at once */
	ck_assert_uint_ge(res.readers_max, 1);
	if (seed % 4 < 2 || seed % 2 == 0)
		ck_assert_msg(res.readers_max >= 2,
			      "%s seed %d: readers never shared", lock, seed);
	/* contended: the kernel path ran, and every call acquired once */
	ck_assert_uint_gt(res.lock_syscalls, 0);
	ck_assert_uint_eq(res.tp_steals + res.tp_top_waiter + res.tp_handoffs,
			  res.lock_syscalls);
	assert_states_freed(scn.threads);
}
END_TEST

/* ---- crafted: the writer's window on a reader-owned word ------------ */

static const struct ulock_ops *rwl;
static uint32_t *word;
static struct {
	uint64_t start, hold;		/* ps				*/
	uint32_t val;			/* reader: FUTEX_TP_LOCK_SHARED val */
	struct ulock_stats st;
	uint64_t got;			/* when it got the lock		*/
	long ret;
} tk[3];

static void reader(void *arg)
{
	int i = (int)(long)arg;

	sim_delay_ps(tk[i].start + 1);
	if (tk[i].val) {
		/* straight to the kernel, with the prefer-reader flag */
		tk[i].st.lock_syscalls++;
		tk[i].ret = sim_sys_futex(word, FUTEX_TP_LOCK_SHARED_PRIVATE,
					  tk[i].val, NULL, NULL, 0);
	} else {
		tk[i].ret = rwl->rw->rdlock(word, &tk[i].st);
	}
	tk[i].got = sim_now_ps();
	sim_delay_ps(tk[i].hold + 1);
	ck_assert_int_eq(rwl->rw->rdunlock(word, &tk[i].st), 0);
}

static void writer(void *arg)
{
	int i = (int)(long)arg;

	sim_delay_ps(tk[i].start + 1);
	tk[i].ret = rwl->lock(word, &tk[i].st);
	tk[i].got = sim_now_ps();
	sim_delay_ps(tk[i].hold + 1);
	ck_assert_int_eq(rwl->unlock(word, &tk[i].st), 0);
}

/* Reader 0 from 0 for @hold0 us; writer 1 asks at 5 us and holds 1 us;
 * reader 2 (if @start2) from @start2 for @hold2 us with @val2. */
static void run_window(int hold0, int start2, int hold2, uint32_t val2)
{
	boot(4, 1);
	rwl = checked_rw_tp("rw-tp");
	word = sim_arena_alloc(rwl->size, 64);
	rwl->init(word);
	memset(tk, 0, sizeof(tk));
	tk[0].hold = US(hold0);
	tk[1] = (typeof(tk[1])){ .start = US(5), .hold = US(1) };
	tk[2] = (typeof(tk[2])){ .start = US(start2), .hold = US(hold2),
				 .val = val2 };
	sim_task_create("r0", reader, (void *)0L, 0);
	sim_task_create("w1", writer, (void *)1L, 1);
	if (start2)
		sim_task_create("r2", reader, (void *)2L, 2);
	sim_run();
	ck_assert_int_eq(tk[0].ret, 0);
	ck_assert_int_eq(tk[1].ret, 0);
	/* the writer went to the kernel once and became the top waiter */
	ck_assert_uint_eq(tk[1].st.lock_syscalls, 1);
	ck_assert_uint_eq(tk[1].st.top_waiter, 1);
	ck_assert_uint_ge(tk[1].got, US(hold0));
	ck_assert_uint_eq(*word, 0);
	assert_checked_clean();
	ck_assert_uint_eq(chk.fast + chk.kernel, 1);
	ck_assert_uint_eq(chk.rd_fast + chk.rd_kernel, 1 + (start2 && !val2));
	assert_states_freed(3);
}

START_TEST(test_writer_spins_on_short_reader_hold_without_sleeping)
{
	run_window(30, 0, 0, 0);	/* 25 us on readers < 50 us */
	ck_assert_uint_eq(tk[1].st.sleeps, 0);
	ck_assert_uint_eq(tk[0].st.unlock_syscalls, 0);
}
END_TEST

START_TEST(test_writer_sleeps_after_the_50us_window)
{
	run_window(300, 0, 0, 0);
	ck_assert_uint_eq(tk[1].st.sleeps, 1);
	/* FUTEX_WAITERS: the last reader's unlock woke it */
	ck_assert_uint_eq(tk[0].st.unlock_syscalls, 1);
	ck_assert_uint_eq(tk[0].st.wakeups, 1);
}
END_TEST

/* Reader 0 holds 0-110 us.  Alone, the writer's window ends at about
 * 55 us and it sleeps; with reader 2 in 40-75 us the count changes twice
 * and the window, restarted at 75 us, outlasts reader 0. */
START_TEST(test_reader_activity_restarts_the_window)
{
	if (_i) {
		run_window(110, 40, 35, 0);
		ck_assert_uint_eq(tk[2].st.lock_syscalls, 0);
		ck_assert_uint_eq(tk[1].st.sleeps, 0);
		ck_assert_uint_eq(tk[0].st.unlock_syscalls, 0);
	} else {
		run_window(110, 0, 0, 0);
		ck_assert_uint_eq(tk[1].st.sleeps, 1);
		ck_assert_uint_eq(tk[0].st.unlock_syscalls, 1);
	}
}
END_TEST

/* Reader 0 holds 0-300 us, the writer sleeps on it from about 55 us with
 * FUTEX_WAITERS set, and reader 2 asks at 100 us: user space may not
 * join, and in the kernel only the prefer-reader flag lets it steal
 * past the writer; without it, it queues behind the writer. */
START_TEST(test_prefer_reader_flag_lets_a_kernel_reader_pass_the_writer)
{
	run_window(300, 100, 10, _i ? FLAGS_TP_PREADER : 0);
	ck_assert_uint_eq(tk[2].st.lock_syscalls, 1);
	if (_i) {
		ck_assert_int_eq(TP_STATUS_CODE(tk[2].ret), TP_STATUS_STOLEN);
		ck_assert_uint_lt(tk[2].got, US(300));
	} else {
		ck_assert_uint_eq(tk[2].st.top_waiter, 1);
		ck_assert_uint_gt(tk[2].got, tk[1].got);
	}
}
END_TEST

/* ---- FUTEX_TP_LOCK_SHARED/UNLOCK_SHARED called directly ------------- */

static struct {
	long lock_free, unlock_zero, unlock_held, unlock_writer, bad_val;
	long unlock_ok;
	uint32_t after_lock, after_unlock;
} d;

static long futex(int op, uint32_t val)
{
	return sim_sys_futex(word, op, val, NULL, NULL, 0);
}

static void direct_task(void *arg)
{
	d.unlock_zero = futex(FUTEX_TP_UNLOCK_SHARED_PRIVATE, 0);
	d.bad_val = futex(FUTEX_TP_LOCK_SHARED_PRIVATE, 2);
	d.lock_free = futex(FUTEX_TP_LOCK_SHARED_PRIVATE, 0);
	d.after_lock = uatomic_load(word);
	/* reader-owned, but no FUTEX_SHARED_UNLOCK: not an unlock */
	d.unlock_held = futex(FUTEX_TP_UNLOCK_SHARED_PRIVATE, 0);
	uatomic_store(word, FUTEX_SHARED | FUTEX_SHARED_UNLOCK);
	d.unlock_ok = futex(FUTEX_TP_UNLOCK_SHARED_PRIVATE, 0);
	d.after_unlock = uatomic_load(word);
	uatomic_store(word, (uint32_t)sim_current()->tid);
	d.unlock_writer = futex(FUTEX_TP_UNLOCK_SHARED_PRIVATE, 0);
}

START_TEST(test_futex_tp_shared_ops_called_directly)
{
	boot(1, 1);
	word = sim_arena_alloc(4, 64);
	sim_task_create("d", direct_task, NULL, 0);
	sim_run();
	ck_assert_int_eq(d.unlock_zero, -EPERM);
	ck_assert_int_eq(d.bad_val, -EINVAL);
	ck_assert_int_eq(d.lock_free, TP_STATUS_STOLEN);
	ck_assert_uint_eq(d.after_lock, FUTEX_SHARED | 1);
	ck_assert_int_eq(d.unlock_held, -EPERM);
	ck_assert_int_eq(d.unlock_ok, 0);	/* nobody to wake */
	ck_assert_uint_eq(d.after_unlock, 0);
	ck_assert_int_eq(d.unlock_writer, -EPERM);
	assert_states_freed(1);
}
END_TEST

Suite *tp_shared_suite(void)
{
	Suite *s = suite_create("tp_shared");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_rw_tp_excludes_over_many_seeds_on_16_cpus,
			    0, 2 * SEEDS);
	tcase_add_test(tc, test_writer_spins_on_short_reader_hold_without_sleeping);
	tcase_add_test(tc, test_writer_sleeps_after_the_50us_window);
	tcase_add_loop_test(tc, test_reader_activity_restarts_the_window, 0, 2);
	tcase_add_loop_test(tc, test_prefer_reader_flag_lets_a_kernel_reader_pass_the_writer, 0, 2);
	tcase_add_test(tc, test_futex_tp_shared_ops_called_directly);
	suite_add_tcase(s, tc);
	return s;
}
