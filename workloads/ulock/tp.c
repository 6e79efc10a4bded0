/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/tp.c - the mutex over the throughput-optimized futex
 * (FUTEX_LOCK/FUTEX_UNLOCK of the 2016-2017 patches; SPEC.md 9.3), called
 * "tp" as in the published tables (the 2016 patch said "TO").
 *
 * Stage: user-space lock.  Called by the workload driver through
 * ulock_tp_ops; calls futex(2) (sim/syscall.h), which routes the TP ops
 * to futex/tp.c.
 *
 * The word (futex/tp_abi.h):  0                 unlocked
 *                             TID               locked by TID
 *                             TID|FUTEX_WAITERS locked; the unlock
 *                                               must enter the kernel
 *
 *   lock:    cmpxchg 0 -> TID (fast path: also steals from the kernel's
 *            waiters, as FUTEX_WAITERS is clear while the top waiter
 *            spins); else FUTEX_LOCK, which returns with the TID in the
 *            word and a status word: how it got the lock (0 stolen in
 *            the kernel, 1 top waiter, 2 handed off) and how often it
 *            slept, counted here as the benchmark counts them.
 *   unlock:  cmpxchg TID -> 0; else (FUTEX_WAITERS) FUTEX_UNLOCK, which
 *            returns how many it woke.
 *
 * Errors: FUTEX_LOCK is retried on EINTR and EAGAIN (transient), like
 * the benchmark; anything else is returned as a positive errno.
 */
#include "futex/tp_abi.h"
#include "sim/machine.h"
#include "workloads/ulock/futex.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/ulock/ulock.h"

static void tp_init(void *l)
{
	uatomic_store(l, 0);
}

static uint32_t tp_tid(void)
{
	return (uint32_t)sim_current()->tid & FUTEX_TP_TID_MASK;
}

void ulock_tp_count(long r, struct ulock_stats *st)
{
	switch (TP_STATUS_CODE(r)) {
	case TP_STATUS_STOLEN:
		st->steals++;
		break;
	case TP_STATUS_TOP_WAITER:
		st->top_waiter++;
		break;
	case TP_STATUS_HANDOFF:
		st->handoffs++;
		break;
	}
	st->sleeps += TP_STATUS_SLEEPS(r);
}

static int tp_lock(void *l, struct ulock_stats *st)
{
	uint32_t *w = l;
	long ret;

	if (uatomic_cmpxchg(w, 0, tp_tid()) == 0)
		return 0;
	do {
		st->lock_syscalls++;
		ret = sim_sys_futex(w, FUTEX_TP_LOCK_PRIVATE, 0, NULL, NULL, 0);
	} while (ret == -EINTR || ret == -EAGAIN);
	if (ret < 0)
		return (int)-ret;
	ulock_tp_count(ret, st);
	return 0;
}

static int tp_unlock(void *l, struct ulock_stats *st)
{
	uint32_t *w = l;
	uint32_t tid = tp_tid();
	long ret;

	if (uatomic_cmpxchg(w, tid, 0) == tid)
		return 0;
	st->unlock_syscalls++;
	ret = sim_sys_futex(w, FUTEX_TP_UNLOCK_PRIVATE, 0, NULL, NULL, 0);
	if (ret < 0)
		return (int)-ret;
	st->wakeups += ret;
	return 0;
}

const struct ulock_ops ulock_tp_ops = {
	.name		= "tp",
	.description	= "TP mutex: cmpxchg 0->TID, FUTEX_LOCK/FUTEX_UNLOCK of the TP futex (SPEC 9.3)",
	.size		= sizeof(uint32_t),
	.init		= tp_init,
	.lock		= tp_lock,
	.unlock		= tp_unlock,
};
