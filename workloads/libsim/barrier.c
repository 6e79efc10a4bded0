/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/barrier.c - pthread barriers (and their attributes)
 * and spinlocks of a simulated program.
 *
 * Stage: user program -> futex(2).  Called by the program through
 * workloads/libsim/futexsim.h.
 *
 * A barrier counts the tasks of a round; the last to arrive starts the
 * next round (bumps the round word, FUTEX_WAKEs every waiter) and is
 * the PTHREAD_BARRIER_SERIAL_THREAD; the others FUTEX_WAIT for the
 * round word to change.  A count of 0 is EINVAL, as glibc's; init
 * keeps the round word, so a barrier set up again at once (glibc lets
 * the serial thread do so) lets the last round's tasks leave.  pshared
 * is accepted (one process: the same futex word serves).  A spinlock is
 * a test-and-test-and-set word: no futex(2) at all.
 */
#include <limits.h>
#include <linux/futex.h>
#include <string.h>

#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"
#include "workloads/ulock/uatomic.h"

int futexsim_pthread_barrierattr_init(pthread_barrierattr_t *a)
{
	memset(a, 0, sizeof(*a));
	return 0;
}

int futexsim_pthread_barrierattr_destroy(pthread_barrierattr_t *a)
{
	return 0;
}

int futexsim_pthread_barrierattr_setpshared(pthread_barrierattr_t *a, int ps)
{
	if (ps != PTHREAD_PROCESS_PRIVATE && ps != PTHREAD_PROCESS_SHARED)
		return EINVAL;
	*(int *)a = ps;
	return 0;
}

int futexsim_pthread_barrierattr_getpshared(const pthread_barrierattr_t *a,
					    int *ps)
{
	*ps = *(const int *)a;
	return 0;
}

struct wl_prog_barrier {
	uint32_t count;			/* tasks per round		*/
	uint32_t arrived;		/* in this round		*/
	uint32_t round;			/* bumped by the last to arrive	*/
	int shared;			/* PTHREAD_PROCESS_SHARED	*/
};
_Static_assert(sizeof(struct wl_prog_barrier) <= sizeof(pthread_barrier_t),
	       "pthread_barrier_t too small");

int futexsim_pthread_barrier_init(pthread_barrier_t *pb,
				  const pthread_barrierattr_t *a,
				  unsigned int count)
{
	struct wl_prog_barrier *b = (struct wl_prog_barrier *)pb;

	if (!count || count > INT_MAX)
		return EINVAL;
	/* the round word is left as it is: a barrier destroyed and set up
	 * again by the serial thread while the others of the last round
	 * are still leaving must not send them back to sleep */
	b->count = count;
	b->shared = a && *(const int *)a == PTHREAD_PROCESS_SHARED;
	uatomic_store(&b->arrived, 0);
	return 0;
}

int futexsim_pthread_barrier_destroy(pthread_barrier_t *pb)
{
	return 0;
}

int futexsim_pthread_barrier_wait(pthread_barrier_t *pb)
{
	struct wl_prog_barrier *b = (struct wl_prog_barrier *)pb;
	int e = wl_prog_errno_save();
	uint32_t round = uatomic_load(&b->round);

	if (uatomic_fetch_add(&b->arrived, 1) + 1 == b->count) {
		uatomic_store(&b->arrived, 0);
		uatomic_fetch_add(&b->round, 1);
		wl_prog_futex(&b->round, wl_prog_fop(FUTEX_WAKE_PRIVATE, b->shared),
			      INT_MAX, NULL, NULL, 0);
		wl_prog_errno_restore(e);
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}
	while (uatomic_load(&b->round) == round)
		wl_prog_futex(&b->round, wl_prog_fop(FUTEX_WAIT_PRIVATE, b->shared),
			      round, NULL, NULL, 0);
	wl_prog_errno_restore(e);
	return 0;
}

/* ---- spinlocks ---------------------------------------------------------- */

int futexsim_pthread_spin_init(pthread_spinlock_t *s, int pshared)
{
	*s = 0;
	return 0;
}

int futexsim_pthread_spin_destroy(pthread_spinlock_t *s)
{
	return 0;
}

/*
 * pthread_spin_lock: exchange, and while the lock is taken, reload with a
 * pause between.  After two such rounds the CPU parks on the word's line,
 * its clock moved as far as the rounds would have taken it: a spinner
 * behind an owner that sleeps for a second costs the host what the
 * second's events cost, not a billion rounds.  The wait is for the word
 * to be 0, and its reloads are not announced (sim_spin_wait_reload_until()
 * with SIM_SPIN_UNANNOUNCED): the dispatcher may make the reload, and
 * park the CPU again while the word is not 0; after a reload it made, the
 * word is read with no hook.
 */
int futexsim_pthread_spin_lock(pthread_spinlock_t *s)
{
	int e = wl_prog_errno_save();
	uint32_t *word = (uint32_t *)s;

	while (uatomic_xchg(word, 1)) {
		unsigned int rounds = 0;
		int made = 0;

		while (made ? *(volatile uint32_t *)word : uatomic_load(word)) {
			if (rounds++ < 2) {
				uatomic_pause();
				continue;
			}
			made = sim_spin_wait_reload_until(word, sizeof(*word),
					SIM_SPIN_UNTIL_EQ | SIM_SPIN_UNANNOUNCED,
					0, 1) & SIM_SPIN_MADE;
		}
	}
	wl_prog_errno_restore(e);
	return 0;
}

int futexsim_pthread_spin_trylock(pthread_spinlock_t *s)
{
	int e = wl_prog_errno_save(), r = uatomic_xchg((uint32_t *)s, 1) ? EBUSY : 0;

	wl_prog_errno_restore(e);
	return r;
}

int futexsim_pthread_spin_unlock(pthread_spinlock_t *s)
{
	int e = wl_prog_errno_save();

	uatomic_store((uint32_t *)s, 0);
	wl_prog_errno_restore(e);
	return 0;
}
