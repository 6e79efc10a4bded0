/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/stdout_kept.c - a user program for
 * tests/test_explore_program.c: a constructor keeps the stream stdout
 * names as the process starts, and the program writes through that copy
 * (as a logging library that picks its stream once does).  THREADS
 * threads add 1 to a counter under a pthread mutex; main() prints the
 * total to the kept stream and to stdout, and flushes both.
 *
 * Stage: user program (workload), built with `futexsim build`.
 *
 * Explore's runs in one process drop the run's stdout
 * (sim/explore/explore_fork.c) without changing the stream stdout
 * names: the copy kept before is stdout, and is no file the simulation
 * refuses; a kept stream that is not stdout aborts the run.
 *
 * Usage: stdout_kept [THREADS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static FILE *out;			/* stdout, kept by keep_out()	*/
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int total;

static void __attribute__((constructor)) keep_out(void)
{
	out = stdout;
}

static void *adder(void *arg)
{
	pthread_mutex_lock(&lock);
	total++;
	pthread_mutex_unlock(&lock);
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 2;
	pthread_t t[8];

	if (n < 1 || n > 8)
		n = 2;
	if (out != stdout) {		/* as in a process of its own */
		fprintf(stderr, "stdout_kept: the kept stream is not stdout\n");
		abort();
	}
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, adder, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	fprintf(out, "total %d (kept stream)\n", total);
	fflush(out);
	setvbuf(out, NULL, _IOLBF, 0);
	printf("total %d (stdout)\n", total);
	fflush(stdout);
	return 0;
}
