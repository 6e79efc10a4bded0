/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/explore_fork.c - a run in a fresh world: one child process
 * per run of a user program (see sim/explore/explore_run.h).
 *
 * Stage: the driver of the whole flow.  Called by sim_xrun()
 * (sim/explore/explore_run.c) for workload program; calls fork(), the
 * run itself in the child (the @body given) and sim_explore_log_set() in
 * the parent.
 *
 * Why a process per run: a built-in workload sets up everything it uses
 * when it starts, but a user's program does not expect to run twice in
 * one process.  Its globals (.data, .bss), its heap and TLS in the arena,
 * the static state of the kernel files and of libsim would carry one
 * run's leftovers into the next, so that run N would depend on runs 0 to
 * N-1.  The parent never runs the program: it forks, and the child runs
 * on a copy of the parent's memory, which is the world as it was before
 * the first run (copy-on-write makes the copy cheap), and sends back what
 * the search needs (struct sim_xres and the choices made) through a pipe.
 * Every run, the failing one and its re-run for the replay file included,
 * starts from the same bytes.
 *
 * The child's stdout goes to /dev/null and the program's stdout and
 * stderr lines are dropped (wl_program_mute()): a search prints its own
 * lines only; the replay of a hit shows the program's
 * output.  A child that exits with bad input or a host error (its message
 * already on stderr) ends the search with the same status; a child that
 * dies otherwise is a failed run whose detail says how it died (a crash,
 * if a signal killed it), a hit if its oracle is selected.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/cache/cache.h"
#include "sim/explore/explore_run.h"
#include "sim/host/fdio.h"
#include "workloads/workload.h"

static void __attribute__((noreturn)) child(int fd, sim_xrun_body_fn body,
					    struct sim_xctx *x, uint64_t seed,
					    const struct sim_choice *forced,
					    int nr_forced, const char *record,
					    struct sim_xres *res)
{
	const struct sim_explore_log *l = sim_explore_log();
	int null = open("/dev/null", O_WRONLY);

	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		close(null);
	}
	wl_program_mute(1);
	body(x, seed, forced, nr_forced, record, res);
	fflush(stdout);
	if (sim_write_full(fd, res, sizeof(*res)) ||
	    sim_write_full(fd, &l->len, sizeof(l->len)) ||
	    sim_write_full(fd, &l->preemptions, sizeof(l->preemptions)) ||
	    (l->len && sim_write_full(fd, l->c, (size_t)l->len * sizeof(*l->c))))
		_exit(SIM_EXIT_HOST);
	_exit(0);
}

/* The child is gone without a whole answer: say how it ended, a crash
 * if a signal ended it (one the simulated task's handler did not turn
 * into a report), classified for @x's oracles like any failed run. */
static void died(const struct sim_xctx *x, int status, struct sim_xres *res)
{
	if (WIFEXITED(status) && (WEXITSTATUS(status) == SIM_EXIT_INPUT ||
				  WEXITSTATUS(status) == SIM_EXIT_HOST))
		exit(WEXITSTATUS(status));	/* its message is out */
	memset(res, 0, sizeof(*res));
	res->failed = 1;
	res->kind = WIFSIGNALED(status) ? SIM_FAIL_CRASH : SIM_FAIL_INVARIANT;
	if (WIFSIGNALED(status))
		snprintf(res->what, sizeof(res->what),
			 "the run's process died of signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(res->what, sizeof(res->what),
			 "the run's process exited with status %d",
			 WEXITSTATUS(status));
	res->oracle = sim_oracle_classify(res->kind, res->what, &res->bit);
	res->hit = !!(res->bit & x->oracles.mask);
	sim_explore_log_set(NULL, 0, 0);
}

void sim__xrun_forked(sim_xrun_body_fn body, struct sim_xctx *x,
		      uint64_t seed, const struct sim_choice *forced,
		      int nr_forced, const char *record, struct sim_xres *res)
{
	struct sim_choice *c = NULL;
	int fd[2], len = 0, pre = 0, status, whole;
	pid_t pid;

	fflush(NULL);
	sim_cache_prepare();	/* once, for every child to share */
	if (pipe(fd) || (pid = fork()) < 0) {
		perror("futexsim: explore: a run's process");
		exit(SIM_EXIT_HOST);
	}
	if (!pid) {
		close(fd[0]);
		child(fd[1], body, x, seed, forced, nr_forced, record, res);
	}
	close(fd[1]);
	whole = sim_read_full(fd[0], res, sizeof(*res)) == sizeof(*res) &&
		sim_read_full(fd[0], &len, sizeof(len)) == sizeof(len) &&
		sim_read_full(fd[0], &pre, sizeof(pre)) == sizeof(pre) &&
		len >= 0;
	if (whole && len) {
		c = sim__explore_alloc((size_t)len * sizeof(*c));
		whole = sim_read_full(fd[0], c, (size_t)len * sizeof(*c)) ==
			(size_t)len * sizeof(*c);
	}
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("futexsim: explore: waiting for a run");
			exit(SIM_EXIT_HOST);
		}
	if (whole && WIFEXITED(status) && !WEXITSTATUS(status))
		sim_explore_log_set(c, len, pre);
	else
		died(x, status, res);
	free(c);
}
