/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/checked_lock.h - a user lock of workloads/ulock run through the
 * mutex workload with every acquisition checked (tests/test_pi.c,
 * test_tp.c), an rwlock's ops with both sides checked
 * (tests/test_tp_shared.c), and the one-socket machine those tests boot.
 *
 * Stage: tests.  The check wraps the lock's ops: after each lock() the
 * word must hold the caller's TID (exactly, after a fast-path cmpxchg;
 * within @tid_mask after the kernel, which may leave FUTEX_WAITERS), and
 * a slow path must have made exactly one lock syscall.  An rwlock's read
 * side is checked the same way: after each rdlock() the word's bits
 * @rd_mask must be @rd_bits (reader-owned, say, and not being unlocked)
 * and its reader count (bits @rd_count) at least one.  Machines boot
 * with FUTEXSIM_CHECK_STATE=1, so the scheduler's and TP's invariants are
 * checked at every dispatch.  assert_states_freed() checks the TP futex's
 * futex_state census after a run, assert_timed_run_clean() a timed TP
 * lock's run; boot_word_and_phase() and wait_phase_from()/_is() serve
 * the tests that drive the futex ops by hand.  Static functions and
 * data: each test file gets its own copy.
 */
#ifndef TESTS_CHECKED_LOCK_H
#define TESTS_CHECKED_LOCK_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "futex/tp.h"
#include "sim/host/arena.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"
#include "sim/trace/trace.h"
#include "workloads/ulock/rwlock.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/workload.h"

static struct {
	const struct ulock_ops *inner;	/* the lock checked		*/
	uint32_t tid_mask;		/* the owner's bits of its word	*/
	uint32_t *word;			/* the lock, seen at a lock()	*/
	uint64_t fast, kernel;		/* acquisitions by kind		*/
	uint64_t bad_word, bad_calls, errors;
	uint32_t rd_mask, rd_bits;	/* a read-held word: its bits	*/
	uint32_t rd_count;		/* ... and its reader count	*/
	uint64_t rd_fast, rd_kernel;	/* read acquisitions by kind	*/
	uint64_t bad_rd_word;
} chk;

static uint32_t my_tid(void)
{
	return (uint32_t)sim_current()->tid;
}

static int checked_lock(void *l, struct ulock_stats *st)
{
	uint64_t calls = st->lock_syscalls;
	int err = chk.inner->lock(l, st);
	uint32_t w = *(uint32_t *)l;	/* plain load: no scheduling point */

	chk.word = l;
	chk.errors += err != 0;
	if (st->lock_syscalls == calls) {
		chk.fast++;
		chk.bad_word += w != my_tid();
	} else {
		chk.kernel++;
		chk.bad_word += (w & chk.tid_mask) != my_tid();
		chk.bad_calls += st->lock_syscalls - calls != 1;
	}
	return err;
}

static int checked_unlock(void *l, struct ulock_stats *st)
{
	int err = chk.inner->unlock(l, st);

	chk.errors += err != 0;
	return err;
}

static int checked_rdlock(void *l, struct ulock_stats *st)
{
	uint64_t calls = st->lock_syscalls;
	int err = chk.inner->rw->rdlock(l, st);
	uint32_t w = *(uint32_t *)l;	/* plain load: no scheduling point */

	chk.word = l;
	chk.errors += err != 0;
	if (st->lock_syscalls == calls) {
		chk.rd_fast++;
	} else {
		chk.rd_kernel++;
		chk.bad_calls += st->lock_syscalls - calls != 1;
	}
	chk.bad_rd_word += (w & chk.rd_mask) != chk.rd_bits ||
			   !(w & chk.rd_count);
	return err;
}

static int checked_rdunlock(void *l, struct ulock_stats *st)
{
	int err = chk.inner->rw->rdunlock(l, st);

	chk.errors += err != 0;
	return err;
}

/*
 * checked_ops - @inner with its lock and unlock (and its read side, if it
 * has one: @rd_mask, @rd_bits and @rd_count say what a read-held word
 * looks like) checked; the figures in chk start from 0.
 * Return: the wrapped table (static: one per test process).
 */
static const struct ulock_ops *
checked_ops(const struct ulock_ops *inner, uint32_t tid_mask,
	    uint32_t rd_mask, uint32_t rd_bits, uint32_t rd_count)
{
	static struct ulock_ops ops_tbl;
	static const struct ulock_rw_ops rw_tbl = {
		.rdlock = checked_rdlock,
		.rdunlock = checked_rdunlock,
	};

	ops_tbl = *inner;
	ops_tbl.description = "checked after every acquisition";
	ops_tbl.lock = checked_lock;
	ops_tbl.unlock = checked_unlock;
	ops_tbl.rw = inner->rw ? &rw_tbl : NULL;
	memset(&chk, 0, sizeof(chk));
	chk.inner = inner;
	chk.tid_mask = tid_mask;
	chk.rd_mask = rd_mask;
	chk.rd_bits = rd_bits;
	chk.rd_count = rd_count;
	return &ops_tbl;
}

/* boot - a machine of @cpus CPUs on one socket, invariants checked. */
static __attribute__((unused)) void boot(int cpus, uint64_t seed)
{
	static struct sim_preset preset;

	sim_preset_defaults(&preset);
	preset.sockets = 1;
	preset.threads_per_core = 1;
	preset.cores_per_socket = cpus;
	setenv("FUTEXSIM_CHECK_STATE", "1", 1);	/* sched, TP invariants */
	sim_machine_init(&preset, cpus, seed);
}

/*
 * boot_word_and_phase - boot() @cpus CPUs (seed 1), then a futex word and
 * a phase word for the tasks' hand-shakes, each in a line of its own.
 */
static __attribute__((unused)) void
boot_word_and_phase(int cpus, uint32_t **word, uint32_t **phase)
{
	boot(cpus, 1);
	*word = sim_arena_alloc(4, 64);
	*phase = sim_arena_alloc(4, 64);
}

/* wait_phase_from - a task spins (pausing) until *@phase >= @p. */
static __attribute__((unused)) void wait_phase_from(uint32_t *phase,
						    uint32_t p)
{
	while (uatomic_load(phase) < p)
		uatomic_pause();
}

/* wait_phase_is - a task spins (pausing) until *@phase == @p. */
static __attribute__((unused)) void wait_phase_is(uint32_t *phase,
						  uint32_t p)
{
	while (uatomic_load(phase) != p)
		uatomic_pause();
}

/*
 * checked_run - the mutex workload of @s (its critical section and keys
 * already set; traced if s->trace is set) with @inner checked, @threads
 * threads on @cpus CPUs, @ops operations, @seed; figures into @r and chk.
 */
static __attribute__((unused)) void
checked_run(const struct ulock_ops *inner, uint32_t tid_mask,
	    struct sim_scenario *s, int cpus, int threads, uint64_t ops,
	    uint64_t seed, struct sim_result *r)
{
	const struct ulock_ops *ops_tbl = checked_ops(inner, tid_mask, 0, 0, 0);

	s->threads = threads;
	s->cpus = cpus;
	s->ops = ops;
	s->seed = seed;
	boot(cpus, seed);
	if (s->trace[0])
		ck_assert_int_eq(sim_trace_open(s->trace, s), 0);
	wl_mutex.run(s, ops_tbl, r);
	if (s->trace[0])
		ck_assert_int_eq(sim_trace_close(), 0);
}

/*
 * checked_same_figures - @run(4 CPUs, 16 threads, 3,200 ops, seed 7),
 * whose figures land in *@r, twice, the second time in a forked child,
 * and assert that the two runs agree on every figure a lock's report
 * prints: the same scenario and seed give the same run.
 */
static __attribute__((unused)) void
checked_same_figures(void (*run)(int, int, uint64_t, uint64_t),
		     const struct sim_result *r)
{
	struct sim_result a;
	pid_t pid;
	int st;

	run(4, 16, 3200, 7);
	a = *r;
	pid = fork();
	if (pid == 0) {
		run(4, 16, 3200, 7);
		_exit(r->elapsed_ns == a.elapsed_ns && r->sys_ns == a.sys_ns &&
		      r->thread_min_ns == a.thread_min_ns &&
		      r->lock_syscalls == a.lock_syscalls &&
		      r->unlock_syscalls == a.unlock_syscalls &&
		      r->tp_steals == a.tp_steals &&
		      r->tp_top_waiter == a.tp_top_waiter &&
		      r->tp_handoffs == a.tp_handoffs &&
		      r->tp_sleeps == a.tp_sleeps &&
		      r->acquire_p99_ns == a.acquire_p99_ns ? 0 : 1);
	}
	ck_assert_int_ge(pid, 0);
	waitpid(pid, &st, 0);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
}

/* After a TP run: no futex_state is left attached, and every object
 * allocated is in a task's cache (at most one per task): none leaked. */
static __attribute__((unused)) void assert_states_freed(int tasks)
{
	struct ksim_futex_tp_census c;

	ksim_futex_tp_census(&c);
	ck_assert_int_eq(c.attached, 0);
	ck_assert_int_eq(c.allocated, c.cached);
	ck_assert_int_le(c.cached, tasks);
}

/*
 * assert_timed_run_clean - after a run of a timed TP lock (tp-timed,
 * rw-tp-timed) through checked_ops() with @threads tasks: it timed out
 * at least once, every acquisition was right, each lock syscall either
 * timed out or acquired, and every futex_state was freed.
 */
static __attribute__((unused)) void
assert_timed_run_clean(const struct sim_result *r, int threads)
{
	ck_assert_uint_gt(r->timeouts, 0);
	ck_assert_uint_eq(chk.bad_word, 0);
	ck_assert_uint_eq(chk.bad_rd_word, 0);
	ck_assert_uint_eq(chk.errors, 0);
	ck_assert_uint_eq(r->lock_syscalls, r->timeouts + r->tp_steals +
			  r->tp_top_waiter + r->tp_handoffs);
	assert_states_freed(threads);
}

#endif /* TESTS_CHECKED_LOCK_H */
