/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/c11.c - C11 <threads.h> of a simulated program:
 * thrd_*, mtx_*, cnd_*, call_once, tss_*, over the layer's pthreads.
 *
 * Stage: user program -> pthreads of this layer (thread.c, mutex.c,
 * cond.c) -> futex(2).  Called by the program through
 * workloads/libsim/futexsim.h.
 *
 * As in glibc, each C11 object is its pthread counterpart (mtx_t holds a
 * pthread_mutex_t, cnd_t a pthread_cond_t, once_flag a pthread_once_t,
 * tss_t a pthread_key_t) and each result is the pthread one translated:
 * 0 thrd_success, EBUSY thrd_busy, ETIMEDOUT thrd_timedout, ENOMEM and
 * EAGAIN thrd_nomem, any other thrd_error.  A thread's int result
 * travels as the pthread's void * one.
 */
#include <stdint.h>
#include <string.h>
#include <threads.h>

#include "sim/host/arena.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"

_Static_assert(sizeof(mtx_t) >= sizeof(pthread_mutex_t), "mtx_t too small");
_Static_assert(sizeof(cnd_t) >= sizeof(pthread_cond_t), "cnd_t too small");
_Static_assert(sizeof(once_flag) == sizeof(pthread_once_t), "once_flag");

static int c11_result(int err)
{
	switch (err) {
	case 0:
		return thrd_success;
	case EBUSY:
		return thrd_busy;
	case ETIMEDOUT:
		return thrd_timedout;
	case ENOMEM:
	case EAGAIN:
		return thrd_nomem;
	default:
		return thrd_error;
	}
}

/* thrd_create()'s function and argument, for the pthread trampoline. */
struct wl_prog_c11_start {
	thrd_start_t fn;
	void *arg;
};

static void *c11_trampoline(void *p)
{
	struct wl_prog_c11_start st = *(struct wl_prog_c11_start *)p;

	sim_arena_free(p);
	return (void *)(intptr_t)st.fn(st.arg);
}

int futexsim_thrd_create(thrd_t *thr, thrd_start_t fn, void *arg)
{
	struct wl_prog_c11_start *st = sim_arena_alloc(sizeof(*st), 16);
	pthread_t t;
	int err;

	st->fn = fn;
	st->arg = arg;
	err = futexsim_pthread_create(&t, NULL, c11_trampoline, st);
	if (err) {
		sim_arena_free(st);
		return c11_result(err);
	}
	*thr = (thrd_t)t;
	return thrd_success;
}

int futexsim_thrd_equal(thrd_t a, thrd_t b)
{
	return a == b;
}

thrd_t futexsim_thrd_current(void)
{
	return (thrd_t)futexsim_pthread_self();
}

int futexsim_thrd_sleep(const struct timespec *d, struct timespec *rem)
{
	int e = wl_prog_errno_save(), r = futexsim_nanosleep(d, rem);

	if (r < 0)
		r = errno == EINTR ? -1 : -2;
	wl_prog_errno_restore(e);
	return r;
}

void futexsim_thrd_exit(int res)
{
	futexsim_pthread_exit((void *)(intptr_t)res);
}

int futexsim_thrd_detach(thrd_t thr)
{
	return c11_result(futexsim_pthread_detach((pthread_t)thr));
}

int futexsim_thrd_join(thrd_t thr, int *res)
{
	void *ret;
	int err = futexsim_pthread_join((pthread_t)thr, &ret);

	if (!err && res)
		*res = (int)(intptr_t)ret;
	return c11_result(err);
}

void futexsim_thrd_yield(void)
{
	futexsim_sched_yield();
}

int futexsim_mtx_init(mtx_t *m, int type)
{
	pthread_mutexattr_t a;
	int base = type & ~mtx_recursive;

	if (base != mtx_plain && base != mtx_timed)
		return thrd_error;
	futexsim_pthread_mutexattr_init(&a);
	if (type & mtx_recursive)
		futexsim_pthread_mutexattr_settype(&a, PTHREAD_MUTEX_RECURSIVE);
	return c11_result(futexsim_pthread_mutex_init((pthread_mutex_t *)m, &a));
}

int futexsim_mtx_lock(mtx_t *m)
{
	return c11_result(futexsim_pthread_mutex_lock((pthread_mutex_t *)m));
}

int futexsim_mtx_timedlock(mtx_t *m, const struct timespec *abs)
{
	return c11_result(futexsim_pthread_mutex_timedlock((pthread_mutex_t *)m,
							   abs));
}

int futexsim_mtx_trylock(mtx_t *m)
{
	return c11_result(futexsim_pthread_mutex_trylock((pthread_mutex_t *)m));
}

int futexsim_mtx_unlock(mtx_t *m)
{
	return c11_result(futexsim_pthread_mutex_unlock((pthread_mutex_t *)m));
}

void futexsim_mtx_destroy(mtx_t *m)
{
	futexsim_pthread_mutex_destroy((pthread_mutex_t *)m);
}

void futexsim_call_once(once_flag *flag, void (*fn)(void))
{
	futexsim_pthread_once((pthread_once_t *)flag, fn);
}

int futexsim_cnd_init(cnd_t *c)
{
	return c11_result(futexsim_pthread_cond_init((pthread_cond_t *)c, NULL));
}

int futexsim_cnd_signal(cnd_t *c)
{
	return c11_result(futexsim_pthread_cond_signal((pthread_cond_t *)c));
}

int futexsim_cnd_broadcast(cnd_t *c)
{
	return c11_result(futexsim_pthread_cond_broadcast((pthread_cond_t *)c));
}

int futexsim_cnd_wait(cnd_t *c, mtx_t *m)
{
	return c11_result(futexsim_pthread_cond_wait((pthread_cond_t *)c,
						     (pthread_mutex_t *)m));
}

int futexsim_cnd_timedwait(cnd_t *c, mtx_t *m, const struct timespec *abs)
{
	return c11_result(futexsim_pthread_cond_timedwait((pthread_cond_t *)c,
							  (pthread_mutex_t *)m,
							  abs));
}

void futexsim_cnd_destroy(cnd_t *c)
{
	futexsim_pthread_cond_destroy((pthread_cond_t *)c);
}

int futexsim_tss_create(tss_t *k, tss_dtor_t dtor)
{
	return c11_result(futexsim_pthread_key_create((pthread_key_t *)k, dtor));
}

void *futexsim_tss_get(tss_t k)
{
	return futexsim_pthread_getspecific((pthread_key_t)k);
}

int futexsim_tss_set(tss_t k, void *v)
{
	return c11_result(futexsim_pthread_setspecific((pthread_key_t)k, v));
}

void futexsim_tss_delete(tss_t k)
{
	futexsim_pthread_key_delete((pthread_key_t)k);
}
