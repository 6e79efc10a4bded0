/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/sched_calls.c - the scheduling calls' results and error
 * returns, for tests/test_prio.c: prints "ok NAME" or "FAIL NAME: ..."
 * per check; argument "control" expects a wrong value in each (every
 * check must then fail), exit status 10 if any check failed.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check_value.h"

static int child_policy, child_prio;

static void *child(void *arg)
{
	struct sched_param sp;

	pthread_getschedparam(pthread_self(), &child_policy, &sp);
	child_prio = sp.sched_priority;
	return NULL;
}

int main(int argc, char **argv)
{
	struct sched_param sp = { .sched_priority = 42 }, got;
	pthread_attr_t a;
	pthread_t th;
	int policy = -1;

	control = argc > 1 && !strcmp(argv[1], "control");
	check("prio-min-fifo", sched_get_priority_min(SCHED_FIFO), 1);
	check("prio-max-rr", sched_get_priority_max(SCHED_RR), 99);
	check("prio-max-other", sched_get_priority_max(SCHED_OTHER), 0);
	check("prio-max-bad-policy", sched_get_priority_max(77), -1);
	check("setschedparam", pthread_setschedparam(pthread_self(), SCHED_RR,
						      &sp), 0);
	pthread_getschedparam(pthread_self(), &policy, &got);
	check("getschedparam-policy", policy, SCHED_RR);
	check("getschedparam-prio", got.sched_priority, 42);
	check("sched_getscheduler", sched_getscheduler(0), SCHED_RR);
	sp.sched_priority = 100;
	check("setschedparam-prio-100", pthread_setschedparam(pthread_self(),
			SCHED_FIFO, &sp), EINVAL);
	sp.sched_priority = 5;
	check("setschedparam-other-prio-5", pthread_setschedparam(
			pthread_self(), SCHED_OTHER, &sp), EINVAL);
	check("setschedprio", pthread_setschedprio(pthread_self(), 7), 0);
	sched_getparam(0, &got);
	check("sched_getparam", got.sched_priority, 7);
	errno = 0;
	check("sched_setscheduler-esrch", sched_setscheduler(99999, SCHED_FIFO,
							     &sp), -1);
	check("sched_setscheduler-esrch-errno", errno, ESRCH);
	/* a child inherits SCHED_RR 7 by default */
	pthread_create(&th, NULL, child, NULL);
	pthread_join(th, NULL);
	check("inherit-policy", child_policy, SCHED_RR);
	check("inherit-prio", child_prio, 7);
	/* PTHREAD_EXPLICIT_SCHED: the attribute's */
	pthread_attr_init(&a);
	pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED);
	pthread_attr_setschedpolicy(&a, SCHED_FIFO);
	sp.sched_priority = 3;
	pthread_attr_setschedparam(&a, &sp);
	pthread_create(&th, &a, child, NULL);
	pthread_join(th, NULL);
	check("explicit-policy", child_policy, SCHED_FIFO);
	check("explicit-prio", child_prio, 3);
	check("attr-setschedpolicy-bad", pthread_attr_setschedpolicy(&a, 77),
	      EINVAL);
	/* PTHREAD_PRIO_PROTECT: raised to the ceiling while held */
	{
		pthread_mutexattr_t ma;
		pthread_mutex_t pm;
		int c = 0;

		sp.sched_priority = 4;
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
		pthread_mutexattr_init(&ma);
		pthread_mutexattr_setprotocol(&ma, PTHREAD_PRIO_PROTECT);
		check("prioceiling-100", pthread_mutexattr_setprioceiling(&ma,
								100), EINVAL);
		pthread_mutexattr_setprioceiling(&ma, 9);
		pthread_mutex_init(&pm, &ma);
		pthread_mutex_getprioceiling(&pm, &c);
		check("mutex-getprioceiling", c, 9);
		check("pp-lock", pthread_mutex_lock(&pm), 0);
		sched_getparam(0, &got);
		check("pp-raised", got.sched_priority, 9);
		pthread_getschedparam(pthread_self(), &policy, &got);
		check("pp-own-prio", got.sched_priority, 4);
		pthread_mutex_unlock(&pm);
		sched_getparam(0, &got);
		check("pp-restored", got.sched_priority, 4);
		sp.sched_priority = 12;
		pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
		check("pp-above-ceiling", pthread_mutex_lock(&pm), EINVAL);
	}
	/* back to SCHED_OTHER, then nice */
	sp.sched_priority = 0;
	check("back-to-other", sched_setscheduler(0, SCHED_OTHER, &sp), 0);
	check("nice", nice(5), 5);
	check("getpriority", getpriority(PRIO_PROCESS, 0), 5);
	check("setpriority-clamped", setpriority(PRIO_PROCESS, 0, 40), 0);
	check("getpriority-clamped", getpriority(PRIO_PROCESS, 0), 19);
	return failures ? 10 : 0;
}
