// SPDX-License-Identifier: GPL-2.0
/*
 * sim/arch/series/6.12.c - what the simulated kernel has on 6.12 and not
 * on 6.1: the futex2 system calls of Linux 6.7 (futex_wake, futex_wait,
 * futex_requeue; Peter Zijlstra's series "futex: More futex2 bits",
 * https://lore.kernel.org/all/20230921104505.717750284@noisy.programming.kicks-ass.net/).
 *
 * Stage: futex(2) boundary -> kernel.  A kernel TU, built only when the
 * series is 6.12 (the Makefile picks sim/arch/series/$(KERNEL).c; 6.1.c
 * is the other one, with the same functions).  Called by sim/syscall/
 * syscall.c; calls the real sys_futex_*() of kernel/futex/syscalls.c.
 *
 * Contract: each ksim_futex2_*() takes the system call's arguments and
 * returns what the kernel's does (>= 0 or -errno).  This pair of files is
 * the one place, with docs/kernels.md, where the series differ in what a
 * program can call.
 */
#include <linux/syscalls.h>
#include <linux/futex.h>
#include <sim/ksim.h>

long sys_futex_wake(void __user *uaddr, unsigned long mask, int nr,
		    unsigned int flags);
long sys_futex_wait(void __user *uaddr, unsigned long val, unsigned long mask,
		    unsigned int flags, struct __kernel_timespec __user *timeout,
		    clockid_t clockid);
long sys_futex_requeue(struct futex_waitv __user *waiters, unsigned int flags,
		       int nr_wake, int nr_requeue);

const char *ksim_kernel_series(void)
{
	return "6.12";
}

long ksim_futex2_wake(void *uaddr, unsigned long mask, int nr,
		      unsigned int flags)
{
	return sys_futex_wake((void __user *)uaddr, mask, nr, flags);
}

long ksim_futex2_wait(void *uaddr, unsigned long val, unsigned long mask,
		      unsigned int flags, void *timeout, int clockid)
{
	return sys_futex_wait((void __user *)uaddr, val, mask, flags,
			      (struct __kernel_timespec __user *)timeout,
			      clockid);
}

long ksim_futex2_requeue(void *waiters, unsigned int flags, int nr_wake,
			 int nr_requeue)
{
	return sys_futex_requeue((struct futex_waitv __user *)waiters, flags,
				 nr_wake, nr_requeue);
}
