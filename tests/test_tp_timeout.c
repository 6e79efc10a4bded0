/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_tp_timeout.c - FUTEX_LOCK with a timeout and the argument
 * checks of the TP ops (futex/tp.c, futex/tp_unlock.c), the tp-timed user
 * lock and its broken twin (workloads/ulock/tp.c), and the user-space TP
 * trace events.
 *
 * Stage: tests.  Boots a small machine per test (Check forks per test)
 * with FUTEXSIM_CHECK_STATE=1, so the TP invariants
 * (FUTEX_WAITERS justified, refcounts exact, grants) are checked at every
 * dispatch; its own tasks call futex(2) (sim/syscall/syscall.h) directly, or the
 * workload driver runs tp-timed in process; the broken lock and the trace
 * run the futexsim binary.
 *
 * Timeouts are absolute (futex/tp_unlock.c): a task computes its deadline
 * from the virtual clock.  A timer fires up to the task's timer slack
 * (50 us) late; SLACK_NS adds what a wakeup and a context switch cost.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "futex/tp.h"
#include "sim/host/arena.h"
#include "sim/machine/hooks.h"
#include "sim/machine/machine.h"
#include "sim/syscall/syscall.h"
#include "workloads/ulock/uatomic.h"
#include "tests/checked_lock.h"
#include "tests/run_child.h"

#define SLACK_NS	(50000ULL + 20000ULL)	/* timer slack + wakeup	*/

static struct {
	uint32_t *word, *phase;		/* simulated memory		*/
	uint32_t a_tid;
	long ret, ret2, b_ret;
	unsigned long long deadline, t_ret, t_b;
	uint32_t word_at_ret;
	int a_fast_unlock;
} d;

static struct timespec abs_ts(unsigned long long ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ULL),
		.tv_nsec = (long)(ns % 1000000000ULL),
	};

	return ts;
}

/* FUTEX_TP_LOCK with an absolute deadline @rel_ns from now. */
static long lock_within(unsigned long long rel_ns)
{
	struct timespec ts;

	d.deadline = sim_now_ns() + rel_ns;
	ts = abs_ts(d.deadline);
	return sim_sys_futex(d.word, FUTEX_TP_LOCK_PRIVATE, 0, &ts, NULL, 0);
}

static long tp_op(int op)
{
	return sim_sys_futex(d.word, op, 0, NULL, NULL, 0);
}

/* The tp user unlock: cmpxchg TID -> 0, else FUTEX_UNLOCK. */
static int user_unlock(void)
{
	uint32_t tid = my_tid();

	if (uatomic_cmpxchg(d.word, tid, 0) == tid)
		return 1;
	ck_assert_int_ge(tp_op(FUTEX_TP_UNLOCK_PRIVATE), 0);
	return 0;
}

/* Busy on the CPU (the owner stays on it) for @ns. */
static void busy(unsigned long long ns)
{
	unsigned long long end = sim_now_ns() + ns;

	while (sim_now_ns() < end)
		uatomic_pause();
}

static void boot_words(int cpus)
{
	memset(&d, 0, sizeof(d));
	boot_word_and_phase(cpus, &d.word, &d.phase);
}

/* The owner: takes the word, then holds it off CPU for @arg ns. */
static void owner_sleeps(void *arg)
{
	d.a_tid = my_tid();
	ck_assert_int_eq(tp_op(FUTEX_TP_LOCK_PRIVATE), TP_STATUS_STOLEN);
	uatomic_store(d.phase, 1);
	sim_sys_nanosleep((unsigned long long)(uintptr_t)arg);
	d.a_fast_unlock = user_unlock();
}

/* FUTEX_LOCK with a deadline @ns from now, recorded (result, time, word
 * then); then an untimed FUTEX_LOCK, recorded, and the unlock. */
static void timed_lock_then_lock(unsigned long long ns)
{
	d.ret = lock_within(ns);
	d.t_ret = sim_now_ns();
	d.word_at_ret = uatomic_load(d.word);
	d.ret2 = tp_op(FUTEX_TP_LOCK_PRIVATE);
	user_unlock();
}

/* The timed waiter: its FUTEX_LOCK times out, then it locks for good. */
static void timed_waiter(void *arg)
{
	wait_phase_from(d.phase, 1);
	busy((unsigned long long)(uintptr_t)arg);	/* let others queue */
	timed_lock_then_lock(200000);
}

START_TEST(test_timed_out_top_waiter_leaves_at_its_deadline)
{
	boot_words(2);
	sim_task_create("a", owner_sleeps, (void *)(uintptr_t)1000000, 0);
	sim_task_create("b", timed_waiter, (void *)0, 1);
	sim_run();
	ck_assert_int_eq(d.ret, -ETIMEDOUT);
	ck_assert_uint_ge(d.t_ret, d.deadline);
	ck_assert_uint_le(d.t_ret, d.deadline + SLACK_NS);
	/* it slept with FUTEX_WAITERS set, and took the bit back */
	ck_assert_uint_eq(d.word_at_ret, d.a_tid);
	/* the lock still works: the second FUTEX_LOCK slept as the top
	 * waiter until a's unlock (in the kernel: it set FUTEX_WAITERS) */
	ck_assert_int_eq(TP_STATUS_CODE(d.ret2), TP_STATUS_TOP_WAITER);
	ck_assert_int_eq(d.a_fast_unlock, 0);
	ck_assert_uint_eq(*d.word, 0);
	assert_states_freed(2);
}
END_TEST

/* The top waiter with no timeout: sleeps until the owner's unlock. */
static void top_waiter(void *arg)
{
	wait_phase_from(d.phase, 1);
	d.b_ret = tp_op(FUTEX_TP_LOCK_PRIVATE);
	d.t_b = sim_now_ns();
	user_unlock();
}

/* _i: the serialization mutex, 0 the 6.1 one, 1 the 4.8-era one (whose
 * sleeper leaves on the timer's "signal" through mutex48's -EINTR). */
START_TEST(test_timed_out_mutex_waiter_leaves_the_queue)
{
	boot_words(3);
	if (_i)
		ksim_futex_tp_configure(TP_POLICY_V2, 1, TP_MUTEX_48);
	sim_task_create("a", owner_sleeps, (void *)(uintptr_t)2000000, 0);
	sim_task_create("b", top_waiter, NULL, 1);
	/* c queues 50 us after b: behind b on the serialization mutex */
	sim_task_create("c", timed_waiter, (void *)(uintptr_t)50000, 2);
	sim_run();
	ck_assert_int_eq(d.ret, -ETIMEDOUT);
	ck_assert_uint_ge(d.t_ret, d.deadline);
	ck_assert_uint_le(d.t_ret, d.deadline + SLACK_NS);
	ck_assert_uint_eq(d.word_at_ret & FUTEX_TP_TID_MASK, d.a_tid);
	/* b, still the top waiter, got the lock at a's unlock (2 ms) */
	ck_assert_int_eq(TP_STATUS_CODE(d.b_ret), TP_STATUS_TOP_WAITER);
	ck_assert_uint_gt(d.t_b, 2000000);
	ck_assert_int_eq(d.a_fast_unlock, 0);	/* b slept: FUTEX_UNLOCK */
	ck_assert_int_ge(d.ret2, 0);
	ck_assert_uint_eq(*d.word, 0);
	assert_states_freed(3);
}
END_TEST

/* The owner keeps its CPU for 8 ms: the top waiter spins on it. */
static void owner_runs(void *arg)
{
	d.a_tid = my_tid();
	ck_assert_int_eq(tp_op(FUTEX_TP_LOCK_PRIVATE), TP_STATUS_STOLEN);
	uatomic_store(d.phase, 1);
	busy(8000000);
	d.a_fast_unlock = user_unlock();
}

/* Spins as the top waiter, asks for a handoff at 5 ms (v6), times out
 * at 6 ms. */
static void handoff_waiter(void *arg)
{
	wait_phase_from(d.phase, 1);
	timed_lock_then_lock(6000000);
}

START_TEST(test_timed_out_handoff_request_is_withdrawn)
{
	boot_words(2);
	ksim_futex_tp_configure(TP_POLICY_V6, 1, TP_MUTEX_61);
	sim_task_create("a", owner_runs, NULL, 0);
	sim_task_create("b", handoff_waiter, NULL, 1);
	sim_run();
	ck_assert_int_eq(d.ret, -ETIMEDOUT);
	ck_assert_uint_ge(d.t_ret, d.deadline);
	ck_assert_uint_le(d.t_ret, d.deadline + SLACK_NS);
	/* no FUTEX_WAITERS left: the owner's unlock stays in user space,
	 * and it was not handed to the waiter that left */
	ck_assert_uint_eq(d.word_at_ret, d.a_tid);
	ck_assert_int_eq(d.a_fast_unlock, 1);
	ck_assert_int_ge(d.ret2, 0);
	ck_assert_uint_eq(*d.word, 0);
	assert_states_freed(2);
}
END_TEST

/* A deadline already past: a free word is still taken (the steal
 * attempt comes first), a held one is -ETIMEDOUT at once. */
static void past_deadline(void *arg)
{
	struct timespec past = abs_ts(0);

	d.ret = sim_sys_futex(d.word, FUTEX_TP_LOCK_PRIVATE, 0, &past, NULL, 0);
	ck_assert_int_eq(user_unlock(), 1);
	uatomic_store(d.phase, 1);
	wait_phase_from(d.phase, 2);
	d.deadline = sim_now_ns();
	d.ret2 = sim_sys_futex(d.word, FUTEX_TP_LOCK_PRIVATE, 0, &past, NULL, 0);
	d.t_ret = sim_now_ns();
	d.word_at_ret = uatomic_load(d.word);
}

/* a: takes the word once b has had its free one, holds it 1 ms */
static void owner_after_b(void *arg)
{
	wait_phase_from(d.phase, 1);
	d.a_tid = my_tid();
	ck_assert_int_eq(tp_op(FUTEX_TP_LOCK_PRIVATE), TP_STATUS_STOLEN);
	uatomic_store(d.phase, 2);
	sim_sys_nanosleep(1000000);
	d.a_fast_unlock = user_unlock();
}

START_TEST(test_past_deadline_takes_a_free_word_only)
{
	boot_words(2);
	sim_task_create("b", past_deadline, NULL, 1);
	sim_task_create("a", owner_after_b, NULL, 0);
	sim_run();
	ck_assert_int_eq(d.ret, TP_STATUS_STOLEN);
	ck_assert_int_eq(d.ret2, -ETIMEDOUT);
	ck_assert_uint_le(d.t_ret, d.deadline + SLACK_NS);
	ck_assert_uint_eq(d.word_at_ret, d.a_tid);
	ck_assert_uint_eq(*d.word, 0);
	assert_states_freed(2);
}
END_TEST

/* The argument checks of futex/tp_unlock.c. */
static struct {
	long val_flags, bad_nsec, neg_sec, clock_rt, clock_rt_unlock;
	long shared_bad_nsec, shared_flags, unaligned, unknown_op, ok;
} e;

static void bad_args(void *arg)
{
	struct timespec nsec = { .tv_sec = 1, .tv_nsec = 1000000000L };
	struct timespec neg = { .tv_sec = -1, .tv_nsec = 0 };
	struct timespec far = abs_ts(1000000000ULL);
	uint32_t *odd = (uint32_t *)((char *)d.word + 2);

	e.val_flags = sim_sys_futex(d.word, FUTEX_TP_LOCK_PRIVATE, 1, NULL, NULL, 0);
	e.bad_nsec = sim_sys_futex(d.word, FUTEX_TP_LOCK_PRIVATE, 0, &nsec, NULL, 0);
	e.neg_sec = sim_sys_futex(d.word, FUTEX_TP_LOCK_PRIVATE, 0, &neg, NULL, 0);
	e.clock_rt = sim_sys_futex(d.word, FUTEX_TP_LOCK_PRIVATE |
				   FUTEX_CLOCK_REALTIME, 0, &far, NULL, 0);
	e.clock_rt_unlock = sim_sys_futex(d.word, FUTEX_TP_UNLOCK_PRIVATE |
					  FUTEX_CLOCK_REALTIME, 0, NULL, NULL, 0);
	/* FUTEX_LOCK_SHARED takes FUTEX_LOCK's timeout, checked alike
	 * (tests/test_tp_shared_timeout.c times it out) */
	e.shared_bad_nsec = sim_sys_futex(d.word, FUTEX_TP_LOCK_SHARED_PRIVATE,
					  0, &nsec, NULL, 0);
	e.shared_flags = sim_sys_futex(d.word, FUTEX_TP_LOCK_SHARED_PRIVATE,
				       2, NULL, NULL, 0);
	e.unaligned = sim_sys_futex(odd, FUTEX_TP_LOCK_PRIVATE, 0, NULL, NULL, 0);
	e.unknown_op = sim_sys_futex(d.word, FUTEX_TP_LOCK_PRIVATE | 512, 0,
				     NULL, NULL, 0);
	/* none of them touched the word: a valid call still works */
	e.ok = sim_sys_futex(d.word, FUTEX_TP_LOCK_PRIVATE, 0, &far, NULL, 0);
	user_unlock();
}

START_TEST(test_bad_flags_and_timeouts_are_rejected)
{
	boot_words(1);
	sim_task_create("a", bad_args, NULL, 0);
	sim_run();
	ck_assert_int_eq(e.val_flags, -EINVAL);
	ck_assert_int_eq(e.bad_nsec, -EINVAL);
	ck_assert_int_eq(e.neg_sec, -EINVAL);
	ck_assert_int_eq(e.clock_rt, -ENOSYS);
	ck_assert_int_eq(e.clock_rt_unlock, -ENOSYS);
	ck_assert_int_eq(e.shared_bad_nsec, -EINVAL);
	ck_assert_int_eq(e.shared_flags, -EINVAL);
	ck_assert_int_eq(e.unaligned, -EINVAL);
	ck_assert_int_eq(e.unknown_op, -ENOSYS);
	ck_assert_int_eq(e.ok, TP_STATUS_STOLEN);
	ck_assert_uint_eq(*d.word, 0);
	assert_states_freed(1);
}
END_TEST

/* ---- tp-timed through the workload driver, many seeds ---- */

static struct sim_scenario scn;
static struct sim_result res;

START_TEST(test_tp_timed_mutual_exclusion_and_op_count)
{
	static const struct sim_work cs[] = {
		{ .kind = SIM_WORK_PAUSE, .n = 2000 },
		{ .kind = SIM_WORK_SLEEP, .sleep_ps = 20000000 },	/* 20 us */
	};

	sim_scenario_defaults(&scn);
	scn.cs = cs[_i % 2];
	scn.tp_policy = _i / 2 % 2 ? TP_POLICY_V6 : TP_POLICY_V2;
	scn.tp_mutex = _i / 4 ? TP_MUTEX_48 : TP_MUTEX_61;
	checked_run(&ulock_tp_timed_ops, FUTEX_TP_TID_MASK, &scn, 4, 12,
		    4800, 1 + _i, &res);
	ck_assert_uint_eq(res.ops, 4800);
	ck_assert_uint_eq(res.ops_thread_min, 400);
	ck_assert_uint_eq(res.ops_thread_max, 400);
	assert_timed_run_clean(&res, scn.threads);
}
END_TEST

/* ---- through the binary: the negative control, the trace ---- */

static struct child_out co;

START_TEST(test_tp_timed_busted_fails_mutual_exclusion)
{
	const char *busted[] = { "futexsim", "run", "--machine=tiny4",
				 "--threads=12", "--lock=tp-timed-busted",
				 "--ops=6000", "--cs=pause:2000", NULL };
	const char *ok[] = { "futexsim", "run", "--machine=tiny4",
			     "--threads=12", "--lock=tp-timed", "--ops=6000",
			     "--cs=pause:2000", NULL };

	assert_broken_then_ok(busted, ok, "mutual exclusion", "TP handoffs");
}
END_TEST

static long count(const char *s, const char *what)
{
	long n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

START_TEST(test_tp_trace_has_the_user_and_mutex_events)
{
	const char *bin = getenv("FUTEXSIM");
	char path[] = "/tmp/futexsim-tpt-XXXXXX.txt", arg[64];
	char *argv[] = { "futexsim", "run", "--machine=tiny4", "--threads=8",
			 "--lock=tp-timed", "--ops=2000", "--cs=pause:2000",
			 "--trace-events=tp", arg, NULL };
	static char buf[4 << 20];
	long acq, user, enq, top, stolen, timeouts;
	int fd = mkstemps(path, 4);
	ssize_t n, got = 0;

	ck_assert_msg(bin != NULL, "FUTEXSIM must name the binary (make check sets it)");
	ck_assert_int_ge(fd, 0);
	snprintf(arg, sizeof(arg), "--trace=%s", path);
	close(fd);
	run_program(bin, argv, &co);
	ck_assert_msg(co.status == 0, "exit %d: %s", co.status, co.err);
	fd = open(path, O_RDONLY);	/* the trace renamed over it */
	ck_assert_int_ge(fd, 0);
	while ((n = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += n;
	close(fd);
	unlink(path);
	buf[got] = '\0';
	acq = count(buf, "op=acquire ");
	user = count(buf, "op=user-acquire ");
	enq = count(buf, "op=mutex-enqueue ");
	top = count(buf, "op=top-waiter ");
	stolen = count(buf, "op=steal ");
	timeouts = count(buf, "op=timeout ");
	/* every operation took the lock in user space or in FUTEX_LOCK */
	ck_assert_int_eq(user + acq, 2000);
	ck_assert_int_eq(count(buf, "op=user-release ") +
			 count(buf, "op=unlock "), 2000);
	ck_assert_int_gt(timeouts, 0);
	/* each FUTEX_LOCK stole, or queued on the mutex; a queued one
	 * became top waiter or timed out in the queue */
	ck_assert_int_ge(enq, top);
	ck_assert_int_le(enq, top + timeouts);
	ck_assert_int_gt(stolen + enq, 0);
}
END_TEST

Suite *tp_timeout_suite(void)
{
	Suite *s = suite_create("tp_timeout");
	TCase *tc = tcase_create("tp_timeout");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_timed_out_top_waiter_leaves_at_its_deadline);
	tcase_add_loop_test(tc, test_timed_out_mutex_waiter_leaves_the_queue, 0, 2);
	tcase_add_test(tc, test_timed_out_handoff_request_is_withdrawn);
	tcase_add_test(tc, test_past_deadline_takes_a_free_word_only);
	tcase_add_test(tc, test_bad_flags_and_timeouts_are_rejected);
	tcase_add_loop_test(tc, test_tp_timed_mutual_exclusion_and_op_count, 0, 8);
	tcase_add_test(tc, test_tp_timed_busted_fails_mutual_exclusion);
	tcase_add_test(tc, test_tp_trace_has_the_user_and_mutex_events);
	suite_add_tcase(s, tc);
	return s;
}
