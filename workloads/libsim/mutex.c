/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/mutex.c - pthread mutexes of a simulated program and
 * their attributes.
 *
 * Stage: user program -> user lock (workloads/ulock) -> futex(2).
 * Called by the program through workloads/libsim/futexsim.h and by the
 * condition variables (cond.c: the unlock and relock around a wait).
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
 * Timed locks (timedlock, clocklock) check the deadline as glibc does
 * (EINVAL for a tv_nsec outside [0, 10^9), ETIMEDOUT for a negative
 * tv_sec) once the lock is found taken; a PI mutex then waits in
 * FUTEX_LOCK_PI2 with the deadline, a mutex of the 3-state word (ww,
 * adaptive) in FUTEX_WAIT_BITSET.  The other user locks have no timed
 * protocol: a timed lock of one ends the run naming it.
 *
 * A normal (or adaptive) PI mutex relocked by its owner hangs (lock) or waits out its
 * deadline (timed locks), as glibc's does where the kernel says EDEADLK.
 *
 * Process-shared mutexes (PTHREAD_PROCESS_SHARED) are the same locks
 * whose futex calls go without FUTEX_PRIVATE_FLAG, as glibc's, so the
 * kernel keys them by their page (get_futex_key()'s shared paths).
 *
 * Robust mutexes (PTHREAD_MUTEX_ROBUST) are glibc's: the word is the
 * owner's TID | FUTEX_WAITERS | FUTEX_OWNER_DIED, waited for with the
 * shared FUTEX_WAIT (the kernel's wake at an owner's death is a shared
 * one), or, with PTHREAD_PRIO_INHERIT, the PI word of FUTEX_LOCK_PI.
 * Each thread's robust list (struct robust_list_head, linux/futex.h) is
 * registered with the real set_robust_list(2) at its first robust lock;
 * a held robust mutex is on it (its entry the last 8 bytes of the
 * pthread_mutex_t, the PI ones marked by bit 0), and list_op_pending
 * names the one being locked or unlocked.  A thread that exits (or is
 * cancelled) holding one: the kernel's exit_robust_list() sets
 * FUTEX_OWNER_DIED and wakes a waiter, whose lock returns EOWNERDEAD;
 * pthread_mutex_consistent() makes it whole again; unlocked without
 * that it is ENOTRECOVERABLE for ever.
 * PTHREAD_PRIO_PROTECT ends the run (priorities are not simulated).
 */
#include <limits.h>
#include <linux/futex.h>
#include <stddef.h>
#include <string.h>

#include "sim/syscall/syscall.h"
#include "sim/trace/lockstat.h"
#include "sim/trace/uword.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"
#include "workloads/ulock/uatomic.h"

/* Attribute bits beside the type (bits 0-7), in pthread_mutexattr_t
 * and in __kind; glibc's initialisers set none of them. */
#define WL_PROG_PI_KIND		0x100	/* PTHREAD_PRIO_INHERIT		*/
#define WL_PROG_PSHARED_KIND	0x200	/* PTHREAD_PROCESS_SHARED	*/
#define WL_PROG_ROBUST_KIND	0x400	/* PTHREAD_MUTEX_ROBUST		*/
#define WL_PROG_PP_KIND		0x1000	/* PTHREAD_PRIO_PROTECT		*/
#define WL_PROG_CEILING_SHIFT	16	/* its ceiling, bits 16-23	*/
#define WL_PROG_CEILING_MASK	(0xff << WL_PROG_CEILING_SHIFT)

/* The ceiling of a PTHREAD_PRIO_PROTECT mutex or attribute (glibc: 0,
 * never set, reads as the SCHED_FIFO minimum). */
static int kind_ceiling(int kind)
{
	int c = (kind & WL_PROG_CEILING_MASK) >> WL_PROG_CEILING_SHIFT;

	return c ? c : 1;
}

/* A robust mutex's state (glibc: __owner's INCONSISTENT and
 * NOTRECOVERABLE values). */
enum { ROBUST_OK, ROBUST_INCONSISTENT, ROBUST_NOTRECOVERABLE };

struct wl_prog_mutex {
	uint32_t lock[4];		/* the user lock's memory	*/
	int kind;			/* glibc's __kind		*/
	int owner;			/* TID of the holder		*/
	unsigned int count;		/* recursion depth		*/
	int robust_state;		/* ROBUST_*			*/
	struct robust_list robust;	/* on the holder's robust list	*/
};
_Static_assert(sizeof(struct wl_prog_mutex) <= sizeof(pthread_mutex_t),
	       "pthread_mutex_t too small");
_Static_assert(offsetof(struct wl_prog_mutex, kind) ==
	       offsetof(pthread_mutex_t, __data.__kind), "glibc's __kind");

static int robust_lock(struct wl_prog_mutex *m, struct wl_prog_thread *t,
		       int tid, int try, clockid_t clk,
		       const struct timespec *abs);
static void robust_unlock(struct wl_prog_mutex *m, struct wl_prog_thread *t);

static const struct ulock_ops *mutex_ops(const struct wl_prog_mutex *m)
{
	return m->kind & WL_PROG_PI_KIND ? &ulock_pi_ops : wl_prog.lock;
}

static int is_robust(const struct wl_prog_mutex *m)
{
	return !!(m->kind & WL_PROG_ROBUST_KIND);
}

/* A process-shared mutex (a robust one is, as glibc's): its futex calls
 * go without FUTEX_PRIVATE_FLAG. */
static int mutex_shared(const struct wl_prog_mutex *m)
{
	return is_robust(m) || (m->kind & WL_PROG_PSHARED_KIND);
}

/* A normal or adaptive mutex: its owner relocking it hangs (glibc). */
static int mutex_hangs_on_relock(const struct wl_prog_mutex *m)
{
	int type = m->kind & 0xff;

	return type == PTHREAD_MUTEX_NORMAL || type == PTHREAD_MUTEX_ADAPTIVE_NP;
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
	*k = (*k & ~0xff) | type;
	return 0;
}

int futexsim_pthread_mutexattr_setprotocol(pthread_mutexattr_t *a, int p)
{
	int *k = (int *)a;

	if (p != PTHREAD_PRIO_NONE && p != PTHREAD_PRIO_INHERIT &&
	    p != PTHREAD_PRIO_PROTECT)
		return EINVAL;
	*k &= ~(WL_PROG_PI_KIND | WL_PROG_PP_KIND);
	if (p == PTHREAD_PRIO_INHERIT)
		*k |= WL_PROG_PI_KIND;
	else if (p == PTHREAD_PRIO_PROTECT)
		*k |= WL_PROG_PP_KIND;
	return 0;
}

int futexsim_pthread_mutexattr_gettype(const pthread_mutexattr_t *a, int *type)
{
	*type = *(const int *)a & 0xff;
	return 0;
}

int futexsim_pthread_mutexattr_getprotocol(const pthread_mutexattr_t *a, int *p)
{
	int k = *(const int *)a;

	*p = k & WL_PROG_PI_KIND ? PTHREAD_PRIO_INHERIT :
	     k & WL_PROG_PP_KIND ? PTHREAD_PRIO_PROTECT : PTHREAD_PRIO_NONE;
	return 0;
}

/* Priority ceilings (PTHREAD_PRIO_PROTECT; workloads/libsim/sched.c
 * raises the holder): glibc's EINVAL outside 1..99 or for a mutex of
 * another protocol. */
int futexsim_pthread_mutexattr_setprioceiling(pthread_mutexattr_t *a, int c)
{
	int *k = (int *)a;

	if (c < 1 || c > 99)
		return EINVAL;
	*k = (*k & ~WL_PROG_CEILING_MASK) | c << WL_PROG_CEILING_SHIFT;
	return 0;
}

int futexsim_pthread_mutexattr_getprioceiling(const pthread_mutexattr_t *a,
					      int *c)
{
	*c = kind_ceiling(*(const int *)a);
	return 0;
}

int futexsim_pthread_mutex_getprioceiling(const pthread_mutex_t *pm, int *c)
{
	const struct wl_prog_mutex *m = (const struct wl_prog_mutex *)pm;

	if (!(m->kind & WL_PROG_PP_KIND))
		return EINVAL;
	*c = kind_ceiling(m->kind);
	return 0;
}

int futexsim_pthread_mutex_setprioceiling(pthread_mutex_t *pm, int c, int *old)
{
	struct wl_prog_mutex *m = (struct wl_prog_mutex *)pm;
	int mine, r = 0;

	if (!(m->kind & WL_PROG_PP_KIND) || c < 1 || c > 99)
		return EINVAL;
	/* glibc locks the mutex to change it, unless the caller holds it */
	mine = m->owner == self_tid();
	if (!mine)
		r = futexsim_pthread_mutex_lock(pm);
	if (r)
		return r;
	if (old)
		*old = kind_ceiling(m->kind);
	if (mine) {
		/* the holder's raise moves with the ceiling */
		wl_prog_pp_drop(kind_ceiling(m->kind));
		m->kind = (m->kind & ~WL_PROG_CEILING_MASK) |
			  c << WL_PROG_CEILING_SHIFT;
		wl_prog_pp_raise(c);
		return 0;
	}
	futexsim_pthread_mutex_unlock(pm);
	m->kind = (m->kind & ~WL_PROG_CEILING_MASK) | c << WL_PROG_CEILING_SHIFT;
	return 0;
}

static int pp_raise(const struct wl_prog_mutex *m)
{
	return m->kind & WL_PROG_PP_KIND ? wl_prog_pp_raise(kind_ceiling(m->kind)) : 0;
}

static void pp_drop(const struct wl_prog_mutex *m)
{
	if (m->kind & WL_PROG_PP_KIND)
		wl_prog_pp_drop(kind_ceiling(m->kind));
}

/* A bit of the attribute, set from a two-valued argument. */
static int attr_bit(pthread_mutexattr_t *a, int bit, int v, int off, int on)
{
	int *k = (int *)a;

	if (v != off && v != on)
		return EINVAL;
	*k = v == on ? *k | bit : *k & ~bit;
	return 0;
}

int futexsim_pthread_mutexattr_setpshared(pthread_mutexattr_t *a, int ps)
{
	return attr_bit(a, WL_PROG_PSHARED_KIND, ps, PTHREAD_PROCESS_PRIVATE,
			PTHREAD_PROCESS_SHARED);
}

int futexsim_pthread_mutexattr_getpshared(const pthread_mutexattr_t *a, int *ps)
{
	*ps = *(const int *)a & WL_PROG_PSHARED_KIND ? PTHREAD_PROCESS_SHARED :
						     PTHREAD_PROCESS_PRIVATE;
	return 0;
}

int futexsim_pthread_mutexattr_setrobust(pthread_mutexattr_t *a, int r)
{
	return attr_bit(a, WL_PROG_ROBUST_KIND, r, PTHREAD_MUTEX_STALLED,
			PTHREAD_MUTEX_ROBUST);
}

int futexsim_pthread_mutexattr_getrobust(const pthread_mutexattr_t *a, int *r)
{
	*r = *(const int *)a & WL_PROG_ROBUST_KIND ? PTHREAD_MUTEX_ROBUST :
						    PTHREAD_MUTEX_STALLED;
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
	int err;

	t->st.shared = mutex_shared(m);
	err = ops->lock(m->lock, &t->st);
	t->st.shared = 0;

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
	if (is_robust(m)) {
		r = robust_lock(m, t, tid, 0, CLOCK_REALTIME, NULL);
		wl_prog_errno_restore(e);
		return r;
	}
	r = pp_raise(m);
	if (r)
		return r;
	r = mutex_acquire(m, t);
	if (r)
		pp_drop(m);
	if (r == EDEADLK && mutex_hangs_on_relock(m)) {
		/* a normal PI mutex relocked by its owner hangs, as glibc's
		 * does (the kernel said EDEADLK) */
		uint32_t never = 0;

		for (;;)
			wl_prog_futex(&never, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	}
	if (!r) {
		m->owner = tid;
		m->count = 1;
		sim_uword_owner(m->lock, tid);
	}
	wl_prog_errno_restore(e);
	return r;
}

/* The lock is ours: the bookkeeping of every acquisition path. */
static void mutex_taken(struct wl_prog_mutex *m, struct wl_prog_thread *t,
			int tid)
{
	t->acquires++;
	m->owner = tid;
	m->count = 1;
	sim_uword_owner(m->lock, tid);	/* the holder, for a deadlock */
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
	if (is_robust(m)) {
		r = robust_lock(m, t, tid, 1, CLOCK_REALTIME, NULL);
		wl_prog_errno_restore(e);
		return r;
	}
	r = pp_raise(m);
	if (r)
		return r;
	/* every user lock here is free at 0; ww takes it with 1, pi with
	 * the TID, as their fast paths do */
	if (uatomic_cmpxchg(m->lock, 0, mine) != 0) {
		pp_drop(m);
		wl_prog_errno_restore(e);
		return EBUSY;
	}
	mutex_taken(m, t, tid);
	wl_prog_errno_restore(e);
	return 0;
}

/* The 3-state word (ww, adaptive) with a deadline: xchg 2, then
 * FUTEX_WAIT_BITSET until it.  Return: 0 taken, or ETIMEDOUT. */
static int mutex_wait_3state(struct wl_prog_mutex *m, struct wl_prog_thread *t,
			     clockid_t clk, const struct timespec *abs)
{
	int op = wl_prog_fop(FUTEX_WAIT_BITSET_PRIVATE, mutex_shared(m)) |
		 (clk == CLOCK_REALTIME ? FUTEX_CLOCK_REALTIME : 0);

	while (uatomic_xchg(m->lock, 2) != 0) {
		long r = wl_prog_futex(m->lock, op, 2, abs, NULL,
				       FUTEX_BITSET_MATCH_ANY);

		t->st.lock_syscalls++;
		if (r < 0 && errno == ETIMEDOUT) {
			t->st.timeouts++;
			return ETIMEDOUT;
		}
	}
	return 0;
}

/* The PI word with a deadline: FUTEX_LOCK_PI2 measures @clk (MONOTONIC,
 * or REALTIME with FUTEX_CLOCK_REALTIME).  Return: 0 or a positive errno. */
static int mutex_wait_pi(struct wl_prog_mutex *m, struct wl_prog_thread *t,
			 clockid_t clk, const struct timespec *abs)
{
	int op = wl_prog_fop(FUTEX_LOCK_PI2_PRIVATE, mutex_shared(m)) |
		 (clk == CLOCK_REALTIME ? FUTEX_CLOCK_REALTIME : 0);
	long r;

	do {
		t->st.lock_syscalls++;
		r = wl_prog_futex(m->lock, op, 0, abs, NULL, 0);
	} while (r < 0 && (errno == EAGAIN || errno == EINTR));
	if (r < 0 && errno == EDEADLK && mutex_hangs_on_relock(m)) {
		/* glibc: its owner waits out the deadline, as it would */
		futexsim_clock_nanosleep(clk, TIMER_ABSTIME, abs, NULL);
		errno = ETIMEDOUT;
	}
	if (r < 0 && errno == ETIMEDOUT)
		t->st.timeouts++;
	return r < 0 ? errno : 0;
}

static int mutex_clocklock(pthread_mutex_t *pm, clockid_t clk,
			   const struct timespec *abs, const char *fn)
{
	struct wl_prog_mutex *m = (struct wl_prog_mutex *)pm;
	struct wl_prog_thread *t = wl_prog_self();
	const struct ulock_ops *ops = mutex_ops(m);
	int e = wl_prog_errno_save(), tid = self_tid(), r;

	if (!t)
		wl_prog_fail("pthread_mutex_timedlock() outside a simulated program");
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC)
		return EINVAL;
	r = mutex_check_owner(m, tid);
	if (r >= 0)
		return r;
	r = futexsim_pthread_mutex_trylock(pm);
	if (r != EBUSY)
		return r;
	r = wl_prog_abstime_check(abs);
	if (r)
		return r;
	if (is_robust(m)) {
		r = robust_lock(m, t, tid, 0, clk, abs);
		wl_prog_errno_restore(e);
		return r;
	}
	r = pp_raise(m);	/* the wait at the ceiling, as glibc waits */
	if (r)
		return r;
	if (ops == &ulock_pi_ops)
		r = mutex_wait_pi(m, t, clk, abs);
	else if (ops == &ulock_ww_ops || ops == &ulock_ww_timed_ops ||
		 ops == &ulock_adaptive_ops)
		r = mutex_wait_3state(m, t, clk, abs);
	else
		wl_prog_fail(fn);
	if (!r) {
		mutex_taken(m, t, tid);
		sim_progress();
	} else {
		pp_drop(m);
	}
	wl_prog_errno_restore(e);
	return r;
}

int futexsim_pthread_mutex_timedlock(pthread_mutex_t *pm,
				     const struct timespec *abs)
{
	return mutex_clocklock(pm, CLOCK_REALTIME, abs,
		"pthread_mutex_timedlock() of a mutex of this lock= (timed locks: ww, adaptive, pi)");
}

int futexsim_pthread_mutex_clocklock(pthread_mutex_t *pm, clockid_t clk,
				     const struct timespec *abs)
{
	return mutex_clocklock(pm, clk, abs,
		"pthread_mutex_clocklock() of a mutex of this lock= (timed locks: ww, adaptive, pi)");
}

int futexsim_pthread_mutex_unlock(pthread_mutex_t *pm)
{
	struct wl_prog_mutex *m = (struct wl_prog_mutex *)pm;
	struct wl_prog_thread *t = wl_prog_self();
	int e = wl_prog_errno_save(), type = m->kind & 0xff;

	if (!t)
		wl_prog_fail("pthread_mutex_unlock() outside a simulated program");
	/* a robust mutex always checks its owner (glibc) */
	if (is_robust(m) && m->owner != self_tid())
		return EPERM;
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
	if (is_robust(m)) {
		robust_unlock(m, t);
		wl_prog_errno_restore(e);
		return 0;
	}
	t->st.shared = mutex_shared(m);
	mutex_ops(m)->unlock(m->lock, &t->st);
	t->st.shared = 0;
	pp_drop(m);
	wl_prog_errno_restore(e);
	return 0;
}

/* ---- robust mutexes ------------------------------------------------- */

/* The offset of the word from the list entry, for the kernel. */
#define ROBUST_FUTEX_OFFSET						\
	((long)offsetof(struct wl_prog_mutex, lock) -			\
	 (long)offsetof(struct wl_prog_mutex, robust))

/* The thread's robust list, registered with the kernel the first time. */
static struct robust_list_head *robust_head(struct wl_prog_thread *t)
{
	struct robust_list_head *h = &t->robust;

	if (!t->robust_set) {
		h->list.next = &h->list;
		h->futex_offset = ROBUST_FUTEX_OFFSET;
		h->list_op_pending = NULL;
		if (sim_sys_set_robust_list(h, sizeof(*h)))
			wl_prog_fail("set_robust_list() refused");
		t->robust_set = 1;
	}
	return h;
}

/* glibc's ENQUEUE_MUTEX / DEQUEUE_MUTEX: the head of the list, then the
 * entry found and unlinked.  A PI entry is marked by bit 0. */
static void robust_enqueue(struct robust_list_head *h, struct wl_prog_mutex *m)
{
	uintptr_t e = (uintptr_t)&m->robust | !!(m->kind & WL_PROG_PI_KIND);

	m->robust.next = h->list.next;
	h->list.next = (struct robust_list *)e;
}

static void robust_dequeue(struct robust_list_head *h, struct wl_prog_mutex *m)
{
	struct robust_list **p = &h->list.next;

	while (*p != &h->list) {
		struct robust_list *e = (struct robust_list *)((uintptr_t)*p & ~1UL);

		if (e == &m->robust) {
			*p = m->robust.next;
			return;
		}
		p = &e->next;
	}
}

/* The word after a PI robust mutex was taken: a dead owner's
 * FUTEX_OWNER_DIED is cleared and the mutex left inconsistent. */
static int robust_pi_taken(struct wl_prog_mutex *m)
{
	uint32_t old = uatomic_load(m->lock);

	if (!(old & FUTEX_OWNER_DIED))
		return 0;
	while (uatomic_cmpxchg(m->lock, old, old & ~FUTEX_OWNER_DIED) != old)
		old = uatomic_load(m->lock);
	m->robust_state = ROBUST_INCONSISTENT;
	return EOWNERDEAD;
}

/*
 * The lock of a robust mutex that is not PI, glibc's lll_robust_lock():
 * compare-and-swap 0 -> TID; a dead owner's word (FUTEX_OWNER_DIED) is
 * taken over, keeping FUTEX_WAITERS, with EOWNERDEAD; else FUTEX_WAITERS
 * is set and the thread waits (shared FUTEX_WAIT, or FUTEX_WAIT_BITSET
 * to @abs on @clk), then tries TID | FUTEX_WAITERS, since others may
 * wait too.  @try: EBUSY instead of waiting.
 * Return: 0, EOWNERDEAD (taken), EBUSY, ETIMEDOUT.
 */
static int robust_word_lock(struct wl_prog_mutex *m, struct wl_prog_thread *t,
			    uint32_t tid, int try, clockid_t clk,
			    const struct timespec *abs)
{
	uint32_t *w = m->lock, old = uatomic_cmpxchg(w, 0, tid);
	int op = abs ? FUTEX_WAIT_BITSET |
		       (clk == CLOCK_REALTIME ? FUTEX_CLOCK_REALTIME : 0) :
		       FUTEX_WAIT;

	while (old != 0) {
		if (old & FUTEX_OWNER_DIED) {
			if (uatomic_cmpxchg(w, old, tid | (old & FUTEX_WAITERS)) == old) {
				m->robust_state = ROBUST_INCONSISTENT;
				return EOWNERDEAD;
			}
			old = uatomic_load(w);
			continue;
		}
		if (try)
			return EBUSY;
		if (!(old & FUTEX_WAITERS)) {
			if (uatomic_cmpxchg(w, old, old | FUTEX_WAITERS) != old) {
				old = uatomic_load(w);
				continue;
			}
			old |= FUTEX_WAITERS;
		}
		t->st.lock_syscalls++;
		if (wl_prog_futex(w, op, old, abs, NULL, FUTEX_BITSET_MATCH_ANY) < 0 &&
		    errno == ETIMEDOUT) {
			t->st.timeouts++;
			return ETIMEDOUT;
		}
		old = uatomic_cmpxchg(w, 0, tid | FUTEX_WAITERS);
	}
	return 0;
}

/* Lock robust mutex @m (@try, @clk and @abs as for robust_word_lock();
 * a PI one through the pi lock, FUTEX_LOCK_PI or FUTEX_LOCK_PI2). */
static int robust_lock(struct wl_prog_mutex *m, struct wl_prog_thread *t,
		       int tid, int try, clockid_t clk,
		       const struct timespec *abs)
{
	struct robust_list_head *h = robust_head(t);
	uint64_t t0 = sim_now_ps();
	int r;

	if (m->robust_state == ROBUST_NOTRECOVERABLE)
		return ENOTRECOVERABLE;
	h->list_op_pending = &m->robust;
	if (!(m->kind & WL_PROG_PI_KIND))
		r = robust_word_lock(m, t, (uint32_t)tid, try, clk, abs);
	else if (uatomic_cmpxchg(m->lock, 0, (uint32_t)tid) == 0)
		r = 0;
	else if (try)
		r = EBUSY;
	else if (abs)
		r = mutex_wait_pi(m, t, clk, abs);
	else {
		t->st.shared = 1;
		r = ulock_pi_ops.lock(m->lock, &t->st);
		t->st.shared = 0;
	}
	if (!r && (m->kind & WL_PROG_PI_KIND))
		r = robust_pi_taken(m);
	if (!r || r == EOWNERDEAD) {
		robust_enqueue(h, m);
		sim_hist_add(t->acquire_ns, (sim_now_ps() - t0) / 1000);
		mutex_taken(m, t, tid);
		sim_progress();
	}
	h->list_op_pending = NULL;
	return r;
}

/* Unlock robust mutex @m, glibc's order: off the list with the mutex
 * pending, the word released (a waiter woken), nothing pending. */
static void robust_unlock(struct wl_prog_mutex *m, struct wl_prog_thread *t)
{
	struct robust_list_head *h = robust_head(t);

	h->list_op_pending = &m->robust;
	robust_dequeue(h, m);
	/* unlocked while inconsistent: nobody can have it again */
	if (m->robust_state == ROBUST_INCONSISTENT)
		m->robust_state = ROBUST_NOTRECOVERABLE;
	if (m->kind & WL_PROG_PI_KIND) {
		t->st.shared = 1;
		ulock_pi_ops.unlock(m->lock, &t->st);
		t->st.shared = 0;
	} else if (uatomic_xchg(m->lock, 0) & FUTEX_WAITERS) {
		t->st.unlock_syscalls++;
		wl_prog_futex(m->lock, FUTEX_WAKE, 1, NULL, NULL, 0);
	}
	h->list_op_pending = NULL;
}

void wl_prog_robust_exit(struct wl_prog_thread *t)
{
	if (t->robust_set)
		sim_sys_exit_futex();
}

int futexsim_pthread_mutex_consistent(pthread_mutex_t *pm)
{
	struct wl_prog_mutex *m = (struct wl_prog_mutex *)pm;

	if (!is_robust(m) || m->robust_state != ROBUST_INCONSISTENT ||
	    m->owner != self_tid())
		return EINVAL;
	m->robust_state = ROBUST_OK;
	return 0;
}
