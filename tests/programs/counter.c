/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/counter.c - a user program for tests/test_explore_program.c:
 * THREADS threads add 1 to a global counter ITERATIONS times each.
 *
 * Stage: user program (workload), built with `futexsim build`.
 *
 * "atomic" adds with one __atomic_fetch_add (correct); "racy" loads and
 * stores in two atomics, so an update is lost when another thread adds
 * in between (the buggy twin).  Either way the program first checks that
 * its world is fresh: its globals at their initial values, as in a new
 * process; a leftover from an earlier run in the same process aborts it
 * with "leftover world".  At the end, a counter short of its total aborts
 * with "lost update".
 *
 * Usage: counter [atomic|racy] [THREADS] [ITERATIONS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int started;			/* 0 in a fresh world		*/
static long counter = 7;		/* 7 in a fresh world		*/
static int racy, iterations = 5;
static char *scratch;			/* NULL in a fresh world	*/

static void *adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < iterations; i++) {
		if (racy) {
			long v = __atomic_load_n(&counter, __ATOMIC_RELAXED);

			__atomic_store_n(&counter, v + 1, __ATOMIC_RELAXED);
		} else {
			__atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 2;
	pthread_t th[8];

	if (started++ || counter != 7 || scratch) {
		fprintf(stderr, "leftover world: started %d, counter %ld\n",
			started, counter);
		abort();
	}
	scratch = malloc(64);
	racy = argc > 1 && !strcmp(argv[1], "racy");
	if (argc > 3)
		iterations = atoi(argv[3]);
	if (n < 1 || n > 8)
		return 2;
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, adder, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("counter %ld\n", counter);
	if (counter != 7 + (long)n * iterations) {
		fprintf(stderr, "lost update: counter %ld, not %ld\n", counter,
			7 + (long)n * iterations);
		abort();
	}
	return 0;
}
