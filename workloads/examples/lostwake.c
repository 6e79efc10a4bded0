/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/examples/lostwake.c - an ordinary pthread program with a
 * hand-written futex mutex that loses a wakeup, for futexsim's user
 * program support (docs/programs.md walks through it); built unmodified:
 *
 *   futexsim build workloads/examples/lostwake.c -o lostwake
 *   futexsim run --program=./lostwake --args="buggy 3 20 50" --seed=N
 *
 * Stage: user program (workload): it calls pthreads, futex(2) through
 * syscall() and GCC atomics, which workloads/libsim turns into simulated
 * tasks, real kernel futex calls and scheduling points.
 *
 * The mutex: a lock word (0 free, 1 held) and a count of sleepers.
 *   lock:    exchange 1 into the word; while it was held: count myself
 *            as a sleeper, FUTEX_WAIT(word, 1), uncount, try again.
 *   unlock:  release the word, then wake one sleeper if there are any.
 * The bug ("buggy", the default): the unlocker decides whether to wake
 * from a count it read while it still held the lock, right after taking
 * it ("nobody can change it while I hold the lock": wrong, lockers count
 * themselves without the lock).  A locker that arrives during the
 * critical section counts itself and sleeps; the kernel sees the word
 * still 1, so the FUTEX_WAIT sleeps, and the unlocker, having read 0,
 * wakes nobody.  The sleeper is woken only by a later unlock that read a
 * non-zero count; if no such unlock comes (every other thread is done),
 * it sleeps for ever, and main() with it in pthread_join(): a deadlock,
 * under some interleavings only, which some seeds produce.  "fixed"
 * reads the count after the release (the kernel's re-check of the word
 * closes the race).
 *
 * Mode "pthread" runs the same loop on a pthread mutex, as workload=mutex
 * runs lock=ww (PAUSE x5 in the critical section, x1 between): the
 * benchmark compares the two (make bench, program_ops_per_s).
 *
 * Usage: lostwake [buggy|fixed|pthread] [THREADS] [ITERATIONS] [CS-PAUSES]
 */
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct mutex {
	unsigned int word;		/* 0 free, 1 held		*/
	unsigned int sleepers;		/* tasks in FUTEX_WAIT, or about to be */
};

static struct mutex mtx;
static pthread_mutex_t pmtx = PTHREAD_MUTEX_INITIALIZER;
static int fixed, use_pthread, iterations = 20, cs_pauses = 5;
static long counter;			/* protected by the mutex	*/
static int inside;			/* tasks in the critical section */

static void mutex_lock(struct mutex *m)
{
	while (__atomic_exchange_n(&m->word, 1, __ATOMIC_ACQUIRE) != 0) {
		__atomic_fetch_add(&m->sleepers, 1, __ATOMIC_SEQ_CST);
		syscall(SYS_futex, &m->word, FUTEX_WAIT_PRIVATE, 1, NULL, NULL, 0);
		__atomic_fetch_sub(&m->sleepers, 1, __ATOMIC_SEQ_CST);
	}}

/* @sampled: the sleeper count read right after lock() (buggy mode). */
static void mutex_unlock(struct mutex *m, unsigned int sampled)
{
	unsigned int sleepers = sampled;

	__atomic_store_n(&m->word, 0, __ATOMIC_RELEASE);
	if (fixed)
		sleepers = __atomic_load_n(&m->sleepers, __ATOMIC_SEQ_CST);
	if (sleepers)
		syscall(SYS_futex, &m->word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void pause_n(int n)
{
	while (n--)
		__builtin_ia32_pause();
}

static void *worker(void *arg)
{
	for (int i = 0; i < iterations; i++) {
		unsigned int sampled = 0;

		if (use_pthread) {
			pthread_mutex_lock(&pmtx);
		} else {
			mutex_lock(&mtx);
			/* BUG (buggy mode): read while holding the lock */
			sampled = __atomic_load_n(&mtx.sleepers, __ATOMIC_SEQ_CST);
		}
		if (inside++) {		/* plain: the mutex protects it */
			fprintf(stderr, "mutual exclusion violated\n");
			abort();
		}
		/* touch the protected data's cache line, as workload=mutex */
		__atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
		pause_n(cs_pauses);
		inside--;
		if (use_pthread)
			pthread_mutex_unlock(&pmtx);
		else
			mutex_unlock(&mtx, sampled);
		pause_n(1);
	}
	return arg;
}

int main(int argc, char **argv)
{
	int nthreads = argc > 2 ? atoi(argv[2]) : 3;
	pthread_t *t;

	if (argc > 1) {
		fixed = !strcmp(argv[1], "fixed");
		use_pthread = !strcmp(argv[1], "pthread");
		if (!fixed && !use_pthread && strcmp(argv[1], "buggy")) {
			fprintf(stderr, "usage: %s [buggy|fixed|pthread] [THREADS] [ITERATIONS] [CS-PAUSES]\n",
				argv[0]);
			return 2;
		}
	}
	if (argc > 3)
		iterations = atoi(argv[3]);
	if (argc > 4)
		cs_pauses = atoi(argv[4]);
	if (nthreads < 1 || iterations < 1 || cs_pauses < 0)
		return 2;
	t = calloc(nthreads, sizeof(*t));
	for (int i = 0; i < nthreads; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	printf("%s: %d threads x %d iterations, counter %ld\n",
	       use_pthread ? "pthread" : fixed ? "fixed" : "buggy", nthreads,
	       iterations, counter);
	free(t);
	return counter == (long)nthreads * iterations ? 0 : 1;
}
