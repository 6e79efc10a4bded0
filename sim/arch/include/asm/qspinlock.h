/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/qspinlock.h - the spinlock of "arch sim": the kernel's generic queued
 * spinlock.
 *
 * Stage: kernel (locking).  Included by linux/spinlock.h (ours) and by
 * kernel/locking/qspinlock.c.  The fast paths are the real
 * asm-generic/qspinlock.h inlines (queued_spin_lock(), _unlock(),
 * _trylock()), the slow path is the real queued_spin_lock_slowpath() of
 * kernel/locking/qspinlock.c, and arch_spin_*() map onto them.
 *
 * This is qspinlock as built for an architecture without its own
 * queued_fetch_set_pending_acquire() and without paravirt or
 * virt_spin_lock(): _Q_PENDING_LOOPS is 1 and the pending bit is set with
 * an atomic fetch_or (x86 uses 512 loops and "lock bts" then a re-read).
 */
#ifndef _SIM_ASM_QSPINLOCK_H
#define _SIM_ASM_QSPINLOCK_H

#include <asm/byteorder.h>	/* __LITTLE_ENDIAN for qspinlock_types.h */
#include <asm-generic/qspinlock.h>

#endif /* _SIM_ASM_QSPINLOCK_H */
