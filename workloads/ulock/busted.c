/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/busted.c - deliberately broken locks: negative controls
 * that the test harness must catch (Linux locktorture's lock_busted_ops).
 *
 * Stage: user-space lock.  Hidden from `futexsim list`, accepted by
 * lock= so tests can run them.
 *
 * ww-busted: the ww mutex with its unlock reordered to wake BEFORE it
 * releases (2 -> 1 by fetch_sub, wake, then store 0).  A waiter that runs
 * between the wake and the store exchanges 2 in, finds 1, and goes back
 * to sleep; the unlocker then stores 0 without waking anyone.  That waiter sleeps on a free lock: a lost wakeup, which the
 * simulator reports as a deadlock once every other task has finished.
 *
 * ww-racy: the lock's fast path is a load followed by a separate store
 * (no atomic RMW): two tasks can both see 0 and both enter.  The workload
 * driver's mutual-exclusion check must fire.
 *
 * tas-relaxed: a test-and-test-and-set lock (cmpxchg 0 -> 1; while taken,
 * PAUSE and load until it reads 0)
 * released by a relaxed store of 0 where a release store belongs (STR,
 * not STLR).  Correct under memory=sc and tso (x86 releases a spinlock
 * with a plain MOV: TSO keeps the critical section's stores before it);
 * under memory=arm64 the unlock may become visible before the critical
 * section's store of the protected data, the next holder reads the old
 * value and an update is lost: the driver's data check must fire
 * (workloads/driver.h, wl_data_check()).
 */
#include <stddef.h>

#include "workloads/ulock/futex.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/ulock/ulock.h"

static void busted_init(void *l)
{
	uatomic_store(l, 0);
}

static int busted_lock(void *l, struct ulock_stats *st)
{
	uint32_t *w = l;

	if (uatomic_cmpxchg(w, 0, 1) == 0)
		return 0;
	while (uatomic_xchg(w, 2) != 0)
		ulock_futex_wait(w, 2, NULL, st);
	return 0;
}

static int busted_unlock(void *l, struct ulock_stats *st)
{
	uint32_t *w = l;

	if (uatomic_fetch_sub(w, 1) != 1) {	/* was 2: waiters	*/
		ulock_futex_wake(w, 1, st);	/* BUG: wake first ...	*/
		uatomic_store(w, 0);		/* ... then release	*/
	}
	return 0;
}

static int racy_lock(void *l, struct ulock_stats *st)
{
	uint32_t *w = l;

	for (;;) {
		while (uatomic_load(w) != 0)
			uatomic_pause();
		uatomic_store(w, 1);		/* BUG: not atomic with the load */
		return 0;
	}
}

static int racy_unlock(void *l, struct ulock_stats *st)
{
	uatomic_store(l, 0);
	return 0;
}

static int tas_lock(void *l, struct ulock_stats *st)
{
	while (uatomic_cmpxchg(l, 0, 1) != 0)
		while (uatomic_load_relaxed(l) != 0)
			uatomic_pause();
	return 0;
}

static int tas_relaxed_unlock(void *l, struct ulock_stats *st)
{
	uatomic_store_relaxed(l, 0);	/* BUG: no release order */
	return 0;
}

/* the words a page of the run shows (struct ulock_ops.words) */
static const char *const busted_words[] = { "__lock", NULL };

const struct ulock_ops ulock_ww_busted_ops = {
	.name		= "ww-busted",
	.words		= busted_words,
	.description	= "BROKEN: ww that wakes before it releases (lost wakeup)",
	.size		= sizeof(uint32_t),
	.init		= busted_init,
	.lock		= busted_lock,
	.unlock		= busted_unlock,
	.broken		= true,
};

const struct ulock_ops ulock_racy_ops = {
	.name		= "racy",
	.words		= busted_words,
	.description	= "BROKEN: test-and-set built from a load and a store",
	.size		= sizeof(uint32_t),
	.init		= busted_init,
	.lock		= racy_lock,
	.unlock		= racy_unlock,
	.broken		= true,
};

const struct ulock_ops ulock_tas_relaxed_ops = {
	.name		= "tas-relaxed",
	.words		= busted_words,
	.description	= "BROKEN: test-and-set lock released by a relaxed store (arm64 loses updates)",
	.size		= sizeof(uint32_t),
	.init		= busted_init,
	.lock		= tas_lock,
	.unlock		= tas_relaxed_unlock,
	.broken		= true,
};
