/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/sched_share.c - how two CPU-bound threads share one CPU,
 * for tests/test_prio.c.  Mode "fifo": two SCHED_FIFO 10 threads (the
 * first runs to the end before the second starts); "rr": two SCHED_RR 10
 * (they take turns each timeslice and end close together); "nice": two
 * SCHED_OTHER threads, nice 0 and nice 5, for the same wall-clock span
 * (CPU time in about the ratio of their weights, 1024 : 335).
 * Prints "a B b C" (end times in us) or "cpu A B" (CPU time in us).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static int mode_nice;
static long end_us[2], cpu_us[2];
static pthread_barrier_t bar;

static long ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void *worker(void *arg)
{
	long i = (long)arg;

	if (mode_nice) {
		long stop;

		setpriority(PRIO_PROCESS, 0, i ? 5 : 0);
		pthread_barrier_wait(&bar);
		stop = ns(CLOCK_MONOTONIC) + 12000000L;
		while (ns(CLOCK_MONOTONIC) < stop)
			__builtin_ia32_pause();
		cpu_us[i] = ns(CLOCK_THREAD_CPUTIME_ID) / 1000;
	} else {
		long stop = ns(CLOCK_THREAD_CPUTIME_ID) + 6000000L;

		while (ns(CLOCK_THREAD_CPUTIME_ID) < stop)
			__builtin_ia32_pause();
		end_us[i] = ns(CLOCK_MONOTONIC) / 1000;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "rr";
	struct sched_param sp = { .sched_priority = 20 }, wp = { .sched_priority = 10 };
	pthread_attr_t a;
	pthread_t th[2];

	mode_nice = !strcmp(mode, "nice");
	pthread_barrier_init(&bar, NULL, 2);
	pthread_attr_init(&a);
	if (!mode_nice) {
		/* main above the workers, so that both start queued */
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
		pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&a, strcmp(mode, "fifo") ? SCHED_RR : SCHED_FIFO);
		pthread_attr_setschedparam(&a, &wp);
	}
	for (long i = 0; i < 2; i++)
		pthread_create(&th[i], &a, worker, (void *)i);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	if (mode_nice)
		printf("cpu %ld %ld\n", cpu_us[0], cpu_us[1]);
	else
		printf("a %ld b %ld\n", end_us[0], end_us[1]);
	return 0;
}
