/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex/ticket.h - the ticket spinlock, the lock x86 used before
 * qspinlock (Linux 4.1 and earlier), in the project's own kernel-style code.
 *
 * Stage: kernel (locking).  Implemented in futex/ticket.c; used by the
 * spin-workload glue (futex/kspin.c), which the host drives through
 * futex/kspin.h.  Calls only the arch shim's hooked atomics and
 * sim_cond_load_acquire_eq(), so every access to the word is simulated.
 *
 * The lock word, 32 bits, little-endian:
 *
 *   31               16 15                0
 *  +-------------------+-------------------+
 *  |       tail        |       head        |
 *  +-------------------+-------------------+
 *
 *   head: the ticket being served; its holder owns the lock.
 *   tail: the next ticket to hand out.
 *
 * The lock is free when head == tail.  A locker takes a ticket by adding
 * TICKET_LOCK_INC << TICKET_TAIL_SHIFT to the whole word (x86: lock xadd):
 * tail sits in the high half, so the add never carries into head, and a
 * wrap of tail only drops a carry out of bit 31.  Tickets are 16 bits
 * because CONFIG_NR_CPUS (256) does not fit in an 8-bit ticket: as on x86,
 * 8-bit tickets serve fewer than 256 / TICKET_LOCK_INC CPUs.  Natively
 * the increment is 1 (2 with paravirt, which is not modelled: no slowpath
 * flag, no halting after SPIN_THRESHOLD).
 *
 * Properties: strictly FIFO (grant order is ticket order); every waiter
 * spins on the one word, so an unlock invalidates every waiter's copy.
 */
#ifndef _SIM_FUTEX_TICKET_H
#define _SIM_FUTEX_TICKET_H

#include <linux/types.h>
#include <linux/atomic.h>

#define TICKET_LOCK_INC		1
#define TICKET_TAIL_SHIFT	16
#define TICKET_HEAD_MASK	0xffffU

struct ticket_spinlock {
	union {
		atomic_t val;
		struct {
			u16 head;	/* now serving		*/
			u16 tail;	/* next ticket		*/
		};
	};
};

#define __TICKET_SPIN_LOCK_UNLOCKED	{ { .val = ATOMIC_INIT(0) } }

/**
 * ticket_spin_lock() - take a ticket and spin until it is served
 * @lock:	the lock
 *
 * One fetch-add on the word; if the ticket is not served at once, spin
 * on head until it equals the ticket, with sim_cond_load_acquire_eq()
 * (asm/barrier.h: the shim parks the CPU until the line is written, and
 * parks it again while head is another ticket).  The caller disables
 * preemption.
 */
void ticket_spin_lock(struct ticket_spinlock *lock);

/**
 * ticket_spin_trylock() - take the lock only if it is free
 * @lock:	the lock
 *
 * Return: 1 if taken, 0 if it was held or another CPU took a ticket
 * between the read and the cmpxchg.
 */
int ticket_spin_trylock(struct ticket_spinlock *lock);

/**
 * ticket_spin_unlock() - serve the next ticket
 * @lock:	a lock the caller holds
 *
 * Reads head and release-stores head + TICKET_LOCK_INC: only the holder
 * writes head, so no atomic RMW is needed (x86 used a plain add).
 */
void ticket_spin_unlock(struct ticket_spinlock *lock);

/**
 * ticket_spin_is_locked() - is any ticket outstanding?
 * @lock:	the lock
 *
 * Return: 1 if head != tail.
 */
int ticket_spin_is_locked(struct ticket_spinlock *lock);

#endif /* _SIM_FUTEX_TICKET_H */
