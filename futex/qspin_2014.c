/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex/qspin_2014.c - the queued spinlock as the 2014 series had it,
 * with the pending-bit policy argued over in the LKML thread "[PATCH v11
 * 06/16] qspinlock: prolong the stay in the pending bit path" (Waiman
 * Long, Peter Zijlstra, May-June 2014) as a switch: the kernel locks
 * qspinlock-v10, -v11, -v12 and -peterz of workload=spin
 * (docs/studies/qspinlock-2014.md).
 *
 * Stage: workload -> kernel (project-side kernel code, compiled like the
 * kernel files against the arch shim).  Called by workloads/spin.c and
 * the tests through futex/qspin_2014.h; calls the shim's atomics,
 * per-CPU data, cpu_relax() and smp_cond_load_*() / atomic_cond_read_*()
 * (which park the CPU: sim_spin_wait_reload()), the real lock_events.h counters
 * and the --trace qspinlock events (sim/machine/hooks.h).
 *
 * This is not kernel/locking/qspinlock.c (compiled unmodified as
 * qspinlock-generic and qspinlock-x86, which waits a bounded time on
 * (0,1,0) and sets pending with a fetch_or and an undo): it is written
 * here from the 2014 thread and series, on the same word (struct qspinlock: locked
 * byte, 8-bit pending byte, 16-bit tail of CPU + 1 and node index) and
 * with the 2014 series' smaller-NR_CPUS forms (halfword store for
 * 0,1,0 -> 0,0,1, 16-bit xchg of the tail, byte store of locked by the
 * queue head).  Only the start of the slow path differs by policy:
 *
 *   QS_V10          cmpxchg loop "trylock || pending": any bit outside
 *                   the locked byte queues, so a CPU that comes back
 *                   while the pending waiter has not yet taken over
 *                   (0,1,0) queues behind it;
 *   QS_V11_WAIMAN   the loop queues on a tail or on (0,1,1) only; on
 *                   (0,1,0) it relaxes, re-reads and loops, without
 *                   bound, also when a failed cmpxchg returned (0,1,0);
 *   QS_V12_TREE     as v11, and (0,1,1) gets one more look after two
 *                   cpu_relax() before queueing (longman88's tree);
 *   QS_PETERZ_2015  wait while the word is exactly (0,1,0), then the
 *                   unchanged v10 loop (merged for 4.2);
 *   QS_BROKEN       v10 whose pending waiter does not wait for the owner:
 *                   the tests' negative control.
 *
 * Counters (futex/kspin.h): lock_pending when the lock is taken through
 * the pending bit, lock_slowpath on entering the queue (a trylock there
 * that wins still counts as queued), lock_no_node when no node is left.
 */
#include <linux/atomic.h>
#include <linux/build_bug.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/smp.h>
#include <linux/spinlock.h>
#include <asm/processor.h>

#include "lock_events.h"
#include "futex/kspin.h"
#include "futex/qspin_2014.h"

static_assert(sizeof(struct qspinlock) == KSIM_SPIN_BYTES, "one word");

enum qs2014_policy {
	QS_V10,
	QS_V11_WAIMAN,
	QS_V12_TREE,
	QS_PETERZ_2015,
	QS_BROKEN,
};

/* What the "trylock || pending" loop ended with. */
enum q14_claim {
	Q14_LOCKED,		/* 0,0,0 -> 0,0,1: ours at once		*/
	Q14_PENDING,		/* 0,0,1 -> 0,1,1: wait for the owner	*/
	Q14_QUEUE,		/* contended: go to the MCS queue	*/
};

/* One per nesting level (task, softirq, hardirq, NMI) and CPU. */
#define Q14_MAX_NODES		4
#define Q14_LOCKED_PENDING	(_Q_LOCKED_VAL | _Q_PENDING_VAL)
#define Q14_OWNER_MASK		(_Q_LOCKED_MASK | _Q_PENDING_MASK)

struct q14_node {
	struct q14_node *next;	/* successor, set when it links in	*/
	int locked;		/* set by the predecessor: our turn	*/
	int count;		/* node[0] only: nodes in use		*/
};

static DEFINE_PER_CPU_ALIGNED(struct q14_node, q14_nodes[Q14_MAX_NODES]);

static u32 q14_encode_tail(int cpu, int idx)
{
	return (u32)(cpu + 1) << _Q_TAIL_CPU_OFFSET |
	       (u32)idx << _Q_TAIL_IDX_OFFSET;
}

static struct q14_node *q14_decode_tail(u32 tail)
{
	int cpu = (int)(tail >> _Q_TAIL_CPU_OFFSET) - 1;
	int idx = (tail & _Q_TAIL_IDX_MASK) >> _Q_TAIL_IDX_OFFSET;

	return per_cpu_ptr(&q14_nodes[idx], cpu);
}

static bool q14_trylock(struct qspinlock *lock)
{
	return !atomic_read(&lock->val) &&
	       atomic_cmpxchg_acquire(&lock->val, 0, _Q_LOCKED_VAL) == 0;
}

/*
 * v11 and v12 on a word with pending or a tail.  Return: true to queue,
 * false to look at *@val (re-read) again; @retry: v12's one extra look.
 */
static bool q14_v11_queue(struct qspinlock *lock, u32 *val,
			  enum qs2014_policy policy, int *retry)
{
	if (*val & _Q_TAIL_MASK)
		return true;
	if (*val == _Q_PENDING_VAL) {
		/* the pending waiter takes over soon: wait for it */
		cpu_relax();
		*val = atomic_cond_read_relaxed(&lock->val, VAL != _Q_PENDING_VAL);
		return false;
	}
	if (*val != Q14_LOCKED_PENDING || policy != QS_V12_TREE || !*retry)
		return true;
	(*retry)--;		/* v12: one more look at (0,1,1) */
	cpu_relax();
	cpu_relax();
	*val = atomic_read(&lock->val);
	return false;
}

/*
 * The start of the slow path under @policy: @val is what the fast path's
 * cmpxchg found.  Return: how this CPU goes on (enum q14_claim).
 */
static enum q14_claim q14_trylock_pending(struct qspinlock *lock, u32 val,
					  enum qs2014_policy policy)
{
	bool v11 = policy == QS_V11_WAIMAN || policy == QS_V12_TREE;
	int retry = 1;
	u32 new, old;

	if (policy == QS_PETERZ_2015 && val == _Q_PENDING_VAL)
		val = atomic_cond_read_relaxed(&lock->val, VAL != _Q_PENDING_VAL);
	for (;;) {
		if (v11 && (val & ~_Q_LOCKED_MASK)) {
			if (q14_v11_queue(lock, &val, policy, &retry))
				return Q14_QUEUE;
			continue;
		}
		if (val & ~_Q_LOCKED_MASK)
			return Q14_QUEUE;
		new = val == _Q_LOCKED_VAL ? Q14_LOCKED_PENDING : _Q_LOCKED_VAL;
		old = atomic_cmpxchg_acquire(&lock->val, val, new);
		if (old == val)
			return new == _Q_LOCKED_VAL ? Q14_LOCKED : Q14_PENDING;
		val = old;
	}
}

/* We hold the pending bit: wait for the owner, then 0,1,0 -> 0,0,1. */
static void q14_pending_take(struct qspinlock *lock, enum qs2014_policy policy)
{
	if (policy != QS_BROKEN)
		atomic_cond_read_acquire(&lock->val, !(VAL & _Q_LOCKED_MASK));
	/* nobody else writes locked or pending now: one halfword store */
	WRITE_ONCE(lock->locked_pending, _Q_LOCKED_VAL);
	lockevent_inc(lock_pending);
}

/*
 * Head of the queue: wait for owner and pending to leave (*,x,y ->
 * *,0,0), then take the lock, emptying the queue if we are its last
 * (n,0,0 -> 0,0,1), else with a byte store and a hand-over of the head.
 */
static void q14_head(struct qspinlock *lock, struct q14_node *node, u32 tail)
{
	struct q14_node *next;
	u32 val, old;

	val = atomic_cond_read_acquire(&lock->val, !(VAL & Q14_OWNER_MASK));
	for (;;) {
		if (val != tail) {
			WRITE_ONCE(lock->locked, _Q_LOCKED_VAL);
			break;
		}
		old = atomic_cmpxchg_relaxed(&lock->val, val, _Q_LOCKED_VAL);
		if (old == val)
			return;
		val = old;
	}
	next = smp_cond_load_relaxed(&node->next, VAL);
	smp_store_release(&next->locked, 1);
}

static void q14_queue(struct qspinlock *lock)
{
	struct q14_node *node = this_cpu_ptr(&q14_nodes[0]);
	u32 tail, old;
	int idx;

	lockevent_inc(lock_slowpath);
	idx = node->count++;
	if (unlikely(idx >= Q14_MAX_NODES)) {
		lockevent_inc(lock_no_node);
		while (!q14_trylock(lock))
			cpu_relax();
		goto release;
	}
	tail = q14_encode_tail(smp_processor_id(), idx);
	node += idx;
	node->locked = 0;
	node->next = NULL;
	/* the node's line was cold: the lock may be free by now */
	if (q14_trylock(lock))
		goto release;
	smp_wmb();
	old = (u32)xchg_relaxed(&lock->tail, tail >> _Q_TAIL_OFFSET) << _Q_TAIL_OFFSET;
	if (old & _Q_TAIL_MASK) {
		WRITE_ONCE(q14_decode_tail(old)->next, node);
		smp_cond_load_acquire(&node->locked, VAL);
	}
	q14_head(lock, node, tail);
release:
	__this_cpu_dec(q14_nodes[0].count);
}

static void q14_lock(void *word, enum qs2014_policy policy)
{
	struct qspinlock *lock = word;
	int val = 0;

	preempt_disable();
	if (likely(atomic_try_cmpxchg_acquire(&lock->val, &val, _Q_LOCKED_VAL))) {
		if (unlikely(sim_trace_mask & KSIM_TRACE_QSPIN))
			sim_trace_qspinlock(lock, SIM_QS_LOCK, 0, _Q_LOCKED_VAL);
		return;
	}
	if (unlikely(sim_trace_mask & KSIM_TRACE_QSPIN))
		sim_trace_qspinlock(lock, SIM_QS_SLOWPATH, val, val);
	switch (q14_trylock_pending(lock, (u32)val, policy)) {
	case Q14_LOCKED:
		break;
	case Q14_PENDING:
		q14_pending_take(lock, policy);
		break;
	case Q14_QUEUE:
		q14_queue(lock);
		break;
	}
	if (unlikely(sim_trace_mask & KSIM_TRACE_QSPIN))
		sim_trace_qspinlock(lock, SIM_QS_LOCK, val,
				    ksim_trace_peek32(&lock->val.counter));
}

void ksim_spin_qv10_lock(void *lock)
{
	q14_lock(lock, QS_V10);
}

void ksim_spin_qv11_lock(void *lock)
{
	q14_lock(lock, QS_V11_WAIMAN);
}

void ksim_spin_qv12_lock(void *lock)
{
	q14_lock(lock, QS_V12_TREE);
}

void ksim_spin_qpeterz_lock(void *lock)
{
	q14_lock(lock, QS_PETERZ_2015);
}

void ksim_spin_q2014_broken_lock(void *lock)
{
	q14_lock(lock, QS_BROKEN);
}

void ksim_spin_q2014_unlock(void *word)
{
	struct qspinlock *lock = word;
	u32 old = 0;

	if (unlikely(sim_trace_mask & KSIM_TRACE_QSPIN))	/* no hook */
		old = ksim_trace_peek32(&lock->val.counter);
	smp_store_release(&lock->locked, 0);
	if (unlikely(sim_trace_mask & KSIM_TRACE_QSPIN))
		sim_trace_qspinlock(lock, SIM_QS_UNLOCK, old,
				    ksim_trace_peek32(&lock->val.counter));
	preempt_enable();
}
