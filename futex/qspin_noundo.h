/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex/qspin_noundo.h - a project-side queued spinlock with and without
 * the undo of a stray pending bit (futex/qspin_noundo.c): the negative
 * control qspinlock-noundo of workload=spin and its counterpart.
 *
 * Stage: workload -> kernel boundary (glue).  Plain C only: included by
 * workloads/spin.c (host) and by futex/qspin_noundo.c (kernel TU).
 * @lock: KSIM_SPIN_BYTES (4) zeroed bytes of simulated memory, one kind of
 * lock per word.  *_lock() disables preemption, *_unlock() enables it
 * again, as spin_lock() does.  Call from simulated tasks only.
 */
#ifndef SIM_FUTEX_QSPIN_NOUNDO_H
#define SIM_FUTEX_QSPIN_NOUNDO_H

/* ksim_spin_qnoundo_lock - take @lock; a stray pending bit is left set. */
void ksim_spin_qnoundo_lock(void *lock);
/* ksim_spin_qundo_lock - take @lock; a stray pending bit is cleared. */
void ksim_spin_qundo_lock(void *lock);
/* ksim_spin_qnoundo_unlock - release @lock (taken by either). */
void ksim_spin_qnoundo_unlock(void *lock);

#endif /* SIM_FUTEX_QSPIN_NOUNDO_H */
