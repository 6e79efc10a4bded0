/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex/tp.h - the entry points of the TP futex (futex/tp.c) that host
 * code calls: the futex(2) router, the run's policy, and what the tests
 * and the machine's state checker look at.
 *
 * Stage: futex(2) boundary -> kernel.  Included by sim/syscall/syscall.c, the CLI,
 * the tests and futex/tp*.c themselves (ksim_sys_futex() is in
 * futex/tp_unlock.c, the rest in futex/tp.c and futex/tp_state.c); plain
 * C types only, like sim/machine/hooks.h, so that host and kernel translation
 * units agree on it.  The ABI (op numbers, word bits, status codes) is
 * futex/tp_abi.h.
 */
#ifndef FUTEX_TP_H
#define FUTEX_TP_H

#include "futex/tp_abi.h"

/**
 * ksim_sys_futex() - futex(2) of a patched kernel: FUTEX_TP_LOCK and
 * FUTEX_TP_UNLOCK (with or without FUTEX_PRIVATE_FLAG) go to the TP
 * futex, every other op to the real sys_futex() of kernel/futex/.
 * @uaddr:	the futex word
 * @op:		the op, with its flags
 * @val:	FUTEX_TP_LOCK: flags, must be 0 (-EINVAL); the shared lock
 *		takes FLAGS_TP_PREADER only
 * @utime:	struct __kernel_timespec * (struct timespec on the host);
 *		FUTEX_TP_LOCK, FUTEX_TP_LOCK_SHARED: an absolute timeout or
 *		NULL (-EINVAL if not a valid timespec)
 * @uaddr2:	unused by the TP ops
 * @val3:	unused by the TP ops
 *
 * Return: FUTEX_TP_LOCK: the status word of futex/tp_abi.h (>= 0: the
 * caller owns the lock, its TID is in the word) or -errno (-ETIMEDOUT
 * once @utime passed; FUTEX_TP_LOCK_SHARED too); any TP op with FUTEX_CLOCK_REALTIME: -ENOSYS;
 * FUTEX_TP_UNLOCK: 1 if a sleeping top waiter was woken, 0 if not,
 * -EPERM if the caller does not own the word; FUTEX_TP_LOCK_SHARED and
 * FUTEX_TP_UNLOCK_SHARED (@val: 0 or FLAGS_TP_PREADER): as
 * futex_tp_lock_shared() and futex_tp_unlock_shared() of
 * futex/tp_state.h (futex/tp_shared.c); other ops: sys_futex().
 */
long ksim_sys_futex(unsigned int *uaddr, int op, unsigned int val,
		    const void *utime, unsigned int *uaddr2, unsigned int val3);

/**
 * ksim_futex_tp_configure() - the policy of this run (scenario keys
 * tp-policy, tp-handoff and tp-mutex); the boot resets it to v2 with
 * handoff on and the 6.1 mutex.
 * @policy:	TP_POLICY_V2 or TP_POLICY_V6
 * @handoff:	0: never request a handoff (tp-handoff=off)
 * @mutex:	the serialization mutex: TP_MUTEX_61 or TP_MUTEX_48; set
 *		before the first TP call of a run (a futex_state keeps the
 *		kind it was attached with)
 */
void ksim_futex_tp_configure(int policy, int handoff, int mutex);

/**
 * struct ksim_futex_tp_census - the futex_state objects now.
 * @attached:	objects on a hash bucket's list (some task uses them)
 * @cached:	objects in the tasks' one-object caches (free, kept)
 * @allocated:	objects allocated and not yet freed: attached + cached
 */
struct ksim_futex_tp_census {
	long attached;
	long cached;
	long allocated;
};

/* ksim_futex_tp_census() - count the futex_state objects into @c. */
void ksim_futex_tp_census(struct ksim_futex_tp_census *c);

/**
 * ksim_futex_tp_assert_state() - check the TP invariants (listed in
 * docs/studies/to-futex-2016.md, "The state checker") on every attached futex_state (plain reads: no scheduling point); a
 * violation is a simulated failure (exit 3).  The machine calls it at
 * every dispatch when FUTEXSIM_CHECK_STATE=1, like sched_assert_state().
 */
void ksim_futex_tp_assert_state(void);

#endif /* FUTEX_TP_H */
