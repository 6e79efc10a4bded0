// SPDX-License-Identifier: GPL-2.0
/*
 * sim/explore/promise.c - the certification of an arm64 promise (see
 * sim/explore/promise.h and sim/machine/memmodel.h).
 *
 * Stage: explore.  The child is a copy of the run at the promise point;
 * it must leave no trace: its stdout and stderr go nowhere, the replay
 * file it would record to or read from is closed to it
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

int sim_promise_certify(struct sim_cpu *c, struct sim_sb_window *w)
{
	int fd[2], status, null;
	pid_t pid;
	size_t got;

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
