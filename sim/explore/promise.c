// SPDX-License-Identifier: GPL-2.0
/*
 * sim/explore/promise.c - the certification of an arm64 promise (see
 * sim/explore/promise.h and sim/machine/memmodel.h).
 *
 * Stage: explore.  Two ways, the same window:
 *
 * Made again (an explore run in this process, sim_xrun()): the run is a
 * pure function of its seed and forced choices, so it can be made again
 * up to this point.  The first time a run reaches its k-th certification,
 * the CPU runs alone here and now; at its window's end (or a failure of
 * its own) the window is kept as the k-th of the run, and the run is
 * abandoned (sim_run_abort()); sim_xrun() makes it again from the start,
 * and this time the k-th certification takes the kept window and the run
 * goes on.  A run with n certifications is made n + 1 times, each time
 * a little further: cheap for an explore run of a few thousand hooks,
 * where a fork() costs milliseconds of page faults.  Past PROMISE_REDO_HOOKS
 * hooks, or PROMISE_MEMO certifications, a run forks instead.  The point
 * must be the same each time (its CPU, clock and hook count): if not,
 * a determinism bug, exit 1.
 *
 * Forked (everything else: a replay, a recording, a process per run,
 * FUTEXSIM_PROMISE_FORK=1): the child is a copy of the run at the promise
 * point; it must leave no trace: its stdout and stderr go nowhere, the
 * replay file it would record to or read from is closed to it
 * (sim_replay_active), its trace is off, any failure of its own ends it
 * with status 1, and SIGALRM ends a task that loops without a scheduling
 * point (a window the parent then does without: such a task is stuck in
 * the run too).  It writes one struct sim_sb_window into the pipe, which
 * is smaller than PIPE_BUF.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/explore/explore.h"
#include "sim/explore/promise.h"
#include "sim/host/fdio.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/replay/replay.h"
#include "sim/report/failure.h"
#include "sim/trace/trace.h"

#define CERTIFY_ALARM_S	10	/* host seconds: a loop with no hook	*/
#define PROMISE_MEMO		64	/* windows kept for one run	*/
#define PROMISE_REDO_HOOKS	20000	/* a longer prefix forks instead	*/

/* The windows of the run being made (again), in the order asked. */
static struct {
	int on;				/* sim_promise_redo_begin()	*/
	int n;				/* kept				*/
	int used;			/* taken by this making of it	*/
	int pending;			/* it stopped to certify	*/
	unsigned int trace_mask;	/* put back after the window	*/
	struct {
		int cpu, ok;
		uint64_t at_ps, hooks;	/* where: the same every time	*/
		struct sim_sb_window w;
	} e[PROMISE_MEMO];
} memo;

static int cert_fd = -1;	/* the child's end of the pipe		*/

static void __attribute__((noreturn)) window_end(const struct sim_sb_window *w)
{
	int bad = sim_write_full(cert_fd, w, sizeof(*w));

	_exit(bad ? 1 : 0);
}

static void __attribute__((noreturn)) child_failed(enum sim_failure kind,
						   const char *what)
{
	_exit(1);
}

_Static_assert(sizeof(struct sim_sb_window) <= PIPE_BUF,
	       "a window is one write");

/* The window ends, or the CPU failed alone (@ok 0): keep it, abandon
 * the run (sim_xrun() makes it again). */
static void __attribute__((noreturn)) redo_kept(const struct sim_sb_window *w)
{
	memo.e[memo.n].ok = w != NULL;
	if (w)
		memo.e[memo.n].w = *w;
	memo.n++;
	sim_trace_mask = memo.trace_mask;
	sim_fail_hook = NULL;
	sim_explore_solo(-1, 0);	/* an abort now is no window's end */
	sim_run_abort();
	__builtin_unreachable();
}

static void __attribute__((noreturn)) redo_failed(enum sim_failure kind,
						  const char *what)
{
	redo_kept(NULL);
}

void sim_promise_redo_begin(int on)
{
	memo.on = on;
	memo.n = 0;
}

void sim_promise_redo_attempt(void)
{
	memo.used = 0;
	memo.pending = 0;
}

int sim_promise_redo_pending(void)
{
	return memo.pending;
}

void sim_promise_redo_end(void)
{
	memo.on = 0;
}

/* The run made again: its next certification, kept.  Return as
 * sim_promise_certify(). */
static int redo_take(const struct sim_cpu *c, struct sim_sb_window *w)
{
	const typeof(memo.e[0]) *e = &memo.e[memo.used++];

	if (e->cpu != c->k.cpu || e->at_ps != c->now_ps ||
	    e->hooks != sim.counters.hooks) {
		fprintf(stderr, "futexsim: explore: a run made again did not come back to its promise point (CPU %d at %llu ps after %llu hooks, then CPU %d at %llu ps after %llu): a determinism bug\n",
			e->cpu, (unsigned long long)e->at_ps,
			(unsigned long long)e->hooks, c->k.cpu,
			(unsigned long long)c->now_ps,
			(unsigned long long)sim.counters.hooks);
		exit(SIM_EXIT_HOST);
	}
	if (e->ok)
		*w = e->w;
	return e->ok;
}

/* Certify here, alone, in this run: it is abandoned at the window's end. */
static void redo_certify(struct sim_cpu *c)
{
	memo.e[memo.n].cpu = c->k.cpu;
	memo.e[memo.n].at_ps = c->now_ps;
	memo.e[memo.n].hooks = sim.counters.hooks;
	memo.pending = 1;
	memo.trace_mask = sim_trace_mask;
	sim_trace_mask = 0;
	sim_fail_hook = redo_failed;
	sim_explore_solo(c->k.cpu, SIM_PROMISE_STEPS);
	sim_sb_certify(c, redo_kept);
}

int sim_promise_certify(struct sim_cpu *c, struct sim_sb_window *w)
{
	int fd[2], status, null;
	pid_t pid;
	size_t got;

	if (memo.on && memo.used < memo.n)
		return redo_take(c, w);
	if (memo.on && memo.n < PROMISE_MEMO &&
	    sim.counters.hooks < PROMISE_REDO_HOOKS) {
		redo_certify(c);
		return -1;
	}
	if (pipe(fd))
		return 0;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return 0;
	}
	if (pid == 0) {
		close(fd[0]);
		cert_fd = fd[1];
		null = open("/dev/null", O_WRONLY);
		if (null >= 0) {
			dup2(null, STDOUT_FILENO);
			dup2(null, STDERR_FILENO);
			close(null);
		}
		sim_replay_active = 0;
		sim_trace_mask = 0;
		sim_fail_hook = child_failed;
		signal(SIGALRM, SIG_DFL);
		alarm(CERTIFY_ALARM_S);
		sim_explore_solo(c->k.cpu, SIM_PROMISE_STEPS);
		sim_sb_certify(c, window_end);
		return -1;
	}
	close(fd[1]);
	got = sim_read_full(fd[0], w, sizeof(*w));
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 0;
	if (got != sizeof(*w) || !WIFEXITED(status) || WEXITSTATUS(status) ||
	    w->n < 0 || w->n > SIM_SB_WINDOW)
		return 0;
	return 1;
}
