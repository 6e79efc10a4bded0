// SPDX-License-Identifier: GPL-2.0
/*
 * futex/tp_unlock.c - FUTEX_UNLOCK of the TP futex, and the futex(2)
 * router of the patched kernel: which ops and flags the TP ops take, the
 * timeout argument of FUTEX_LOCK (docs/studies/to-futex-2016.md).
 *
 * Stage: futex(2) -> kernel.  sim/syscall/syscall.c calls ksim_sys_futex(); the
 * TP ops go to futex_tp_lock() (futex/tp.c), futex_tp_unlock() here, and
 * the shared ops of futex/tp_shared.c; every other op to the real
 * sys_futex() of kernel/futex/syscalls.c.  Calls the real futex internals
 * (the bucket lock, futex_atomic_cmpxchg_inatomic()), wake_up_process()
 * and futex_state_get/put() of futex/tp_state.c.
 *
 * Arguments [R] (the series says only that FUTEX_LOCK takes an optional
 * timeout and, from v6, flags in val):
 *  - FUTEX_LOCK's timeout is absolute, like FUTEX_LOCK_PI's, whose code
 *    the series' timeout followed (sys_futex() turns only FUTEX_WAIT's
 *    into an absolute one), on CLOCK_REALTIME as FUTEX_LOCK_PI's; the
 *    machine has one clock, so CLOCK_REALTIME and CLOCK_MONOTONIC agree.
 *    A struct timespec whose tv_nsec is not in [0, 1e9) or whose tv_sec
 *    is negative is -EINVAL (futex_init_timeout()).
 *  - FUTEX_CLOCK_REALTIME on a TP op is -ENOSYS: the do_futex() of the
 *    kernels the series was based on (4.8 - 4.14) refused the flag for
 *    every op but the three waits, FUTEX_LOCK_PI included, and the
 *    series did not add its ops to that list.
 *  - FUTEX_LOCK takes no flags in val (v6's flags are the shared lock's):
 *    non-zero is -EINVAL; FUTEX_LOCK_SHARED takes FLAGS_TP_PREADER only,
 *    other bits (FLAGS_TP_USLOCK, whose meaning is lost) are -EINVAL.
 *  - FUTEX_LOCK_SHARED takes the same timeout as FUTEX_LOCK [R].
 *  - The unlock ops ignore val and the timeout, as FUTEX_UNLOCK_PI does.
 *  - Op numbers: FUTEX_CMD_MASK keeps every bit but FUTEX_PRIVATE_FLAG
 *    and FUTEX_CLOCK_REALTIME, so an op with unknown bits is no TP op;
 *    the real sys_futex() answers it (-ENOSYS).
 */
#include <linux/kernel.h>
#include <linux/futex.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/time64.h>
#include <linux/uaccess.h>
#include <uapi/linux/time_types.h>
#include <asm/futex.h>

#include "futex.h"
#include "futex/tp.h"
#include "futex/tp_state.h"

/* The real kernel/futex/syscalls.c entry point. */
long sys_futex(u32 __user *uaddr, int op, u32 val,
	       const struct __kernel_timespec __user *utime,
	       u32 __user *uaddr2, u32 val3);

/*
 * The unlock's cmpxchg of the word from @uval to 0, or to the TID of the
 * top waiter that asked for a handoff (*@newval says which).  A grant is
 * made under the bucket lock, against the withdrawal of a timed-out
 * request (futex_tp_withdraw()): a TID read before the withdrawal is never
 * written after it [R].
 * Return: 0 (*@curval: the word before), -EFAULT.
 */
static int tp_unlock_cmpxchg(u32 __user *uaddr, struct futex_state *state,
			     u32 uval, u32 *newval, u32 *curval)
{
	int ret;

	*newval = state ? READ_ONCE(state->handoff_pid) : 0;
	if (!*newval)
		return futex_atomic_cmpxchg_inatomic(curval, uaddr, uval, 0);
	spin_lock(&state->hb->lock);
	*newval = READ_ONCE(state->handoff_pid);
	ret = futex_atomic_cmpxchg_inatomic(curval, uaddr, uval, *newval);
	/* no hook since the cmpxchg: the checker sees both at once */
	if (!ret && *curval == uval && *newval)
		state->granted = true;
	spin_unlock(&state->hb->lock);
	return ret;
}

/**
 * futex_tp_unlock() - FUTEX_UNLOCK: clear the word, or write the TID of
 * the top waiter that asked for a handoff, and wake the top waiter if it
 * may sleep.
 * @uaddr:	the futex word
 * @flags:	FLAGS_SHARED or 0
 *
 * Return: 1 if a sleeping top waiter was woken, 0 if not; -EPERM if the
 * word does not name the caller (also on a word of 0: the feature probe
 * of tp-futex.txt); -EFAULT.
 */
static long futex_tp_unlock(u32 __user *uaddr, unsigned int flags)
{
	u32 vpid = task_pid_vnr(current), uval, curval, newval;
	struct futex_state *state;
	long ret;

	if (get_user(uval, uaddr))
		return -EFAULT;
	if ((uval & FUTEX_TP_TID_MASK) != vpid)
		return -EPERM;
	ret = futex_state_get(uaddr, flags, false, &state);
	if (ret)
		return ret;
	for (;;) {
		ret = -EFAULT;
		if (tp_unlock_cmpxchg(uaddr, state, uval, &newval, &curval))
			goto out;
		if (curval == uval)
			break;
		uval = curval;		/* FUTEX_WAITERS came meanwhile */
		ret = -EPERM;
		if ((uval & FUTEX_TP_TID_MASK) != vpid)
			goto out;
	}
	ret = futex_tp_wake_top(uaddr, state, uval, newval);
out:
	if (state)
		futex_state_put(state);
	return ret;
}

int futex_tp_wake_top(u32 __user *uaddr, struct futex_state *state,
		      u32 uval, u32 newval)
{
	struct task_struct *top;
	int woken = 0;

	if (newval)
		futex_tp_trace(uaddr, SIM_TP_HANDOFF_GRANT, newval, newval);
	if (state && (uval & FUTEX_WAITERS)) {
		top = READ_ONCE(state->owner);	/* [R]: futex/tp.c head */
		if (top && wake_up_process(top))
			woken = 1;
	}
	futex_tp_trace(uaddr, SIM_TP_UNLOCK, newval, woken);
	return woken;
}

/* The absolute timeout of FUTEX_LOCK. Return: 0, -EFAULT, -EINVAL. */
static int tp_get_timeout(const void *utime, ktime_t *t)
{
	const struct __kernel_timespec __user *uts = utime;
	struct timespec64 ts;

	if (get_timespec64(&ts, uts))
		return -EFAULT;
	if (!timespec64_valid(&ts))
		return -EINVAL;
	*t = timespec64_to_ktime(ts);
	return 0;
}

/* The TP ops, with the checks of their arguments (see the head). */
static long futex_tp_op(u32 __user *uaddr, int op, u32 val,
			const void *utime)
{
	unsigned int flags = (op & FUTEX_PRIVATE_FLAG) ? 0 : FLAGS_SHARED;
	ktime_t t, *time = NULL;
	long ret;

	if (op & FUTEX_CLOCK_REALTIME)
		return -ENOSYS;
	/* as get_futex_key() does, before any op reads the word */
	if ((unsigned long)uaddr % sizeof(u32))
		return -EINVAL;
	switch (op & FUTEX_CMD_MASK) {
	case FUTEX_TP_LOCK:
	case FUTEX_TP_LOCK_SHARED:
		if (val & ~((op & FUTEX_CMD_MASK) == FUTEX_TP_LOCK ?
			    0 : FLAGS_TP_PREADER))
			return -EINVAL;
		if (utime) {
			ret = tp_get_timeout(utime, &t);
			if (ret)
				return ret;
			time = &t;
		}
		if ((op & FUTEX_CMD_MASK) == FUTEX_TP_LOCK)
			return futex_tp_lock(uaddr, flags, time);
		/* futex/tp_shared.c */
		return futex_tp_lock_shared(uaddr, flags, val, time);
	case FUTEX_TP_UNLOCK:
		return futex_tp_unlock(uaddr, flags);
	case FUTEX_TP_UNLOCK_SHARED:
		return futex_tp_unlock_shared(uaddr, flags);
	}
	return -ENOSYS;
}

long ksim_sys_futex(unsigned int *uaddr, int op, unsigned int val,
		    const void *utime, unsigned int *uaddr2, unsigned int val3)
{
	int cmd = op & FUTEX_CMD_MASK;

	if (cmd >= FUTEX_TP_LOCK && cmd <= FUTEX_TP_UNLOCK_SHARED)
		return futex_tp_op((u32 __user *)uaddr, op, val, utime);
	return sys_futex((u32 __user *)uaddr, op, val,
			 (const struct __kernel_timespec __user *)utime,
			 (u32 __user *)uaddr2, val3);
}
