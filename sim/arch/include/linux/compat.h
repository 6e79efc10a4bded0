/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/compat.h (shadow) - 32-bit compat syscalls: absent.
 *
 * Stage: kernel (syscall glue).  Included by kernel/futex/core.c and
 * syscalls.c, whose compat code is compiled out (CONFIG_COMPAT is not set,
 * generated/autoconf.h).  The real header drags in the whole time and
 * signal ABI of 32-bit tasks.
 * Contract: in_compat_syscall() is false: every simulated task is 64-bit.
 */
#ifndef _SIM_LINUX_COMPAT_H
#define _SIM_LINUX_COMPAT_H

#include <linux/types.h>

static inline bool in_compat_syscall(void)
{
	return false;
}

#endif /* _SIM_LINUX_COMPAT_H */
