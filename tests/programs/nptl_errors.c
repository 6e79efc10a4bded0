/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/nptl_errors.c - the error returns glibc gives and that
 * glibc's own nptl tests check (tst-rwlock3, tst-cond9, tst-cond19,
 * tst-mutex-errorcheck, tst-sem15), a PI mutex's timed lock, the kind a
 * static rwlock initialiser gives (tst-rwlock15) and a spin lock held
 * across a sleep (tst-spin4), as one program built with `futexsim build`
 * by tests/test_nptl.c.
 *
 * Stage: tests (a user program).  Each check prints "ok NAME" or
 * "FAIL NAME: got X, want Y"; the exit status is the number of failures.
 * With the argument "control" every check expects a wrong value instead
 * (the negative control: every check must then fail).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check_value.h"

static struct timespec in_ms(long ms)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += ms * 1000000L;
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return t;
}

static pthread_mutex_t pi;

static void *pi_taker(void *arg)
{
	struct timespec t = in_ms(1);

	check("pi-timedlock-held", pthread_mutex_timedlock(&pi, &t), ETIMEDOUT);
	return NULL;
}

static void rwlock_checks(void)
{
	pthread_rwlock_t rw;

	pthread_rwlock_init(&rw, NULL);
	pthread_rwlock_wrlock(&rw);
	check("rwlock-rdlock-by-writer", pthread_rwlock_rdlock(&rw), EDEADLK);
	check("rwlock-wrlock-by-writer", pthread_rwlock_wrlock(&rw), EDEADLK);
	pthread_rwlock_unlock(&rw);
}

static pthread_rwlock_t wpref = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;

static void *wpref_writer(void *arg)
{
	struct timespec t = in_ms(100);

	check("rwlock-initializer-writer-times-out",
	      pthread_rwlock_timedwrlock(&wpref, &t), ETIMEDOUT);
	return NULL;
}

/* tst-rwlock15: the initialiser's kind keeps a new reader out while a
 * writer waits. */
static void rwlock_kind_checks(void)
{
	pthread_t th;

	pthread_rwlock_rdlock(&wpref);
	pthread_create(&th, NULL, wpref_writer, NULL);
	usleep(10000);
	check("rwlock-initializer-kind-busy", pthread_rwlock_tryrdlock(&wpref),
	      EBUSY);
	pthread_join(th, NULL);
	pthread_rwlock_unlock(&wpref);
}

static pthread_spinlock_t spin;

static long now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void *spinner(void *arg)
{
	pthread_spin_lock(&spin);
	*(long *)arg = now_ms();
	pthread_spin_unlock(&spin);
	return NULL;
}

/* tst-spin4: a spinner behind an owner that sleeps for a second gets
 * the lock after that second, not before. */
static void spin_checks(void)
{
	pthread_t th;
	long start, got = 0;

	pthread_spin_init(&spin, PTHREAD_PROCESS_PRIVATE);
	pthread_spin_lock(&spin);
	pthread_create(&th, NULL, spinner, &got);
	start = now_ms();
	sleep(1);
	pthread_spin_unlock(&spin);
	pthread_join(th, NULL);
	check("spin-lock-after-a-sleeping-owner", got - start >= 1000, 1);
}

static void cond_checks(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m, n = PTHREAD_MUTEX_INITIALIZER;
	pthread_cond_t c = PTHREAD_COND_INITIALIZER;
	struct timespec t = in_ms(1);

	pthread_mutexattr_init(&a);
	pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
	pthread_mutex_init(&m, &a);
	check("cond-wait-unowned-errorcheck", pthread_cond_wait(&c, &m), EPERM);
	pthread_mutex_lock(&n);
	t.tv_nsec = -1;
	check("cond-timedwait-nsec-negative", pthread_cond_timedwait(&c, &n, &t),
	      EINVAL);
	t.tv_nsec = 2000000000L;
	check("cond-timedwait-nsec-2e9", pthread_cond_timedwait(&c, &n, &t),
	      EINVAL);
	pthread_mutex_unlock(&n);
	pthread_mutex_lock(&m);
	t = in_ms(1);
	check("mutex-errorcheck-timedlock-relock",
	      pthread_mutex_timedlock(&m, &t), EDEADLK);
	pthread_mutex_unlock(&m);
}

int main(int argc, char **argv)
{
	pthread_mutexattr_t a;
	pthread_t th;
	struct timespec t;
	sem_t s;
	int r;

	control = argc > 1 && !strcmp(argv[1], "control");
	rwlock_checks();
	rwlock_kind_checks();
	spin_checks();
	cond_checks();

	sem_init(&s, 0, SEM_VALUE_MAX);
	errno = 0;
	r = sem_post(&s);
	check("sem-post-at-max", r == -1 ? errno : 0, EOVERFLOW);
	sem_getvalue(&s, &r);
	check("sem-value-stays-at-max", r, SEM_VALUE_MAX);

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&pi, &a);
	t = in_ms(1);
	check("pi-timedlock-free", pthread_mutex_timedlock(&pi, &t), 0);
	pthread_create(&th, NULL, pi_taker, NULL);
	pthread_join(th, NULL);
	pthread_mutex_unlock(&pi);
	return failures;
}
