/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/mcs_spinlock.h - MCS hand-over primitives of "arch sim".
 *
 * Stage: kernel (locking).  Included by kernel/locking/mcs_spinlock.h.
 * Contract: no arch overrides, so arch_mcs_spin_lock_contended() is the
 * generic smp_cond_load_acquire() spin (hooked loads and cpu_relax()) and
 * arch_mcs_spin_unlock_contended() a hooked smp_store_release().
 */
#ifndef _SIM_ASM_MCS_SPINLOCK_H
#define _SIM_ASM_MCS_SPINLOCK_H

#include <asm-generic/mcs_spinlock.h>

#endif /* _SIM_ASM_MCS_SPINLOCK_H */
