/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/arch/locking.c - sleeping locks of "arch sim": struct mutex and the
 * rt_mutex side of PI futexes, not simulated yet.
 *
 * Stage: kernel (locking).  Called by the futex code: futex_init_task()
 * initialises every task's futex_exit_mutex (sched/kapi.c), and
 * kernel/futex/pi.c, requeue.c and core.c link against the rt_mutex
 * "futex" API of kernel/locking/rtmutex_api.c.  Calls sim_bug().
 *
 * What works: __mutex_init().  What does not, and why it cannot be
 * reached today:
 *  - mutex_lock()/mutex_unlock(): only taken on futex_exit_mutex, by the
 *    futex exit/exec cleanup and by waiters on an exiting PI owner;
 *    simulated tasks never run the kernel's exit or exec paths.
 *  - every rt_mutex_*() function: PI futexes (FUTEX_LOCK_PI & co.) reach
 *    them as soon as a PI lock is contended.  An uncontended
 *    FUTEX_LOCK_PI/FUTEX_UNLOCK_PI works (pure cmpxchg on the user word);
 *    contended PI is a later issue, which will compile the real
 *    kernel/locking/rtmutex_api.c instead of these stubs.
 * Each stub ends the run with a failure report naming the function, so a
 * scenario that needs it fails loudly instead of misbehaving.
 */
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <sim/hooks.h>
#include "rtmutex_common.h"	/* kernel/locking/, on the include path */

#define UNSUPPORTED(fn)	sim_bug("unsupported: " fn, __FILE__, __LINE__)

/* ---- struct mutex ---- */

void __mutex_init(struct mutex *lock, const char *name,
		  struct lock_class_key *key)
{
	atomic_long_set(&lock->owner, 0);
	raw_spin_lock_init(&lock->wait_lock);
	INIT_LIST_HEAD(&lock->wait_list);
}

void mutex_lock(struct mutex *lock)
{
	UNSUPPORTED("mutex_lock (futex exit paths)");
}

void mutex_unlock(struct mutex *lock)
{
	UNSUPPORTED("mutex_unlock (futex exit paths)");
}

/* ---- rt_mutex, kernel/locking/rtmutex_api.c: PI futexes ---- */

void rt_mutex_init_proxy_locked(struct rt_mutex_base *lock,
				struct task_struct *proxy_owner)
{
	UNSUPPORTED("rt_mutex_init_proxy_locked (contended PI futex)");
}

void rt_mutex_proxy_unlock(struct rt_mutex_base *lock)
{
	UNSUPPORTED("rt_mutex_proxy_unlock (contended PI futex)");
}

int __rt_mutex_start_proxy_lock(struct rt_mutex_base *lock,
				struct rt_mutex_waiter *waiter,
				struct task_struct *task)
{
	UNSUPPORTED("__rt_mutex_start_proxy_lock (contended PI futex)");
}

int rt_mutex_start_proxy_lock(struct rt_mutex_base *lock,
			      struct rt_mutex_waiter *waiter,
			      struct task_struct *task)
{
	UNSUPPORTED("rt_mutex_start_proxy_lock (contended PI futex)");
}

int rt_mutex_wait_proxy_lock(struct rt_mutex_base *lock,
			     struct hrtimer_sleeper *to,
			     struct rt_mutex_waiter *waiter)
{
	UNSUPPORTED("rt_mutex_wait_proxy_lock (contended PI futex)");
}

bool rt_mutex_cleanup_proxy_lock(struct rt_mutex_base *lock,
				 struct rt_mutex_waiter *waiter)
{
	UNSUPPORTED("rt_mutex_cleanup_proxy_lock (contended PI futex)");
}

int rt_mutex_futex_trylock(struct rt_mutex_base *lock)
{
	UNSUPPORTED("rt_mutex_futex_trylock (contended PI futex)");
}

int __rt_mutex_futex_trylock(struct rt_mutex_base *lock)
{
	UNSUPPORTED("__rt_mutex_futex_trylock (contended PI futex)");
}

void rt_mutex_futex_unlock(struct rt_mutex_base *lock)
{
	UNSUPPORTED("rt_mutex_futex_unlock (contended PI futex)");
}

bool __rt_mutex_futex_unlock(struct rt_mutex_base *lock,
			     struct rt_wake_q_head *wqh)
{
	UNSUPPORTED("__rt_mutex_futex_unlock (contended PI futex)");
}

void rt_mutex_postunlock(struct rt_wake_q_head *wqh)
{
	UNSUPPORTED("rt_mutex_postunlock (contended PI futex)");
}
