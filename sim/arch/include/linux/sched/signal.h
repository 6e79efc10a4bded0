/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/sched/signal.h (shadow) - signals: none are ever delivered.
 *
 * Stage: kernel -> sched.  Used by the futex wait paths (a pending signal
 * ends a wait with -ERESTARTSYS/-EINTR) and sys_get_robust_list().
 *
 * Contract: a simulated task receives a program's pthread_cancel()
 * (glibc sends SIGCANCEL): SIM_SIGPENDING_CANCEL in ->sim_sigpending
 * from the cancel until the syscall it interrupts returns
 * (ksim_signal_cancel(), ksim_signal_taken() in sched/kapi.c); and a
 * program's signals (workloads/libsim/signal.c): SIM_SIGPENDING_SIGNAL
 * while one it does not block is pending (ksim_signal_send(),
 * ksim_signal_clear()).  signal_pending() reads those bits;
 * fatal_signal_pending() is always 0 (a fatal signal ends the program
 * in user space).
 * signal_pending_state() also ends the interruptible sleep of a task
 * whose bit 0 is set: a TP futex timeout ending a wait in
 * mutex_lock_interruptible() on the serialization mutex (futex/tp.c).  The simulated
 * process has one signal_struct (sim/arch/mm.c), shared by all its tasks,
 * for the one field the futex code uses.
 */
#ifndef _SIM_LINUX_SCHED_SIGNAL_H
#define _SIM_LINUX_SCHED_SIGNAL_H

#include <linux/sched.h>
#include <linux/sched/task.h>	/* as the real header: get_task_struct() */
#include <linux/rwsem.h>

/**
 * struct signal_struct - state shared by the threads of a process
 * @exec_update_lock:	held for reading to look at another task's
 *			credentials; exec() would take it for writing
 */
struct signal_struct {
	struct rw_semaphore exec_update_lock;
};

#define SIM_SIGPENDING_CANCEL	2u
#define SIM_SIGPENDING_SIGNAL	4u	/* a program's signal, unblocked */

static inline int signal_pending(struct task_struct *p)
{
	return (p->sim_sigpending &
		(SIM_SIGPENDING_CANCEL | SIM_SIGPENDING_SIGNAL)) != 0;
}

static inline int fatal_signal_pending(struct task_struct *p)
{
	return 0;
}

/* signal_pending_state - a signal would end a sleep in @state: a cancel
 * or the TP futex timeout's ->sim_sigpending, and only an interruptible
 * sleep.
 * A plain read: no scheduling point, as in the kernel. */
static inline int signal_pending_state(unsigned int state,
				       struct task_struct *p)
{
	return (state & TASK_INTERRUPTIBLE) && p->sim_sigpending;
}

#endif /* _SIM_LINUX_SCHED_SIGNAL_H */
