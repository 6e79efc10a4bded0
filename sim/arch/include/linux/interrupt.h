/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/interrupt.h (shadow) - interrupt handling: there is none.
 *
 * Stage: kernel.  Included by kernel/locking/mutex.c, which needs nothing
 * from it but the context predicates (in_interrupt() ...).  The real
 * header declares request_irq(), tasklets and softirqs and pulls in
 * workqueues, cpumasks and the arch's pt_regs.
 *
 * Contract: the in_*() predicates of linux/preempt.h (ours): no hard or
 * soft interrupt context ever exists on the simulated machine.
 */
#ifndef _SIM_LINUX_INTERRUPT_H
#define _SIM_LINUX_INTERRUPT_H

#include <linux/preempt.h>
#include <linux/hardirq.h>

#endif /* _SIM_LINUX_INTERRUPT_H */
