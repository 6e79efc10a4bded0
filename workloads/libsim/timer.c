/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/timer.c - the program's timers on the virtual clock:
 * alarm(), setitimer()/getitimer() of ITIMER_REAL, and the POSIX timers
 * (timer_create(), timer_settime(), timer_gettime(), timer_getoverrun(),
 * timer_delete()) that notify by a signal or not at all.
 *
 * Stage: user program -> machine.  Called by the program through
 * workloads/libsim/futexsim.h.  Each timer is a machine event
 * (sim_timer_start_ns(), no slack): at its expiry it sends its signal to
 * the process (wl_prog_signal_from_timer(), signal.c) and, periodic,
 * arms itself again one interval on, so a run is a function of its seed.
 *
 * Timer 0 is alarm()'s and ITIMER_REAL's, as in Linux they are one
 * timer.  REALTIME and MONOTONIC are one clock here (0 at the run's
 * start).  SIGEV_THREAD (a new thread per expiry) and the CPU-time
 * clocks end the run naming the call; ITIMER_VIRTUAL and ITIMER_PROF
 * too.  Overruns are not counted (timer_getoverrun() is 0).
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "sim/machine/hooks.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"

#define NS	1000000000ULL

static void timer_fire(struct sim_event *ev)
{
	struct wl_prog_timer *t = (struct wl_prog_timer *)ev;

	if (t->interval_ns) {
		t->when_ns += t->interval_ns;
		sim_timer_start_ns(&t->ev, t->when_ns, 0);
	}
	if (t->signo)
		wl_prog_signal_from_timer(t->signo);
}

void wl_prog_timer_start(void)
{
	for (int i = 0; i < WL_PROG_MAX_TIMERS; i++) {
		wl_prog.timers[i].ev.heap_idx = -1;
		wl_prog.timers[i].ev.fire = timer_fire;
	}
	wl_prog.timers[0].used = 1;
	wl_prog.timers[0].signo = SIGALRM;
}

static int armed(const struct wl_prog_timer *t)
{
	return t->ev.heap_idx >= 0;
}

/* The time left of @t, 0 if disarmed. */
static uint64_t left_ns(const struct wl_prog_timer *t)
{
	uint64_t now = sim_now_ns();

	return armed(t) && t->when_ns > now ? t->when_ns - now : 0;
}

/* Arm @t to expire at @when_ns (absolute), then every @interval_ns;
 * @when_ns 0 disarms it. */
static void arm(struct wl_prog_timer *t, uint64_t when_ns, uint64_t interval_ns)
{
	if (armed(t))
		sim_timer_cancel(&t->ev);
	t->interval_ns = when_ns ? interval_ns : 0;
	t->when_ns = when_ns;
	if (when_ns)
		sim_timer_start_ns(&t->ev, when_ns, 0);
}

static uint64_t ts_ns(const struct timespec *ts)
{
	return (uint64_t)ts->tv_sec * NS + (uint64_t)ts->tv_nsec;
}

static struct timespec ns_ts(uint64_t ns)
{
	return (struct timespec){ .tv_sec = (time_t)(ns / NS),
				  .tv_nsec = (long)(ns % NS) };
}

static void self_or_fail(const char *call)
{
	if (!wl_prog_self())
		wl_prog_fail(call);
}

unsigned int futexsim_alarm(unsigned int sec)
{
	struct wl_prog_timer *t = &wl_prog.timers[0];
	uint64_t left = left_ns(t);

	self_or_fail("alarm() outside a simulated program");
	arm(t, sec ? sim_now_ns() + sec * NS : 0, 0);
	/* the seconds left, rounded to the nearest, at least 1 if armed */
	if (!left)
		return 0;
	left = (left + NS / 2) / NS;
	return (unsigned int)(left ? left : 1);
}

int futexsim_getitimer(int which, struct itimerval *cur)
{
	const struct wl_prog_timer *t = &wl_prog.timers[0];
	uint64_t left = left_ns(t);

	self_or_fail("getitimer() outside a simulated program");
	if (which != ITIMER_REAL)
		wl_prog_fail("getitimer(): only ITIMER_REAL is simulated");
	cur->it_value.tv_sec = (time_t)(left / NS);
	cur->it_value.tv_usec = (suseconds_t)(left % NS / 1000);
	cur->it_interval.tv_sec = (time_t)(t->interval_ns / NS);
	cur->it_interval.tv_usec = (suseconds_t)(t->interval_ns % NS / 1000);
	return 0;
}

int futexsim_setitimer(int which, const struct itimerval *new,
		       struct itimerval *old)
{
	uint64_t v, iv;

	self_or_fail("setitimer() outside a simulated program");
	if (which != ITIMER_REAL)
		wl_prog_fail("setitimer(): only ITIMER_REAL is simulated");
	if (new->it_value.tv_usec < 0 || new->it_value.tv_usec >= 1000000 ||
	    new->it_interval.tv_usec < 0 || new->it_interval.tv_usec >= 1000000) {
		errno = EINVAL;
		return -1;
	}
	if (old)
		futexsim_getitimer(which, old);
	v = (uint64_t)new->it_value.tv_sec * NS +
	    (uint64_t)new->it_value.tv_usec * 1000;
	iv = (uint64_t)new->it_interval.tv_sec * NS +
	     (uint64_t)new->it_interval.tv_usec * 1000;
	arm(&wl_prog.timers[0], v ? sim_now_ns() + v : 0, iv);
	return 0;
}

/* The timer of @id, NULL (errno EINVAL) if there is none. */
static struct wl_prog_timer *timer_of(timer_t id)
{
	long i = (long)(intptr_t)id;

	if (i < 1 || i >= WL_PROG_MAX_TIMERS || !wl_prog.timers[i].used) {
		errno = EINVAL;
		return NULL;
	}
	return &wl_prog.timers[i];
}

int futexsim_timer_create(clockid_t clk, struct sigevent *sev, timer_t *id)
{
	int i, signo = SIGALRM;

	self_or_fail("timer_create() outside a simulated program");
	if (clk != CLOCK_REALTIME && clk != CLOCK_MONOTONIC &&
	    clk != CLOCK_BOOTTIME)
		wl_prog_fail("timer_create(): only the REALTIME, MONOTONIC and BOOTTIME clocks are simulated");
	if (sev && sev->sigev_notify != SIGEV_SIGNAL &&
	    sev->sigev_notify != SIGEV_NONE)
		wl_prog_fail("timer_create(): only SIGEV_SIGNAL and SIGEV_NONE are simulated");
	if (sev && sev->sigev_notify == SIGEV_SIGNAL &&
	    (sev->sigev_signo < 1 || sev->sigev_signo > 64)) {
		errno = EINVAL;
		return -1;
	}
	if (sev)
		signo = sev->sigev_notify == SIGEV_NONE ? 0 : sev->sigev_signo;
	for (i = 1; i < WL_PROG_MAX_TIMERS && wl_prog.timers[i].used; i++)
		;
	if (i == WL_PROG_MAX_TIMERS) {
		errno = EAGAIN;
		return -1;
	}
	wl_prog.timers[i].used = 1;
	wl_prog.timers[i].signo = signo;
	*id = (timer_t)(intptr_t)i;
	return 0;
}

int futexsim_timer_gettime(timer_t id, struct itimerspec *cur)
{
	const struct wl_prog_timer *t = timer_of(id);

	if (!t)
		return -1;
	cur->it_value = ns_ts(left_ns(t));
	cur->it_interval = ns_ts(t->interval_ns);
	return 0;
}

int futexsim_timer_settime(timer_t id, int flags, const struct itimerspec *new,
			   struct itimerspec *old)
{
	struct wl_prog_timer *t = timer_of(id);
	uint64_t v, now = sim_now_ns();

	if (!t)
		return -1;
	if (new->it_value.tv_nsec < 0 || new->it_value.tv_nsec >= (long)NS ||
	    new->it_interval.tv_nsec < 0 || new->it_interval.tv_nsec >= (long)NS ||
	    new->it_value.tv_sec < 0) {
		errno = EINVAL;
		return -1;
	}
	if (old)
		futexsim_timer_gettime(id, old);
	v = ts_ns(&new->it_value);
	if (v && !(flags & TIMER_ABSTIME))
		v += now;
	else if (v && v <= now)
		v = now;	/* an absolute time past: it expires now */
	arm(t, v, ts_ns(&new->it_interval));
	return 0;
}

int futexsim_timer_getoverrun(timer_t id)
{
	return timer_of(id) ? 0 : -1;
}

int futexsim_timer_delete(timer_t id)
{
	struct wl_prog_timer *t = timer_of(id);

	if (!t)
		return -1;
	arm(t, 0, 0);
	t->used = 0;
	return 0;
}
