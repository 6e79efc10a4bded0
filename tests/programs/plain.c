/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/plain.c - a user program for tests/test_instrument.c:
 * plain and volatile accesses, which only an instrumented build
 * (`futexsim build --instrument`) makes scheduling points.
 *
 * Stage: user program (workload), built with `futexsim build`.
 *
 * Usage: plain MODE [THREADS] [ITERATIONS]
 *   spin      one thread busy-waits on a volatile flag that the main
 *             thread sets after a sleep of 20 us and some work of its
 *             own; prints "flag seen"
 *   spin-plain  the same on a plain int, reloaded past a compiler
 *             barrier (as a READ_ONCE-less kernel loop would be)
 *   count     THREADS threads add 1 to a plain global ITERATIONS times
 *             each; a lost update (a thread runs between another's load
 *             and store) aborts with "lost update"
 *   atomic-count  the same with an operator on an _Atomic global
 *             (correct); prints the total
 *   locked-count  count with each add under a pthread mutex (correct,
 *             and no data race)
 *   memset-race  THREADS threads read a plain global ITERATIONS times
 *             while main clears it with memset() (the library, not
 *             instrumented): a data race no instrumented write shows
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile int flag;
static int plain_flag;
static long counter;
static _Atomic long acounter;
static int iterations = 5;
static pthread_mutex_t counter_lock = PTHREAD_MUTEX_INITIALIZER;
static long shared_word = 1;
/* memset() itself, called, not turned into an instrumented store */
static void *(*volatile lib_memset)(void *, int, size_t) = memset;

static void *spinner(void *arg)
{
	long rounds = 0;

	(void)arg;
	while (!flag)
		rounds++;
	printf("flag seen\n");
	return NULL;
}

static void *plain_spinner(void *arg)
{
	(void)arg;
	while (!plain_flag)
		__asm__ volatile("" ::: "memory");
	printf("flag seen\n");
	return NULL;
}

static void *adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < iterations; i++)
		counter = counter + 1;
	return NULL;
}

static void *locked_adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < iterations; i++) {
		pthread_mutex_lock(&counter_lock);
		counter = counter + 1;
		pthread_mutex_unlock(&counter_lock);
	}
	return NULL;
}

static void *reader(void *arg)
{
	long sum = 0;

	(void)arg;
	for (int i = 0; i < iterations; i++) {
		sum += shared_word;
		__asm__ volatile("" ::: "memory");	/* load it each time */
	}
	return (void *)sum;
}

static void *atomic_adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < iterations; i++)
		acounter++;
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "spin";
	int n = argc > 2 ? atoi(argv[2]) : 2;
	pthread_t th[8];
	long work = 0;

	if (argc > 3)
		iterations = atoi(argv[3]);
	if (n < 1 || n > 8)
		return 2;
	if (!strcmp(mode, "spin") || !strcmp(mode, "spin-plain")) {
		int plain = !strcmp(mode, "spin-plain");

		pthread_create(&th[0], NULL, plain ? plain_spinner : spinner, NULL);
		usleep(20);	/* the spinner is spinning by now */
		for (int i = 0; i < 1000; i++)
			work += i;
		if (plain)
			plain_flag = 1;
		else
			flag = 1;
		pthread_join(th[0], NULL);
		return work == 499500 ? 0 : 1;
	}
	if (!strcmp(mode, "memset-race")) {
		for (int i = 0; i < n; i++)
			pthread_create(&th[i], NULL, reader, NULL);
		for (int i = 0; i < iterations; i++) {
			lib_memset(&shared_word, i & 1, sizeof(shared_word));
			usleep(1);
		}
		for (int i = 0; i < n; i++)
			pthread_join(th[i], NULL);
		return 0;
	}
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL,
			       !strcmp(mode, "atomic-count") ? atomic_adder :
			       !strcmp(mode, "locked-count") ? locked_adder : adder,
			       NULL);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	if (!strcmp(mode, "atomic-count")) {
		printf("total %ld\n", (long)acounter);
		return acounter == (long)n * iterations ? 0 : 1;
	}
	if (counter != (long)n * iterations) {
		fprintf(stderr, "lost update: %ld of %ld\n", counter,
			(long)n * iterations);
		abort();
	}
	printf("total %ld\n", counter);
	return 0;
}
