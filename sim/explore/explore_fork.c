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
 * dies otherwise is a failed run whose detail says how it died.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/explore/explore_run.h"
#include "workloads/workload.h"

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Return: the bytes read (short at end of file), -1 on an error. */
static ssize_t read_all(int fd, void *p, size_t n)
{
	char *c = p;
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, c + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (!r)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

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
	if (write_all(fd, res, sizeof(*res)) ||
	    write_all(fd, &l->len, sizeof(l->len)) ||
	    write_all(fd, &l->preemptions, sizeof(l->preemptions)) ||
	    (l->len && write_all(fd, l->c, (size_t)l->len * sizeof(*l->c))))
		_exit(SIM_EXIT_HOST);
	_exit(0);
}

/* The child is gone without a whole answer: say how it ended. */
static void died(int status, struct sim_xres *res)
{
	if (WIFEXITED(status) && (WEXITSTATUS(status) == SIM_EXIT_INPUT ||
				  WEXITSTATUS(status) == SIM_EXIT_HOST))
		exit(WEXITSTATUS(status));	/* its message is out */
	memset(res, 0, sizeof(*res));
	res->failed = 1;
	res->kind = SIM_FAIL_INVARIANT;
	if (WIFSIGNALED(status))
		snprintf(res->what, sizeof(res->what),
			 "the run's process died of signal %d (%s)",
			 WTERMSIG(status), strsignal(WTERMSIG(status)));
	else
		snprintf(res->what, sizeof(res->what),
			 "the run's process exited with status %d",
			 WEXITSTATUS(status));
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
	if (pipe(fd) || (pid = fork()) < 0) {
		perror("futexsim: explore: a run's process");
		exit(SIM_EXIT_HOST);
	}
	if (!pid) {
		close(fd[0]);
		child(fd[1], body, x, seed, forced, nr_forced, record, res);
	}
	close(fd[1]);
	whole = read_all(fd[0], res, sizeof(*res)) == (ssize_t)sizeof(*res) &&
		read_all(fd[0], &len, sizeof(len)) == (ssize_t)sizeof(len) &&
		read_all(fd[0], &pre, sizeof(pre)) == (ssize_t)sizeof(pre) &&
		len >= 0;
	if (whole && len) {
		c = sim__explore_alloc((size_t)len * sizeof(*c));
		whole = read_all(fd[0], c, (size_t)len * sizeof(*c)) ==
			(ssize_t)((size_t)len * sizeof(*c));
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
		died(status, res);
	free(c);
}
