/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex/ticket.c - the ticket spinlock (x86 before qspinlock).
 *
 * Stage: kernel (locking).  Called by the spin-workload glue
 * (futex/kspin.c) with preemption already disabled; calls the arch shim's
 * hooked atomics, READ_ONCE(), smp_store_release() and
 * sim_cond_load_acquire_eq() (asm/barrier.h: smp_cond_load_acquire() of
 * a condition VAL == ticket, which the dispatcher may test itself), each
 * a simulated access.
 * The word and the algorithm are described in futex/ticket.h.
 */
#include <linux/kernel.h>
#include <linux/build_bug.h>
#include <linux/atomic.h>
#include <asm/barrier.h>
#include <asm/rwonce.h>

#include "futex/ticket.h"

static_assert(sizeof(struct ticket_spinlock) == 4, "one 32-bit word");
static_assert(offsetof(struct ticket_spinlock, head) == 0, "head is the low half");
static_assert(offsetof(struct ticket_spinlock, tail) == 2, "tail is the high half");

void ticket_spin_lock(struct ticket_spinlock *lock)
{
	u32 old = atomic_fetch_add_acquire(TICKET_LOCK_INC << TICKET_TAIL_SHIFT,
					   &lock->val);
	u16 ticket = old >> TICKET_TAIL_SHIFT;

	if ((old & TICKET_HEAD_MASK) == ticket)
		return;			/* head == our ticket: it was free */

	sim_cond_load_acquire_eq(&lock->head, ticket);	/* VAL == ticket */
}

int ticket_spin_trylock(struct ticket_spinlock *lock)
{
	u32 old = atomic_read(&lock->val);

	if ((old & TICKET_HEAD_MASK) != (old >> TICKET_TAIL_SHIFT))
		return 0;
	return atomic_try_cmpxchg_acquire(&lock->val, &old,
					  old + (TICKET_LOCK_INC << TICKET_TAIL_SHIFT));
}

void ticket_spin_unlock(struct ticket_spinlock *lock)
{
	u16 head = READ_ONCE(lock->head);

	smp_store_release(&lock->head, (u16)(head + TICKET_LOCK_INC));
}

int ticket_spin_is_locked(struct ticket_spinlock *lock)
{
	u32 val = atomic_read(&lock->val);

	return (val & TICKET_HEAD_MASK) != (val >> TICKET_TAIL_SHIFT);
}
