/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/rwsem.h (shadow) - reader-writer semaphores, readers only.
 *
 * Stage: kernel (locking).  Used by sys_get_robust_list() through
 * signal_struct::exec_update_lock (linux/sched/signal.h).
 *
 * The only rw_semaphore is exec_update_lock, whose writer is exec(),
 * which simulated tasks never call.  Contract: readers never wait;
 * down_read*() and up_read() count readers with one hooked atomic each
 * (the access the kernel's fast path makes).  A writer reports a
 * simulator bug.  The real kernel/locking/rwsem.c is not compiled.
 */
#ifndef _SIM_LINUX_RWSEM_H
#define _SIM_LINUX_RWSEM_H

#include <linux/atomic.h>
#include <sim/machine/hooks.h>

/**
 * struct rw_semaphore - reader count only
 * @count:	number of readers holding the semaphore
 */
struct rw_semaphore {
	atomic_long_t count;
};

#define init_rwsem(sem)		atomic_long_set(&(sem)->count, 0)

static inline void down_read(struct rw_semaphore *sem)
{
	atomic_long_inc(&sem->count);
}

/* Return: 0 (a reader never waits, so it cannot be killed waiting). */
static inline int down_read_killable(struct rw_semaphore *sem)
{
	down_read(sem);
	return 0;
}

static inline void up_read(struct rw_semaphore *sem)
{
	atomic_long_dec(&sem->count);
}

static inline void down_write(struct rw_semaphore *sem)
{
	sim_bug("unsupported: down_write (exec)", __FILE__, __LINE__);
}

#endif /* _SIM_LINUX_RWSEM_H */
