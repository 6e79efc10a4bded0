/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/pshared.c - process-shared mutex, condition variable,
 * rwlock, barrier and semaphore in a SysV shared memory segment, for
 * tests/test_nptl.c: they work, and (the test reads the trace) their
 * futex calls are the shared ones, without FUTEX_PRIVATE_FLAG, as
 * glibc's; with the argument "private" the same objects are private
 * (the control: then every call is a _PRIVATE one).
 *
 * Prints "ok NAME" or "FAIL NAME: ..." per check (check_value.h); the
 * argument "control" makes every check expect a wrong value.
 */
#include <pthread.h>
#include <semaphore.h>
#include <string.h>
#include <sys/shm.h>
#include <time.h>

#include "check_value.h"

#define THREADS	3
#define ROUNDS	20

static struct shared {
	pthread_mutex_t m;
	pthread_cond_t c;
	pthread_rwlock_t rw;
	pthread_barrier_t b;
	sem_t s;
	int counter, reads;
} *sh;

static void sleep_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

static void *work(void *arg)
{
	pthread_barrier_wait(&sh->b);
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&sh->m);
		sleep_us(2);		/* the others wait in the kernel */
		if (++sh->counter == THREADS * ROUNDS)
			pthread_cond_broadcast(&sh->c);
		pthread_mutex_unlock(&sh->m);
		pthread_rwlock_wrlock(&sh->rw);
		sleep_us(1);
		pthread_rwlock_unlock(&sh->rw);
		pthread_rwlock_rdlock(&sh->rw);
		__atomic_fetch_add(&sh->reads, 1, __ATOMIC_RELAXED);
		pthread_rwlock_unlock(&sh->rw);
		sem_post(&sh->s);
	}
	pthread_barrier_wait(&sh->b);
	return NULL;
}

int main(int argc, char **argv)
{
	int shared, id, i, posts = 0;
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	pthread_rwlockattr_t ra;
	pthread_barrierattr_t ba;
	pthread_t t[THREADS];

	control = argc > 1 && !strcmp(argv[1], "control");
	shared = !(argc > 1 && !strcmp(argv[1], "private"));
	shared = shared ? PTHREAD_PROCESS_SHARED : PTHREAD_PROCESS_PRIVATE;

	id = shmget(IPC_PRIVATE, sizeof(*sh), IPC_CREAT | 0600);
	sh = shmat(id, NULL, 0);
	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, shared);
	pthread_mutex_init(&sh->m, &ma);
	pthread_condattr_init(&ca);
	pthread_condattr_setpshared(&ca, shared);
	pthread_cond_init(&sh->c, &ca);
	pthread_rwlockattr_init(&ra);
	pthread_rwlockattr_setpshared(&ra, shared);
	pthread_rwlock_init(&sh->rw, &ra);
	pthread_barrierattr_init(&ba);
	pthread_barrierattr_setpshared(&ba, shared);
	pthread_barrier_init(&sh->b, &ba, THREADS);
	sem_init(&sh->s, shared == PTHREAD_PROCESS_SHARED, 0);

	for (i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, work, NULL);
	pthread_mutex_lock(&sh->m);
	while (sh->counter < THREADS * ROUNDS)
		pthread_cond_wait(&sh->c, &sh->m);
	pthread_mutex_unlock(&sh->m);
	for (i = 0; i < THREADS * ROUNDS; i++)
		posts += sem_wait(&sh->s) == 0;
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	check("pshared-mutex-counts", sh->counter, THREADS * ROUNDS);
	check("pshared-rwlock-reads", sh->reads, THREADS * ROUNDS);
	check("pshared-sem-posts", posts, THREADS * ROUNDS);
	return failures ? 1 : 0;
}
