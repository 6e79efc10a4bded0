/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/futex.h - atomic operations on user futex words, "arch sim".
 *
 * Stage: kernel <-> user memory.  Included by kernel/futex/futex.h; used
 * by the futex code for the cmpxchg of PI and robust futexes and for
 * FUTEX_WAKE_OP.  User words are shared memory: every access is hooked,
 * with the user address, 4 bytes and its real kind.
 *
 * The access pattern follows x86: FUTEX_OP_SET is one xchg and
 * FUTEX_OP_ADD one xadd (one SIM_RMW each); FUTEX_OP_OR, _ANDN and _XOR
 * are a load followed by a cmpxchg loop (SIM_LOAD, then one SIM_RMW per
 * attempt).
 *
 * Contract (the kernel's):
 *  - futex_atomic_cmpxchg_inatomic(uval, uaddr, old, new) stores new if
 *    *uaddr == old and writes the value found to *uval.  Return: 0, or
 *    -EFAULT if uaddr fails access_ok() (linux/uaccess.h).
 *  - arch_futex_atomic_op_inuser(op, oparg, oval, uaddr) applies op with
 *    oparg atomically and writes the previous value to *oval.  Return: 0,
 *    -EFAULT as above, or -ENOSYS for an unknown op.
 *  User memory never faults otherwise, so "inatomic" needs no care.
 */
#ifndef _SIM_ASM_FUTEX_H
#define _SIM_ASM_FUTEX_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/atomic.h>
#include <linux/uaccess.h>
#include <uapi/linux/futex.h>
#include <sim/machine/hooks.h>

static inline int futex_atomic_cmpxchg_inatomic(u32 *uval, u32 __user *uaddr,
						u32 oldval, u32 newval)
{
	if (!access_ok(uaddr, sizeof(u32)))
		return -EFAULT;
	*uval = cmpxchg((u32 __force *)uaddr, oldval, newval);
	return 0;
}

static inline u32 __sim_futex_fetch_add(u32 *uaddr, u32 oparg)
{
	sim_hook(SIM_RMW, uaddr, sizeof(*uaddr));
	return __atomic_fetch_add(uaddr, oparg, __ATOMIC_SEQ_CST);
}

static inline int arch_futex_atomic_op_inuser(int op, u32 oparg, int *oval,
					      u32 __user *uaddr)
{
	u32 *word = (u32 __force *)uaddr;
	u32 old, new;

	if (!access_ok(uaddr, sizeof(u32)))
		return -EFAULT;

	switch (op) {
	case FUTEX_OP_SET:
		*oval = xchg(word, oparg);
		return 0;
	case FUTEX_OP_ADD:
		*oval = __sim_futex_fetch_add(word, oparg);
		return 0;
	case FUTEX_OP_OR:
	case FUTEX_OP_ANDN:
	case FUTEX_OP_XOR:
		break;
	default:
		return -ENOSYS;
	}

	old = READ_ONCE(*word);
	do {
		if (op == FUTEX_OP_OR)
			new = old | oparg;
		else if (op == FUTEX_OP_ANDN)
			new = old & ~oparg;
		else
			new = old ^ oparg;
	} while (!try_cmpxchg(word, &old, new));
	*oval = old;
	return 0;
}

#endif /* _SIM_ASM_FUTEX_H */
