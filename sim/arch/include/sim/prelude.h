/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/prelude.h - the ambient definitions of "arch sim".
 *
 * Stage: kernel (build glue).  Force-included (-include) into every kernel
 * TU, after linux/kconfig.h and linux/compiler_types.h.  Real kernel files
 * use some macros without including their header because a fat header
 * (linux/module.h, linux/spinlock.h, linux/init.h ...) brought them in; the
 * arch shim replaces those fat headers with small ones, so the macros live
 * here instead.  Calls nothing; sched/kapi.c (ksim_boot()) walks the
 * initcall section defined below.
 *
 * Contract:
 *  - EXPORT_SYMBOL*() expand to nothing (the real linux/export.h, with
 *    __DISABLE_EXPORTS, its switch for code outside the kernel image:
 *    6.12's would otherwise emit an .export_symbol record by top-level
 *    asm, a reference a link-time optimized build cannot see, and 6.1's
 *    does nothing without CONFIG_MODULES either way).
 *  - __init, __initdata, __exit ... and __lockfunc are plain functions and
 *    data: nothing is discarded after boot, no special text sections.
 *  - <level>_initcall(fn) records { level, fn, name } in section
 *    "sim_initcall".
 *    ksim_boot() runs the records level by level (early first, late last)
 *    and, within a level, in link order - the kernel's do_initcalls()
 *    order.  The records are static, so they add no global symbol.
 */
#ifndef _SIM_PRELUDE_H
#define _SIM_PRELUDE_H

#define __DISABLE_EXPORTS
#include <linux/export.h>

/*
 * A type the fat headers declared: 6.12's kernel/locking/lock_events.h
 * names it in the prototype of its debugfs reader.
 */
struct file;

#define __init
#define __initdata
#define __initconst
#define __exit
#define __exitdata
#define __ref
#define __lockfunc

/* Initcall levels, in the order the kernel runs them. */
#define SIM_INITCALL_EARLY	0
#define SIM_INITCALL_CORE	1
#define SIM_INITCALL_POSTCORE	2
#define SIM_INITCALL_ARCH	3
#define SIM_INITCALL_SUBSYS	4
#define SIM_INITCALL_FS		5
#define SIM_INITCALL_DEVICE	6
#define SIM_INITCALL_LATE	7
#define SIM_INITCALL_NR_LEVELS	8

/* One record of section "sim_initcall" (read by ksim_boot()). */
struct sim_initcall {
	int level;
	int (*fn)(void);
	const char *name;		/* the function's			*/
};

/*
 * The order of the link's command line, with link-time optimization as
 * without it (gcc's no_reorder): the records of section sim_initcall
 * (the boot's order within a level, and so where in the arena each
 * boot allocation lands) and the per-CPU variables (linux/percpu.h).
 * Without it an LTO build laid them out by its partitions, which a
 * change anywhere in the simulator could reshuffle, and with them the
 * simulation's results.
 */
#if __has_attribute(__no_reorder__)
#define __sim_link_order	__attribute__((__no_reorder__))
#else
#define __sim_link_order
#endif

#define __sim_initcall(fn, lvl)						\
	static const struct sim_initcall __sim_initcall_##fn		\
	__sim_link_order						\
	__attribute__((__used__, __section__("sim_initcall"),		\
		       __aligned__(sizeof(void *)))) = { (lvl), (fn), #fn }

#define early_initcall(fn)	__sim_initcall(fn, SIM_INITCALL_EARLY)
#define core_initcall(fn)	__sim_initcall(fn, SIM_INITCALL_CORE)
#define postcore_initcall(fn)	__sim_initcall(fn, SIM_INITCALL_POSTCORE)
#define arch_initcall(fn)	__sim_initcall(fn, SIM_INITCALL_ARCH)
#define subsys_initcall(fn)	__sim_initcall(fn, SIM_INITCALL_SUBSYS)
#define fs_initcall(fn)		__sim_initcall(fn, SIM_INITCALL_FS)
#define device_initcall(fn)	__sim_initcall(fn, SIM_INITCALL_DEVICE)
#define late_initcall(fn)	__sim_initcall(fn, SIM_INITCALL_LATE)
#define __initcall(fn)		device_initcall(fn)

/* Boot parameters: there is no command line. */
#define __setup(str, fn)
#define early_param(str, fn)

#endif /* _SIM_PRELUDE_H */
