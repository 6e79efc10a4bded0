/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/futex.h - the futex(2) calls user locks make, with the
 * per-thread counting every lock shares.
 *
 * Stage: user-space lock -> futex(2) boundary (sim/syscall/syscall.h).  Private
 * futexes, unless @st->shared (a process-shared pthread mutex).
 */
#ifndef ULOCK_FUTEX_H
#define ULOCK_FUTEX_H

#include <errno.h>
#include <linux/futex.h>
#include <stdint.h>
#include <time.h>

#include "sim/syscall/syscall.h"
#include "workloads/ulock/ulock.h"

/* ulock_futex_wait - FUTEX_WAIT_PRIVATE(@w, @val, @timeout) on the lock
 * path; counts the call, EAGAIN and ETIMEDOUT in @st.
 * Return: the kernel's result, 0 or -errno. */
static inline long ulock_futex_wait(uint32_t *w, uint32_t val,
				    const struct timespec *timeout,
				    struct ulock_stats *st)
{
	long ret = sim_sys_futex(w, st->shared ? FUTEX_WAIT : FUTEX_WAIT_PRIVATE,
				 val, timeout, NULL, 0);

	st->lock_syscalls++;
	if (ret == -EAGAIN)
		st->eagain++;
	else if (ret == -ETIMEDOUT)
		st->timeouts++;
	return ret;
}

/* ulock_futex_wake - FUTEX_WAKE_PRIVATE(@w, @nr) on the unlock path;
 * counts the call and the tasks woken. Return: woken, or -errno. */
static inline long ulock_futex_wake(uint32_t *w, int nr, struct ulock_stats *st)
{
	long ret = sim_sys_futex(w, st->shared ? FUTEX_WAKE : FUTEX_WAKE_PRIVATE,
				 nr, NULL, NULL, 0);

	st->unlock_syscalls++;
	if (ret > 0)
		st->wakeups += ret;
	return ret;
}

#endif /* ULOCK_FUTEX_H */
