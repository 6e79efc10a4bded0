/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace/events/lock.h (shadow) - the kernel's lock contention tracepoints.
 *
 * Stage: kernel -> trace.  Called by kernel/locking/qspinlock.c, the
 * real mutex and the real rtmutex around a contended acquisition; calls
 * the machine's trace (sim_trace_contention_*() of sim/machine/hooks.h), where
 * they become the lock:contention_begin/end events of --trace.
 *
 * Contract: trace_contention_begin(lock, flags) is called when a task
 * starts waiting for @lock (flags: LCB_F_*, the kernel's values, e.g.
 * LCB_F_SPIN for a spinlock); trace_contention_end(lock, ret) when it
 * stops (ret 0: acquired).  With no trace open (or the event not
 * selected), each costs one predictable branch on sim_trace_mask.  The
 * real qspinlock.c calls them on its MCS queue path only: a CPU that
 * takes the lock through the pending bit is not "contended" for this
 * tracepoint, on Linux as here.
 */
#ifndef _SIM_TRACE_EVENTS_LOCK_H
#define _SIM_TRACE_EVENTS_LOCK_H

#include <linux/compiler.h>
#include <sim/machine/hooks.h>

/*
 * The real mutex.c of 6.12 exports the two tracepoints to modules; the
 * simulated kernel has no modules.
 */
#define EXPORT_TRACEPOINT_SYMBOL_GPL(name)

/* Flags for lock:contention_begin (the kernel's values). */
#define LCB_F_SPIN	(1U << 0)
#define LCB_F_READ	(1U << 1)
#define LCB_F_WRITE	(1U << 2)
#define LCB_F_RT	(1U << 3)
#define LCB_F_PERCPU	(1U << 4)
#define LCB_F_MUTEX	(1U << 5)

static inline void trace_contention_begin(void *lock, unsigned int flags)
{
	if (unlikely(sim_trace_mask & SIM_TRACE_BIT(SIM_TEV_CONTENTION_BEGIN)))
		sim_trace_contention_begin(lock, flags);
}

static inline void trace_contention_end(void *lock, int ret)
{
	if (unlikely(sim_trace_mask & SIM_TRACE_BIT(SIM_TEV_CONTENTION_END)))
		sim_trace_contention_end(lock, ret);
}

#endif /* _SIM_TRACE_EVENTS_LOCK_H */
