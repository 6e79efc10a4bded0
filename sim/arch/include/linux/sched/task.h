/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/sched/task.h (shadow) - task_struct reference counting.
 *
 * Stage: kernel -> sched.  Used by the futex code to keep a task it is
 * about to wake (wake_q) or attach to (PI) alive.
 *
 * Contract (the kernel's): get_task_struct() takes a reference,
 * put_task_struct() drops one.  Every task holds its own initial
 * reference for the whole run (the machine never frees a task_struct), so
 * dropping the last reference can only come from an unbalanced put: it
 * reports a simulator bug (__put_task_struct(), sched/kapi.c).  Both are
 * hooked atomics on ->usage, as in the kernel.
 */
#ifndef _SIM_LINUX_SCHED_TASK_H
#define _SIM_LINUX_SCHED_TASK_H

#include <linux/sched.h>
#include <linux/refcount.h>

void __put_task_struct(struct task_struct *t);

static inline struct task_struct *get_task_struct(struct task_struct *t)
{
	refcount_inc(&t->usage);
	return t;
}

static inline void put_task_struct(struct task_struct *t)
{
	if (refcount_dec_and_test(&t->usage))
		__put_task_struct(t);
}

#endif /* _SIM_LINUX_SCHED_TASK_H */
