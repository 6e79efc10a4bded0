/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/cpumask.h (shadow) - the set of CPUs of the simulated machine.
 *
 * Stage: kernel -> machine.  Used by futex_init() (hash size) and
 * qspinlock.c.  Reads sim_nr_cpus (sim/machine/hooks.h), set by the machine before
 * ksim_boot() runs the initcalls.
 *
 * Contract: CPUs 0 .. sim_nr_cpus-1 are possible, present and online for
 * the whole run (no hotplug); sim_nr_cpus <= CONFIG_NR_CPUS.  No cpumask_t
 * bitmaps: nothing in the simulated kernel code needs one.
 */
#ifndef _SIM_LINUX_CPUMASK_H
#define _SIM_LINUX_CPUMASK_H

#include <linux/threads.h>
#include <sim/machine/hooks.h>

#define nr_cpu_ids		((unsigned int)sim_nr_cpus)
#define num_possible_cpus()	((unsigned int)sim_nr_cpus)
#define num_present_cpus()	((unsigned int)sim_nr_cpus)
#define num_online_cpus()	((unsigned int)sim_nr_cpus)

#define cpu_possible(cpu)	((unsigned int)(cpu) < nr_cpu_ids)
#define cpu_online(cpu)		cpu_possible(cpu)

#define for_each_possible_cpu(cpu)					\
	for ((cpu) = 0; (cpu) < sim_nr_cpus; (cpu)++)
#define for_each_online_cpu(cpu)	for_each_possible_cpu(cpu)
#define for_each_present_cpu(cpu)	for_each_possible_cpu(cpu)

#endif /* _SIM_LINUX_CPUMASK_H */
