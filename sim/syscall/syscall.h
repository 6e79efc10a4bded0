/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/syscall/syscall.h - the system-call boundary of simulated user tasks.
 *
 * Stage: futex(2) boundary, between workloads/ulock and the kernel.
 * Charges syscall entry and exit, switches the task's time accounting to
 * system time for the duration, and calls the real sys_futex() (kernel/
 * futex/syscalls.c) or the shim's sleep.  Return values are the kernel's:
 * >= 0, or -errno (as glibc's INTERNAL_SYSCALL sees them); sim_errno()
 * and sim_syscall_errno() give the user ABI of syscall(2): -1 with the
 * calling task's own errno.
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
/*
 * sim_signal_hook - the program layer's signal delivery
 * (workloads/libsim/signal.c), called by futex(2) when a signal ended a
 * call with one of the kernel's restart returns: it runs the current
 * task's handlers and returns -1 if none ran, 1 if each had SA_RESTART,
 * 0 if one did not; futex(2) then restarts the call or returns EINTR as
 * the kernel would.  NULL: no program.
 */
extern int (*sim_signal_hook)(void);
/* set_robust_list(2): the real kernel's. */
long sim_sys_set_robust_list(void *head, size_t len);
/* The futex part of the current task's exit, as the kernel's do_exit()
 * makes it before CLONE_CHILD_CLEARTID's wake: its robust list walked
 * (ksim_futex_exit_release(), sim/machine/hooks.h). */
void sim_sys_exit_futex(void);
/* nanosleep(2) on the virtual clock, with the task's timer slack. */
long sim_sys_nanosleep(uint64_t ns);
/* gettid(2). */
long sim_sys_gettid(void);
/* futex_waitv(2), the real sys_futex_waitv(): @waiters is an array of
 * @nr struct futex_waitv (linux/futex.h), @timeout absolute on @clockid
 * (CLOCK_MONOTONIC or CLOCK_REALTIME, one clock here) or NULL.
 * Return: the index of the futex woken, or -errno. */
long sim_sys_futex_waitv(void *waiters, unsigned int nr, unsigned int flags,
			 const struct timespec *timeout, int clockid);
/* The futex2 calls of Linux 6.7 (futex_wake(2), futex_wait(2),
 * futex_requeue(2)): the real ones on a 6.12 build, -ENOSYS on 6.1
 * (sim/arch/series/).  Arguments and returns as the kernel's. */
long sim_sys_futex_wake(void *uaddr, unsigned long mask, int nr,
			unsigned int flags);
long sim_sys_futex_wait(void *uaddr, unsigned long val, unsigned long mask,
			unsigned int flags, const struct timespec *timeout,
			int clockid);
long sim_sys_futex_requeue(void *waiters, unsigned int flags, int nr_wake,
			   int nr_requeue);
/* sched_yield(2): the task gives its CPU to a queued task, if any.
 * Return: 0. */
long sim_sys_sched_yield(void);

/*
 * sim_sys_sched_setattr - sched_setscheduler(2) and setpriority(2) on
 * task @tid (0: the caller): policy @policy (SCHED_NORMAL, SCHED_FIFO,
 * SCHED_RR), real-time priority @rt_prio (1..99; 0 for SCHED_NORMAL),
 * nice @nice (clamped to -20..19, as setpriority(2) does).
 * Return: 0, -EINVAL or -ESRCH.  sim_sys_sched_getattr - read them back
 * (the task's own, not a PI boost).
 */
long sim_sys_sched_setattr(int tid, int policy, int rt_prio, int nice);
long sim_sys_sched_getattr(int tid, int *policy, int *rt_prio, int *nice);

/* sim_syscall_errno - the libc convention for a raw result @ret: @ret if
 * it is >= 0, else -1 with the current task's errno set to -@ret. */
long sim_syscall_errno(long ret);
/* sim_errno - the current task's errno (what the last failing
 * sim_syscall_errno() set). */
int sim_errno(void);

/* Counters of the boundary for the current run (from the start of the
 * process: a caller that wants one run's counts zeroes them first). */
struct sim_syscall_counters {
	uint64_t calls;
	uint64_t wait_eagain;	/* FUTEX_WAIT (and _BITSET, futex_wait(2))
				 * calls that returned -EAGAIN		*/
	uint64_t tp_steals;	/* TP FUTEX_LOCK calls that stole the lock
				 * in the kernel (TP_STATUS_STOLEN)	*/
};
extern struct sim_syscall_counters sim_syscalls;

#endif /* SIM_SYSCALL_H */
