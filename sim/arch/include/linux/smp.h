/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/smp.h (shadow) - CPU identity on the simulated machine.
 *
 * Stage: kernel -> machine.  Included by kernel/locking/qspinlock.c (for
 * smp_processor_id()) and by linux/percpu.h.  Reads sim_this_cpu
 * (sim/machine/hooks.h), which the machine points at the running CPU's state at
 * every switch.  The real header (cross-CPU function calls, IPIs) has
 * nothing the simulated kernel code needs.
 *
 * Contract: smp_processor_id() is the CPU the current task runs on, in
 * [0, nr_cpu_ids).  As in the kernel it is only stable while preemption is
 * disabled (get_cpu()/put_cpu(), a held spinlock).
 */
#ifndef _SIM_LINUX_SMP_H
#define _SIM_LINUX_SMP_H

#include <linux/types.h>
#include <linux/preempt.h>
#include <linux/cpumask.h>
#include <sim/machine/hooks.h>

#define raw_smp_processor_id()	(sim_this_cpu->cpu)
#define smp_processor_id()	raw_smp_processor_id()

#define get_cpu()		({ preempt_disable(); smp_processor_id(); })
#define put_cpu()		preempt_enable()

#endif /* _SIM_LINUX_SMP_H */
