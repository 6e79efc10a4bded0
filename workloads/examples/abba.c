/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/examples/abba.c - two mutexes taken in opposite orders (an
 * ABBA deadlock): an ordinary pthread program for futexsim's user
 * program support (docs/programs.md), built unmodified:
 *
 *   futexsim build workloads/examples/abba.c -o abba
 *   futexsim explore --program=./abba --args="abba 10" --strategy=random
 *
 * Stage: user program (workload): two pthread mutexes, which
 * workloads/libsim runs over the simulated futex(2).
 *
 * Two threads move a unit between two accounts ROUNDS times; each
 * account has its mutex.  "abba" (the bug): thread1 locks `alpha` then
 * `beta`, thread2 locks `beta` then `alpha`.  If each takes its first
 * mutex before the other takes its second, both wait for ever: a
 * deadlock, under some interleavings only.  "ordered" takes them in the
 * same order in both threads.
 *
 * Usage: abba [abba|ordered] [ROUNDS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct account {
	pthread_mutex_t mutex;
	long balance;
};

static struct account alpha = { PTHREAD_MUTEX_INITIALIZER, 100 };
static struct account beta = { PTHREAD_MUTEX_INITIALIZER, 100 };
static int rounds = 10, ordered;

static void move(struct account *from, struct account *to, struct account *first)
{
	struct account *second = first == from ? to : from;

	pthread_mutex_lock(&first->mutex);
	pthread_mutex_lock(&second->mutex);
	from->balance--;
	to->balance++;
	pthread_mutex_unlock(&second->mutex);
	pthread_mutex_unlock(&first->mutex);
}

static void *thread1(void *arg)
{
	(void)arg;
	for (int i = 0; i < rounds; i++)
		move(&alpha, &beta, &alpha);
	return NULL;
}

static void *thread2(void *arg)
{
	(void)arg;
	for (int i = 0; i < rounds; i++)
		move(&beta, &alpha, ordered ? &alpha : &beta);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	if (argc > 1 && strcmp(argv[1], "abba") && strcmp(argv[1], "ordered")) {
		fprintf(stderr, "usage: %s [abba|ordered] [ROUNDS]\n", argv[0]);
		return 2;
	}
	ordered = argc > 1 && !strcmp(argv[1], "ordered");
	if (argc > 2)
		rounds = atoi(argv[2]);
	pthread_create(&a, NULL, thread1, NULL);
	pthread_create(&b, NULL, thread2, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	printf("%s: %d rounds, balances %ld and %ld\n", ordered ? "ordered" : "abba",
	       rounds, alpha.balance, beta.balance);
	return alpha.balance + beta.balance == 200 ? 0 : 1;
}
