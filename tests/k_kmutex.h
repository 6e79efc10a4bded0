/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/k_kmutex.h - the kernel mutex that host tests drive (implemented
 * in tests/k_kmutex.c, a kernel TU): the real kernel/locking/mutex.c with
 * its OSQ (kernel/locking/osq_lock.c), and a deliberately broken mutex.
 *
 * Stage: test glue, host test -> kernel.  Plain C only: included by host
 * tests (tests/test_kmutex.c) and by the kernel TU itself, which checks
 * the declarations against its definitions.
 *
 * @m points to ksim_test_mutex_size() bytes of zeroed, 64-byte aligned
 * simulated memory (sim_arena_alloc()), set up by ksim_test_mutex_init()
 * before use and used by one kind of mutex only.  Call from simulated
 * tasks only (init excepted): each function makes hooked accesses, may
 * switch CPUs and may sleep.
 */
#ifndef TESTS_K_KMUTEX_H
#define TESTS_K_KMUTEX_H

/* ksim_test_mutex_size - Return: sizeof(struct mutex). */
unsigned long ksim_test_mutex_size(void);
/* ksim_test_mutex_init - mutex_init(@m); callable outside any task. */
void ksim_test_mutex_init(void *m);

/* The real mutex: mutex_lock() (fast path, optimistic spinning through
 * the OSQ, wait list), mutex_unlock(), mutex_trylock() (Return: 1 if
 * taken, 0 if not). */
void ksim_test_mutex_lock(void *m);
void ksim_test_mutex_unlock(void *m);
int ksim_test_mutex_trylock(void *m);

/* ksim_test_mutex_flags - the MUTEX_FLAG_* bits of the owner word now
 * (WAITERS 1, HANDOFF 2, PICKUP 4). */
unsigned long ksim_test_mutex_flags(void *m);
/* ksim_test_mutex_owner_is_current - Return: 1 if the calling task is
 * the owner named in the owner word, else 0. */
int ksim_test_mutex_owner_is_current(void *m);
/* ksim_test_mutex_osq_busy - Return: 1 if a task is queued on the
 * mutex's optimistic spin queue (osq_is_locked()), else 0. */
int ksim_test_mutex_osq_busy(void *m);

/* ksim_test_mutex_at_rest - Return: 1 if @m is unlocked with no flag,
 * an empty wait list, an empty OSQ and a free wait_lock, else 0.  Plain
 * reads, no hook: for the host after sim_run(). */
int ksim_test_mutex_at_rest(const void *m);

/* ksim_test_touch_own_on_cpu_line - a hooked store to the line of the
 * calling task's task_struct::on_cpu, the line a spinner on it loads
 * (mutex_spin_on_owner(), owner_on_cpu()). */
void ksim_test_touch_own_on_cpu_line(void);

/* The negative control: the owner word is tested, and then set, by a
 * separate hooked load and store (no atomic RMW), waiting with
 * cpu_relax() in between: two tasks can both see it free. */
void ksim_test_busted_mutex_lock(void *m);
void ksim_test_busted_mutex_unlock(void *m);

/* The 4.8-era mutex of futex/mutex48.c (no handoff, sleeping waiters):
 * size, init, lock, unlock, and at rest (counter 1, no owner, no waiter,
 * empty OSQ, free wait_lock; plain reads, for the host after sim_run()). */
unsigned long ksim_test_mutex48_size(void);
void ksim_test_mutex48_init(void *m);
void ksim_test_mutex48_lock(void *m);
void ksim_test_mutex48_unlock(void *m);
int ksim_test_mutex48_at_rest(const void *m);

#endif /* TESTS_K_KMUTEX_H */
