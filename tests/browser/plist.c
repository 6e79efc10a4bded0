/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/browser/plist.c - three waiters on one futex whose arrival order
 * is not their priority order, for mk/check-browser.sh: the page must
 * show the bucket's waiters as the kernel's plist keeps them (by
 * priority), which is the order FUTEX_WAKE then wakes them in, not the
 * order they came in.
 *
 * On one CPU, all SCHED_FIFO: main (prio 50) starts the waiters one at a
 * time, prio 10, then 30, then 20, sleeping 50 us after each so that it
 * is queued before the next starts; then it wakes them all.
 */
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint32_t gate;

static void *waiter(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&gate, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, &gate, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	return NULL;
}

static void pause_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

int main(void)
{
	static const int prio[3] = { 10, 30, 20 };
	struct sched_param sp = { .sched_priority = 50 };
	pthread_t t[3];
	pthread_attr_t a;
	int i;

	pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	for (i = 0; i < 3; i++) {
		pthread_attr_init(&a);
		pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
		pthread_attr_setschedpolicy(&a, SCHED_FIFO);
		sp.sched_priority = prio[i];
		pthread_attr_setschedparam(&a, &sp);
		pthread_create(&t[i], &a, waiter, NULL);
		pthread_attr_destroy(&a);
		pause_us(50);
	}
	__atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &gate, FUTEX_WAKE_PRIVATE, INT_MAX, NULL, NULL, 0);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	printf("woken\n");
	return 0;
}
