/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/bug.h - BUG() and WARN() of "arch sim": a kernel assertion failure
 * is a simulated failure.
 *
 * Stage: kernel -> machine.  Included by the real linux/bug.h (and by
 * headers such as linux/plist.h directly).  Supplies the arch part the way
 * arch/x86/include/asm/bug.h does, then includes the real
 * asm-generic/bug.h for the rest (WARN_ON_ONCE(), WARN(), WARN_ONCE() ...).
 *
 * Contract: BUG(), a true BUG_ON(c), and any WARN*() whose condition holds
 * call sim_bug() or sim_warn() (sim/machine/hooks.h) with the message and the
 * kernel file and line; both report the failure (seed, time, every task's
 * stack) and end the run with exit status 3 - they do not return.  A WARN
 * is treated as a failure because a simulated kernel should never warn.
 * The printf-style text of WARN(c, fmt, ...) goes to __warn_printk(), a
 * no-op (sim/arch/bug.c).
 */
#ifndef _SIM_ASM_BUG_H
#define _SIM_ASM_BUG_H

#include <linux/compiler.h>
#include <sim/machine/hooks.h>

#define HAVE_ARCH_BUG
#define BUG()		sim_bug("BUG()", __FILE__, __LINE__)

#define HAVE_ARCH_BUG_ON
#define BUG_ON(cond)							\
do {									\
	if (unlikely(cond))						\
		sim_bug("BUG_ON(" #cond ")", __FILE__, __LINE__);	\
} while (0)

#define WARN_ON(cond)							\
({									\
	int __sim_warn_on = !!(cond);					\
	if (unlikely(__sim_warn_on))					\
		sim_warn("WARN_ON(" #cond ")", __FILE__, __LINE__);	\
	unlikely(__sim_warn_on);					\
})

/* WARN_ON_ONCE(), WARN() and friends end up here. */
#define __WARN_FLAGS(flags)	sim_warn("WARN", __FILE__, __LINE__)

#include <asm-generic/bug.h>

#endif /* _SIM_ASM_BUG_H */
