/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/examples/prio_inversion.c - priority inversion, and priority
 * inheritance bounding it (docs/lessons/06-priority-inversion.md):
 *
 *   futexsim build workloads/examples/prio_inversion.c -o prio_inversion
 *   futexsim run --program=./prio_inversion --cpus=1 --args="plain"
 *   futexsim run --program=./prio_inversion --cpus=1 --args="pi"
 *
 * Stage: user program (workload): pthreads with SCHED_FIFO priorities, a
 * pthread mutex (the scenario's lock, or PTHREAD_PRIO_INHERIT: the
 * kernel's FUTEX_LOCK_PI and its rtmutex) and the virtual clock.
 *
 * Three SCHED_FIFO roles, main above them all (it only starts and joins):
 *   low  (prio 10)  takes the mutex and computes for CS_US of CPU time
 *   high (prio 30)  sleeps 20 us, so that low holds the mutex, then locks
 *                   it: its wait is what the program prints
 *   hog  (prio 20)  HOGS of them sleep 40 us, then compute for HOG_US
 * With a plain mutex the hogs outrank low, which cannot run to release
 * the mutex: high waits for the hogs to finish (unbounded inversion).
 * With PTHREAD_PRIO_INHERIT the kernel boosts low to high's priority
 * while high waits (sched_pi_setprio in the trace): high waits for the
 * rest of low's critical section only.
 *
 * Usage: prio_inversion [plain|pi] [HOGS] [HOG_US] [CS_US]
 * Exit status: 0; the last line says whether high's wait was bounded by
 * the critical section (wait <= 2 x CS_US).
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t mtx;
static long hog_us = 5000, cs_us = 200;
static long high_wait_ns;

static long now_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* Compute for @us of this thread's CPU time (a pause is a scheduling
 * point, so a better thread can preempt it). */
static void compute(long us)
{
	long end = now_ns(CLOCK_THREAD_CPUTIME_ID) + us * 1000;

	while (now_ns(CLOCK_THREAD_CPUTIME_ID) < end)
		for (int i = 0; i < 20; i++)
			__builtin_ia32_pause();
}

static void sleep_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

static void *low(void *arg)
{
	pthread_mutex_lock(&mtx);
	compute(cs_us);
	pthread_mutex_unlock(&mtx);
	return NULL;
}

static void *high(void *arg)
{
	long t0;

	sleep_us(20);
	t0 = now_ns(CLOCK_MONOTONIC);
	pthread_mutex_lock(&mtx);
	high_wait_ns = now_ns(CLOCK_MONOTONIC) - t0;
	pthread_mutex_unlock(&mtx);
	return NULL;
}

static void *hog(void *arg)
{
	sleep_us(40);
	compute(hog_us);
	return NULL;
}

static pthread_t start(void *(*fn)(void *), int prio)
{
	pthread_attr_t a;
	struct sched_param sp = { .sched_priority = prio };
	pthread_t th;
	int err;

	pthread_attr_init(&a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, SCHED_FIFO);
	pthread_attr_setschedparam(&a, &sp);
	err = pthread_create(&th, &a, fn, NULL);
	if (err) {
		fprintf(stderr, "pthread_create: %s\n", strerror(err));
		exit(1);
	}
	pthread_attr_destroy(&a);
	return th;
}

int main(int argc, char **argv)
{
	int pi = argc > 1 && !strcmp(argv[1], "pi");
	int hogs = argc > 2 ? atoi(argv[2]) : 1;
	struct sched_param sp = { .sched_priority = 40 };
	pthread_mutexattr_t ma;
	pthread_t th[18];
	int n = 0;

	if (argc > 3)
		hog_us = atol(argv[3]);
	if (argc > 4)
		cs_us = atol(argv[4]);
	if (hogs < 0 || hogs > 16 || hog_us < 0 || cs_us < 1) {
		fprintf(stderr, "usage: prio_inversion [plain|pi] [HOGS 0-16] [HOG_US] [CS_US]\n");
		return 2;
	}
	if (pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp)) {
		fprintf(stderr, "pthread_setschedparam failed\n");
		return 1;
	}
	pthread_mutexattr_init(&ma);
	if (pi)
		pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&mtx, &ma);
	th[n++] = start(low, 10);
	th[n++] = start(high, 30);
	for (int i = 0; i < hogs; i++)
		th[n++] = start(hog, 20);
	for (int i = 0; i < n; i++)
		pthread_join(th[i], NULL);
	printf("%s mutex: %d hog(s) of %ld us, critical section %ld us: "
	       "high waited %ld us\n", pi ? "PI" : "plain", hogs, hog_us, cs_us,
	       high_wait_ns / 1000);
	printf("high's wait %s\n", high_wait_ns <= 2 * cs_us * 1000 ?
	       "bounded by the critical section" :
	       "NOT bounded by the critical section");
	return 0;
}
