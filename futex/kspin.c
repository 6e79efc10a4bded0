/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex/kspin.c - kernel-side glue of workload=spin: the ticket lock and
 * the generic build of the real qspinlock behind plain-C entry points,
 * and the per-CPU lock event counters of the real qspinlock.c.
 *
 * Stage: workload -> kernel.  Called by workloads/spin.c and the tests
 * through futex/kspin.h; calls futex/ticket.c, the arch shim's
 * spin_lock() family (linux/spinlock.h: preempt_disable() + the real
 * asm-generic/qspinlock.h fast path + queued_spin_lock_slowpath()) and
 * per_cpu() for the counters.
 *
 * Lock events: with CONFIG_LOCK_EVENT_COUNTS (generated/autoconf.h) the
 * real kernel/locking/lock_events.h turns every lockevent_inc() of
 * qspinlock.c into raw_cpu_inc(lockevents[...]) and declares the per-CPU
 * array; the kernel defines it in lock_events.c, which also builds the
 * debugfs files and is not compiled here.  The array is defined below
 * instead.  raw_cpu_inc() is CPU-local and not hooked, so counting costs
 * no simulated time.
 */
#include <linux/kernel.h>
#include <linux/build_bug.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>

#include "lock_events.h"
#include "futex/kspin.h"
#include "futex/ticket.h"

static_assert(sizeof(spinlock_t) == KSIM_SPIN_BYTES, "qspinlock is one word");
static_assert(sizeof(struct ticket_spinlock) == KSIM_SPIN_BYTES,
	      "the ticket lock is one word");

DEFINE_PER_CPU(unsigned long, lockevents[lockevent_num]);

void ksim_spin_ticket_lock(void *lock)
{
	preempt_disable();
	ticket_spin_lock(lock);
}

void ksim_spin_ticket_unlock(void *lock)
{
	ticket_spin_unlock(lock);
	preempt_enable();
}

int ksim_spin_ticket_trylock(void *lock)
{
	preempt_disable();
	if (ticket_spin_trylock(lock))
		return 1;
	preempt_enable();
	return 0;
}

void ksim_spin_qgeneric_lock(void *lock)
{
	spin_lock(lock);
}

void ksim_spin_qgeneric_unlock(void *lock)
{
	spin_unlock(lock);
}

void ksim_spin_paths_read(struct ksim_spin_paths *p)
{
	int cpu;

	p->pending = p->queue = p->no_node = 0;
	for (cpu = 0; cpu < sim_nr_cpus; cpu++) {
		p->pending += per_cpu(lockevents[LOCKEVENT_lock_pending], cpu);
		p->queue += per_cpu(lockevents[LOCKEVENT_lock_slowpath], cpu);
		p->no_node += per_cpu(lockevents[LOCKEVENT_lock_no_node], cpu);
	}
}

void ksim_spin_paths_reset(void)
{
	int cpu, ev;

	for (cpu = 0; cpu < sim_nr_cpus; cpu++)
		for (ev = 0; ev < lockevent_num; ev++)
			per_cpu(lockevents[ev], cpu) = 0;
}
