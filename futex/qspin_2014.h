/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex/qspin_2014.h - the queued spinlock of the 2014 qspinlock series
 * with its pending-bit policies as a switch (docs/studies/qspinlock-2014.md): the locks
 * qspinlock-v10, qspinlock-v11, qspinlock-v12 and qspinlock-peterz of
 * workload=spin (futex/qspin_2014.c).
 *
 * Stage: workload -> kernel boundary (glue).  Plain C only: included by
 * workloads/spin.c and tests/test_qspin_2014.c (host) and by
 * futex/qspin_2014.c (kernel TU), which checks the declarations against
 * its definitions.
 *
 * @lock: KSIM_SPIN_BYTES (4) zeroed bytes of simulated memory, 4-byte
 * aligned, used by one kind of lock only: the qspinlock word (locked
 * byte, pending byte, tail halfword of CPU + 1 and node index).  Every
 * *_lock() disables preemption and ksim_spin_q2014_unlock() enables it
 * again, as spin_lock() does.  Call from simulated tasks only: each
 * function makes hooked accesses and may switch CPUs.
 *
 * Acquisitions are counted in the lock event counters of the real
 * qspinlock.c (lock_pending, lock_slowpath, lock_no_node: struct
 * ksim_spin_paths of futex/kspin.h), at the same places as there.
 */
#ifndef SIM_FUTEX_QSPIN_2014_H
#define SIM_FUTEX_QSPIN_2014_H

/* QS_V10: any bit outside the locked byte -> queue (no (0,1,0) wait). */
void ksim_spin_qv10_lock(void *lock);
/* QS_V11_WAIMAN: queue on a tail or (0,1,1); wait out (0,1,0) in the
 * loop, also after a failed cmpxchg. */
void ksim_spin_qv11_lock(void *lock);
/* QS_V12_TREE: as v11, but (0,1,1) gets one retry after 2 cpu_relax(). */
void ksim_spin_qv12_lock(void *lock);
/* QS_PETERZ_2015: wait while the word is (0,1,0), then the v10 loop. */
void ksim_spin_qpeterz_lock(void *lock);
/*
 * ksim_spin_q2014_broken_lock - a NEGATIVE CONTROL for the tests: v10
 * whose pending waiter takes the lock without waiting for the owner to
 * leave, so two CPUs can be inside at once.  Never registered as a lock.
 */
void ksim_spin_q2014_broken_lock(void *lock);
/* ksim_spin_q2014_unlock - release @lock, taken by any of the above. */
void ksim_spin_q2014_unlock(void *lock);

#endif /* SIM_FUTEX_QSPIN_2014_H */
