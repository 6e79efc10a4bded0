/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/pi_chain.c - a priority-inheritance chain across two PI
 * mutexes, for tests/test_prio.c.  On one CPU, all SCHED_FIFO:
 *   thread1 "C" (prio 10) takes mc and computes;
 *   thread2 "B" (prio 20) takes mb, then blocks on mc: C is boosted to 20;
 *   thread3 "A" (prio 30) blocks on mb: the kernel's chain walk boosts B
 *                         to 30 and, B being blocked on mc, C to 30 too.
 * Mode "nochain": A does not lock mb (the negative control: C never gets
 * above 20).  Mode "plain": mutexes without PTHREAD_PRIO_INHERIT (no
 * boost at all).  Prints the order the threads finished in.
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static pthread_mutex_t mb, mc;
static int nochain;
static char order[8];
static int nr_done;

static long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static void compute(long us)
{
	long end = cpu_ns() + us * 1000;

	while (cpu_ns() < end)
		__builtin_ia32_pause();
}

static void sleep_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

static void done(char who)
{
	order[nr_done++] = who;
}

static void *c_fn(void *arg)
{
	pthread_mutex_lock(&mc);
	compute(300);
	pthread_mutex_unlock(&mc);
	done('C');
	return NULL;
}

static void *b_fn(void *arg)
{
	sleep_us(20);
	pthread_mutex_lock(&mb);
	pthread_mutex_lock(&mc);
	compute(10);
	pthread_mutex_unlock(&mc);
	pthread_mutex_unlock(&mb);
	done('B');
	return NULL;
}

static void *a_fn(void *arg)
{
	sleep_us(40);
	if (!nochain) {
		pthread_mutex_lock(&mb);
		pthread_mutex_unlock(&mb);
	}
	done('A');
	return NULL;
}

static pthread_t start(void *(*fn)(void *), int prio)
{
	pthread_attr_t a;
	struct sched_param sp = { .sched_priority = prio };
	pthread_t th;

	pthread_attr_init(&a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, SCHED_FIFO);
	pthread_attr_setschedparam(&a, &sp);
	pthread_create(&th, &a, fn, NULL);
	return th;
}

int main(int argc, char **argv)
{
	int plain = argc > 1 && !strcmp(argv[1], "plain");
	struct sched_param sp = { .sched_priority = 50 };
	pthread_mutexattr_t ma;
	pthread_t th[3];

	nochain = argc > 1 && !strcmp(argv[1], "nochain");
	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	pthread_mutexattr_init(&ma);
	if (!plain)
		pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_INHERIT);
	pthread_mutex_init(&mb, &ma);
	pthread_mutex_init(&mc, &ma);
	th[0] = start(c_fn, 10);
	th[1] = start(b_fn, 20);
	th[2] = start(a_fn, 30);
	for (int i = 0; i < 3; i++)
		pthread_join(th[i], NULL);
	printf("finished: %s\n", order);
	return 0;
}
