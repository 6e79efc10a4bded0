/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/percpu.h (shadow) - per-CPU variables on the simulated machine.
 *
 * Stage: kernel -> machine.  Used by kernel/locking/qspinlock.c (the MCS
 * nodes, qnodes[]) and any kernel TU with DEFINE_PER_CPU().  Reads
 * sim_percpu_offset[] and sim_this_cpu (sim/machine/hooks.h).
 *
 * The kernel's scheme, in small: every DEFINE_PER_CPU*() variable is
 * placed in the ELF section "sim_percpu", which is only a *template*.  At
 * start-up the machine (sim/machine/machine.c) copies the whole section once per
 * simulated CPU, from __start_sim_percpu to __stop_sim_percpu (symbols the
 * linker defines for a section whose name is a C identifier), and stores
 * copy - template in sim_percpu_offset[cpu].  A per-CPU pointer is the
 * template address; per_cpu_ptr(p, cpu) adds that CPU's offset.
 *
 * Contract:
 *  - The template itself is never used as any CPU's copy.  Per-CPU data
 *    is copied before ksim_boot() runs the initcalls, so a static
 *    initialiser applies to every CPU's copy.
 *  - per_cpu_ptr() hides the pointer's provenance from the optimiser (the
 *    kernel's RELOC_HIDE): the result points outside the template object.
 *  - this_cpu_*() and __this_cpu_*() operate on the current CPU's copy
 *    with plain accesses and no hook: the data is CPU-local.  Accesses to
 *    *another* CPU's copy go through per_cpu_ptr() and, in kernel code, the
 *    hooked READ_ONCE()/WRITE_ONCE()/atomics with the copy's address.
 *  - The _ALIGNED forms align the variable to a cache line; the machine
 *    allocates each copy cache-line aligned, so the placement holds in
 *    every copy.
 *  - The variables are laid out in the link's order, in a link-time
 *    optimized build too (__sim_link_order, sim/prelude.h).
 */
#ifndef _SIM_LINUX_PERCPU_H
#define _SIM_LINUX_PERCPU_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/cache.h>
#include <linux/smp.h>
#include <sim/machine/hooks.h>

#define __SIM_PERCPU		__section("sim_percpu")

#define DECLARE_PER_CPU(type, name)					\
	extern __SIM_PERCPU __typeof__(type) name
#define DEFINE_PER_CPU(type, name)					\
	__SIM_PERCPU __sim_link_order __typeof__(type) name
#define DECLARE_PER_CPU_ALIGNED(type, name)				\
	extern __SIM_PERCPU __typeof__(type) name ____cacheline_aligned
#define DEFINE_PER_CPU_ALIGNED(type, name)				\
	__SIM_PERCPU __sim_link_order __typeof__(type) name ____cacheline_aligned
#define DECLARE_PER_CPU_SHARED_ALIGNED(type, name)			\
	DECLARE_PER_CPU_ALIGNED(type, name)
#define DEFINE_PER_CPU_SHARED_ALIGNED(type, name)			\
	DEFINE_PER_CPU_ALIGNED(type, name)

#define per_cpu_ptr(ptr, cpu)						\
({									\
	unsigned long __pcpu_addr = (unsigned long)(ptr);		\
	__asm__ ("" : "+r" (__pcpu_addr));				\
	(typeof(ptr))(__pcpu_addr + sim_percpu_offset[(cpu)]);		\
})
#define raw_cpu_ptr(ptr)	per_cpu_ptr(ptr, raw_smp_processor_id())
#define this_cpu_ptr(ptr)	raw_cpu_ptr(ptr)
#define per_cpu(var, cpu)	(*per_cpu_ptr(&(var), cpu))

/* Operations on the current CPU's copy (CPU-local: not hooked). */
#define __sim_pcpu(pcp)			(*raw_cpu_ptr(&(pcp)))
#define raw_cpu_read(pcp)		(__sim_pcpu(pcp))
#define raw_cpu_write(pcp, val)		((void)(__sim_pcpu(pcp) = (val)))
#define raw_cpu_add(pcp, val)		((void)(__sim_pcpu(pcp) += (val)))
#define raw_cpu_sub(pcp, val)		((void)(__sim_pcpu(pcp) -= (val)))
#define raw_cpu_inc(pcp)		raw_cpu_add(pcp, 1)
#define raw_cpu_dec(pcp)		raw_cpu_sub(pcp, 1)

#define __this_cpu_read(pcp)		raw_cpu_read(pcp)
#define __this_cpu_write(pcp, val)	raw_cpu_write(pcp, val)
#define __this_cpu_add(pcp, val)	raw_cpu_add(pcp, val)
#define __this_cpu_sub(pcp, val)	raw_cpu_sub(pcp, val)
#define __this_cpu_inc(pcp)		raw_cpu_inc(pcp)
#define __this_cpu_dec(pcp)		raw_cpu_dec(pcp)

#define this_cpu_read(pcp)		raw_cpu_read(pcp)
#define this_cpu_write(pcp, val)	raw_cpu_write(pcp, val)
#define this_cpu_add(pcp, val)		raw_cpu_add(pcp, val)
#define this_cpu_sub(pcp, val)		raw_cpu_sub(pcp, val)
#define this_cpu_inc(pcp)		raw_cpu_inc(pcp)
#define this_cpu_dec(pcp)		raw_cpu_dec(pcp)

#endif /* _SIM_LINUX_PERCPU_H */
