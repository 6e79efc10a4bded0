/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/rwlock_tp.c - the TP rwlock of the 2017 glibc RFC
 * (PTHREAD_RWLOCK_USE_TP_FUTEX_NP, nptl/pthread_rwlock_tp.c;
 * docs/studies/glibc-2017.md): lock=rw-tp.  One futex word; readers use the shared protocol
 * over FUTEX_LOCK_SHARED/FUTEX_UNLOCK_SHARED, writers are the TP mutex
 * (workloads/ulock/tp.c) on the same word.
 *
 * Stage: user-space lock.  Called by workload=rwlock (workloads/rwlock.c)
 * through ulock_rw_tp_ops and its read side; calls futex(2)
 * (sim/syscall/syscall.h), which routes the TP ops to futex/tp.c and
 * futex/tp_shared.c.
 *
 * The word (futex/tp_abi.h):
 *   0                          unlocked
 *   TID [| FUTEX_WAITERS]      a writer owns it
 *   FUTEX_SHARED | n           n readers own it
 *   ... | FUTEX_WAITERS        a kernel waiter sleeps or asked for a
 *                              handoff: the last reader's unlock enters
 *                              the kernel
 *   FUTEX_SHARED | FUTEX_SHARED_UNLOCK | FUTEX_WAITERS, n = 0
 *                              the last reader is in FUTEX_UNLOCK_SHARED
 *
 *   rdlock:   0 -> FUTEX_SHARED|1 by cmpxchg; or n -> n+1 while the word
 *             is FUTEX_SHARED and nothing else [R: the series names only
 *             FUTEX_SHARED_UNLOCK; a reader that joined past FUTEX_WAITERS
 *             would keep a sleeping writer waiting for a count that need
 *             never reach 0]; else FUTEX_LOCK_SHARED (retried on EINTR
 *             and EAGAIN).  The RFC's default: no prefer-reader flag;
 *             lock=rw-tp-preader passes FLAGS_TP_PREADER; lock=rw-tp-timed
 *             gives each FUTEX_LOCK_SHARED a deadline 50 us ahead and
 *             retries on ETIMEDOUT (pthread_rwlock_timedrdlock() in a
 *             loop), its writers are tp-timed; rw-tp-timed-busted, the
 *             negative control, takes ETIMEDOUT for the read lock.
 *   rdunlock: n -> n-1 by cmpxchg; the last reader: SHARED|1 -> 0, or,
 *             with FUTEX_WAITERS, -> FUTEX_SHARED|FUTEX_SHARED_UNLOCK|
 *             FUTEX_WAITERS in the same cmpxchg (no reader can join in
 *             between), then FUTEX_UNLOCK_SHARED.
 *   wrlock/wrunlock: ulock_tp_ops.
 *
 * Errors: a positive errno, as the other locks (EPERM: a read unlock of a
 * word that is not reader-owned).
 */
#include <stddef.h>

#include "futex/tp_abi.h"
#include "workloads/ulock/futex.h"
#include "workloads/ulock/rwlock.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/ulock/ulock.h"

#define RW_TP_ONE	(FUTEX_SHARED | 1u)

static void rw_tp_init(void *l)
{
	uatomic_store(l, 0);
}

/* A reader may join in user space: reader-owned and nothing else. */
static bool rw_tp_joinable(uint32_t v)
{
	return (v & ~FUTEX_SHARED_COUNT) == FUTEX_SHARED &&
	       (v & FUTEX_SHARED_COUNT) != FUTEX_SHARED_COUNT;
}

/* How a read lock calls FUTEX_LOCK_SHARED. */
enum rw_tp_kind {
	RW_TP_PLAIN,
	RW_TP_PREADER,		/* FLAGS_TP_PREADER			*/
	RW_TP_TIMED,		/* a deadline, retried on ETIMEDOUT	*/
	RW_TP_TIMED_BUSTED,	/* ... ETIMEDOUT taken for the lock	*/
};

/* The read lock: join or take the word in user space, else the kernel. */
static int rw_tp_rdlock_kind(void *l, struct ulock_stats *st,
			     enum rw_tp_kind kind)
{
	uint32_t *w = l, v = 0, cur;

	for (;;) {
		if (v && !rw_tp_joinable(v))
			break;
		cur = uatomic_cmpxchg(w, v, v ? v + 1 : RW_TP_ONE);
		if (cur == v)
			return 0;
		v = cur;
	}
	return ulock_tp_lock_call(w, FUTEX_TP_LOCK_SHARED_PRIVATE,
				  kind == RW_TP_PREADER ? FLAGS_TP_PREADER : 0,
				  st, kind >= RW_TP_TIMED,
				  kind == RW_TP_TIMED_BUSTED);
}

static int rw_tp_rdlock(void *l, struct ulock_stats *st)
{
	return rw_tp_rdlock_kind(l, st, RW_TP_PLAIN);
}

static int rw_tp_rdlock_preader(void *l, struct ulock_stats *st)
{
	return rw_tp_rdlock_kind(l, st, RW_TP_PREADER);
}

static int rw_tp_rdlock_timed(void *l, struct ulock_stats *st)
{
	return rw_tp_rdlock_kind(l, st, RW_TP_TIMED);
}

static int rw_tp_rdlock_timed_busted(void *l, struct ulock_stats *st)
{
	return rw_tp_rdlock_kind(l, st, RW_TP_TIMED_BUSTED);
}

static int rw_tp_rdunlock(void *l, struct ulock_stats *st)
{
	uint32_t *w = l, v = uatomic_load(w), cur, new;
	long ret;

	for (;;) {
		if (!(v & FUTEX_SHARED) || !(v & FUTEX_SHARED_COUNT))
			return EPERM;
		if ((v & FUTEX_SHARED_COUNT) > 1)
			new = v - 1;
		else if (v == RW_TP_ONE)
			new = 0;
		else
			new = (v - 1) | FUTEX_SHARED_UNLOCK;
		cur = uatomic_cmpxchg(w, v, new);
		if (cur == v)
			break;
		v = cur;
	}
	if (!(new & FUTEX_SHARED_UNLOCK))
		return 0;
	st->unlock_syscalls++;
	ret = sim_sys_futex(w, FUTEX_TP_UNLOCK_SHARED_PRIVATE, 0, NULL, NULL,
			    0);
	if (ret < 0)
		return (int)-ret;
	st->wakeups += ret;
	return 0;
}

static int rw_tp_wrlock(void *l, struct ulock_stats *st)
{
	return ulock_tp_ops.lock(l, st);
}

static int rw_tp_timed_wrlock(void *l, struct ulock_stats *st)
{
	return ulock_tp_timed_ops.lock(l, st);
}

static int rw_tp_wrunlock(void *l, struct ulock_stats *st)
{
	return ulock_tp_ops.unlock(l, st);
}

static const struct ulock_rw_ops rw_tp_read_side = {
	.rdlock		= rw_tp_rdlock,
	.rdunlock	= rw_tp_rdunlock,
};

/* the words a page of the run shows (struct ulock_ops.words) */
static const char *const rw_tp_words[] = { "word", NULL };

const struct ulock_ops ulock_rw_tp_ops = {
	.name		= "rw-tp",
	.words		= rw_tp_words,
	.description	= "TP rwlock (2017 RFC): readers FUTEX_LOCK_SHARED/UNLOCK_SHARED, writers the TP mutex",
	.size		= sizeof(uint32_t),
	.init		= rw_tp_init,
	.lock		= rw_tp_wrlock,
	.unlock		= rw_tp_wrunlock,
	.rw		= &rw_tp_read_side,
};

static const struct ulock_rw_ops rw_tp_preader_read_side = {
	.rdlock		= rw_tp_rdlock_preader,
	.rdunlock	= rw_tp_rdunlock,
};

const struct ulock_ops ulock_rw_tp_preader_ops = {
	.name		= "rw-tp-preader",
	.words		= rw_tp_words,
	.description	= "rw-tp whose readers pass FLAGS_TP_PREADER: kernel readers join a reader-owned word (v6)",
	.size		= sizeof(uint32_t),
	.init		= rw_tp_init,
	.lock		= rw_tp_wrlock,
	.unlock		= rw_tp_wrunlock,
	.rw		= &rw_tp_preader_read_side,
};

static const struct ulock_rw_ops rw_tp_timed_read_side = {
	.rdlock		= rw_tp_rdlock_timed,
	.rdunlock	= rw_tp_rdunlock,
};

const struct ulock_ops ulock_rw_tp_timed_ops = {
	.name		= "rw-tp-timed",
	.words		= rw_tp_words,
	.description	= "rw-tp whose FUTEX_LOCK_SHARED (and writers' FUTEX_LOCK) time out 50us ahead and retry",
	.size		= sizeof(uint32_t),
	.init		= rw_tp_init,
	.lock		= rw_tp_timed_wrlock,
	.unlock		= rw_tp_wrunlock,
	.rw		= &rw_tp_timed_read_side,
};

static const struct ulock_rw_ops rw_tp_timed_busted_read_side = {
	.rdlock		= rw_tp_rdlock_timed_busted,
	.rdunlock	= rw_tp_rdunlock,
};

/* Negative control: a timed-out FUTEX_LOCK_SHARED taken for the lock. */
const struct ulock_ops ulock_rw_tp_timed_busted_ops = {
	.name		= "rw-tp-timed-busted",
	.words		= rw_tp_words,
	.description	= "rw-tp-timed whose readers take ETIMEDOUT for the lock (broken)",
	.size		= sizeof(uint32_t),
	.init		= rw_tp_init,
	.lock		= rw_tp_timed_wrlock,
	.unlock		= rw_tp_wrunlock,
	.rw		= &rw_tp_timed_busted_read_side,
	.broken		= true,
};
