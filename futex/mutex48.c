// SPDX-License-Identifier: GPL-2.0
/*
 * futex/mutex48.c - the kernel mutex of the 4.8 era, written afresh from
 * its description (futex/mutex48.h has the word, the states and what is
 * kept): counter fast paths, optimistic spinning through the OSQ before
 * queueing, a FIFO of sleepers woken one at a time, no handoff.
 *
 * Stage: kernel (locking).  Called by futex/tp.c (the TP futex's
 * serialization mutex under tp-mutex=4.8) and by the tests' kernel glue
 * (tests/k_kmutex.c).  Every access to the counter and the owner is a
 * hooked (simulated) one.  The contention tracepoints are called where
 * 6.1's mutex.c calls them (spinning, then sleeping, then the end), so
 * that --trace-events=lock shows either mutex the same way.
 *
 * [R] One choice of this file's own: a sleeper that leaves the list on a
 * signal (a TP timeout) while the lock is free passes the wakeup it may
 * have consumed to the next waiter, so that nobody sleeps on a free lock
 * with no unlock to come.
 */
#include <linux/kernel.h>
#include <linux/atomic.h>
#include <linux/osq_lock.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/spinlock.h>
#include <asm/processor.h>
#include <asm/rwonce.h>
#include <trace/events/lock.h>

#include "futex/mutex48.h"

struct mutex48_waiter {
	struct mutex48_waiter	*next;
	struct task_struct	*task;
};

void mutex48_init(struct mutex48 *lock)
{
	atomic_set(&lock->count, 1);
	raw_spin_lock_init(&lock->wait_lock);
	osq_lock_init(&lock->osq);
	lock->owner = NULL;
	lock->waiters = NULL;
}

/* The wait list, under wait_lock: append at the tail, unlink anywhere. */
static void mutex48_enqueue(struct mutex48 *lock, struct mutex48_waiter *w)
{
	struct mutex48_waiter **p = &lock->waiters;

	while (*p)
		p = &(*p)->next;
	w->next = NULL;
	*p = w;
}

static void mutex48_dequeue(struct mutex48 *lock, struct mutex48_waiter *w)
{
	struct mutex48_waiter **p = &lock->waiters;

	while (*p != w)
		p = &(*p)->next;
	*p = w->next;
}

struct task_struct *mutex48_owner(const struct mutex48 *lock)
{
	return lock->owner;
}

const char *mutex48_check_state(const struct mutex48 *lock)
{
	int count = lock->count.counter;
	const struct mutex48_waiter *w;

	if (count > 1)
		return "mutex48: count above 1";
	if (count == 1 && lock->owner)
		return "mutex48: free (count 1) with an owner";
	for (w = lock->waiters; w; w = w->next)
		if (w->task == lock->owner)
			return "mutex48: the owner is on its wait list";
	return NULL;
}

/* The spinner's test before its cmpxchg: a read first, as 4.8 did. */
static bool mutex48_try_to_acquire(struct mutex48 *lock)
{
	return atomic_read(&lock->count) == 1 &&
	       atomic_cmpxchg_acquire(&lock->count, 1, 0) == 1;
}

/*
 * Spin while @owner holds @lock and runs.  Return: true if the owner
 * changed (the caller tries to take it), false if the spinner should
 * stop (the owner is off its CPU, or we should reschedule).
 */
static bool mutex48_spin_on_owner(struct mutex48 *lock,
				  struct task_struct *owner)
{
	bool ret = true;

	rcu_read_lock();
	while (READ_ONCE(lock->owner) == owner) {
		barrier();
		if (!owner_on_cpu(owner) || need_resched()) {
			ret = false;
			break;
		}
		cpu_relax();
	}
	rcu_read_unlock();
	return ret;
}

/* Spinning makes sense only if there is no owner or it runs. */
static bool mutex48_can_spin_on_owner(struct mutex48 *lock)
{
	struct task_struct *owner;
	bool ret = true;

	if (need_resched())
		return false;
	rcu_read_lock();
	owner = READ_ONCE(lock->owner);
	if (owner)
		ret = owner_on_cpu(owner);
	rcu_read_unlock();
	return ret;
}

/*
 * Optimistic spinning, before joining the wait list: one spinner at a
 * time (the OSQ's head) watches the owner and, when it lets go, tries at
 * once.  Return: true if the lock is ours.  Preemption is disabled.
 */
static bool mutex48_optimistic_spin(struct mutex48 *lock)
{
	struct task_struct *task = current;

	if (!mutex48_can_spin_on_owner(lock))
		goto done;
	if (!osq_lock(&lock->osq))
		goto done;
	for (;;) {
		struct task_struct *owner = READ_ONCE(lock->owner);

		if (owner && !mutex48_spin_on_owner(lock, owner))
			break;
		if (mutex48_try_to_acquire(lock)) {
			WRITE_ONCE(lock->owner, task);
			osq_unlock(&lock->osq);
			return true;
		}
		/* no owner: taken and not yet named, or being released */
		if (!owner && need_resched())
			break;
		cpu_relax();
	}
	osq_unlock(&lock->osq);
done:
	if (need_resched()) {
		__set_current_state(TASK_RUNNING);
		schedule_preempt_disabled();
	}
	return false;
}

/* Wake the first waiter, if any; under wait_lock. */
static void mutex48_wake_first(struct mutex48 *lock)
{
	if (lock->waiters)
		wake_up_process(lock->waiters->task);
}

static noinline int mutex48_lock_slowpath(struct mutex48 *lock,
					  unsigned int state)
{
	struct task_struct *task = current;
	struct mutex48_waiter waiter;

	preempt_disable();
	trace_contention_begin(lock, LCB_F_MUTEX | LCB_F_SPIN);
	if (mutex48_optimistic_spin(lock)) {
		trace_contention_end(lock, 0);
		preempt_enable();
		return 0;
	}
	raw_spin_lock(&lock->wait_lock);
	/* once more before queueing; -1: waiters perhaps, from now on */
	if (atomic_xchg_acquire(&lock->count, -1) == 1)
		goto taken;
	waiter.task = task;
	mutex48_enqueue(lock, &waiter);
	trace_contention_begin(lock, LCB_F_MUTEX);
	for (;;) {
		if (atomic_read(&lock->count) >= 0 &&
		    atomic_xchg_acquire(&lock->count, -1) == 1)
			break;
		if (signal_pending_state(state, task)) {
			__set_current_state(TASK_RUNNING);
			mutex48_dequeue(lock, &waiter);
			/* [R] the wakeup this task took goes on (header) */
			if (atomic_read(&lock->count) == 1)
				mutex48_wake_first(lock);
			raw_spin_unlock(&lock->wait_lock);
			trace_contention_end(lock, -EINTR);
			preempt_enable();
			return -EINTR;
		}
		__set_current_state(state);
		raw_spin_unlock(&lock->wait_lock);
		schedule_preempt_disabled();
		raw_spin_lock(&lock->wait_lock);
	}
	__set_current_state(TASK_RUNNING);
	mutex48_dequeue(lock, &waiter);
	if (!lock->waiters)
		atomic_set(&lock->count, 0);	/* nobody left to wake */
taken:
	WRITE_ONCE(lock->owner, task);
	raw_spin_unlock(&lock->wait_lock);
	trace_contention_end(lock, 0);
	preempt_enable();
	return 0;
}

/* The fast path: the decrement took it iff it left 0. */
static int mutex48_lock_common(struct mutex48 *lock, unsigned int state)
{
	might_sleep();
	if (atomic_dec_return_acquire(&lock->count) == 0) {
		WRITE_ONCE(lock->owner, current);
		return 0;
	}
	return mutex48_lock_slowpath(lock, state);
}

void mutex48_lock(struct mutex48 *lock)
{
	mutex48_lock_common(lock, TASK_UNINTERRUPTIBLE);
}

int mutex48_lock_interruptible(struct mutex48 *lock)
{
	return mutex48_lock_common(lock, TASK_INTERRUPTIBLE);
}

void mutex48_unlock(struct mutex48 *lock)
{
	WARN_ON_ONCE(lock->owner != current);	/* plain: costs no time */
	WRITE_ONCE(lock->owner, NULL);
	if (atomic_inc_return_release(&lock->count) > 0)
		return;
	/* waiters perhaps: free it first, then wake the first of them */
	atomic_set_release(&lock->count, 1);
	raw_spin_lock(&lock->wait_lock);
	mutex48_wake_first(lock);
	raw_spin_unlock(&lock->wait_lock);
}
