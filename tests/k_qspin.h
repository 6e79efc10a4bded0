/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/k_qspin.h - the kernel spinlocks that host tests drive
 * (implemented in tests/k_qspin.c, a kernel TU).
 *
 * Stage: test glue, host test -> kernel.  Plain C only: included by host
 * tests (tests/test_qspinlock.c) and by the kernel TU itself, which checks
 * the declarations against its definitions.
 *
 * @lock points to a zeroed, 4-byte aligned 32-bit word in simulated memory
 * (sim_arena_alloc()), used by one kind of lock only.  Call from simulated
 * tasks only: each function makes hooked accesses and may switch CPUs.
 */
#ifndef TESTS_K_QSPIN_H
#define TESTS_K_QSPIN_H

/* The real spinlock: spin_lock() -> queued_spin_lock() -> slow path. The
 * word is the qspinlock (locked byte, pending byte, tail halfword). */
void ksim_test_spin_lock(void *lock);
void ksim_test_spin_unlock(void *lock);
/* ksim_test_spin_trylock - Return: 1 if taken, 0 if not. */
int ksim_test_spin_trylock(void *lock);

/* The negative control: test-and-test-then-set with separate hooked load
 * and store, so two tasks can both see the word free and both take it. */
void ksim_test_busted_lock(void *lock);
void ksim_test_busted_unlock(void *lock);

#endif /* TESTS_K_QSPIN_H */
