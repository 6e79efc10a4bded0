/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/hardirq.h (shadow) - interrupt context on the simulated machine.
 *
 * Stage: kernel.  Included by kernel/locking/qspinlock.c.  The real header
 * pulls in context tracking, vtime and the arch's irq statistics.
 * Contract: there is no hard or soft interrupt context; the in_*()
 * predicates come from linux/preempt.h (ours) and are constant 0 (in_task()
 * is 1).  qspinlock's per-CPU MCS nodes are therefore only ever used at
 * nesting level 0 (its idx >= MAX_NODES fallback is unreachable).
 */
#ifndef _SIM_LINUX_HARDIRQ_H
#define _SIM_LINUX_HARDIRQ_H

#include <linux/preempt.h>

#endif /* _SIM_LINUX_HARDIRQ_H */
