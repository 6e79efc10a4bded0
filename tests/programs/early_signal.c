/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/early_signal.c - a user program for tests/test_uword.c
 * and tests/test_play.c: a condition variable signalled before its
 * waiter waits.
 *
 * Stage: user program (workload), built with `futexsim build`.
 *
 * The waiter locks m and waits on cv with no predicate to check; main()
 * creates it, then locks m, signals cv once, unlocks and joins.  If the
 * signal comes first (every seed of the default schedule), the waiter
 * sleeps for ever and main() waits in pthread_join(): a deadlock whose
 * wait-for report says the wakeup came before the wait.  If the waiter
 * runs first (a schedule that play can choose), it waits before the
 * signal and the program ends.
 */
#include <pthread.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;

static void *waiter(void *arg)
{
	pthread_mutex_lock(&m);
	pthread_cond_wait(&cv, &m);
	pthread_mutex_unlock(&m);
	return arg;
}

int main(void)
{
	pthread_t t;

	pthread_create(&t, 0, waiter, 0);
	pthread_mutex_lock(&m);
	pthread_cond_signal(&cv);
	pthread_mutex_unlock(&m);
	pthread_join(t, 0);
	return 0;
}
