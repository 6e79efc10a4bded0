/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/syscall.h - the system-call boundary of simulated user tasks.
 *
 * Stage: futex(2) boundary, between workloads/ulock and the kernel.
 * Charges syscall entry and exit, switches the task's time accounting to
 * system time for the duration, and calls the real sys_futex() (kernel/
 * futex/syscalls.c) or the shim's sleep.  Return values are the kernel's:
 * >= 0, or -errno (as glibc's INTERNAL_SYSCALL sees them); sim_errno()
 * converts to the user ABI's errno when a caller wants -1/errno.
 */
#ifndef SIM_SYSCALL_H
#define SIM_SYSCALL_H

#include <stdint.h>
#include <time.h>

/* futex(2): @timeout is relative for FUTEX_WAIT, absolute for the bitset
 * ops, as in the kernel ABI; NULL means none. */
long sim_sys_futex(uint32_t *uaddr, int op, uint32_t val,
		   const struct timespec *timeout, uint32_t *uaddr2,
		   uint32_t val3);
/* nanosleep(2) on the virtual clock, with the task's timer slack. */
long sim_sys_nanosleep(uint64_t ns);
/* gettid(2). */
long sim_sys_gettid(void);

/* Counters of the boundary for the current run. */
struct sim_syscall_counters {
	uint64_t calls;
};
extern struct sim_syscall_counters sim_syscalls;

#endif /* SIM_SYSCALL_H */
