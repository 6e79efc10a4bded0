/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/cond.c - pthread condition variables of a simulated
 * program and their attributes.
 *
 * Stage: user program -> futex(2).  Called by the program through
 * workloads/libsim/futexsim.h (and the C11 cnd_* calls, c11.c); calls
 * the mutexes (mutex.c) around a wait.
 *
 * A condition variable is a sequence word: a waiter reads it, unlocks
 * the mutex, and FUTEX_WAITs for it to change; signal and broadcast bump
 * it and wake one or all (when anyone waits).  The errors are glibc's: a
 * wait whose mutex unlock fails (an error-checking or recursive mutex the
 * caller does not hold: EPERM) returns that error without waiting; a
 * deadline with tv_nsec outside [0, 10^9) is EINVAL before anything
 * else; a clock other than REALTIME and MONOTONIC is EINVAL.  The
 * attribute's clock (setclock) is what timedwait measures; pshared is
 * accepted (one process: the same futex word serves).
 */
#include <limits.h>
#include <linux/futex.h>
#include <string.h>

#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"
#include "workloads/ulock/uatomic.h"

/* pthread_condattr_t: the clock in bits 0-7, pshared above. */
#define WL_PROG_COND_PSHARED	0x100

struct wl_prog_cond {
	uint32_t seq;			/* bumped by signal, broadcast	*/
	uint32_t waiters;		/* tasks in wait		*/
	int clock;			/* condattr clock		*/
	int shared;			/* PTHREAD_PROCESS_SHARED	*/
};
_Static_assert(sizeof(struct wl_prog_cond) <= sizeof(pthread_cond_t),
	       "pthread_cond_t too small");

int futexsim_pthread_condattr_init(pthread_condattr_t *a)
{
	memset(a, 0, sizeof(*a));
	return 0;
}

int futexsim_pthread_condattr_destroy(pthread_condattr_t *a)
{
	return 0;
}

int futexsim_pthread_condattr_setclock(pthread_condattr_t *a, clockid_t c)
{
	int *w = (int *)a;

	if (!wl_prog_clock_ok(c))
		return EINVAL;
	*w = (*w & ~0xff) | (int)c;
	return 0;
}

int futexsim_pthread_condattr_getclock(const pthread_condattr_t *a,
				       clockid_t *c)
{
	*c = *(const int *)a & 0xff;
	return 0;
}

int futexsim_pthread_condattr_setpshared(pthread_condattr_t *a, int ps)
{
	int *w = (int *)a;

	if (ps != PTHREAD_PROCESS_PRIVATE && ps != PTHREAD_PROCESS_SHARED)
		return EINVAL;
	*w = ps == PTHREAD_PROCESS_SHARED ? *w | WL_PROG_COND_PSHARED :
					    *w & ~WL_PROG_COND_PSHARED;
	return 0;
}

int futexsim_pthread_condattr_getpshared(const pthread_condattr_t *a, int *ps)
{
	*ps = *(const int *)a & WL_PROG_COND_PSHARED ? PTHREAD_PROCESS_SHARED :
						      PTHREAD_PROCESS_PRIVATE;
	return 0;
}

int futexsim_pthread_cond_init(pthread_cond_t *pc, const pthread_condattr_t *a)
{
	memset(pc, 0, sizeof(*pc));
	((struct wl_prog_cond *)pc)->clock = a ? *(const int *)a & 0xff :
					     CLOCK_REALTIME;
	((struct wl_prog_cond *)pc)->shared =
		a && (*(const int *)a & WL_PROG_COND_PSHARED);
	return 0;
}

int futexsim_pthread_cond_destroy(pthread_cond_t *pc)
{
	return 0;
}

/* The wait, measuring @clk when @abs is given.  Return: 0, ETIMEDOUT, or
 * the mutex unlock's error (then without waiting). */
static int cond_wait(pthread_cond_t *pc, pthread_mutex_t *m, clockid_t clk,
		     const struct timespec *abs)
{
	struct wl_prog_cond *c = (struct wl_prog_cond *)pc;
	int e = wl_prog_errno_save(), op = FUTEX_WAIT_PRIVATE, ret = 0;
	uint32_t seq;
	long r;

	wl_prog_cancel_point();
	uatomic_fetch_add(&c->waiters, 1);
	seq = uatomic_load(&c->seq);
	ret = futexsim_pthread_mutex_unlock(m);
	if (ret) {
		uatomic_fetch_sub(&c->waiters, 1);
		wl_prog_errno_restore(e);
		return ret;
	}
	if (abs) {
		op = FUTEX_WAIT_BITSET_PRIVATE |
		     (clk == CLOCK_MONOTONIC ? 0 : FUTEX_CLOCK_REALTIME);
		ret = wl_prog_abstime_check(abs);
	}
	/* the unlock's FUTEX_WAKE may have taken a cancel's signal */
	if (!ret && !wl_prog_cancel_due()) {
		r = wl_prog_futex(&c->seq, wl_prog_fop(op, c->shared), seq,
				  abs, NULL, FUTEX_BITSET_MATCH_ANY);
		if (r < 0 && errno == ETIMEDOUT)
			ret = ETIMEDOUT;
	}
	uatomic_fetch_sub(&c->waiters, 1);
	futexsim_pthread_mutex_lock(m);
	/* cancelled in the wait: the handlers run with the mutex held */
	wl_prog_cancel_point();
	wl_prog_errno_restore(e);
	return ret;
}

int futexsim_pthread_cond_timedwait(pthread_cond_t *pc, pthread_mutex_t *m,
				    const struct timespec *abs)
{
	if (abs->tv_nsec < 0 || abs->tv_nsec >= 1000000000L)
		return EINVAL;
	return cond_wait(pc, m, ((struct wl_prog_cond *)pc)->clock, abs);
}

int futexsim_pthread_cond_clockwait(pthread_cond_t *pc, pthread_mutex_t *m,
				    clockid_t clk, const struct timespec *abs)
{
	if (!wl_prog_clock_ok(clk) || abs->tv_nsec < 0 ||
	    abs->tv_nsec >= 1000000000L)
		return EINVAL;
	return cond_wait(pc, m, clk, abs);
}

int futexsim_pthread_cond_wait(pthread_cond_t *pc, pthread_mutex_t *m)
{
	return cond_wait(pc, m, CLOCK_REALTIME, NULL);
}

static int cond_wake(pthread_cond_t *pc, int nr)
{
	struct wl_prog_cond *c = (struct wl_prog_cond *)pc;
	int e = wl_prog_errno_save();

	uatomic_fetch_add(&c->seq, 1);
	if (uatomic_load(&c->waiters))
		wl_prog_futex(&c->seq, wl_prog_fop(FUTEX_WAKE_PRIVATE, c->shared),
			      nr, NULL, NULL, 0);
	wl_prog_errno_restore(e);
	return 0;
}

int futexsim_pthread_cond_signal(pthread_cond_t *pc)
{
	return cond_wake(pc, 1);
}

int futexsim_pthread_cond_broadcast(pthread_cond_t *pc)
{
	return cond_wake(pc, INT_MAX);
}
