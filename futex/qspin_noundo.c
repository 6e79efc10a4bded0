/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex/qspin_noundo.c - a queued spinlock that forgets to undo a stray
 * pending bit: the negative control "qspinlock-noundo" of workload=spin
 * and of the explore bug catalogue (workloads/bugs/qspin-noundo.scn).
 *
 * Stage: workload -> kernel (project-side kernel code, compiled like the
 * kernel files against the arch shim).  Called by workloads/spin.c
 * through futex/qspin_noundo.h; calls the shim's atomics, per-CPU data
 * and smp_cond_load_*() (which park the CPU, sim_spin_wait_reload()).
 *
 * This is not the kernel's qspinlock.c (which is compiled unmodified as
 * qspinlock-generic and qspinlock-x86): it is a small queued spinlock
 * written here with the same word (locked byte, pending bit, tail) and the
 * same state machine as the mainline slow path, all in 32-bit atomics, and with one
 * step left out.  A locker that saw the word free except for the owner
 * sets PENDING with a fetch_or; if the old value shows that meanwhile a
 * waiter queued (tail set, pending clear), the PENDING just set is a stray
 * and the correct lock clears it again before queueing (the undo of
 * commit 59fb586b4a07, Linux 4.18).  Here it stays set: the queue head waits for "no owner and no
 * pending" for ever, and every later locker queues behind it.  The race
 * needs a locker delayed between its first read and its fetch_or while
 * another takes the pending path, a third queues and the owner hands over
 * to the pending waiter.  ksim_spin_qundo_lock() is the same lock with
 * the undo: the correct counterpart (lock=qspinlock-undo).
 */
#include <linux/atomic.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/smp.h>

#include "futex/qspin_noundo.h"

#define QNU_LOCKED		1U		/* the owner's byte	*/
#define QNU_LOCKED_MASK		0xffU
#define QNU_PENDING		(1U << 8)	/* one waiter, first	*/
#define QNU_TAIL_SHIFT		16		/* CPU + 1 of the last	*/
#define QNU_TAIL_MASK		(~0U << QNU_TAIL_SHIFT)

struct qnu_node {
	struct qnu_node *next;
	int locked;			/* set by the predecessor	*/
};

static DEFINE_PER_CPU_ALIGNED(struct qnu_node, qnu_node);

/* Queue the calling CPU at the tail; Return: the old word. */
static u32 qnu_publish(atomic_t *v, u32 tail)
{
	u32 old = atomic_read(v);

	while (!atomic_try_cmpxchg_release(v, &old,
					   (old & ~QNU_TAIL_MASK) | tail))
		;
	return old;
}

/* The head of the queue takes the lock once owner and pending are gone. */
static void qnu_head(atomic_t *v, struct qnu_node *node, u32 tail)
{
	struct qnu_node *next;
	u32 val;

	val = atomic_cond_read_acquire(v, !(VAL & (QNU_LOCKED_MASK | QNU_PENDING)));
	while ((val & QNU_TAIL_MASK) == tail) {
		/* last in the queue: take the lock and empty the queue */
		if (atomic_try_cmpxchg_relaxed(v, &val,
					       QNU_LOCKED | (val & QNU_PENDING)))
			return;
	}
	atomic_or(QNU_LOCKED, v);
	next = smp_cond_load_relaxed(&node->next, VAL);
	smp_store_release(&next->locked, 1);
}

static void qnu_queue(atomic_t *v)
{
	struct qnu_node *node = this_cpu_ptr(&qnu_node);
	u32 tail = (u32)(smp_processor_id() + 1) << QNU_TAIL_SHIFT;
	u32 old;

	node->locked = 0;
	node->next = NULL;
	old = qnu_publish(v, tail);
	if (old & QNU_TAIL_MASK) {
		struct qnu_node *prev;

		prev = per_cpu_ptr(&qnu_node, (old >> QNU_TAIL_SHIFT) - 1);
		WRITE_ONCE(prev->next, node);
		smp_cond_load_acquire(&node->locked, VAL);
	}
	qnu_head(v, node, tail);
}

static void qnu_slowpath(atomic_t *v, u32 val, int undo)
{
	if (val & ~QNU_LOCKED_MASK) {
		qnu_queue(v);		/* contended: queue at once */
		return;
	}
	val = atomic_fetch_or_acquire(QNU_PENDING, v);
	if (val & ~QNU_LOCKED_MASK) {
		/* someone queued or is pending: ours may be a stray */
		if (undo && !(val & QNU_PENDING))
			atomic_andnot(QNU_PENDING, v);
		qnu_queue(v);
		return;
	}
	/* we are the pending waiter: wait for the owner, then take over */
	if (val & QNU_LOCKED_MASK)
		atomic_cond_read_acquire(v, !(VAL & QNU_LOCKED_MASK));
	atomic_add((int)QNU_LOCKED - (int)QNU_PENDING, v);
}

static void qnu_lock(void *lock, int undo)
{
	atomic_t *v = lock;
	int val = 0;

	preempt_disable();
	if (atomic_try_cmpxchg_acquire(v, &val, QNU_LOCKED))
		return;
	qnu_slowpath(v, (u32)val, undo);
}

void ksim_spin_qnoundo_lock(void *lock)
{
	qnu_lock(lock, 0);
}

void ksim_spin_qundo_lock(void *lock)
{
	qnu_lock(lock, 1);
}

void ksim_spin_qnoundo_unlock(void *lock)
{
	atomic_fetch_andnot_release(QNU_LOCKED_MASK, (atomic_t *)lock);
	preempt_enable();
}
