/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/examples/condvar_if.c - a condition variable waited on with
 * `if` instead of `while`: an ordinary pthread program for futexsim's
 * user program support (docs/programs.md), built unmodified:
 *
 *   futexsim build workloads/examples/condvar_if.c -o condvar_if
 *   futexsim explore --program=./condvar_if --args="if 2 20" --strategy=random
 *
 * Stage: user program (workload): pthread mutex and condition variable,
 * which workloads/libsim runs over the simulated futex(2).
 *
 * A queue of items counted by `items`, guarded by `lock`; one producer
 * puts ITEMS items, one at a time, each followed by a signal of
 * `nonempty`; CONSUMERS consumers take them.  A consumer that finds the
 * queue empty waits on `nonempty`.  The bug ("if", the default): it
 * takes an item as soon as the wait returns.  A wait that returns does
 * not mean the queue has an item: between the producer's signal and the
 * moment the woken consumer gets the mutex back, another consumer that
 * was not waiting can take the lock first and the item with it.  The
 * woken one then takes an item that is not there, and the program stops
 * with abort() ("queue underflow"), under some interleavings only.
 * "while" re-checks the count after every wait, as POSIX asks.
 *
 * Usage: condvar_if [if|while] [CONSUMERS] [ITEMS]
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER;
static int items;			/* in the queue, under lock	*/
static int produced, consumed;		/* totals, under lock		*/
static int total = 20, use_while;

static void *consumer(void *arg)
{
	int *mine = arg;

	for (;;) {
		pthread_mutex_lock(&lock);
		if (consumed == total) {
			pthread_mutex_unlock(&lock);
			return NULL;
		}
		if (use_while) {
			while (items == 0 && produced < total)
				pthread_cond_wait(&nonempty, &lock);
		} else if (items == 0 && produced < total) {
			pthread_cond_wait(&nonempty, &lock);	/* the bug */
		}
		if (items == 0 && produced == total) {
			pthread_mutex_unlock(&lock);
			return NULL;
		}
		if (--items < 0) {
			fprintf(stderr, "queue underflow: a consumer took an item that was not there\n");
			abort();
		}
		consumed++;
		(*mine)++;
		pthread_mutex_unlock(&lock);
	}
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 2, got[16] = { 0 };
	pthread_t th[16];

	if (argc > 1 && strcmp(argv[1], "while") && strcmp(argv[1], "if")) {
		fprintf(stderr, "usage: %s [if|while] [CONSUMERS] [ITEMS]\n", argv[0]);
		return 2;
	}
	use_while = argc > 1 && !strcmp(argv[1], "while");
	if (argc > 3)
		total = atoi(argv[3]);
	if (n < 1 || n > 16 || total < 1) {
		fprintf(stderr, "%s: 1 to 16 consumers, at least 1 item\n", argv[0]);
		return 2;
	}
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, consumer, &got[i]);
	for (int i = 0; i < total; i++) {
		pthread_mutex_lock(&lock);
		items++;
		produced++;
		pthread_cond_signal(&nonempty);
		pthread_mutex_unlock(&lock);
	}
	pthread_mutex_lock(&lock);
	pthread_cond_broadcast(&nonempty);	/* the last ones may wait */
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("%s: %d consumers took %d of %d items\n",
	       use_while ? "while" : "if", n, consumed, total);
	return consumed == total ? 0 : 1;
}
