// SPDX-License-Identifier: GPL-2.0
/*
 * sim/arch/series/6.1.c - what the simulated kernel lacks on 6.1 that a
 * later series has: the futex2 system calls of Linux 6.7 (futex_wake,
 * futex_wait, futex_requeue), which a 6.1 kernel does not know.
 *
 * Stage: futex(2) boundary -> kernel.  A kernel TU, built only when the
 * series is 6.1 (the Makefile picks sim/arch/series/$(KERNEL).c; 6.12.c
 * is the other one, with the same functions).  Called by sim/syscall/
 * syscall.c.
 *
 * Contract: as in 6.12.c; each ksim_futex2_*() returns -ENOSYS, what a
 * 6.1 kernel returns for a system call number it does not have.
 */
#include <linux/errno.h>
#include <sim/ksim.h>

const char *ksim_kernel_series(void)
{
	return "6.1";
}

long ksim_futex2_wake(void *uaddr, unsigned long mask, int nr,
		      unsigned int flags)
{
	return -ENOSYS;
}

long ksim_futex2_wait(void *uaddr, unsigned long val, unsigned long mask,
		      unsigned int flags, void *timeout, int clockid)
{
	return -ENOSYS;
}

long ksim_futex2_requeue(void *waiters, unsigned int flags, int nr_wake,
			 int nr_requeue)
{
	return -ENOSYS;
}
