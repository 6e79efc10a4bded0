/* SPDX-License-Identifier: GPL-2.0 */
/*
 * trace/events/lock.h (shadow) - the kernel's lock contention tracepoints.
 *
 * Stage: kernel -> trace.  Called by kernel/locking/qspinlock.c (and later
 * the real mutex and rtmutex code) around a contended acquisition.
 *
 * Contract: trace_contention_begin(lock, flags) is called when a task
 * starts waiting for @lock (flags: LCB_F_*, the kernel's values, e.g.
 * LCB_F_SPIN for a spinlock); trace_contention_end(lock, ret) when it
 * stops (ret 0: acquired).  For now both are no-ops; a later issue routes
 * them to the machine's trace, where they become the kernel's own
 * lock:contention_begin/end events.
 */
#ifndef _SIM_TRACE_EVENTS_LOCK_H
#define _SIM_TRACE_EVENTS_LOCK_H

/* Flags for lock:contention_begin (the kernel's values). */
#define LCB_F_SPIN	(1U << 0)
#define LCB_F_READ	(1U << 1)
#define LCB_F_WRITE	(1U << 2)
#define LCB_F_RT	(1U << 3)
#define LCB_F_PERCPU	(1U << 4)
#define LCB_F_MUTEX	(1U << 5)

static inline void trace_contention_begin(void *lock, unsigned int flags)
{
}

static inline void trace_contention_end(void *lock, int ret)
{
}

#endif /* _SIM_TRACE_EVENTS_LOCK_H */
