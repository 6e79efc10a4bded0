/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/irqflags.h (shadow) - interrupt masking on the simulated machine.
 *
 * Stage: kernel (locking).  Used by linux/spinlock.h (ours) for the
 * _irq/_irqsave lock forms and by the real asm-generic/bitops.h.
 *
 * Contract: simulated CPUs take no interrupts (timers fire in the
 * machine's event context, never inside a task), so masking is a no-op:
 * local_irq_save(flags) sets flags to 0 and local_irq_restore(flags)
 * ignores it, irqs_disabled() is 0.  Like the kernel's, the save/restore
 * forms check that flags is an unsigned long.
 */
#ifndef _SIM_LINUX_IRQFLAGS_H
#define _SIM_LINUX_IRQFLAGS_H

#include <linux/compiler.h>
#include <linux/typecheck.h>

#define raw_local_irq_save(flags)					\
do {									\
	typecheck(unsigned long, flags);				\
	(flags) = 0;							\
	barrier();							\
} while (0)
#define raw_local_irq_restore(flags)					\
do {									\
	typecheck(unsigned long, flags);				\
	barrier();							\
	(void)(flags);							\
} while (0)
#define raw_local_irq_disable()		barrier()
#define raw_local_irq_enable()		barrier()
#define raw_irqs_disabled()		0

#define local_irq_save(flags)		raw_local_irq_save(flags)
#define local_irq_restore(flags)	raw_local_irq_restore(flags)
#define local_irq_disable()		raw_local_irq_disable()
#define local_irq_enable()		raw_local_irq_enable()
#define irqs_disabled()			raw_irqs_disabled()

#define lockdep_assert_irqs_disabled()	do { } while (0)
#define lockdep_assert_irqs_enabled()	do { } while (0)

#endif /* _SIM_LINUX_IRQFLAGS_H */
