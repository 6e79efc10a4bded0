/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex/mutex48.h - the kernel mutex of the 4.8 era (before the 4.10
 * rewrite that added handoff and waiter spinning), in the project's own
 * kernel-style code: the serialization mutex of the TP futex under
 * tp-mutex=4.8 (the 2016 TO/TP patches ran on it;
 * docs/studies/to-futex-2016.md).
 *
 * Stage: kernel (locking).  Implemented in futex/mutex48.c; used by
 * futex/tp.c; calls the arch shim's hooked atomics, the real OSQ of
 * kernel/locking/osq_lock.c, the real qspinlock (the wait_lock) and the
 * scheduler (schedule_preempt_disabled(), wake_up_process(),
 * owner_on_cpu(), need_resched()).
 *
 * What it keeps of 4.8, as that mutex was described and as its history
 * records it (the handoff came with 9d659ae14b54, waiter spinning with
 * b341afb325eb, both in 4.10):
 *
 *  - one counter, 1 free, 0 locked, < 0 locked with waiters perhaps;
 *    the fast path is a decrement (x86: lock decl) that took it iff the
 *    result is 0, the fast unlock an increment that is done iff the
 *    result is > 0;
 *  - an owner pointer, set after the counter is taken and cleared before
 *    it is released, which is what optimistic spinners watch;
 *  - optimistic spinning through the OSQ, only before joining the wait
 *    list, while the owner runs: at the owner's release the spinner at
 *    the head tries a cmpxchg 1 -> 0 at once (no pause first);
 *  - a FIFO wait list of sleepers; the slow unlock makes the counter 1
 *    (free) first and then wakes the first waiter, which takes the lock
 *    only if nobody took it meanwhile (an xchg to -1), else sleeps again,
 *    still first on the list.  No handoff: a waiter can be overtaken by
 *    spinners and by the fast path for ever.
 *
 * States (count, waiters listed), the checker's tuple notation:
 *
 *   (1, 0)    free
 *   (0, 0)    locked, nobody waits
 *   (-1, *)   locked; waiters may be listed (a failed fast path leaves
 *             -1 with none: the next unlock takes the slow path for
 *             nothing)
 *   (1, n)    free, released by the slow unlock, its first waiter woken
 *             and not yet running: a spinner or a fast path may take it
 *             first, to (0, n) (the waiter then makes it (-1, n))
 *
 *   lock fast     (1, w)  -> (0, w)        counter 1 -> 0
 *   lock slow     (c, w)  -> (-1, w+1)     queued; (-1, w) if the xchg
 *                                          found 1
 *   waiter runs   (1, n)  -> (-1 or 0, n-1) took it (0: it was the last)
 *                 (0, n)  -> (-1, n)       sleeps again
 *   unlock fast   (0, w)  -> (1, w)        no one listed or woken
 *   unlock slow   (-1, w) -> (1, w)        first waiter woken
 *
 * Invariants (mutex48_check_state(), at every dispatch of a checked run):
 * count <= 1; owner is NULL whenever count is 1; a listed waiter is not
 * the owner.  The waiters' sleep is not an invariant of a state: the slow
 * unlock passes (0 or 1, n) with its first waiter still asleep.
 */
#ifndef _SIM_FUTEX_MUTEX48_H
#define _SIM_FUTEX_MUTEX48_H

#include <linux/atomic.h>
#include <linux/osq_lock.h>
#include <linux/spinlock_types.h>

struct task_struct;
struct mutex48_waiter;

/**
 * struct mutex48 - the 4.8-era kernel mutex
 * @count:	1 free, 0 locked, < 0 locked and waiters perhaps listed
 * @wait_lock:	protects @waiters
 * @osq:	the queue of optimistic spinners
 * @owner:	the task that holds it, or NULL (also NULL for a moment
 *		after the counter is taken and before it is released)
 * @waiters:	the sleeping waiters, FIFO: the first, linked through
 *		struct mutex48_waiter (singly: the object fits in a struct
 *		mutex, whose place it takes in futex/tp_state.h, so that
 *		the 6.1 runs keep their memory layout)
 */
struct mutex48 {
	atomic_t			count;
	raw_spinlock_t			wait_lock;
	struct optimistic_spin_queue	osq;
	struct task_struct		*owner;
	struct mutex48_waiter		*waiters;
};

/* mutex48_init - @lock free, with no waiter. */
void mutex48_init(struct mutex48 *lock);

/* mutex48_lock - take @lock, spinning while its owner runs, else
 * sleeping uninterruptibly until it is ours.  Might sleep. */
void mutex48_lock(struct mutex48 *lock);

/* mutex48_lock_interruptible - as mutex48_lock(), but a sleeper with a
 * signal pending (the machine's sim_sigpending) leaves the wait list.
 * Return: 0 (ours), -EINTR (not taken). */
int mutex48_lock_interruptible(struct mutex48 *lock);

/* mutex48_unlock - release @lock, which the caller holds; wakes the
 * first waiter if the counter said there might be one. */
void mutex48_unlock(struct mutex48 *lock);

/* mutex48_owner - the owner now (a plain read, for the state checker). */
struct task_struct *mutex48_owner(const struct mutex48 *lock);

/* mutex48_check_state - the invariants above, by plain reads.
 * Return: NULL if they hold, else what is wrong. */
const char *mutex48_check_state(const struct mutex48 *lock);

#endif /* _SIM_FUTEX_MUTEX48_H */
