/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/sem.c - POSIX semaphores of a simulated program:
 * unnamed (sem_init) and named (sem_open).
 *
 * Stage: user program -> futex(2).  Called by the program through
 * workloads/libsim/futexsim.h.
 *
 * The value is the futex word: a waiter that finds it 0 counts itself a
 * waiter and FUTEX_WAITs for it to change; a post that finds waiters
 * wakes one.  The errors are glibc's, as -1 and errno: sem_init above
 * SEM_VALUE_MAX is EINVAL, sem_post at SEM_VALUE_MAX is EOVERFLOW (the
 * value stays), a deadline with tv_nsec outside [0, 10^9) or a clock
 * other than REALTIME and MONOTONIC is EINVAL, a deadline passed is
 * ETIMEDOUT.
 *
 * Named semaphores live in the arena, in a list of the run's program
 * (wl_prog.named_sems, gone with the run): sem_open() of a name gives
 * the same sem_t to every caller until sem_unlink() removes the name;
 * sem_close() forgets a reference (the memory stays: the arena is reset
 * with the run).  No file is involved, so the mode is not checked.
 */
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <string.h>

#include "sim/host/arena.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"
#include "workloads/ulock/uatomic.h"

struct wl_prog_sem {
	uint32_t value;
	uint32_t waiters;
	int shared;			/* pshared, or a named semaphore */
};
_Static_assert(sizeof(struct wl_prog_sem) <= sizeof(sem_t), "sem_t too small");

int futexsim_sem_init(sem_t *ps, int pshared, unsigned int value)
{
	if (value > SEM_VALUE_MAX) {
		errno = EINVAL;
		return -1;
	}
	memset(ps, 0, sizeof(*ps));
	((struct wl_prog_sem *)ps)->value = value;
	((struct wl_prog_sem *)ps)->shared = pshared != 0;
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

/* The wait, measuring @clk until @abs if given.  Return: 0 or -1 and
 * errno (EINVAL, ETIMEDOUT). */
static int sem_wait_until(sem_t *ps, clockid_t clk, const struct timespec *abs)
{
	struct wl_prog_sem *s = (struct wl_prog_sem *)ps;
	int e = wl_prog_errno_save(), op = FUTEX_WAIT_PRIVATE, err = 0;

	if (abs && (!wl_prog_clock_ok(clk) || abs->tv_nsec < 0 ||
		    abs->tv_nsec >= 1000000000L)) {
		errno = EINVAL;
		return -1;
	}
	if (abs)
		op = FUTEX_WAIT_BITSET_PRIVATE |
		     (clk == CLOCK_REALTIME ? FUTEX_CLOCK_REALTIME : 0);
	wl_prog_cancel_point();
	while (!sem_take(s)) {
		long r;

		if (abs && (err = wl_prog_abstime_check(abs)) != 0)
			break;
		uatomic_fetch_add(&s->waiters, 1);
		r = wl_prog_futex(&s->value, wl_prog_fop(op, s->shared), 0,
				  abs, NULL, FUTEX_BITSET_MATCH_ANY);
		err = r < 0 ? errno : 0;
		uatomic_fetch_sub(&s->waiters, 1);
		if (err == ETIMEDOUT)
			break;
		wl_prog_cancel_point();
		/* a signal's handler ended the wait: glibc returns EINTR */
		if (err == EINTR)
			break;
		err = 0;
	}
	wl_prog_errno_restore(err ? err : e);
	return err ? -1 : 0;
}

int futexsim_sem_wait(sem_t *ps)
{
	return sem_wait_until(ps, CLOCK_REALTIME, NULL);
}

int futexsim_sem_timedwait(sem_t *ps, const struct timespec *abs)
{
	return sem_wait_until(ps, CLOCK_REALTIME, abs);
}

int futexsim_sem_clockwait(sem_t *ps, clockid_t clk, const struct timespec *abs)
{
	return sem_wait_until(ps, clk, abs);
}

int futexsim_sem_trywait(sem_t *ps)
{
	int e = wl_prog_errno_save();
	int ok = sem_take((struct wl_prog_sem *)ps);

	wl_prog_errno_restore(ok ? e : EAGAIN);
	return ok ? 0 : -1;
}

int futexsim_sem_post(sem_t *ps)
{
	struct wl_prog_sem *s = (struct wl_prog_sem *)ps;
	int e = wl_prog_errno_save();
	uint32_t v = uatomic_load(&s->value), found;

	for (;;) {
		if (v >= SEM_VALUE_MAX) {
			wl_prog_errno_restore(EOVERFLOW);
			return -1;
		}
		found = uatomic_cmpxchg(&s->value, v, v + 1);
		if (found == v)
			break;
		v = found;
	}
	if (uatomic_load(&s->waiters))
		wl_prog_futex(&s->value, wl_prog_fop(FUTEX_WAKE_PRIVATE, s->shared),
			      1, NULL, NULL, 0);
	wl_prog_errno_restore(e);
	return 0;
}

int futexsim_sem_getvalue(sem_t *ps, int *v)
{
	int e = wl_prog_errno_save();

	*v = (int)uatomic_load(&((struct wl_prog_sem *)ps)->value);
	wl_prog_errno_restore(e);
	return 0;
}

/* ---- named semaphores ------------------------------------------------- */

#define WL_PROG_SEM_NAME_MAX	251	/* NAME_MAX less "sem." */

struct wl_prog_named_sem {
	sem_t sem;			/* first: sem_close() finds it	*/
	struct wl_prog_named_sem *next;
	char name[WL_PROG_SEM_NAME_MAX + 1];
	int linked;			/* the name still finds it	*/
	int refs;			/* sem_open()s not closed	*/
};

static struct wl_prog_named_sem *named_find(const char *name)
{
	struct wl_prog_named_sem *n;

	for (n = wl_prog.named_sems; n; n = n->next)
		if (n->linked && !strcmp(n->name, name))
			return n;
	return NULL;
}

/* A name as glibc takes it: one leading '/' dropped, no other. */
static const char *named_key(const char *name)
{
	if (*name == '/')
		name++;
	if (!*name || strchr(name, '/') || strlen(name) > WL_PROG_SEM_NAME_MAX)
		return NULL;
	return name;
}

sem_t *futexsim_sem_open(const char *name, int oflag, ...)
{
	const char *key = named_key(name);
	struct wl_prog_named_sem *n;
	unsigned int value = 0;
	va_list ap;

	if (!key) {
		errno = EINVAL;
		return SEM_FAILED;
	}
	n = named_find(key);
	if (n && (oflag & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) {
		errno = EEXIST;
		return SEM_FAILED;
	}
	if (!n && !(oflag & O_CREAT)) {
		errno = ENOENT;
		return SEM_FAILED;
	}
	if (!n) {
		va_start(ap, oflag);
		(void)va_arg(ap, int);		/* mode_t, promoted */
		value = va_arg(ap, unsigned int);
		va_end(ap);
		if (value > SEM_VALUE_MAX) {
			errno = EINVAL;
			return SEM_FAILED;
		}
		n = sim_arena_alloc(sizeof(*n), 64);
		memset(n, 0, sizeof(*n));
		strcpy(n->name, key);
		n->linked = 1;
		((struct wl_prog_sem *)&n->sem)->shared = 1;	/* glibc: always shared */
		((struct wl_prog_sem *)&n->sem)->value = value;
		n->next = wl_prog.named_sems;
		wl_prog.named_sems = n;
	}
	n->refs++;
	return &n->sem;
}

int futexsim_sem_close(sem_t *ps)
{
	struct wl_prog_named_sem *n;

	for (n = wl_prog.named_sems; n; n = n->next)
		if (&n->sem == ps && n->refs > 0) {
			n->refs--;
			return 0;
		}
	errno = EINVAL;
	return -1;
}

int futexsim_sem_unlink(const char *name)
{
	const char *key = named_key(name);
	struct wl_prog_named_sem *n = key ? named_find(key) : NULL;

	if (!n) {
		errno = key ? ENOENT : EINVAL;
		return -1;
	}
	n->linked = 0;
	return 0;
}
