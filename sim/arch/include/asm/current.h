/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/current.h - "current" of "arch sim".
 *
 * Stage: kernel -> machine.  Included by linux/sched.h (ours) and the real
 * linux/mutex.h.  Reads sim_current_kt (sim/machine/hooks.h), which the machine
 * sets at every switch to the task_struct of the task it runs.
 *
 * Contract: current is the running task's struct task_struct; NULL only
 * in boot and event context (initcalls, timer callbacks), where kernel
 * code must not use it.
 */
#ifndef _SIM_ASM_CURRENT_H
#define _SIM_ASM_CURRENT_H

#include <linux/compiler.h>
#include <sim/machine/hooks.h>

struct task_struct;

static __always_inline struct task_struct *get_current(void)
{
	return (struct task_struct *)sim_current_kt;
}

#define current get_current()

#endif /* _SIM_ASM_CURRENT_H */
