/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/examples/peterson.c - Peterson's mutual exclusion for two
 * threads on plain (volatile) variables, correct under sequential
 * consistency and broken by a store buffer: each thread's write of its
 * flag may still be in its buffer when it reads the other's
 * (docs/programs.md, "Memory models").
 *
 *   futexsim build --instrument workloads/examples/peterson.c -o peterson
 *   ./peterson explore --memory=tso --args="nofence 3" --strategy=random
 *
 * Stage: user program (workload).
 *
 * Usage: peterson nofence|fence [ROUNDS].  Each of two threads enters
 * the critical section ROUNDS times (default 3); inside, it checks that
 * it is alone ("mutual exclusion violated" aborts) and adds 1 to a
 * count.  fence puts a full barrier (__atomic_thread_fence, MFENCE on
 * x86) between the flag's store and the loads, as the algorithm needs on
 * x86.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile int want[2], turn, inside, count;
static int fence, rounds = 3;

static void lock(int me)
{
	int other = 1 - me;

	want[me] = 1;
	turn = other;
	if (fence)
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
	while (want[other] && turn == other)
		;
}

static void unlock(int me)
{
	want[me] = 0;
}

static void *worker(void *arg)
{
	int me = (int)(long)arg;

	for (int i = 0; i < rounds; i++) {
		lock(me);
		if (inside++) {
			fprintf(stderr, "mutual exclusion violated: thread %d entered beside the other\n",
				me);
			abort();
		}
		count = count + 1;
		inside--;
		unlock(me);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[2];

	if (argc < 2 || (strcmp(argv[1], "fence") && strcmp(argv[1], "nofence"))) {
		fprintf(stderr, "usage: peterson nofence|fence [ROUNDS]\n");
		return 2;
	}
	fence = !strcmp(argv[1], "fence");
	if (argc > 2)
		rounds = atoi(argv[2]);
	for (long i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	printf("count %d\n", count);
	return count == 2 * rounds ? 0 : 1;
}
