/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/signals.c - signals in the simulated process, for
 * tests/test_nptl.c: handlers run where the kernel delivers (on raise()'s
 * return, on the return from an interrupted FUTEX_WAIT), the futex call
 * interrupted returns EINTR or is restarted under SA_RESTART, masks hold
 * a signal pending until it is unblocked, sigwait() takes a signal kill()
 * sent to the process, pause() and nanosleep() end with EINTR, SIG_IGN
 * drops, and a condition wait is not ended by a handled signal; timers
 * (alarm(), a periodic setitimer(), timer_create() with a signal that
 * sigwait() takes from the timer) on the virtual clock.
 *
 * Prints "ok NAME" or "FAIL NAME: ..." per check (check_value.h); the
 * argument "control" makes every check expect a wrong value.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "check_value.h"

static volatile int handled, handled_usr2;
static pthread_t handled_by;
static uint32_t word;
static long wait_ret, wait_errno;
static int got_sig;
static pthread_mutex_t mtx = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int cond_go, cond_woke;

static void on_usr1(int sig)
{
	handled++;
	handled_by = pthread_self();
}

static void on_usr2(int sig)
{
	handled_usr2++;
}

static volatile int alarms;

static void on_alrm(int sig)
{
	alarms++;
}

static void on_signal(int sig, void (*fn)(int), int flags)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigemptyset(&sa.sa_mask);
	sigaction(sig, &sa, NULL);
}

static void sleep_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

/* A raw FUTEX_WAIT on word (0): its return and errno. */
static void *futex_waiter(void *arg)
{
	wait_ret = syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	wait_errno = wait_ret < 0 ? errno : 0;
	return NULL;
}

static void *blocks_usr2(void *arg)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	sleep_us(50);			/* main sends SIGUSR2 meanwhile */
	sigpending(&s);
	got_sig = sigismember(&s, SIGUSR2);
	handled_usr2 = 0;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR2);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	wait_ret = handled_usr2;	/* delivered before the call returned */
	return NULL;
}

static void *sigwaits(void *arg)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	got_sig = 0;
	sigwait(&s, &got_sig);
	return NULL;
}

static void *pauses(void *arg)
{
	wait_ret = pause();
	wait_errno = errno;
	return NULL;
}

static void *naps(void *arg)
{
	struct timespec ts = { 1, 0 };

	wait_ret = nanosleep(&ts, NULL);
	wait_errno = wait_ret < 0 ? errno : 0;
	return NULL;
}

static void *cond_waits(void *arg)
{
	pthread_mutex_lock(&mtx);
	while (!cond_go)
		pthread_cond_wait(&cond, &mtx);
	cond_woke = 1;
	pthread_mutex_unlock(&mtx);
	return NULL;
}

static pthread_t start(void *(*fn)(void *))
{
	pthread_t t;

	pthread_create(&t, NULL, fn, NULL);
	sleep_us(20);			/* it runs into its wait */
	return t;
}

int main(int argc, char **argv)
{
	sigset_t s;
	pthread_t t;

	control = argc > 1 && !strcmp(argv[1], "control");

	on_signal(SIGUSR1, on_usr1, 0);
	on_signal(SIGUSR2, on_usr2, 0);
	check("raise-returns-0", raise(SIGUSR1), 0);
	check("raise-handled-before-return", handled, 1);

	/* FUTEX_WAIT interrupted: no SA_RESTART, EINTR */
	handled = 0;
	t = start(futex_waiter);
	pthread_kill(t, SIGUSR1);
	pthread_join(t, NULL);
	check("futex-wait-eintr", wait_ret == -1 && wait_errno == EINTR, 1);
	check("futex-wait-handler-in-the-waiter", pthread_equal(handled_by, t), 1);

	/* SA_RESTART: the wait is restarted, it ends at the wake */
	on_signal(SIGUSR1, on_usr1, SA_RESTART);
	handled = 0;
	wait_ret = 99;			/* the waiter has not returned */
	t = start(futex_waiter);
	pthread_kill(t, SIGUSR1);
	sleep_us(20);
	check("sa-restart-still-waiting", wait_ret, 99);
	check("sa-restart-handler-ran", handled, 1);
	word = 0;
	syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	pthread_join(t, NULL);
	check("sa-restart-woken-returns-0", wait_ret, 0);

	/* blocked: pending until unblocked, delivered by pthread_sigmask */
	got_sig = -1;
	t = start(blocks_usr2);
	pthread_kill(t, SIGUSR2);
	pthread_join(t, NULL);
	check("blocked-is-pending", got_sig, 1);
	check("unblock-delivers-before-return", wait_ret, 1);

	/* sigwait() takes what kill() sent to the process */
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, NULL);	/* main does not take it */
	handled = 0;
	t = start(sigwaits);
	kill(getpid(), SIGUSR1);
	pthread_join(t, NULL);
	check("sigwait-takes-kill", got_sig, SIGUSR1);
	check("sigwait-no-handler", handled, 0);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);

	/* pause() and nanosleep() end with EINTR */
	handled = 0;
	t = start(pauses);
	pthread_kill(t, SIGUSR1);
	pthread_join(t, NULL);
	check("pause-eintr", wait_ret == -1 && wait_errno == EINTR, 1);
	check("pause-handler-ran", handled, 1);
	t = start(naps);
	pthread_kill(t, SIGUSR1);
	pthread_join(t, NULL);
	check("nanosleep-eintr", wait_ret == -1 && wait_errno == EINTR, 1);

	/* SIG_IGN drops it */
	signal(SIGUSR2, SIG_IGN);
	handled_usr2 = 0;
	check("ignored-raise-returns-0", raise(SIGUSR2), 0);
	check("ignored-not-handled", handled_usr2, 0);

	/* a handled signal does not end a condition wait */
	handled = 0;
	t = start(cond_waits);
	pthread_kill(t, SIGUSR1);
	sleep_us(20);
	check("cond-wait-goes-on", cond_woke, 0);
	pthread_mutex_lock(&mtx);
	cond_go = 1;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&mtx);
	pthread_join(t, NULL);
	check("cond-wait-handler-ran", handled, 1);
	check("cond-wait-ends-at-signal", cond_woke, 1);

	/* timers on the virtual clock */
	check("alarm-first-returns-0", alarm(5), 0);
	check("alarm-cancel-returns-left", alarm(0), 5);
	{
		struct itimerval it = { { 0, 100 }, { 0, 100 } }, off = { 0 }, now;
		struct sigevent sev;
		struct itimerspec ts = { { 0, 0 }, { 0, 50000 } }, cur;
		timer_t tm;

		on_signal(SIGALRM, on_alrm, 0);
		setitimer(ITIMER_REAL, &it, NULL);
		while (alarms < 3)
			pause();
		setitimer(ITIMER_REAL, &off, NULL);
		getitimer(ITIMER_REAL, &now);
		check("setitimer-periodic-3", alarms >= 3, 1);
		check("setitimer-disarmed", now.it_value.tv_usec, 0);

		memset(&sev, 0, sizeof(sev));
		sev.sigev_notify = SIGEV_SIGNAL;
		sev.sigev_signo = SIGUSR1;
		sigemptyset(&s);
		sigaddset(&s, SIGUSR1);
		pthread_sigmask(SIG_BLOCK, &s, NULL);
		check("timer-create", timer_create(CLOCK_MONOTONIC, &sev, &tm), 0);
		check("timer-settime", timer_settime(tm, 0, &ts, NULL), 0);
		timer_gettime(tm, &cur);
		check("timer-gettime-armed", cur.it_value.tv_nsec > 0, 1);
		got_sig = 0;
		sigwait(&s, &got_sig);
		check("timer-sigwait-takes-its-signal", got_sig, SIGUSR1);
		pthread_sigmask(SIG_UNBLOCK, &s, NULL);
		check("timer-delete", timer_delete(tm), 0);
		check("timer-delete-again-einval",
		      timer_delete(tm) == -1 && errno == EINVAL, 1);
	}

	check("kill-bad-signal", kill(getpid(), 99) == -1 && errno == EINVAL, 1);
	check("pthread-kill-0", pthread_kill(pthread_self(), 0), 0);
	return failures ? 1 : 0;
}
