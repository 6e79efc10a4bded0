/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/ww.c - glibc's 3-state "normal" mutex over FUTEX_WAIT and
 * FUTEX_WAKE, called "ww" (wait-wake) as in the published TO-futex tables.
 *
 * Stage: user-space lock.  Called by the workload driver through
 * ulock_ww_ops; calls futex(2) through workloads/ulock/futex.h.
 *
 * The word (glibc lowlevellock): 0 unlocked
 *                                 1 locked, no waiters
 *                                 2 locked, maybe waiters
 *
 *   lock:    0 -> 1 by cmpxchg (fast path); else, unless the word already
 *            reads 2, exchange in 2 at once: an old value of 0 means we
 *            own it.  While the exchange finds it held, FUTEX_WAIT(word, 2)
 *            and exchange 2 in again.  A lock taken this way leaves 2 in
 *            the word even with nobody waiting (conservative).
 *   unlock:  exchange 0 in; an old value of 2 means someone may sleep:
 *            FUTEX_WAKE(word, 1).
 *
 * Why the protocol cannot lose a wakeup: a sleeper only sleeps while the
 * word is 2 (the kernel re-reads it under the bucket lock), and the unlock
 * that moves 2 -> 0 always wakes one.  Variant "ww-timed" bounds each
 * FUTEX_WAIT with a timeout and simply retries (the path of
 * pthread_mutex_timedlock() before its deadline).
 */
#include <stddef.h>

#include "workloads/ulock/futex.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/ulock/ulock.h"

static void ww_init(void *l)
{
	uatomic_store(l, 0);
}

static int ww_lock_wait(uint32_t *w, const struct timespec *timeout,
			struct ulock_stats *st)
{
	if (uatomic_load(w) == 2)
		goto wait;
	while (uatomic_xchg(w, 2) != 0) {
wait:
		/* EAGAIN (word changed), ETIMEDOUT, spurious: all retry */
		ulock_futex_wait(w, 2, timeout, st);
	}
	return 0;
}

static int ww_lock(void *l, struct ulock_stats *st)
{
	uint32_t *w = l;

	if (uatomic_cmpxchg(w, 0, 1) == 0)
		return 0;
	return ww_lock_wait(w, NULL, st);
}

static int ww_unlock(void *l, struct ulock_stats *st)
{
	uint32_t *w = l;

	if (uatomic_xchg(w, 0) > 1)
		ulock_futex_wake(w, 1, st);
	return 0;
}

/* 50 us: long enough to sleep, short enough to time out under load */
static const struct timespec ww_timed_timeout = { .tv_nsec = 50000 };

static int ww_timed_lock(void *l, struct ulock_stats *st)
{
	uint32_t *w = l;

	if (uatomic_cmpxchg(w, 0, 1) == 0)
		return 0;
	return ww_lock_wait(w, &ww_timed_timeout, st);
}

/* the words a page of the run shows (struct ulock_ops.words) */
static const char *const ww_words[] = { "__lock", NULL };

const struct ulock_ops ulock_ww_ops = {
	.name		= "ww",
	.words		= ww_words,
	.description	= "glibc 3-state mutex over FUTEX_WAIT/FUTEX_WAKE (lowlevellock)",
	.size		= sizeof(uint32_t),
	.init		= ww_init,
	.lock		= ww_lock,
	.unlock		= ww_unlock,
};

const struct ulock_ops ulock_ww_timed_ops = {
	.name		= "ww-timed",
	.words		= ww_words,
	.description	= "ww whose FUTEX_WAIT times out after 50us and retries",
	.size		= sizeof(uint32_t),
	.init		= ww_init,
	.lock		= ww_timed_lock,
	.unlock		= ww_unlock,
};
