/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/processor.h - cpu_relax() of "arch sim".
 *
 * Stage: kernel -> machine.  Every spin-wait loop of kernel code
 * (qspinlock, smp_cond_load_*(), futex retry loops) calls cpu_relax();
 * it becomes sim_hook(SIM_RELAX, NULL, 0), which the cost model prices as
 * one PAUSE (or YIELD) and which is a scheduling point.
 *
 * Contract: cpu_relax() has no other effect; it is also a compiler barrier
 * (the hook is an external call).
 */
#ifndef _SIM_ASM_PROCESSOR_H
#define _SIM_ASM_PROCESSOR_H

#include <linux/stddef.h>
#include <sim/machine/hooks.h>

static __always_inline void cpu_relax(void)
{
	sim_hook(SIM_RELAX, NULL, 0);
}

#endif /* _SIM_ASM_PROCESSOR_H */
