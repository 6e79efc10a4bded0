/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/rwlock.c - pthread reader-writer locks of a
 * simulated program and their attributes.
 *
 * Stage: user program -> futex(2).  Called by the program through
 * workloads/libsim/futexsim.h.
 *
 * The word: bit 31 a writer holds it, bits 0-30 the readers holding it.
 * A locker that cannot get in counts itself a waiter (writers apart,
 * for the writer-preferring kind) and FUTEX_WAITs for the word to change
 * from the value that kept it out; a release that finds waiters wakes
 * them all, to try again.  The kinds are glibc's: readers are preferred
 * (PTHREAD_RWLOCK_PREFER_READER_NP, the default, and PREFER_WRITER_NP,
 * which glibc runs as the same); PREFER_WRITER_NONRECURSIVE_NP keeps a
 * new reader out while a writer waits.  The errors are glibc's: the
 * writer that holds the lock gets EDEADLK from rdlock and wrlock; a
 * timed lock's deadline with tv_nsec outside [0, 10^9), or a clock other
 * than REALTIME and MONOTONIC, is EINVAL before anything else; a
 * negative tv_sec is ETIMEDOUT once the lock is found taken.  pshared
 * is accepted (one process: the same futex word serves).
 */
#include <limits.h>
#include <linux/futex.h>
#include <string.h>

#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"
#include "workloads/ulock/uatomic.h"

#define WL_PROG_RW_WRITER	0x80000000u

/*
 * The kind sits where glibc keeps __flags, so that a static initialiser
 * (PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP writes the kind
 * there and zeroes the rest) gives the lock its kind as
 * pthread_rwlock_init() would.
 */
struct wl_prog_rwlock {
	uint32_t word;
	uint32_t waiters;		/* lockers in FUTEX_WAIT	*/
	uint32_t writers_waiting;	/* wrlockers among them		*/
	int writer;			/* TID of the writer holding it	*/
	int shared;			/* PTHREAD_PROCESS_SHARED	*/
	char pad[28];
	int kind;			/* PTHREAD_RWLOCK_PREFER_*_NP	*/
};
_Static_assert(sizeof(struct wl_prog_rwlock) <= sizeof(pthread_rwlock_t),
	       "pthread_rwlock_t too small");
_Static_assert(__builtin_offsetof(struct wl_prog_rwlock, kind) ==
	       __builtin_offsetof(pthread_rwlock_t, __data.__flags),
	       "the kind is not where glibc's initialisers put __flags");

/* pthread_rwlockattr_t: the kind, then pshared. */
struct wl_prog_rwlockattr {
	int kind;
	int pshared;
};
_Static_assert(sizeof(struct wl_prog_rwlockattr) <= sizeof(pthread_rwlockattr_t),
	       "pthread_rwlockattr_t too small");

int futexsim_pthread_rwlockattr_init(pthread_rwlockattr_t *pa)
{
	memset(pa, 0, sizeof(*pa));
	return 0;
}

int futexsim_pthread_rwlockattr_destroy(pthread_rwlockattr_t *pa)
{
	return 0;
}

int futexsim_pthread_rwlockattr_setkind_np(pthread_rwlockattr_t *pa, int k)
{
	if (k != PTHREAD_RWLOCK_PREFER_READER_NP &&
	    k != PTHREAD_RWLOCK_PREFER_WRITER_NP &&
	    k != PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP)
		return EINVAL;
	((struct wl_prog_rwlockattr *)pa)->kind = k;
	return 0;
}

int futexsim_pthread_rwlockattr_getkind_np(const pthread_rwlockattr_t *pa,
					   int *k)
{
	*k = ((const struct wl_prog_rwlockattr *)pa)->kind;
	return 0;
}

int futexsim_pthread_rwlockattr_setpshared(pthread_rwlockattr_t *pa, int ps)
{
	if (ps != PTHREAD_PROCESS_PRIVATE && ps != PTHREAD_PROCESS_SHARED)
		return EINVAL;
	((struct wl_prog_rwlockattr *)pa)->pshared = ps;
	return 0;
}

int futexsim_pthread_rwlockattr_getpshared(const pthread_rwlockattr_t *pa,
					   int *ps)
{
	*ps = ((const struct wl_prog_rwlockattr *)pa)->pshared;
	return 0;
}

int futexsim_pthread_rwlock_init(pthread_rwlock_t *rw,
				 const pthread_rwlockattr_t *pa)
{
	memset(rw, 0, sizeof(*rw));
	if (pa) {
		((struct wl_prog_rwlock *)rw)->kind =
			((const struct wl_prog_rwlockattr *)pa)->kind;
		((struct wl_prog_rwlock *)rw)->shared =
			((const struct wl_prog_rwlockattr *)pa)->pshared ==
			PTHREAD_PROCESS_SHARED;
	}
	return 0;
}

int futexsim_pthread_rwlock_destroy(pthread_rwlock_t *rw)
{
	return 0;
}

static int self_tid(void)
{
	return sim_current() ? sim_current()->tid : 0;
}

/* Take @l unless it is held against us. Return: 0 taken, else the
 * (non-zero) word that keeps us out. */
static uint32_t rw_try(struct wl_prog_rwlock *l, int writer)
{
	uint32_t v = uatomic_load(&l->word), found;

	for (;;) {
		if (writer ? v != 0 : (v & WL_PROG_RW_WRITER) != 0)
			return v;
		if (!writer && v &&
		    l->kind == PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP &&
		    uatomic_load(&l->writers_waiting))
			return v;
		found = uatomic_cmpxchg(&l->word, v,
					writer ? WL_PROG_RW_WRITER : v + 1);
		if (found == v) {
			if (writer)
				l->writer = self_tid();
			return 0;
		}
		v = found;
	}
}

/* The lock, measuring @clk until @abs if given.  Return: 0, EDEADLK,
 * EINVAL or ETIMEDOUT. */
static int rw_lock(pthread_rwlock_t *rw, int writer, clockid_t clk,
		   const struct timespec *abs)
{
	struct wl_prog_rwlock *l = (struct wl_prog_rwlock *)rw;
	int e = wl_prog_errno_save(), op = FUTEX_WAIT_PRIVATE, ret = 0;
	uint32_t v;

	if (abs && (!wl_prog_clock_ok(clk) || abs->tv_nsec < 0 ||
		    abs->tv_nsec >= 1000000000L))
		return EINVAL;
	if ((uatomic_load(&l->word) & WL_PROG_RW_WRITER) &&
	    l->writer == self_tid())
		return EDEADLK;
	if (abs)
		op = FUTEX_WAIT_BITSET_PRIVATE |
		     (clk == CLOCK_REALTIME ? FUTEX_CLOCK_REALTIME : 0);
	while ((v = rw_try(l, writer)) != 0) {
		long r;

		if (abs && (ret = wl_prog_abstime_check(abs)) != 0)
			break;
		uatomic_fetch_add(&l->waiters, 1);
		if (writer)
			uatomic_fetch_add(&l->writers_waiting, 1);
		r = wl_prog_futex(&l->word, wl_prog_fop(op, l->shared), v,
				  abs, NULL, FUTEX_BITSET_MATCH_ANY);
		if (writer)
			uatomic_fetch_sub(&l->writers_waiting, 1);
		uatomic_fetch_sub(&l->waiters, 1);
		if (r < 0 && errno == ETIMEDOUT) {
			ret = ETIMEDOUT;
			break;
		}
	}
	if (writer && ret && uatomic_load(&l->waiters))
		/* readers kept out for us may go in now */
		wl_prog_futex(&l->word, wl_prog_fop(FUTEX_WAKE_PRIVATE, l->shared),
			      INT_MAX, NULL, NULL, 0);
	if (!ret)
		sim_progress();
	wl_prog_errno_restore(e);
	return ret;
}

int futexsim_pthread_rwlock_rdlock(pthread_rwlock_t *rw)
{
	return rw_lock(rw, 0, CLOCK_REALTIME, NULL);
}

int futexsim_pthread_rwlock_wrlock(pthread_rwlock_t *rw)
{
	return rw_lock(rw, 1, CLOCK_REALTIME, NULL);
}

int futexsim_pthread_rwlock_timedrdlock(pthread_rwlock_t *rw,
					const struct timespec *abs)
{
	return rw_lock(rw, 0, CLOCK_REALTIME, abs);
}

int futexsim_pthread_rwlock_timedwrlock(pthread_rwlock_t *rw,
					const struct timespec *abs)
{
	return rw_lock(rw, 1, CLOCK_REALTIME, abs);
}

int futexsim_pthread_rwlock_clockrdlock(pthread_rwlock_t *rw, clockid_t clk,
					const struct timespec *abs)
{
	return rw_lock(rw, 0, clk, abs);
}

int futexsim_pthread_rwlock_clockwrlock(pthread_rwlock_t *rw, clockid_t clk,
					const struct timespec *abs)
{
	return rw_lock(rw, 1, clk, abs);
}

int futexsim_pthread_rwlock_tryrdlock(pthread_rwlock_t *rw)
{
	int e = wl_prog_errno_save();
	int r = rw_try((struct wl_prog_rwlock *)rw, 0) ? EBUSY : 0;

	wl_prog_errno_restore(e);
	return r;
}

int futexsim_pthread_rwlock_trywrlock(pthread_rwlock_t *rw)
{
	int e = wl_prog_errno_save();
	int r = rw_try((struct wl_prog_rwlock *)rw, 1) ? EBUSY : 0;

	wl_prog_errno_restore(e);
	return r;
}

int futexsim_pthread_rwlock_unlock(pthread_rwlock_t *rw)
{
	struct wl_prog_rwlock *l = (struct wl_prog_rwlock *)rw;
	int e = wl_prog_errno_save();
	uint32_t v = uatomic_load(&l->word);

	if (v & WL_PROG_RW_WRITER) {
		l->writer = 0;
		uatomic_store(&l->word, 0);
	} else if (v) {
		uatomic_fetch_sub(&l->word, 1);
	}
	if (!v) {
		wl_prog_errno_restore(e);
		return EPERM;
	}
	if (uatomic_load(&l->waiters))
		wl_prog_futex(&l->word, wl_prog_fop(FUTEX_WAKE_PRIVATE, l->shared),
			      INT_MAX, NULL, NULL, 0);
	wl_prog_errno_restore(e);
	return 0;
}
