/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/pi.c - the priority-inheritance mutex over FUTEX_LOCK_PI
 * and FUTEX_UNLOCK_PI (what glibc does for PTHREAD_PRIO_INHERIT), called
 * "pi" as in the published TO-futex tables.
 *
 * Stage: user-space lock.  Called by the workload driver through
 * ulock_pi_ops; calls futex(2) (sim/syscall/syscall.h), which runs the real
 * kernel/futex/pi.c over the real rtmutex.
 *
 * The word (FUTEX_LOCK_PI):        0                 unlocked
 *                                  TID               locked by TID
 *                                  TID|FUTEX_WAITERS locked, the kernel
 *                                                    holds a pi_state
 *
 *   lock:    cmpxchg 0 -> TID (fast path); else FUTEX_LOCK_PI, which
 *            returns with the lock held: the kernel either takes a free
 *            word itself or queues the caller on the rtmutex of the
 *            word's pi_state and hands the lock over at unlock.
 *   unlock:  cmpxchg TID -> 0; else (FUTEX_WAITERS is set)
 *            FUTEX_UNLOCK_PI, which gives the lock to the top rtmutex
 *            waiter (the word becomes its TID | FUTEX_WAITERS) or clears
 *            the word when no waiter is left.
 *
 * While a pi_state exists the word keeps FUTEX_WAITERS, so every lock and
 * unlock goes through the kernel: with contention,
 * nearly every operation costs two system calls.
 *
 * Errors: FUTEX_LOCK_PI is retried on EAGAIN and EINTR (the owner was
 * exiting, or a signal: transient), as the benchmark does; any other
 * error is returned as a positive errno.  The TID is the task's own
 * (glibc reads it from the thread descriptor: no gettid() call).
 */
#include <stddef.h>

#include "sim/machine/machine.h"
#include "workloads/ulock/futex.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/ulock/ulock.h"

static void pi_init(void *l)
{
	uatomic_store(l, 0);
}

static uint32_t pi_tid(void)
{
	return (uint32_t)sim_current()->tid;
}

/* FUTEX_LOCK_PI_PRIVATE(@w), counted. Return: 0 or -errno. */
static long pi_futex_lock(uint32_t *w, struct ulock_stats *st)
{
	st->lock_syscalls++;
	return sim_sys_futex(w, st->shared ? FUTEX_LOCK_PI : FUTEX_LOCK_PI_PRIVATE,
			     0, NULL, NULL, 0);
}

/* FUTEX_UNLOCK_PI_PRIVATE(@w), counted. Return: 0 or -errno. */
static long pi_futex_unlock(uint32_t *w, struct ulock_stats *st)
{
	st->unlock_syscalls++;
	return sim_sys_futex(w, st->shared ? FUTEX_UNLOCK_PI :
				FUTEX_UNLOCK_PI_PRIVATE, 0, NULL, NULL, 0);
}

static int pi_lock(void *l, struct ulock_stats *st)
{
	uint32_t *w = l;
	long ret;

	if (uatomic_cmpxchg(w, 0, pi_tid()) == 0)
		return 0;
	do {
		ret = pi_futex_lock(w, st);
	} while (ret == -EAGAIN || ret == -EINTR);
	return (int)-ret;
}

static int pi_unlock(void *l, struct ulock_stats *st)
{
	uint32_t *w = l;
	uint32_t tid = pi_tid();

	if (uatomic_cmpxchg(w, tid, 0) == tid)
		return 0;
	return (int)-pi_futex_unlock(w, st);
}

/* the words a page of the run shows (struct ulock_ops.words) */
static const char *const pi_words[] = { "__lock", NULL };

const struct ulock_ops ulock_pi_ops = {
	.name		= "pi",
	.words		= pi_words,
	.description	= "PI mutex: cmpxchg 0->TID, FUTEX_LOCK_PI/FUTEX_UNLOCK_PI (PTHREAD_PRIO_INHERIT)",
	.size		= sizeof(uint32_t),
	.init		= pi_init,
	.lock		= pi_lock,
	.unlock		= pi_unlock,
};
