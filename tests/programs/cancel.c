/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/cancel.c - pthread cancellation as glibc gives it, for
 * tests/test_nptl.c: a thread cancelled in a condition wait runs its
 * cleanup handler holding the mutex; a disabled cancel waits for the
 * thread to enable it and reach a cancellation point; a thread blocked
 * in sem_wait() is cancelled; a thread blocked on a PI mutex (not a
 * cancellation point: FUTEX_LOCK_PI is restarted) takes it, and is
 * cancelled at its next cancellation point; pthread_exit() runs the
 * handlers too.
 *
 * Stage: tests (a user program).  Prints "ok NAME" or "FAIL NAME: ..."
 * per check (check_value.h); "control" expects a wrong value in each.
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check_value.h"

static pthread_mutex_t m;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int handler_unlock = -1, ready;

static void unlock_in_handler(void *arg)
{
	handler_unlock = pthread_mutex_unlock(arg);	/* 0: we held it */
}

static void *cond_waiter(void *arg)
{
	pthread_mutex_lock(&m);
	ready = 1;
	pthread_cond_signal(&c);
	pthread_cleanup_push(unlock_in_handler, &m);
	for (;;)
		pthread_cond_wait(&c, &m);
	pthread_cleanup_pop(0);
	return NULL;
}

static int survived_sleep, after_testcancel;

static void *disabled(void *arg)
{
	pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, NULL);
	usleep(20000);			/* the cancel comes in here */
	survived_sleep = 1;
	pthread_setcancelstate(PTHREAD_CANCEL_ENABLE, NULL);
	pthread_testcancel();
	after_testcancel = 1;
	return NULL;
}

static sem_t never;

static void *sem_waiter(void *arg)
{
	sem_wait(&never);
	return NULL;
}

static pthread_mutex_t pi;
static int got_pi;

static void *pi_locker(void *arg)
{
	pthread_mutex_lock(&pi);	/* the cancel comes in here */
	got_pi = 1;
	pthread_mutex_unlock(&pi);
	pthread_testcancel();
	got_pi = 2;
	return NULL;
}

static int exit_handlers;

static void count_handler(void *arg)
{
	exit_handlers += *(int *)arg;
}

/* Asynchronously cancellable, it spins on atomics, never at a
 * cancellation point: only an asynchronous cancel ends it. */
static int spins;
static void *async_spinner(void *arg)
{
	pthread_setcanceltype(PTHREAD_CANCEL_ASYNCHRONOUS, NULL);
	for (;;)
		__atomic_fetch_add(&spins, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void *exiter(void *arg)
{
	static int one = 1, ten = 10;

	pthread_cleanup_push(count_handler, &one);
	pthread_cleanup_push(count_handler, &ten);
	pthread_exit((void *)7L);
	pthread_cleanup_pop(0);
	pthread_cleanup_pop(0);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_mutexattr_t a;
	pthread_t th;
	void *res;

	control = argc > 1 && !strcmp(argv[1], "control");
	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&m, &a);

	pthread_mutex_lock(&m);
	pthread_create(&th, NULL, cond_waiter, NULL);
	while (!ready)
		pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	usleep(1000);			/* it sleeps in the condition wait */
	check("cancel-returns-0", pthread_cancel(th), 0);
	pthread_join(th, &res);
	check("cancel-cond-joined-canceled", res == PTHREAD_CANCELED, 1);
	check("cancel-cond-handler-holds-mutex", handler_unlock, 0);

	pthread_create(&th, NULL, disabled, NULL);
	usleep(5000);
	pthread_cancel(th);
	pthread_join(th, &res);
	check("cancel-disabled-deferred", survived_sleep, 1);
	check("cancel-at-testcancel", after_testcancel, 0);
	check("cancel-disabled-joined-canceled", res == PTHREAD_CANCELED, 1);

	sem_init(&never, 0, 0);
	pthread_create(&th, NULL, sem_waiter, NULL);
	usleep(1000);
	pthread_cancel(th);
	pthread_join(th, &res);
	check("cancel-sem-wait-joined-canceled", res == PTHREAD_CANCELED, 1);

	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&pi, &a);
	pthread_mutex_lock(&pi);
	pthread_create(&th, NULL, pi_locker, NULL);
	usleep(1000);			/* it sleeps in FUTEX_LOCK_PI */
	pthread_cancel(th);
	usleep(1000);
	pthread_mutex_unlock(&pi);
	pthread_join(th, &res);
	check("cancel-pi-lock-not-a-point", got_pi, 1);
	check("cancel-pi-joined-canceled", res == PTHREAD_CANCELED, 1);

	pthread_create(&th, NULL, exiter, NULL);
	pthread_join(th, &res);
	check("pthread-exit-runs-handlers", exit_handlers, 11);
	check("pthread-exit-value", (long)res, 7);
	check("setcancelstate-bad", pthread_setcancelstate(7, NULL), 22);

	pthread_create(&th, NULL, async_spinner, NULL);
	while (__atomic_load_n(&spins, __ATOMIC_RELAXED) < 100)
		;
	pthread_cancel(th);
	pthread_join(th, &res);
	check("cancel-async-spinner-joined-canceled", res == PTHREAD_CANCELED, 1);
	return failures ? 10 : 0;
}
