/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/spinlock_types.h - arch_spinlock_t and arch_rwlock_t of "arch sim".
 *
 * Stage: kernel (locking).  Included by the real linux/spinlock_types_raw.h
 * and linux/rwlock_types.h.
 * Contract: arch_spinlock_t is struct qspinlock (4 bytes:
 * locked byte, pending byte, 16-bit tail), arch_rwlock_t is struct qrwlock.
 */
#ifndef _SIM_ASM_SPINLOCK_TYPES_H
#define _SIM_ASM_SPINLOCK_TYPES_H

#include <asm/byteorder.h>
#include <asm-generic/qspinlock_types.h>
#include <asm-generic/qrwlock_types.h>

#endif /* _SIM_ASM_SPINLOCK_TYPES_H */
