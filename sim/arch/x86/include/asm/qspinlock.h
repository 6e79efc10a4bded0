/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/arch/x86/include/asm/qspinlock.h - the queued spinlock with the
 * settings of arch/x86, for the second build of the real
 * kernel/locking/qspinlock.c (the qspinlock-x86 lock of workload=spin).
 *
 * Stage: kernel (locking).  Shadows sim/arch/include/asm/qspinlock.h:
 * the Makefile puts sim/arch/x86/include first on the include path of the
 * x86 objects only (KX86FLAGS: the x86 copy of qspinlock.c and
 * the .c files of sim/arch/x86).  Everything else of the shim is shared.
 *
 * What x86 changes in the slow path, and nothing more (no paravirt, no
 * virt_spin_lock(): not configured):
 *
 *  - _Q_PENDING_LOOPS is 1 << 9: a CPU that finds the word at (0,1,0),
 *    a pending->locked hand-over in flight, re-reads it up to 512 times
 *    before it queues (generic: 1).  The shim's smp_cond_load_relaxed()
 *    runs the first rounds one by one, then parks the CPU until the
 *    line is written.  The hand-over's own store ends (0,1,0) a few
 *    accesses later, and that store unparks the waiter, so the wait the
 *    loop would have made is charged; the 512-round cap would be reached
 *    only if (0,1,0) lasted 512 cpu_relax() rounds, which needs the
 *    pending CPU, preemption disabled, to stall there.
 *
 *  - queued_fetch_set_pending_acquire() is "lock bts" on the pending bit,
 *    which returns only that bit's old value, then a separate read of the
 *    word for the other fields (the generic code does one fetch_or that
 *    returns the whole old word).  The read is a later snapshot: tail or
 *    locked may have changed between the two accesses.
 */
#ifndef _SIM_X86_ASM_QSPINLOCK_H
#define _SIM_X86_ASM_QSPINLOCK_H

#include <asm/byteorder.h>	/* __LITTLE_ENDIAN for qspinlock_types.h */
#include <asm-generic/qspinlock_types.h>
#include <linux/atomic.h>

#define _Q_PENDING_LOOPS	(1 << 9)

#define queued_fetch_set_pending_acquire queued_fetch_set_pending_acquire
static __always_inline u32 queued_fetch_set_pending_acquire(struct qspinlock *lock)
{
	u32 pending, rest;

	/* bts: one RMW; the flags give back the bit's old value only */
	pending = atomic_fetch_or_acquire(_Q_PENDING_VAL, &lock->val) &
		  _Q_PENDING_VAL;
	/* the locked byte and the tail: a plain load afterwards */
	rest = atomic_read(&lock->val) & ~_Q_PENDING_MASK;

	return pending | rest;
}

#include <asm-generic/qspinlock.h>

#endif /* _SIM_X86_ASM_QSPINLOCK_H */
