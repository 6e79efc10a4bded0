/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex/kspin.h - the kernel spinlocks that workload=spin and the tests
 * drive, and the qspinlock's own lock event counts.
 *
 * Stage: workload -> kernel boundary (glue).  Plain C only: included by
 * host code (workloads/spin.c, tests/test_spin.c) and by the kernel TUs
 * that implement it, which check the declarations against their
 * definitions:
 *   futex/kspin.c           ticket (futex/ticket.c), qspinlock-generic
 *                           (the real kernel/locking/qspinlock.c) and
 *                           the lock event counters;
 *   sim/arch/x86/kspin.c    qspinlock-x86: the same real file built a
 *                           second time with the x86 settings (Makefile).
 *
 * @lock points to a zeroed, 4-byte aligned 32-bit word in simulated memory
 * (sim_arena_alloc()), used by one kind of lock only.  Call from simulated
 * tasks only: each function makes hooked accesses and may switch CPUs.
 * *_lock() disables preemption and *_unlock() enables it again, as
 * spin_lock() does: a holder is never preempted.
 */
#ifndef SIM_FUTEX_KSPIN_H
#define SIM_FUTEX_KSPIN_H

/* Every lock of this header is one 32-bit word. */
#define KSIM_SPIN_BYTES		4

/* The ticket lock of futex/ticket.h: tail (next ticket) in the high half,
 * head (now serving) in the low half. */
void ksim_spin_ticket_lock(void *lock);
void ksim_spin_ticket_unlock(void *lock);
/* ksim_spin_ticket_trylock - Return: 1 if taken, 0 if not. */
int ksim_spin_ticket_trylock(void *lock);

/* The real qspinlock, generic build: _Q_PENDING_LOOPS 1, pending set with
 * an atomic fetch_or (spin_lock() of sim/arch/include/linux/spinlock.h). */
void ksim_spin_qgeneric_lock(void *lock);
void ksim_spin_qgeneric_unlock(void *lock);

/* The real qspinlock, x86 build: _Q_PENDING_LOOPS 512, pending set with a
 * bts then a read of the word (sim/arch/x86/include/asm/qspinlock.h). */
void ksim_spin_qx86_lock(void *lock);
void ksim_spin_qx86_unlock(void *lock);

/*
 * Where qspinlock acquisitions went: the real file's lockevent_inc()
 * counts (CONFIG_LOCK_EVENT_COUNTS, kernel/locking/lock_events_list.h),
 * summed over the CPUs.  Both qspinlock builds count into the same
 * per-CPU array; a run uses one lock.
 *   pending   acquisitions through the pending bit (lock_pending)
 *   queue     acquisitions through the MCS queue (lock_slowpath: counted
 *             at the "queue:" label only, so pending ones are not in it)
 *   no_node   queued acquisitions that found no free per-CPU node
 * Fast-path acquisitions are the rest: acquisitions - pending - queue.
 */
struct ksim_spin_paths {
	unsigned long long pending;
	unsigned long long queue;
	unsigned long long no_node;
};

/* ksim_spin_paths_read - sum the counters of every simulated CPU. */
void ksim_spin_paths_read(struct ksim_spin_paths *p);
/* ksim_spin_paths_reset - zero them (the machine starts with zeros). */
void ksim_spin_paths_reset(void);

#endif /* SIM_FUTEX_KSPIN_H */
