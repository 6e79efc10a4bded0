/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/examples/nowake.c - a futex mutex whose unlock forgets the
 * FUTEX_WAKE on one path: an ordinary pthread program for futexsim's user
 * program support (docs/programs.md), built unmodified:
 *
 *   futexsim build workloads/examples/nowake.c -o nowake
 *   futexsim explore --program=./nowake --args="forget 2 5" --strategy=random
 *
 * Stage: user program (workload): GCC atomics and futex(2) through
 * syscall(), which workloads/libsim turns into scheduling points and the
 * kernel's futex code.
 *
 * The mutex is the three-state one of Drepper's "Futexes Are Tricky"
 * (2004), "mutex2": word 0 free, 1 held, 2 held with waiters.
 *   lock:    cmpxchg 0 -> 1; if it was not 0, exchange 2 in and, while
 *            the old value was not 0, FUTEX_WAIT(word, 2) and exchange
 *            2 in again.
 *   unlock:  fetch_sub 1; if the old value was not 1 (2: waiters), store
 *            0 and FUTEX_WAKE one waiter.
 * The bug ("forget"): on the waiters path the unlock stores 0 and
 * returns without the FUTEX_WAKE.  A waiter asleep in FUTEX_WAIT then
 * sleeps until another unlock that happens to see 2, which the
 * forgetting unlock never leaves: once every other thread is done, the
 * sleeper and main() in pthread_join() wait for ever.  "wake" is the
 * correct mutex.  Contention is needed, so only some schedules hang.
 *
 * Usage: nowake [forget|wake] [THREADS] [ITERATIONS]
 */
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static unsigned int word;		/* 0 free, 1 held, 2 waiters	*/
static long total;			/* protected by the mutex	*/
static int forget = 1, iterations = 5;

static void lock(void)
{
	unsigned int c = 0;

	if (__atomic_compare_exchange_n(&word, &c, 1, 0, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	if (c != 2)
		c = __atomic_exchange_n(&word, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0);
		c = __atomic_exchange_n(&word, 2, __ATOMIC_ACQUIRE);
	}
}

static void unlock(void)
{
	if (__atomic_fetch_sub(&word, 1, __ATOMIC_RELEASE) != 1) {
		__atomic_store_n(&word, 0, __ATOMIC_RELEASE);
		if (!forget)
			syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL,
				NULL, 0);
	}
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < iterations; i++) {
		lock();
		total++;
		unlock();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 2;
	pthread_t th[16];

	if (argc > 1 && strcmp(argv[1], "forget") && strcmp(argv[1], "wake")) {
		fprintf(stderr, "usage: %s [forget|wake] [THREADS] [ITERATIONS]\n",
			argv[0]);
		return 2;
	}
	forget = !(argc > 1 && !strcmp(argv[1], "wake"));
	if (argc > 3)
		iterations = atoi(argv[3]);
	if (n < 1 || n > 16 || iterations < 1)
		return 2;
	for (int i = 0; i < n; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("%s: %d threads x %d iterations, total %ld\n",
	       forget ? "forget" : "wake", n, iterations, total);
	return total == (long)n * iterations ? 0 : 1;
}
