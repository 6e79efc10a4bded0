/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/sync.c - pthread mutexes, condition variables,
 * barriers, spinlocks and semaphores of a simulated program.
 *
 * Stage: user program -> user lock (workloads/ulock) -> futex(2).
 * Called by the program through workloads/libsim/futexsim.h.
 *
 * Mutexes are the scenario's user lock (lock=, default ww: glibc's
 * 3-state mutex), kept in the first bytes of the pthread_mutex_t; a
 * mutex with PTHREAD_PRIO_INHERIT is the pi lock (FUTEX_LOCK_PI).  An
 * all-zero pthread_mutex_t (PTHREAD_MUTEX_INITIALIZER) is an unlocked
 * lock of every user lock here.  The type (recursive, errorcheck) lives
 * where glibc keeps it (__kind), so the static initialisers of
 * <pthread.h> work.  Every acquisition is counted for the report like
 * the built-in mutex workload's: latency, syscalls, EAGAIN, wakeups; the
 * holder is told to sim/trace/uword.h (the report's futex words, a
 * deadlock's wait-for cycle).
 *
 * Condition variables are a sequence word: a waiter reads it, unlocks,
 * and FUTEX_WAITs for it to change; signal and broadcast bump it and
 * wake one or all (when anyone waits).  Reader-writer locks (readers
 * preferred, as glibc's default), barriers, spinlocks and semaphores are
 * the textbook futex designs.
 */
#include <limits.h>
#include <linux/futex.h>
#include <string.h>

#include "sim/trace/lockstat.h"
#include "sim/trace/uword.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"
#include "workloads/ulock/uatomic.h"

#define WL_PROG_PI_KIND	0x100	/* in __kind: PTHREAD_PRIO_INHERIT */

struct wl_prog_mutex {
	uint32_t lock[4];		/* the user lock's memory	*/
	int kind;			/* glibc's __kind		*/
	int owner;			/* TID of the holder		*/
	unsigned int count;		/* recursion depth		*/
};
_Static_assert(sizeof(struct wl_prog_mutex) <= sizeof(pthread_mutex_t),
	       "pthread_mutex_t too small");
_Static_assert(offsetof(struct wl_prog_mutex, kind) ==
	       offsetof(pthread_mutex_t, __data.__kind), "glibc's __kind");

static const struct ulock_ops *mutex_ops(const struct wl_prog_mutex *m)
{
	return m->kind & WL_PROG_PI_KIND ? &ulock_pi_ops : wl_prog.lock;
}

static int self_tid(void)
{
	return sim_current() ? sim_current()->tid : 0;
}

int futexsim_pthread_mutexattr_init(pthread_mutexattr_t *a)
{
	memset(a, 0, sizeof(*a));
	return 0;
}

int futexsim_pthread_mutexattr_destroy(pthread_mutexattr_t *a)
{
	return 0;
}

int futexsim_pthread_mutexattr_settype(pthread_mutexattr_t *a, int type)
{
	int *k = (int *)a;

	if (type < 0 || type > PTHREAD_MUTEX_ADAPTIVE_NP)
		return EINVAL;
	*k = (*k & WL_PROG_PI_KIND) | type;
	return 0;
}

int futexsim_pthread_mutexattr_setprotocol(pthread_mutexattr_t *a, int p)
{
	int *k = (int *)a;

	if (p == PTHREAD_PRIO_PROTECT)
		wl_prog_fail("pthread_mutexattr_setprotocol(PTHREAD_PRIO_PROTECT)");
	*k = p == PTHREAD_PRIO_INHERIT ? *k | WL_PROG_PI_KIND : *k & ~WL_PROG_PI_KIND;
	return 0;
}

int futexsim_pthread_mutex_init(pthread_mutex_t *pm,
				const pthread_mutexattr_t *a)
{
	struct wl_prog_mutex *m = (struct wl_prog_mutex *)pm;

	memset(pm, 0, sizeof(*pm));
	m->kind = a ? *(const int *)a : 0;
	if (mutex_ops(m)->size > sizeof(m->lock))
		wl_prog_fail("a user lock larger than a pthread_mutex_t");
	mutex_ops(m)->init(m->lock);
	return 0;
}

int futexsim_pthread_mutex_destroy(pthread_mutex_t *pm)
{
	return 0;
}

/* The acquisition itself, counted like workloads/mutex.c counts it.
 * Return: 0, or the user lock's error (a positive errno). */
static int mutex_acquire(struct wl_prog_mutex *m, struct wl_prog_thread *t)
{
	const struct ulock_ops *ops = mutex_ops(m);
	uint64_t t0 = sim_now_ps(), sys0 = t->st.lock_syscalls;
	int busy = sim_lockstat_on && m->lock[0];
	int err = ops->lock(m->lock, &t->st);

	if (err)
		return err;
	sim_hist_add(t->acquire_ns, (sim_now_ps() - t0) / 1000);
	if (sim_lockstat_on)
		sim_lockstat_user_acquired(m->lock, ops->name, t0,
					   busy || t->st.lock_syscalls != sys0);
	t->acquires++;
	sim_progress();
	return 0;
}

/* Recursion and error checks. Return: -1 to go on, else the result. */
static int mutex_check_owner(struct wl_prog_mutex *m, int tid)
{
	int type = m->kind & 0xff;

	if (m->owner != tid)
		return -1;
	if (type == PTHREAD_MUTEX_RECURSIVE) {
		m->count++;
		return 0;
	}
	return type == PTHREAD_MUTEX_ERRORCHECK ? EDEADLK : -1;
}

int futexsim_pthread_mutex_lock(pthread_mutex_t *pm)
{
	struct wl_prog_mutex *m = (struct wl_prog_mutex *)pm;
	struct wl_prog_thread *t = wl_prog_self();
	int e = wl_prog_errno_save(), tid = self_tid(), r;

	if (!t)
		wl_prog_fail("pthread_mutex_lock() outside a simulated program");
	r = mutex_check_owner(m, tid);
	if (r >= 0)
		return r;
	r = mutex_acquire(m, t);
	if (!r) {
		m->owner = tid;
		m->count = 1;
		sim_uword_owner(m->lock, tid);
	}
	wl_prog_errno_restore(e);
	return r;
}

int futexsim_pthread_mutex_trylock(pthread_mutex_t *pm)
{
	struct wl_prog_mutex *m = (struct wl_prog_mutex *)pm;
	struct wl_prog_thread *t = wl_prog_self();
	int e = wl_prog_errno_save(), tid = self_tid(), r;
	uint32_t mine = m->kind & WL_PROG_PI_KIND ? (uint32_t)tid : 1;

	if (!t)
		wl_prog_fail("pthread_mutex_trylock() outside a simulated program");
	r = mutex_check_owner(m, tid);
	if (r == EDEADLK)
		r = EBUSY;
	if (r >= 0)
		return r;
	/* every user lock here is free at 0; ww takes it with 1, pi with
	 * the TID, as their fast paths do */
	if (uatomic_cmpxchg(m->lock, 0, mine) != 0) {
		wl_prog_errno_restore(e);
		return EBUSY;
	}
	t->acquires++;
	m->owner = tid;
	m->count = 1;
	sim_uword_owner(m->lock, tid);	/* the holder, for a deadlock */
	wl_prog_errno_restore(e);
	return 0;
}

/* The ww protocol with a deadline: xchg 2, FUTEX_WAIT_BITSET until it. */
int futexsim_pthread_mutex_timedlock(pthread_mutex_t *pm,
				     const struct timespec *abs)
{
	struct wl_prog_mutex *m = (struct wl_prog_mutex *)pm;
	struct wl_prog_thread *t = wl_prog_self();
	int e = wl_prog_errno_save(), tid = self_tid();

	if (m->kind & WL_PROG_PI_KIND)
		wl_prog_fail("pthread_mutex_timedlock() of a PI mutex");
	if (!futexsim_pthread_mutex_trylock(pm))
		return 0;
	while (uatomic_xchg(m->lock, 2) != 0) {
		long r = wl_prog_futex(m->lock, FUTEX_WAIT_BITSET_PRIVATE |
				    FUTEX_CLOCK_REALTIME, 2, abs, NULL,
				    FUTEX_BITSET_MATCH_ANY);

		t->st.lock_syscalls++;
		if (r < 0 && errno == ETIMEDOUT) {
			t->st.timeouts++;
			wl_prog_errno_restore(e);
			return ETIMEDOUT;
		}
	}
	t->acquires++;
	m->owner = tid;
	m->count = 1;
	sim_uword_owner(m->lock, tid);	/* the holder, for a deadlock */
	wl_prog_errno_restore(e);
	return 0;
}

int futexsim_pthread_mutex_unlock(pthread_mutex_t *pm)
{
	struct wl_prog_mutex *m = (struct wl_prog_mutex *)pm;
	struct wl_prog_thread *t = wl_prog_self();
	int e = wl_prog_errno_save(), type = m->kind & 0xff;

	if (!t)
		wl_prog_fail("pthread_mutex_unlock() outside a simulated program");
	if (type == PTHREAD_MUTEX_RECURSIVE || type == PTHREAD_MUTEX_ERRORCHECK) {
		if (m->owner != self_tid())
			return EPERM;
		if (--m->count)
			return 0;
	}
	m->owner = 0;
	sim_uword_owner(m->lock, 0);
	if (sim_lockstat_on)
		sim_lockstat_user_release(m->lock);
	mutex_ops(m)->unlock(m->lock, &t->st);
	wl_prog_errno_restore(e);
	return 0;
}

/* ---- condition variables --------------------------------------------- */

struct wl_prog_cond {
	uint32_t seq;			/* bumped by signal, broadcast	*/
	uint32_t waiters;		/* tasks in wait		*/
	int clock;			/* condattr clock		*/
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
	*(int *)a = c;
	return 0;
}

int futexsim_pthread_cond_init(pthread_cond_t *pc, const pthread_condattr_t *a)
{
	memset(pc, 0, sizeof(*pc));
	((struct wl_prog_cond *)pc)->clock = a ? *(const int *)a : CLOCK_REALTIME;
	return 0;
}

int futexsim_pthread_cond_destroy(pthread_cond_t *pc)
{
	return 0;
}

int futexsim_pthread_cond_timedwait(pthread_cond_t *pc, pthread_mutex_t *m,
				    const struct timespec *abs)
{
	struct wl_prog_cond *c = (struct wl_prog_cond *)pc;
	int e = wl_prog_errno_save(), op = FUTEX_WAIT_PRIVATE, ret = 0;
	uint32_t seq;
	long r;

	uatomic_fetch_add(&c->waiters, 1);
	seq = uatomic_load(&c->seq);
	futexsim_pthread_mutex_unlock(m);
	if (abs)
		op = FUTEX_WAIT_BITSET_PRIVATE |
		     (c->clock == CLOCK_MONOTONIC ? 0 : FUTEX_CLOCK_REALTIME);
	r = wl_prog_futex(&c->seq, op, seq, abs, NULL, FUTEX_BITSET_MATCH_ANY);
	if (r < 0 && errno == ETIMEDOUT)
		ret = ETIMEDOUT;
	uatomic_fetch_sub(&c->waiters, 1);
	futexsim_pthread_mutex_lock(m);
	wl_prog_errno_restore(e);
	return ret;
}

int futexsim_pthread_cond_wait(pthread_cond_t *pc, pthread_mutex_t *m)
{
	return futexsim_pthread_cond_timedwait(pc, m, NULL);
}

static int cond_wake(pthread_cond_t *pc, int nr)
{
	struct wl_prog_cond *c = (struct wl_prog_cond *)pc;
	int e = wl_prog_errno_save();

	uatomic_fetch_add(&c->seq, 1);
	if (uatomic_load(&c->waiters))
		wl_prog_futex(&c->seq, FUTEX_WAKE_PRIVATE, nr, NULL, NULL, 0);
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

/* ---- reader-writer locks ---------------------------------------------- */

/*
 * The word: bit 31 a writer holds it, bits 0-30 the readers holding it.
 * Readers are preferred (glibc's default kind): a reader gets in while
 * no writer holds the lock, waiting writers or not.  A locker that cannot
 * get in counts itself a waiter and FUTEX_WAITs for the word to change
 * from the value that kept it out; a release that finds waiters wakes
 * them all, to try again.
 */
#define WL_PROG_RW_WRITER	0x80000000u

struct wl_prog_rwlock {
	uint32_t word;
	uint32_t waiters;
};
_Static_assert(sizeof(struct wl_prog_rwlock) <= sizeof(pthread_rwlock_t),
	       "pthread_rwlock_t too small");

int futexsim_pthread_rwlock_init(pthread_rwlock_t *rw,
				 const pthread_rwlockattr_t *a)
{
	memset(rw, 0, sizeof(*rw));
	return 0;
}

int futexsim_pthread_rwlock_destroy(pthread_rwlock_t *rw)
{
	return 0;
}

/* Take @l unless it is held against us. Return: 0 taken, else the
 * (non-zero) word that keeps us out. */
static uint32_t rw_try(struct wl_prog_rwlock *l, int writer)
{
	uint32_t v = uatomic_load(&l->word), found;

	for (;;) {
		if (writer ? v != 0 : (v & WL_PROG_RW_WRITER) != 0)
			return v;
		found = uatomic_cmpxchg(&l->word, v,
					writer ? WL_PROG_RW_WRITER : v + 1);
		if (found == v)
			return 0;
		v = found;
	}
}

static int rw_lock(pthread_rwlock_t *rw, int writer)
{
	struct wl_prog_rwlock *l = (struct wl_prog_rwlock *)rw;
	int e = wl_prog_errno_save();
	uint32_t v;

	while ((v = rw_try(l, writer)) != 0) {
		uatomic_fetch_add(&l->waiters, 1);
		wl_prog_futex(&l->word, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
		uatomic_fetch_sub(&l->waiters, 1);
	}
	sim_progress();
	wl_prog_errno_restore(e);
	return 0;
}

int futexsim_pthread_rwlock_rdlock(pthread_rwlock_t *rw)
{
	return rw_lock(rw, 0);
}

int futexsim_pthread_rwlock_wrlock(pthread_rwlock_t *rw)
{
	return rw_lock(rw, 1);
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

	if (v & WL_PROG_RW_WRITER)
		uatomic_store(&l->word, 0);
	else if (v)
		uatomic_fetch_sub(&l->word, 1);
	if (!v) {
		wl_prog_errno_restore(e);
		return EPERM;
	}
	if (uatomic_load(&l->waiters))
		wl_prog_futex(&l->word, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	wl_prog_errno_restore(e);
	return 0;
}

/* ---- barriers ----------------------------------------------------------- */

struct wl_prog_barrier {
	uint32_t count;			/* tasks per round		*/
	uint32_t arrived;		/* in this round		*/
	uint32_t round;			/* bumped by the last to arrive	*/
};
_Static_assert(sizeof(struct wl_prog_barrier) <= sizeof(pthread_barrier_t),
	       "pthread_barrier_t too small");

int futexsim_pthread_barrier_init(pthread_barrier_t *pb,
				  const pthread_barrierattr_t *a,
				  unsigned int count)
{
	struct wl_prog_barrier *b = (struct wl_prog_barrier *)pb;

	if (!count)
		return EINVAL;
	memset(pb, 0, sizeof(*pb));
	b->count = count;
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
		wl_prog_futex(&b->round, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
		wl_prog_errno_restore(e);
		return PTHREAD_BARRIER_SERIAL_THREAD;
	}
	while (uatomic_load(&b->round) == round)
		wl_prog_futex(&b->round, FUTEX_WAIT_PRIVATE, round, NULL, NULL, 0);
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

int futexsim_pthread_spin_lock(pthread_spinlock_t *s)
{
	int e = wl_prog_errno_save();

	while (uatomic_xchg((uint32_t *)s, 1))
		while (uatomic_load((uint32_t *)s))
			uatomic_pause();
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

/* ---- semaphores --------------------------------------------------------- */

struct wl_prog_sem {
	uint32_t value;
	uint32_t waiters;
};
_Static_assert(sizeof(struct wl_prog_sem) <= sizeof(sem_t), "sem_t too small");

int futexsim_sem_init(sem_t *ps, int pshared, unsigned int value)
{
	memset(ps, 0, sizeof(*ps));
	((struct wl_prog_sem *)ps)->value = value;
	return 0;
}

int futexsim_sem_destroy(sem_t *ps)
{
	return 0;
}

static int sem_take(struct wl_prog_sem *s)
{
	uint32_t v = uatomic_load(&s->value);

	while (v && uatomic_cmpxchg(&s->value, v, v - 1) != v)
		v = uatomic_load(&s->value);
	return v != 0;
}

int futexsim_sem_wait(sem_t *ps)
{
	struct wl_prog_sem *s = (struct wl_prog_sem *)ps;
	int e = wl_prog_errno_save();

	while (!sem_take(s)) {
		uatomic_fetch_add(&s->waiters, 1);
		wl_prog_futex(&s->value, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
		uatomic_fetch_sub(&s->waiters, 1);
	}
	wl_prog_errno_restore(e);
	return 0;
}

int futexsim_sem_trywait(sem_t *ps)
{
	int ok = sem_take((struct wl_prog_sem *)ps);

	if (!ok)
		errno = EAGAIN;
	return ok ? 0 : -1;
}

int futexsim_sem_post(sem_t *ps)
{
	struct wl_prog_sem *s = (struct wl_prog_sem *)ps;
	int e = wl_prog_errno_save();

	uatomic_fetch_add(&s->value, 1);
	if (uatomic_load(&s->waiters))
		wl_prog_futex(&s->value, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	wl_prog_errno_restore(e);
	return 0;
}

int futexsim_sem_getvalue(sem_t *ps, int *v)
{
	*v = (int)uatomic_load(&((struct wl_prog_sem *)ps)->value);
	return 0;
}
