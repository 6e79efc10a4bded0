/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/preempt.h (shadow) - preemption control on the simulated machine.
 *
 * Stage: kernel -> machine.  Used by linux/spinlock.h (ours), get_cpu()
 * and kernel code directly.  Reads and writes sim_this_cpu->preempt_count
 * and ->need_resched (sim/machine/hooks.h).
 *
 * The machine may preempt the current task at any hook point where the
 * CPU's preempt_count is 0 and need_resched is set (full kernel
 * preemption).  So:
 *  - preempt_disable() increments the count, preempt_enable() decrements
 *    it; both are compiler barriers, so no access of the protected region
 *    moves out of it.  A held spinlock keeps the count above 0: spinlock
 *    holders are never preempted.
 *  - preempt_enable() does not call the scheduler itself; if a reschedule
 *    is pending, the next hook point (there always is one before the task
 *    blocks, returns to user space or spins) performs it.
 *  - There are no interrupts, softirqs or NMIs: in_interrupt() and the
 *    like are 0, in_task() is 1.  Timer callbacks run in the machine's
 *    event context, outside any task (see linux/hrtimer.h).
 */
#ifndef _SIM_LINUX_PREEMPT_H
#define _SIM_LINUX_PREEMPT_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <sim/machine/hooks.h>

static __always_inline int preempt_count(void)
{
	return sim_this_cpu->preempt_count;
}

#define preempt_count_inc()	(sim_this_cpu->preempt_count++)
#define preempt_count_dec()	(sim_this_cpu->preempt_count--)

#define preempt_disable()						\
do {									\
	preempt_count_inc();						\
	barrier();							\
} while (0)

#define preempt_enable()						\
do {									\
	barrier();							\
	preempt_count_dec();						\
} while (0)

#define preempt_enable_no_resched()	preempt_enable()
#define preempt_disable_notrace()	preempt_disable()
#define preempt_enable_notrace()	preempt_enable()
#define preempt_enable_no_resched_notrace() preempt_enable()

#define preemptible()		(preempt_count() == 0)
#define in_atomic()		(preempt_count() != 0)

#define in_nmi()		0
#define in_hardirq()		0
#define in_serving_softirq()	0
#define in_softirq()		0
#define in_interrupt()		0
#define in_irq()		0
#define in_task()		1

#endif /* _SIM_LINUX_PREEMPT_H */
