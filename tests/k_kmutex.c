/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/k_kmutex.c - kernel-side glue that lets host tests drive the real
 * kernel mutex and a deliberately broken one.
 *
 * Stage: test glue (kernel TU).  Called by host tests through
 * tests/k_kmutex.h; calls the real kernel/locking/mutex.c (mutex_lock(),
 * mutex_unlock(), mutex_trylock(), which use kernel/locking/osq_lock.c and
 * the scheduler's schedule_preempt_disabled(), owner_on_cpu() and
 * need_resched()) and, for the broken mutex, READ_ONCE()/WRITE_ONCE() on
 * the same owner word.
 *
 * The flag values below are mutex.c's (private to that file, so restated
 * here): a change in the kernel would show up as failing tests, not as
 * silently wrong ones.  The 4.8-era mutex of futex/mutex48.c is driven
 * the same way, for the comparison.
 */
#include <linux/kernel.h>
#include <linux/build_bug.h>
#include <linux/mutex.h>
#include <linux/osq_lock.h>
#include <linux/sched.h>
#include <asm/processor.h>
#include "futex/mutex48.h"
#include "tests/k_kmutex.h"

#define KSIM_MUTEX_FLAGS	0x07UL	/* WAITERS | HANDOFF | PICKUP */

/* The optimistic spinning this glue is here to exercise is compiled in. */
static_assert(IS_ENABLED(CONFIG_MUTEX_SPIN_ON_OWNER), "mutex without OSQ");

unsigned long ksim_test_mutex_size(void)
{
	return sizeof(struct mutex);
}

void ksim_test_mutex_init(void *m)
{
	mutex_init((struct mutex *)m);
}

void ksim_test_mutex_lock(void *m)
{
	mutex_lock(m);
}

void ksim_test_mutex_unlock(void *m)
{
	mutex_unlock(m);
}

int ksim_test_mutex_trylock(void *m)
{
	return mutex_trylock(m);
}

unsigned long ksim_test_mutex_flags(void *m)
{
	struct mutex *lock = m;

	return atomic_long_read(&lock->owner) & KSIM_MUTEX_FLAGS;
}

int ksim_test_mutex_owner_is_current(void *m)
{
	struct mutex *lock = m;
	unsigned long owner = atomic_long_read(&lock->owner);

	return (owner & ~KSIM_MUTEX_FLAGS) == (unsigned long)current;
}

int ksim_test_mutex_osq_busy(void *m)
{
	struct mutex *lock = m;

	return osq_is_locked(&lock->osq);
}

int ksim_test_mutex_at_rest(const void *m)
{
	const struct mutex *lock = m;

	return lock->owner.counter == 0 &&
	       lock->wait_list.next == &lock->wait_list &&
	       lock->osq.tail.counter == OSQ_UNLOCKED_VAL &&
	       lock->wait_lock.raw_lock.val.counter == 0;
}

void ksim_test_touch_own_on_cpu_line(void)
{
	/* the same value back: on_cpu is the machine's, never read here */
	WRITE_ONCE(current->on_cpu, current->on_cpu);
}

void ksim_test_busted_mutex_lock(void *m)
{
	struct mutex *lock = m;

	while (READ_ONCE(lock->owner.counter))
		cpu_relax();
	/* BROKEN on purpose: another task may run between the load above
	 * and this store, see the owner word clear too, and take it too. */
	WRITE_ONCE(lock->owner.counter, (long)current);
}

void ksim_test_busted_mutex_unlock(void *m)
{
	struct mutex *lock = m;

	WRITE_ONCE(lock->owner.counter, 0);
}

unsigned long ksim_test_mutex48_size(void)
{
	return sizeof(struct mutex48);
}

void ksim_test_mutex48_init(void *m)
{
	mutex48_init(m);
}

void ksim_test_mutex48_lock(void *m)
{
	mutex48_lock(m);
}

void ksim_test_mutex48_unlock(void *m)
{
	mutex48_unlock(m);
}

int ksim_test_mutex48_at_rest(const void *m)
{
	const struct mutex48 *lock = m;

	return lock->count.counter == 1 && !lock->owner && !lock->waiters &&
	       lock->osq.tail.counter == OSQ_UNLOCKED_VAL &&
	       lock->wait_lock.raw_lock.val.counter == 0;
}
