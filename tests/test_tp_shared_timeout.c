/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_tp_shared_timeout.c - FUTEX_LOCK_SHARED with a timeout
 * (futex/tp_shared.c, tp_shared_timeout(); the argument checks of
 * futex/tp_unlock.c) and the rw-tp-timed user lock with its broken twin
 * (workloads/ulock/rwlock_tp.c).
 *
 * Stage: tests.  Boots a small machine per test (Check forks per test)
 * with FUTEXSIM_CHECK_STATE=1 (boot() of tests/checked_lock.h), so the TP
 * invariants (FUTEX_WAITERS justified, grants, refcounts) are checked at
 * every dispatch; the crafted cases' tasks call futex(2)
 * (sim/syscall/syscall.h) directly, the workload driver runs rw-tp-timed in
 * process, and the broken lock runs through the futexsim binary.
 *
 * Timeouts are absolute, on the one simulated clock; a timer fires up to
 * the task's timer slack (50 us) late, and SLACK_NS adds a wakeup and a
 * context switch.
 */
#include <check.h>
#include <errno.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "futex/tp.h"
#include "sim/host/arena.h"
#include "sim/machine/machine.h"
#include "sim/scenario/scenario.h"
#include "sim/syscall/syscall.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/workload.h"
#include "tests/checked_lock.h"
#include "tests/run_child.h"

#define SLACK_NS	(50000ULL + 20000ULL)	/* timer slack + wakeup	*/
#define MS		1000000ULL		/* ns			*/

static struct {
	uint32_t *word, *phase;		/* simulated memory		*/
	uint32_t w_tid;			/* the writer's TID		*/
	long ret, ret2, c_ret;
	unsigned long long deadline, t_ret, t_c;
	uint32_t word_at_ret;
	int w_fast_unlock;		/* the writer unlocked in user space */
} d;

static long tp_op(int op, uint32_t val, const struct timespec *ts)
{
	return sim_sys_futex(d.word, op, val, ts, NULL, 0);
}

/* FUTEX_TP_LOCK_SHARED with an absolute deadline @rel_ns from now. */
static long rdlock_within(unsigned long long rel_ns)
{
	struct timespec ts;

	d.deadline = sim_now_ns() + rel_ns;
	ts.tv_sec = (time_t)(d.deadline / 1000000000ULL);
	ts.tv_nsec = (long)(d.deadline % 1000000000ULL);
	return tp_op(FUTEX_TP_LOCK_SHARED_PRIVATE, 0, &ts);
}

/* The read unlock of rw-tp: the last reader leaves 0, or enters the
 * kernel when FUTEX_WAITERS is set. */
static void rdunlock(void)
{
	uint32_t v = uatomic_load(d.word);

	ck_assert(v & FUTEX_SHARED);
	if (v == (FUTEX_SHARED | 1) && uatomic_cmpxchg(d.word, v, 0) == v)
		return;
	v = uatomic_load(d.word);
	ck_assert_uint_eq(v & FUTEX_SHARED_COUNT, 1);
	ck_assert_uint_eq(uatomic_cmpxchg(d.word, v,
					  (v - 1) | FUTEX_SHARED_UNLOCK), v);
	ck_assert_int_ge(tp_op(FUTEX_TP_UNLOCK_SHARED_PRIVATE, 0, NULL), 0);
}

static void boot_words(int cpus)
{
	memset(&d, 0, sizeof(d));
	boot_word_and_phase(cpus, &d.word, &d.phase);
}

/*
 * The writer: takes the word, then holds it for @arg ns, asleep (odd) or
 * busy on its CPU (even: the reader top waiter spins on it and, after
 * 5 ms, asks for a handoff), then the tp unlock.
 */
static void writer(void *arg)
{
	unsigned long long ns = (unsigned long long)(uintptr_t)arg, end;

	d.w_tid = my_tid();
	ck_assert_int_eq(tp_op(FUTEX_TP_LOCK_PRIVATE, 0, NULL),
			 TP_STATUS_STOLEN);
	uatomic_store(d.phase, 1);
	if (ns & 1) {
		sim_sys_nanosleep(ns);
	} else {
		for (end = sim_now_ns() + ns; sim_now_ns() < end;)
			uatomic_pause();
	}
	if (uatomic_cmpxchg(d.word, d.w_tid, 0) == d.w_tid) {
		d.w_fast_unlock = 1;
		return;
	}
	ck_assert_int_ge(tp_op(FUTEX_TP_UNLOCK_PRIVATE, 0, NULL), 0);
}

/* The timed reader: FUTEX_LOCK_SHARED within @arg ns, recorded (and
 * unlocked if it succeeded), then an untimed one, and the read unlock. */
static void timed_reader(void *arg)
{
	wait_phase_from(d.phase, 1);
	d.ret = rdlock_within((unsigned long long)(uintptr_t)arg);
	d.t_ret = sim_now_ns();
	d.word_at_ret = uatomic_load(d.word);
	if (d.ret >= 0)
		rdunlock();
	d.ret2 = tp_op(FUTEX_TP_LOCK_SHARED_PRIVATE, 0, NULL);
	rdunlock();
}

/* A reader top waiter times out on a sleeping writer's word: it leaves
 * at its deadline, FUTEX_WAITERS (set to sleep) taken back. */
START_TEST(test_timed_out_reader_top_waiter_leaves_at_its_deadline)
{
	boot_words(2);
	sim_task_create("w", writer, (void *)(uintptr_t)(1 * MS + 1), 0);
	sim_task_create("r", timed_reader, (void *)(uintptr_t)200000, 1);
	sim_run();
	ck_assert_int_eq(d.ret, -ETIMEDOUT);
	ck_assert_uint_ge(d.t_ret, d.deadline);
	ck_assert_uint_le(d.t_ret, d.deadline + SLACK_NS);
	ck_assert_uint_eq(d.word_at_ret, d.w_tid);
	/* the untimed retry slept as the top waiter (FUTEX_WAITERS again)
	 * until the writer's unlock, which then went to the kernel */
	ck_assert_int_eq(TP_STATUS_CODE(d.ret2), TP_STATUS_TOP_WAITER);
	ck_assert_int_eq(d.w_fast_unlock, 0);
	ck_assert_uint_eq(*d.word, 0);
	assert_states_freed(2);
}
END_TEST

/* A reader top waiter spinning on a running writer asks for a handoff
 * after 5 ms and times out at 7 ms: the request and FUTEX_WAITERS are
 * withdrawn, so the writer's unlock at 10 ms stays in user space. */
START_TEST(test_timed_out_reader_withdraws_its_handoff_request)
{
	boot_words(2);
	sim_task_create("w", writer, (void *)(uintptr_t)(10 * MS), 0);
	sim_task_create("r", timed_reader, (void *)(uintptr_t)(7 * MS), 1);
	sim_run();
	ck_assert_int_eq(d.ret, -ETIMEDOUT);
	ck_assert_uint_ge(d.t_ret, d.deadline);
	ck_assert_uint_le(d.t_ret, d.deadline + SLACK_NS);
	ck_assert_uint_eq(d.word_at_ret, d.w_tid);	/* no WAITERS */
	ck_assert_int_ge(d.ret2, 0);
	ck_assert_int_eq(d.w_fast_unlock, 1);
	ck_assert_uint_eq(*d.word, 0);
	assert_states_freed(2);
}
END_TEST

/* The same within 12 ms: the handoff is granted at the writer's unlock
 * (10 ms), before the deadline; the reader gets the word handed off. */
START_TEST(test_reader_handed_the_word_before_its_deadline_keeps_it)
{
	boot_words(2);
	sim_task_create("w", writer, (void *)(uintptr_t)(10 * MS), 0);
	sim_task_create("r", timed_reader, (void *)(uintptr_t)(12 * MS), 1);
	sim_run();
	ck_assert_int_eq(TP_STATUS_CODE(d.ret), TP_STATUS_HANDOFF);
	ck_assert_uint_lt(d.t_ret, d.deadline);
	ck_assert_uint_eq(d.word_at_ret, FUTEX_SHARED | 1);
	ck_assert_int_eq(d.w_fast_unlock, 0);
	ck_assert_uint_eq(*d.word, 0);
	assert_states_freed(2);
}
END_TEST

/* A reader queued on the serialization mutex behind an untimed top
 * waiter leaves the queue at its deadline. */
static void top_reader(void *arg)
{
	(void)arg;
	wait_phase_from(d.phase, 1);
	d.c_ret = tp_op(FUTEX_TP_LOCK_SHARED_PRIVATE, 0, NULL);
	d.t_c = sim_now_ns();
	rdunlock();
}

static void queued_reader(void *arg)
{
	wait_phase_from(d.phase, 1);
	while (!(uatomic_load(d.word) & FUTEX_WAITERS))
		uatomic_pause();		/* the top waiter sleeps */
	d.ret = rdlock_within((unsigned long long)(uintptr_t)arg);
	d.t_ret = sim_now_ns();
	d.word_at_ret = uatomic_load(d.word);
}

START_TEST(test_timed_out_reader_leaves_the_mutex_queue)
{
	boot_words(3);
	sim_task_create("w", writer, (void *)(uintptr_t)(2 * MS + 1), 0);
	sim_task_create("t", top_reader, NULL, 1);
	sim_task_create("q", queued_reader, (void *)(uintptr_t)300000, 2);
	sim_run();
	ck_assert_int_eq(d.ret, -ETIMEDOUT);
	ck_assert_uint_ge(d.t_ret, d.deadline);
	ck_assert_uint_le(d.t_ret, d.deadline + SLACK_NS);
	/* the top waiter's FUTEX_WAITERS stays: it still sleeps */
	ck_assert_uint_eq(d.word_at_ret, d.w_tid | FUTEX_WAITERS);
	ck_assert_int_ge(d.c_ret, 0);
	ck_assert_uint_ge(d.t_c, 2 * MS);
	ck_assert_uint_eq(*d.word, 0);
	assert_states_freed(3);
}
END_TEST

/* A past deadline still takes a free or reader-owned word at once;
 * a bad timespec is EINVAL. */
static void direct(void *arg)
{
	struct timespec past = { 0 }, bad = { .tv_nsec = 1000000000L };

	(void)arg;
	d.ret = tp_op(FUTEX_TP_LOCK_SHARED_PRIVATE, 0, &past);
	d.word_at_ret = uatomic_load(d.word);
	d.ret2 = tp_op(FUTEX_TP_LOCK_SHARED_PRIVATE, 0, &bad);
	d.c_ret = tp_op(FUTEX_TP_LOCK_SHARED_PRIVATE, 2, &past);
	rdunlock();
}

START_TEST(test_past_deadline_takes_a_free_word_and_bad_args_are_einval)
{
	boot_words(1);
	sim_task_create("d", direct, NULL, 0);
	sim_run();
	ck_assert_int_eq(d.ret, TP_STATUS_STOLEN);
	ck_assert_uint_eq(d.word_at_ret, FUTEX_SHARED | 1);
	ck_assert_int_eq(d.ret2, -EINVAL);
	ck_assert_int_eq(d.c_ret, -EINVAL);	/* an unknown flag */
	ck_assert_uint_eq(*d.word, 0);
	assert_states_freed(1);
}
END_TEST

/* ---- rw-tp-timed through the workload, and its broken twin ---- */

static struct sim_scenario scn;
static struct sim_result res;

/* _i: seed; 6 readers + 6 writers on 4 CPUs, long sections: kernel
 * waiters time out on both sides. */
START_TEST(test_rw_tp_timed_excludes_and_counts_its_timeouts)
{
	const struct wl_workload *w = wl_find("rwlock");

	sim_scenario_defaults(&scn);
	scn.readers = scn.writers = 6;
	scn.readers_at = scn.writers_at = (struct sim_origin){ "test", 1 };
	scn.threads = 12;
	scn.cpus = 4;
	scn.ops = 4800;
	scn.seed = (uint64_t)_i + 1;
	scn.cs = (struct sim_work){ .kind = SIM_WORK_PAUSE, .n = 2000 };
	boot(4, scn.seed);
	w->run(&scn, checked_ops(ulock_find("rw-tp-timed"), FUTEX_TP_TID_MASK,
				 FUTEX_SHARED | FUTEX_SHARED_UNLOCK,
				 FUTEX_SHARED, FUTEX_SHARED_COUNT), &res);
	ck_assert_uint_eq(res.ops, 4800);
	ck_assert_uint_eq(res.ops_readers, 2400);
	ck_assert_uint_eq(res.ops_writers, 2400);
	assert_timed_run_clean(&res, scn.threads);
}
END_TEST

START_TEST(test_rw_tp_timed_busted_fails_mutual_exclusion)
{
#define RW_ARGS	"--machine=tiny4", "--workload=rwlock", "--readers=6", \
		"--writers=6", "--ops=6000", "--cs=pause:2000"
	const char *busted[] = { "futexsim", "run", RW_ARGS,
				 "--lock=rw-tp-timed-busted", NULL };
	const char *ok[] = { "futexsim", "run", RW_ARGS, "--lock=rw-tp-timed",
			     NULL };
#undef RW_ARGS

	assert_broken_then_ok(busted, ok, "mutual exclusion", "timeouts");
}
END_TEST

Suite *tp_shared_timeout_suite(void)
{
	Suite *s = suite_create("tp_shared_timeout");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_timed_out_reader_top_waiter_leaves_at_its_deadline);
	tcase_add_test(tc, test_timed_out_reader_withdraws_its_handoff_request);
	tcase_add_test(tc, test_reader_handed_the_word_before_its_deadline_keeps_it);
	tcase_add_test(tc, test_timed_out_reader_leaves_the_mutex_queue);
	tcase_add_test(tc, test_past_deadline_takes_a_free_word_and_bad_args_are_einval);
	tcase_add_loop_test(tc, test_rw_tp_timed_excludes_and_counts_its_timeouts, 0, 4);
	tcase_add_test(tc, test_rw_tp_timed_busted_fails_mutual_exclusion);
	suite_add_tcase(s, tc);
	return s;
}
