/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/k_qspin.c - kernel-side glue that lets host tests drive the real
 * queued spinlock and a deliberately broken one.
 *
 * Stage: test glue (kernel TU).  Called by host tests through
 * tests/k_qspin.h; calls the arch shim's spin_lock() family (linux/
 * spinlock.h: preempt_disable() + the real asm-generic/qspinlock.h fast
 * path + kernel/locking/qspinlock.c slow path) and, for the broken lock,
 * READ_ONCE()/WRITE_ONCE() (asm/rwonce.h).
 *
 * Both locks keep the same preemption discipline (disabled while held),
 * so the only difference the harness can see is the algorithm.
 */
#include <linux/kernel.h>
#include <linux/build_bug.h>
#include <linux/spinlock.h>
#include <asm/processor.h>
#include "tests/k_qspin.h"

/* The word the host allocates must be exactly the kernel's lock. */
static_assert(sizeof(spinlock_t) == 4, "spinlock_t is one 32-bit word");
static_assert(sizeof(arch_spinlock_t) == 4, "qspinlock is 4 bytes");
static_assert(offsetof(arch_spinlock_t, locked) == 0, "locked byte at 0");
static_assert(offsetof(arch_spinlock_t, pending) == 1, "pending byte at 1");
static_assert(offsetof(arch_spinlock_t, tail) == 2, "tail halfword at 2");

void ksim_test_spin_lock(void *lock)
{
	spin_lock(lock);
}

void ksim_test_spin_unlock(void *lock)
{
	spin_unlock(lock);
}

int ksim_test_spin_trylock(void *lock)
{
	return spin_trylock(lock);
}

void ksim_test_busted_lock(void *lock)
{
	u32 *word = lock;

	preempt_disable();
	while (READ_ONCE(*word))
		cpu_relax();
	/* BROKEN on purpose: another CPU may run between the load above and
	 * this store, see the word free too, and take the lock as well. */
	WRITE_ONCE(*word, 1);
}

void ksim_test_busted_unlock(void *lock)
{
	u32 *word = lock;

	WRITE_ONCE(*word, 0);
	preempt_enable();
}
