/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/time.h (shadow) - timespec64 helpers of the syscall layer.
 *
 * Stage: kernel <-> user memory.  Used by kernel/futex/syscalls.c (through
 * the real linux/ktime.h) to read a futex timeout.  get_timespec64() is
 * implemented in sim/arch/time.c.  The real header pulls in the 32-bit
 * time ABI and the arch's cycle counter.
 */
#ifndef _SIM_LINUX_TIME_H
#define _SIM_LINUX_TIME_H

#include <linux/cache.h>
#include <linux/math64.h>
#include <linux/time64.h>

/**
 * get_timespec64() - read a struct __kernel_timespec from user memory
 * @ts:		result
 * @uts:	user address of { long long tv_sec; long long tv_nsec; }
 *
 * Return: 0, or -EFAULT if @uts fails access_ok() (linux/uaccess.h).
 * The values are not validated (callers use timespec64_valid()).
 */
int get_timespec64(struct timespec64 *ts,
		   const struct __kernel_timespec __user *uts);

#endif /* _SIM_LINUX_TIME_H */
