/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/mcs_spinlock.h - MCS hand-over primitives of "arch sim".
 *
 * Stage: kernel (locking).  Included by kernel/locking/mcs_spinlock.h.
 * Contract: arch_mcs_spin_lock_contended(l) waits for *l to become
 * nonzero, as the generic smp_cond_load_acquire(l, VAL) does, with the
 * same loop (hooked loads and cpu_relax(), then parking), written as the
 * wait for a value sim_cond_load_acquire_ne(l, 0) of asm/barrier.h, so
 * that the dispatcher parks the waiter again when its successor's store
 * of node->next, on the same line, unparks it (as arm64 overrides it,
 * with WFE).  arch_mcs_spin_unlock_contended() is the generic hooked
 * smp_store_release().
 */
#ifndef _SIM_ASM_MCS_SPINLOCK_H
#define _SIM_ASM_MCS_SPINLOCK_H

#include <asm/barrier.h>

#define arch_mcs_spin_lock_contended(l)					\
do {									\
	sim_cond_load_acquire_ne(l, 0);					\
} while (0)

#include <asm-generic/mcs_spinlock.h>

#endif /* _SIM_ASM_MCS_SPINLOCK_H */
