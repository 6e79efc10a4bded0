/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/sched/signal.h (shadow) - signals: none are ever delivered.
 *
 * Stage: kernel -> sched.  Used by the futex wait paths (a pending signal
 * ends a wait with -ERESTARTSYS/-EINTR) and sys_get_robust_list().
 *
 * Contract: simulated tasks receive no signals, so signal_pending() and
 * fatal_signal_pending() are always 0; every wait ends by wakeup or
 * timeout.  signal_pending_state() is 0 too, except for an interruptible
 * sleep of a task whose ->sim_sigpending is set: the one interruption
 * there is, a TP futex timeout ending a wait in mutex_lock_interruptible()
 * on the serialization mutex (futex/tp.c).  The simulated
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

static inline int signal_pending(struct task_struct *p)
{
	return 0;
}

static inline int fatal_signal_pending(struct task_struct *p)
{
	return 0;
}

/* signal_pending_state - a signal would end a sleep in @state: only the
 * TP futex timeout's ->sim_sigpending, and only an interruptible sleep.
 * A plain read: no scheduling point, as in the kernel. */
static inline int signal_pending_state(unsigned int state,
				       struct task_struct *p)
{
	return (state & TASK_INTERRUPTIBLE) && p->sim_sigpending;
}

#endif /* _SIM_LINUX_SCHED_SIGNAL_H */
