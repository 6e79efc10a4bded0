/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/checked_lock.h - a user lock of workloads/ulock run through the
 * mutex workload with every acquisition checked (tests/test_pi.c,
 * test_tp.c), and the one-socket machine those tests boot
 * (test_tp_shared.c too).
 *
 * Stage: tests.  The check wraps the lock's ops: after each lock() the
 * word must hold the caller's TID (exactly, after a fast-path cmpxchg;
 * within @tid_mask after the kernel, which may leave FUTEX_WAITERS), and
 * a slow path must have made exactly one lock syscall.  Machines boot
 * with FUTEXSIM_CHECK_STATE=1, so the scheduler's and TP's invariants are
 * checked at every dispatch.  Static functions and data: each test file
 * gets its own copy.
 */
#ifndef TESTS_CHECKED_LOCK_H
#define TESTS_CHECKED_LOCK_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine.h"
#include "sim/preset.h"
#include "sim/scenario.h"
#include "sim/trace.h"
#include "workloads/workload.h"

static struct {
	const struct ulock_ops *inner;	/* the lock checked		*/
	uint32_t tid_mask;		/* the owner's bits of its word	*/
	uint32_t *word;			/* the lock, seen at a lock()	*/
	uint64_t fast, kernel;		/* acquisitions by kind		*/
	uint64_t bad_word, bad_calls, errors;
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
 * checked_run - the mutex workload of @s (its critical section and keys
 * already set; traced if s->trace is set) with @inner checked, @threads
 * threads on @cpus CPUs, @ops operations, @seed; figures into @r and chk.
 */
static __attribute__((unused)) void
checked_run(const struct ulock_ops *inner, uint32_t tid_mask,
	    struct sim_scenario *s, int cpus, int threads, uint64_t ops,
	    uint64_t seed, struct sim_result *r)
{
	static struct ulock_ops ops_tbl;

	ops_tbl = *inner;
	ops_tbl.description = "checked after every acquisition";
	ops_tbl.lock = checked_lock;
	ops_tbl.unlock = checked_unlock;
	memset(&chk, 0, sizeof(chk));
	chk.inner = inner;
	chk.tid_mask = tid_mask;
	s->threads = threads;
	s->cpus = cpus;
	s->ops = ops;
	s->seed = seed;
	boot(cpus, seed);
	if (s->trace[0])
		ck_assert_int_eq(sim_trace_open(s->trace, s), 0);
	wl_mutex.run(s, &ops_tbl, r);
	if (s->trace[0])
		ck_assert_int_eq(sim_trace_close(), 0);
}

#endif /* TESTS_CHECKED_LOCK_H */
