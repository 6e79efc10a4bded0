/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/robust.c - robust mutexes whose owner dies, for
 * tests/test_nptl.c: the kernel's exit_robust_list() marks the word
 * FUTEX_OWNER_DIED and wakes a waiter, the next lock returns EOWNERDEAD,
 * pthread_mutex_consistent() makes the mutex whole, and unlocking it
 * without that leaves it ENOTRECOVERABLE; the same with
 * PTHREAD_PRIO_INHERIT (FUTEX_LOCK_PI, exit_pi_state_list()).  A plain
 * mutex whose owner dies stays locked (EBUSY): what robustness adds.
 *
 * Prints "ok NAME" or "FAIL NAME: ..." per check (check_value.h); the
 * argument "control" makes every check expect a wrong value.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "check_value.h"

static pthread_mutex_t m_dies, m_wait, m_lost, m_pi, m_pi_wait, m_plain;
static int waiter_result;

static void init(pthread_mutex_t *m, int robust, int pi)
{
	pthread_mutexattr_t a;

	pthread_mutexattr_init(&a);
	if (robust)
		pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	if (pi)
		pthread_mutexattr_setprotocol(&a, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(m, &a);
	pthread_mutexattr_destroy(&a);
}

static void sleep_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

/* Lock @arg and exit holding it. */
static void *dies_holding(void *arg)
{
	pthread_mutex_lock(arg);
	return NULL;
}

/* Lock @arg, give the waiter time to block on it, exit holding it. */
static void *dies_later(void *arg)
{
	pthread_mutex_lock(arg);
	sleep_us(100);
	return NULL;
}

/* Block on @arg until its owner dies. */
static void *waits(void *arg)
{
	sleep_us(20);
	waiter_result = pthread_mutex_lock(arg);
	if (waiter_result == EOWNERDEAD) {
		pthread_mutex_consistent(arg);
		pthread_mutex_unlock(arg);
	}
	return NULL;
}

static void die_holding(pthread_mutex_t *m)
{
	pthread_t t;

	pthread_create(&t, NULL, dies_holding, m);
	pthread_join(t, NULL);
}

/* An owner dies while another thread sleeps on the mutex. */
static void die_with_waiter(pthread_mutex_t *m)
{
	pthread_t t1, t2;

	pthread_create(&t1, NULL, dies_later, m);
	pthread_create(&t2, NULL, waits, m);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
}

int main(int argc, char **argv)
{
	control = argc > 1 && !strcmp(argv[1], "control");

	init(&m_dies, 1, 0);
	init(&m_wait, 1, 0);
	init(&m_lost, 1, 0);
	init(&m_pi, 1, 1);
	init(&m_pi_wait, 1, 1);
	init(&m_plain, 0, 0);

	die_holding(&m_dies);
	check("robust-word-owner-died",
	      !!(*(volatile uint32_t *)&m_dies & FUTEX_OWNER_DIED), 1);
	check("robust-lock-eownerdead", pthread_mutex_lock(&m_dies), EOWNERDEAD);
	check("robust-consistent", pthread_mutex_consistent(&m_dies), 0);
	check("robust-unlock", pthread_mutex_unlock(&m_dies), 0);
	check("robust-relock-after-consistent", pthread_mutex_lock(&m_dies), 0);
	check("robust-consistent-when-consistent",
	      pthread_mutex_consistent(&m_dies), EINVAL);
	check("robust-unlock-again", pthread_mutex_unlock(&m_dies), 0);
	check("robust-unlock-unowned-eperm", pthread_mutex_unlock(&m_dies), EPERM);

	die_with_waiter(&m_wait);
	check("robust-waiter-woken-eownerdead", waiter_result, EOWNERDEAD);
	check("robust-after-waiter", pthread_mutex_trylock(&m_wait), 0);
	pthread_mutex_unlock(&m_wait);

	die_holding(&m_lost);
	check("robust-trylock-eownerdead", pthread_mutex_trylock(&m_lost),
	      EOWNERDEAD);
	pthread_mutex_unlock(&m_lost);		/* not made consistent */
	check("robust-notrecoverable", pthread_mutex_lock(&m_lost),
	      ENOTRECOVERABLE);

	die_holding(&m_pi);
	check("robust-pi-lock-eownerdead", pthread_mutex_lock(&m_pi), EOWNERDEAD);
	check("robust-pi-word-cleared",
	      !!(*(volatile uint32_t *)&m_pi & FUTEX_OWNER_DIED), 0);
	check("robust-pi-consistent", pthread_mutex_consistent(&m_pi), 0);
	check("robust-pi-unlock", pthread_mutex_unlock(&m_pi), 0);

	waiter_result = -1;
	die_with_waiter(&m_pi_wait);
	check("robust-pi-waiter-eownerdead", waiter_result, EOWNERDEAD);

	die_holding(&m_plain);
	check("plain-owner-died-stays-locked", pthread_mutex_trylock(&m_plain),
	      EBUSY);
	return failures ? 1 : 0;
}
