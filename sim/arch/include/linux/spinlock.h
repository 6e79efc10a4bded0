/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/spinlock.h (shadow) - spinlock_t and raw_spinlock_t operations on
 * the real queued spinlock.
 *
 * Stage: kernel (locking).  Used by the futex code (hash-bucket locks,
 * pi_lock, pi_mutex.wait_lock) and any kernel TU.  Calls the machine's
 * trace (sim/machine/hooks.h) when --trace asks for qspinlock events, and the real
 * asm-generic/qspinlock.h fast paths (asm/qspinlock.h), whose slow path is
 * the real queued_spin_lock_slowpath() in kernel/locking/qspinlock.c.
 *
 * The types are the real ones (linux/spinlock_types.h: spinlock_t wraps
 * raw_spinlock_t, which wraps arch_spinlock_t = struct qspinlock; without
 * lockdep or spinlock debugging there is nothing else in them).  The real
 * header is replaced because its lock functions go through lockdep, debug
 * checks and out-of-line kernel/locking/spinlock.c.
 *
 * Contract (the kernel's):
 *  - *_lock() disables preemption, then spins until the lock is taken;
 *    *_unlock() releases it, then enables preemption.  A lock holder is
 *    therefore never preempted by the machine (linux/preempt.h).
 *  - *_trylock() takes the lock only if it is free. Return: 1 if taken
 *    (preemption stays disabled), 0 if not (preemption state unchanged).
 *  - The _irq, _irqsave and _irqrestore forms behave as the plain forms:
 *    there are no interrupts (linux/irqflags.h); flags is set to 0.
 *  - _nested forms take a lockdep subclass, which is ignored.
 *  - Every access to the lock word is a hooked atomic or READ/WRITE_ONCE
 *    of the real qspinlock code, so contention is simulated access by
 *    access.
 *  - With --trace's qspinlock event selected, the lock, trylock and unlock
 *    operations report the word before and after (sim_trace_qspinlock()):
 *    what the operation found and what it left, not every intermediate
 *    transition inside the slow path (those are the real code's atomics).
 */
#ifndef _SIM_LINUX_SPINLOCK_H
#define _SIM_LINUX_SPINLOCK_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/spinlock_types.h>
#include <linux/preempt.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/bug.h>
#include <linux/cleanup.h>
#include <asm/qspinlock.h>
#include <sim/machine/hooks.h>

/* Acquiring an x86 spinlock is a full barrier already. */
#define smp_mb__after_spinlock()	barrier()

/* ---- raw_spinlock_t ---- */

#define raw_spin_lock_init(lock)					\
do {									\
	*(lock) = __RAW_SPIN_LOCK_UNLOCKED(lock);			\
} while (0)

/*
 * --trace's qspinlock events: the lock word, in (tail,pending,locked), at
 * each end of an operation.  The word is read by ksim_trace_peek32(),
 * not READ_ONCE(): no hook, so tracing does not change the run.  Out of line
 * (the hot path keeps one branch on sim_trace_mask) but static, so that
 * each build of the real qspinlock (generic, x86) traces its own
 * arch_spin_lock().
 */
#define KSIM_TRACE_QSPIN	SIM_TRACE_BIT(SIM_TEV_QSPINLOCK)

/* ksim_trace_peek32 - the 32 bits at @p, read by code no build
 * instruments (sim/arch/instrument.c): with INSTR=1 a plain load here
 * would be a hook and a volatile one the race oracle's, and a run
 * traced would not be the run untraced. */
u32 ksim_trace_peek32(const void *p);

static inline u32 ksim_spin_word(const raw_spinlock_t *lock)
{
	return ksim_trace_peek32(&lock->raw_lock.val.counter);
}

/*
 * queued_spin_lock() of asm-generic/qspinlock.h (which arch_spin_lock()
 * is, in both builds), spelled out so that the trace sees whether the
 * fast path's cmpxchg failed and what it found: the same accesses in the
 * same order, so the run is the one an untraced run makes.
 */
#ifdef queued_spin_lock
#error "ksim_traced_spin_lock() spells out the generic queued_spin_lock()"
#endif
static noinline void ksim_traced_spin_lock(raw_spinlock_t *lock)
{
	struct qspinlock *q = &lock->raw_lock;
	int val = 0;

	/* the layout sim/trace/trace_text.c decodes (NR_CPUS < 16K) */
	BUILD_BUG_ON(_Q_PENDING_OFFSET != 8 || _Q_TAIL_IDX_OFFSET != 16 ||
		     _Q_TAIL_CPU_OFFSET != 18);
	if (likely(atomic_try_cmpxchg_acquire(&q->val, &val, _Q_LOCKED_VAL))) {
		sim_trace_qspinlock(lock, SIM_QS_LOCK, 0, ksim_spin_word(lock));
		return;
	}
	sim_trace_qspinlock(lock, SIM_QS_SLOWPATH, val, val);
	queued_spin_lock_slowpath(q, val);
	sim_trace_qspinlock(lock, SIM_QS_LOCK, val, ksim_spin_word(lock));
}

static noinline int ksim_traced_spin_trylock(raw_spinlock_t *lock)
{
	u32 old = ksim_spin_word(lock);
	int ok = arch_spin_trylock(&lock->raw_lock);

	sim_trace_qspinlock(lock, ok ? SIM_QS_TRYLOCK : SIM_QS_TRYFAIL, old,
			    ksim_spin_word(lock));
	return ok;
}

static noinline void ksim_traced_spin_unlock(raw_spinlock_t *lock)
{
	u32 old = ksim_spin_word(lock);

	arch_spin_unlock(&lock->raw_lock);
	sim_trace_qspinlock(lock, SIM_QS_UNLOCK, old, ksim_spin_word(lock));
}

static __always_inline void raw_spin_lock(raw_spinlock_t *lock)
{
	preempt_disable();
	if (unlikely(sim_trace_mask & KSIM_TRACE_QSPIN))
		ksim_traced_spin_lock(lock);
	else
		arch_spin_lock(&lock->raw_lock);
}

static __always_inline int raw_spin_trylock(raw_spinlock_t *lock)
{
	preempt_disable();
	if (unlikely(sim_trace_mask & KSIM_TRACE_QSPIN)) {
		if (ksim_traced_spin_trylock(lock))
			return 1;
	} else if (arch_spin_trylock(&lock->raw_lock)) {
		return 1;
	}
	preempt_enable();
	return 0;
}

static __always_inline void raw_spin_unlock(raw_spinlock_t *lock)
{
	if (unlikely(sim_trace_mask & KSIM_TRACE_QSPIN))
		ksim_traced_spin_unlock(lock);
	else
		arch_spin_unlock(&lock->raw_lock);
	preempt_enable();
}

static __always_inline int raw_spin_is_locked(raw_spinlock_t *lock)
{
	return arch_spin_is_locked(&lock->raw_lock);
}

#define raw_spin_lock_nested(lock, subclass)	raw_spin_lock(lock)
#define raw_spin_lock_irq(lock)			raw_spin_lock(lock)
#define raw_spin_unlock_irq(lock)		raw_spin_unlock(lock)

#define raw_spin_lock_irqsave(lock, flags)				\
do {									\
	local_irq_save(flags);						\
	raw_spin_lock(lock);						\
} while (0)

#define raw_spin_unlock_irqrestore(lock, flags)				\
do {									\
	raw_spin_unlock(lock);						\
	local_irq_restore(flags);					\
} while (0)

#define assert_raw_spin_locked(lock)	BUG_ON(!raw_spin_is_locked(lock))

/* ---- spinlock_t: the same lock, one level of wrapping up ---- */

#define spin_lock_init(lock)						\
do {									\
	*(lock) = __SPIN_LOCK_UNLOCKED(lock);				\
} while (0)

static __always_inline void spin_lock(spinlock_t *lock)
{
	raw_spin_lock(&lock->rlock);
}

static __always_inline int spin_trylock(spinlock_t *lock)
{
	return raw_spin_trylock(&lock->rlock);
}

static __always_inline void spin_unlock(spinlock_t *lock)
{
	raw_spin_unlock(&lock->rlock);
}

static __always_inline int spin_is_locked(spinlock_t *lock)
{
	return raw_spin_is_locked(&lock->rlock);
}

#define spin_lock_nested(lock, subclass)	spin_lock(lock)
#define spin_lock_irq(lock)			spin_lock(lock)
#define spin_unlock_irq(lock)			spin_unlock(lock)
#define spin_lock_irqsave(lock, flags)					\
	raw_spin_lock_irqsave(&(lock)->rlock, flags)
#define spin_unlock_irqrestore(lock, flags)				\
	raw_spin_unlock_irqrestore(&(lock)->rlock, flags)

#define assert_spin_locked(lock)	assert_raw_spin_locked(&(lock)->rlock)

/* ---- scope-based guards (linux/cleanup.h) ---- */

DEFINE_LOCK_GUARD_1(raw_spinlock, raw_spinlock_t,
		    raw_spin_lock(_T->lock), raw_spin_unlock(_T->lock))
DEFINE_LOCK_GUARD_1(raw_spinlock_irq, raw_spinlock_t,
		    raw_spin_lock_irq(_T->lock), raw_spin_unlock_irq(_T->lock))
DEFINE_LOCK_GUARD_1(raw_spinlock_irqsave, raw_spinlock_t,
		    raw_spin_lock_irqsave(_T->lock, _T->flags),
		    raw_spin_unlock_irqrestore(_T->lock, _T->flags),
		    unsigned long flags)
DEFINE_LOCK_GUARD_1(spinlock, spinlock_t,
		    spin_lock(_T->lock), spin_unlock(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irq, spinlock_t,
		    spin_lock_irq(_T->lock), spin_unlock_irq(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irqsave, spinlock_t,
		    spin_lock_irqsave(_T->lock, _T->flags),
		    spin_unlock_irqrestore(_T->lock, _T->flags),
		    unsigned long flags)

#endif /* _SIM_LINUX_SPINLOCK_H */
