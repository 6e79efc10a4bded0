/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/tp.c - the mutex over the throughput-optimized futex
 * (FUTEX_LOCK/FUTEX_UNLOCK of the 2016-2017 patches; docs/studies/to-futex-2016.md), called
 * "tp" as in the published tables (the 2016 patch said "TO").
 *
 * Stage: user-space lock.  Called by the workload driver through
 * ulock_tp_ops; calls futex(2) (sim/syscall/syscall.h), which routes the TP ops
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
 *
 * Variant "tp-timed" gives each FUTEX_LOCK an absolute deadline 50 us
 * ahead (the timeout of the series: absolute, futex/tp_unlock.c) and
 * retries on ETIMEDOUT, counted as a timeout: the path of a timed lock
 * before its own deadline, exercising the kernel's withdrawal from the
 * mutex queue and from the top waiter's role.  "tp-timed-busted", a
 * negative control, takes ETIMEDOUT for the lock: the driver's mutual
 * exclusion check must catch it.
 *
 * With --trace (group tp) the user-space fast paths are events too:
 * user-acquire (cmpxchg 0 -> TID won) and user-release (TID -> 0 won).
 */
#include <stddef.h>

#include "futex/tp_abi.h"
#include "sim/machine/hooks.h"
#include "sim/machine/machine.h"
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

/* A user-space fast path won: a TP trace event if --trace asked. */
static void tp_trace_user(uint32_t *w, enum sim_tp_op op, uint32_t word)
{
	if (sim_trace_mask & SIM_TRACE_BIT(SIM_TEV_TP))
		sim_trace_tp(w, op, word, 0);
}

/* 50 us, as ww-timed's FUTEX_WAIT: long enough to queue, short enough
 * to time out under load. */
#define TP_TIMED_NS	50000ULL

/* ulock.h: FUTEX_LOCK and FUTEX_LOCK_SHARED alike */
int ulock_tp_lock_call(uint32_t *w, int op, uint32_t val,
		       struct ulock_stats *st, bool timed, bool busted)
{
	struct timespec ts = { 0 }, *tsp = timed ? &ts : NULL;
	unsigned long long at;
	long ret;

	for (;;) {
		if (timed) {
			at = sim_now_ns() + TP_TIMED_NS;
			ts.tv_sec = (time_t)(at / 1000000000ULL);
			ts.tv_nsec = (long)(at % 1000000000ULL);
		}
		st->lock_syscalls++;
		ret = sim_sys_futex(w, op, val, tsp, NULL, 0);
		if (ret == -ETIMEDOUT && timed) {
			st->timeouts++;
			if (busted)
				return 0;	/* the bug: not ours */
			continue;
		}
		if (ret != -EINTR && ret != -EAGAIN)
			break;
	}
	if (ret < 0)
		return (int)-ret;
	ulock_tp_count(ret, st);
	return 0;
}

static int tp_lock_common(void *l, struct ulock_stats *st, bool timed,
			  bool busted)
{
	uint32_t *w = l;
	uint32_t tid = tp_tid();

	if (uatomic_cmpxchg(w, 0, tid) == 0) {
		tp_trace_user(w, SIM_TP_USER_ACQUIRE, tid);
		return 0;
	}
	return ulock_tp_lock_call(w, FUTEX_TP_LOCK_PRIVATE, 0, st, timed,
				  busted);
}

static int tp_lock(void *l, struct ulock_stats *st)
{
	return tp_lock_common(l, st, false, false);
}

static int tp_timed_lock(void *l, struct ulock_stats *st)
{
	return tp_lock_common(l, st, true, false);
}

static int tp_timed_busted_lock(void *l, struct ulock_stats *st)
{
	return tp_lock_common(l, st, true, true);
}

static int tp_unlock(void *l, struct ulock_stats *st)
{
	uint32_t *w = l;
	uint32_t tid = tp_tid();
	long ret;

	if (uatomic_cmpxchg(w, tid, 0) == tid) {
		tp_trace_user(w, SIM_TP_USER_RELEASE, 0);
		return 0;
	}
	st->unlock_syscalls++;
	ret = sim_sys_futex(w, FUTEX_TP_UNLOCK_PRIVATE, 0, NULL, NULL, 0);
	if (ret < 0)
		return (int)-ret;
	st->wakeups += ret;
	return 0;
}

/* the words a page of the run shows (struct ulock_ops.words) */
static const char *const tp_words[] = { "word", NULL };

const struct ulock_ops ulock_tp_ops = {
	.name		= "tp",
	.words		= tp_words,
	.description	= "TP mutex: cmpxchg 0->TID, FUTEX_LOCK/FUTEX_UNLOCK of the TP futex (LKML 2016)",
	.size		= sizeof(uint32_t),
	.init		= tp_init,
	.lock		= tp_lock,
	.unlock		= tp_unlock,
};

const struct ulock_ops ulock_tp_timed_ops = {
	.name		= "tp-timed",
	.words		= tp_words,
	.description	= "tp whose FUTEX_LOCK times out 50us ahead and retries",
	.size		= sizeof(uint32_t),
	.init		= tp_init,
	.lock		= tp_timed_lock,
	.unlock		= tp_unlock,
};

/* Negative control: a timed-out FUTEX_LOCK taken for the lock. */
const struct ulock_ops ulock_tp_timed_busted_ops = {
	.name		= "tp-timed-busted",
	.words		= tp_words,
	.description	= "tp-timed that takes ETIMEDOUT for the lock (broken)",
	.size		= sizeof(uint32_t),
	.init		= tp_init,
	.lock		= tp_timed_busted_lock,
	.unlock		= tp_unlock,
	.broken		= true,
};
