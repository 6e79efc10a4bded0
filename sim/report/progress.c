/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/progress.c - how long a run will take: sizes refused or warned
 * about before the run, and a progress line with an ETA during it.
 *
 * Stage: report, beside the flow.  Called by the CLI (sim/cli/cli.c): the
 * parent checks the resolved scenario (sim_progress_check_size()), each
 * child runs a lock between sim_progress_bar_start() and
 * sim_progress_bar_stop(); sim/report/failure.c stops the line before a
 * failure report.  Reads the machine's clocks and counters
 * (sim/machine/machine.h); calls setitimer(2) and write(2).
 *
 * Sizes: ops over SIM_OPS_HARD (10^12) and duration over a day of
 * simulated time (86400s) are refused (exit 2, sim_config_fail()).  Below
 * those, a rough estimate of the host time, from the scenario alone (ops:
 * 1 us per operation; duration: 1 s per simulated second with one busy
 * CPU, 2.5 s with more: the fast end of what a contended lock costs on a
 * 2-core host, where 1 to 10 s were measured) decides: over an hour, the
 * run is refused unless --force (sim_progress_force) is given; over 10
 * minutes, one warning line comes first.  The estimate reads no clock,
 * so whether a scenario runs is the same on every host.
 *
 * The line: a SIGALRM every host second (ITIMER_REAL, counted, not read
 * from a clock); from the third on (FUTEXSIM_PROGRESS_FIRST_S=N in the
 * environment: from the Nth, 1 to 60, for a test whose run must not
 * depend on the host's speed to be long enough), stderr shows
 *
 *	futexsim: lock ww: 42% (420000 of 1000000 ops), 12 s, about 16 s left
 *
 * (a fixed-time run: the share of its duration; a program: the count of
 * operations and the time only)
 *
 * redrawn in place (\r) on a terminal and cleared at the end; with
 * progress=yes on another stderr, the same as a line of its own at the
 * third second and every 10 s.  At the third second a run that would
 * take over 10 more minutes at the rate so far says so once, whatever
 * progress= is (a warning on stderr only: the run goes on).  Nothing of it reaches
 * stdout, the report or a trace: only stderr, which a failure report
 * shares (it clears the line first).
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "sim/machine/machine.h"
#include "sim/report/progress.h"
#include "sim/scenario/config.h"
#include "sim/scenario/scenario.h"

#define SIM_OPS_HARD		1000000000000ULL	/* 10^12 */
#define DURATION_HARD_S		86400ULL
#define SOFT_HOST_S		600	/* warn over 10 minutes */
#define HARD_HOST_S		3600	/* refuse over an hour, but --force */
#define BAR_FIRST_S		3	/* "a run longer than a few seconds" */
#define BAR_PIPE_EVERY_S	10
#define SLOW_WARN_S		SOFT_HOST_S

int sim_progress_force;

static struct {
	volatile sig_atomic_t on;	/* the timer runs		*/
	int show;			/* 1 terminal, 2 lines, 0 none	*/
	int shown;			/* a \r line is on the terminal	*/
	unsigned int secs;		/* ticks so far			*/
	unsigned int first;		/* the first tick with a line	*/
	uint64_t ops, dur_ps;		/* the run's size (0: unknown)	*/
	char lock[32];
} bar;

static void bar_write(const char *s, size_t n)
{
	while (n) {
		ssize_t w = write(STDERR_FILENO, s, n);

		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

/* "16 s", "12 min", "3.2 h", "41 days" */
static void bar_span(char *out, size_t len, double s)
{
	if (s < 120)
		snprintf(out, len, "%.0f s", s);
	else if (s < 7200)
		snprintf(out, len, "%.0f min", s / 60);
	else if (s < 2 * 86400)
		snprintf(out, len, "%.1f h", s / 3600);
	else
		snprintf(out, len, "%.0f days", s / 86400);
}

/* The share of the run done, 0 to 1; -1 if unknown. */
static double bar_done(uint64_t *done_ops)
{
	uint64_t max_ps = 0;

	*done_ops = sim.counters.progress;
	if (bar.ops)
		return *done_ops >= bar.ops ? 1 : (double)*done_ops / (double)bar.ops;
	if (!bar.dur_ps)
		return -1;
	for (int i = 0; i < sim.nr_cpus && i < SIM_MAX_CPUS; i++)
		if (sim.cpus[i].now_ps > max_ps)
			max_ps = sim.cpus[i].now_ps;
	return max_ps >= bar.dur_ps ? 1 : (double)max_ps / (double)bar.dur_ps;
}

/* " (420000 of 1000000 ops)" */
static const char *ops_part(uint64_t done)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), " (%llu of %llu ops)",
		 (unsigned long long)done, (unsigned long long)bar.ops);
	return buf;
}

static void bar_tick(int sig)
{
	char line[256], el[32], left[32];
	uint64_t ops;
	double f;
	int n;

	bar.secs++;
	if (bar.secs < bar.first)
		return;
	f = bar_done(&ops);
	bar_span(el, sizeof(el), bar.secs);
	if (f > 0)
		bar_span(left, sizeof(left), bar.secs * (1 - f) / f);
	if (bar.secs == bar.first && f > 0 &&
	    bar.secs * (1 - f) / f > SLOW_WARN_S) {
		n = snprintf(line, sizeof(line),
			     "%sfutexsim: warning: lock %s: at the rate of its first %u s, this run takes about %s more\n",
			     bar.shown ? "\r\033[K" : "", bar.lock, bar.secs, left);
		bar_write(line, (size_t)n);
		bar.shown = 0;
	}
	if (!bar.show || (bar.show == 2 && bar.secs != bar.first &&
			  bar.secs % BAR_PIPE_EVERY_S))
		return;
	if (f < 0)
		n = snprintf(line, sizeof(line), "%sfutexsim: lock %s: %llu ops, %s%s",
			     bar.show == 1 ? "\r" : "", bar.lock,
			     (unsigned long long)ops, el,
			     bar.show == 1 ? "\033[K" : "\n");
	else
		n = snprintf(line, sizeof(line),
			     "%sfutexsim: lock %s: %.0f%%%s, %s, %s%s%s",
			     bar.show == 1 ? "\r" : "", bar.lock, 100 * f,
			     bar.ops ? ops_part(ops) : "", el,
			     f > 0 ? "about " : "", f > 0 ? left : "ETA unknown",
			     bar.show == 1 ? " left\033[K" : " left\n");
	if (n > 0)
		bar_write(line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	bar.shown = bar.show == 1;
}

void sim_progress_bar_start(const struct sim_scenario *one)
{
	struct itimerval it = { { 1, 0 }, { 1, 0 } };
	struct sigaction sa;

	const char *env = getenv("FUTEXSIM_PROGRESS_FIRST_S");
	int first = env ? atoi(env) : 0;

	memset(&bar, 0, sizeof(bar));
	bar.first = first >= 1 && first <= 60 ? (unsigned int)first : BAR_FIRST_S;
	bar.show = one->progress == SIM_PROGRESS_NO ? 0 :
		   isatty(STDERR_FILENO) ? 1 :
		   one->progress == SIM_PROGRESS_YES ? 2 : 0;
	bar.ops = one->program[0] ? 0 : one->ops;
	bar.dur_ps = one->duration_ps;
	snprintf(bar.lock, sizeof(bar.lock), "%s", one->locks[0]);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = bar_tick;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	if (!setitimer(ITIMER_REAL, &it, NULL))
		bar.on = 1;
}

void sim_progress_bar_stop(void)
{
	struct itimerval it = { { 0, 0 }, { 0, 0 } };

	if (!bar.on)
		return;
	bar.on = 0;
	setitimer(ITIMER_REAL, &it, NULL);
	if (bar.shown)
		bar_write("\r\033[K", 4);
	bar.shown = 0;
}

/* ---- sizes, before the run ---------------------------------------------- */

/* A run estimated at @host_s of host time (@how): refused over an hour
 * unless --force, a warning over 10 minutes. */
static void size_estimate(const char *key, const char *value, double host_s,
		      const char *how, const struct sim_origin *at)
{
	char span[32], expected[256];

	if (host_s > HARD_HOST_S && !sim_progress_force) {
		bar_span(span, sizeof(span), host_s);
		snprintf(expected, sizeof(expected),
			 "a run of at most about 1 h of host time (at %s, this one takes at least about %s; --force runs it anyway)",
			 how, span);
		sim_config_fail(at, key, expected, value);
	}

	bar_span(span, sizeof(span), host_s);
	fprintf(stderr, "futexsim: warning: %s=%s: this run takes at least about %s of host time (%s); --progress shows its rate\n",
		key, value, span, how);
}

void sim_progress_check_size(const struct sim_scenario *s, int busy_cpus)
{
	const struct sim_origin *at = s->ops_at.file ? &s->ops_at :
				      &s->ops_per_thread_at;
	char v[32], expected[160];
	double host_s;

	if (!s->program[0] && s->ops > SIM_OPS_HARD) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)s->ops);
		snprintf(expected, sizeof(expected),
			 "at most %llu operations (at about 1 us of host time each, that many take 11 days)",
			 SIM_OPS_HARD);
		sim_config_fail(at, s->ops_at.file ? "ops" : "ops-per-thread",
				expected, v);
	}
	if (s->duration_ps / 1000000000000ULL > DURATION_HARD_S)
		sim_config_fail(&s->duration_at, "duration",
				"at most 86400s (a day) of simulated time",
				sim_format_duration_ps(s->duration_ps, v, sizeof(v)));
	if (!s->program[0] && s->ops && (double)s->ops * 1e-6 > SOFT_HOST_S) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)s->ops);
		size_estimate(s->ops_at.file ? "ops" : "ops-per-thread", v,
			  (double)s->ops * 1e-6, "1 us per operation", at);
	}
	host_s = (double)s->duration_ps * 1e-12 * (busy_cpus > 1 ? 2.5 : 1);
	if (host_s > SOFT_HOST_S) {
		snprintf(expected, sizeof(expected),
			 "%s s of host time per simulated second with %d busy CPU%s",
			 busy_cpus > 1 ? "2.5" : "1", busy_cpus,
			 busy_cpus > 1 ? "s" : "");
		size_estimate("duration",
			  sim_format_duration_ps(s->duration_ps, v, sizeof(v)),
			  host_s, expected, &s->duration_at);
	}
}
