/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/explore_fork.c - a run in a fresh world: a user program's
 * run that starts from the bytes the first run did (see
 * sim/explore/explore_run.h).
 *
 * Stage: the driver of the whole flow.  Called by sim_xrun()
 * (sim/explore/explore_run.c) for workload program; calls the run itself
 * (the @body given), and, for a process per run, fork() and
 * sim_explore_log_set() in the parent.
 *
 * Why: a built-in workload sets up everything it uses when it starts,
 * but a user's program does not expect to run twice in one process.  Its
 * heap and TLS in the arena, the static state of the kernel files and of
 * libsim are reset by the simulator at each run; its own globals
 * (.data, .bss) are not, and would carry one run's leftovers into the
 * next, so that run N would depend on runs 0 to N-1.
 *
 * In this process (the usual way): the program's data lies between the
 * start of .data and .bss and the markers of sim/program/world_end.c;
 * it is copied before the first run and put back after each.  The run's
 * stdout goes to /dev/null and the program's stdout and stderr lines are
 * dropped (wl_program_mute()): a search prints its own lines only; the
 * replay of a hit shows the program's output.
 *
 * A process per run (a binary without the markers, or
 * FUTEXSIM_EXPLORE_FORK=1): the parent never runs the program; it forks,
 * and the child runs on a copy of the parent's memory, which is the
 * world as it was before the first run, and sends back what the search
 * needs (struct sim_xres and the choices made) through a pipe.  A child
 * that exits with bad input or a host error (its message already on
 * stderr) ends the search with the same status; a child that dies
 * otherwise is a failed run whose detail says how it died (a crash, if a
 * signal killed it), a hit if its oracle is selected.
 *
 * Either way every run, the failing one and its re-run for the replay
 * file included, starts from the same bytes, and the search is the same
 * (tests/test_explore_program.c compares the two).
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

/*
 * The program's own writable data (sim/program/world_end.c): the bytes
 * of [__data_start, futexsim_world_data_end) and [__bss_start,
 * futexsim_world_bss_end) before the first run, put back after each.  Everything else a run changes, the simulator resets itself
 * as for a built-in workload: the machine, the arena (the program's heap
 * and TLS), the kernel's hash table, libsim's state (wl_prog_start()).
 */
extern char __data_start[] __attribute__((weak));
extern char __bss_start[] __attribute__((weak));
extern char futexsim_world_data_end[] __attribute__((weak));
extern char futexsim_world_bss_end[] __attribute__((weak));

static struct {
	int state;			/* 0: not looked at, 1: kept, -1: none */
	char *data, *bss;		/* the copies			*/
	size_t data_len, bss_len;
	int null_fd;			/* /dev/null, the runs' stdout	*/
} world;

/* Are the program's ranges where they must be: after the start files',
 * before every variable of the simulator (this file's among them)? */
static int world_laid_out(void)
{
	const char *mine = (const char *)&world;
	const char *d = __data_start, *d_end = futexsim_world_data_end;
	const char *b = __bss_start, *b_end = futexsim_world_bss_end;

	return d && b && d_end && b_end && d < d_end && b < b_end &&
	       (mine >= b_end || (mine < b && mine >= d_end));
}

/* Keep the program's data as it is now, before any run: 1 if kept. */
static int world_keep(void)
{
	if (world.state)
		return world.state > 0;
	world.state = -1;
	/* FUTEXSIM_EXPLORE_FORK=1: a process per run even so (the
	 * comparison of the two ways in tests/test_explore_program.c) */
	if (!world_laid_out() ||
	    sim__explore_env_on("FUTEXSIM_EXPLORE_FORK"))
		return 0;
	world.data_len = (size_t)(futexsim_world_data_end - __data_start);
	world.bss_len = (size_t)(futexsim_world_bss_end - __bss_start);
	world.data = malloc(world.data_len);
	world.bss = malloc(world.bss_len);
	world.null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (!world.data || !world.bss || world.null_fd < 0) {
		free(world.data);
		free(world.bss);
		if (world.null_fd >= 0)
			close(world.null_fd);
		return 0;
	}
	memcpy(world.data, __data_start, world.data_len);
	memcpy(world.bss, __bss_start, world.bss_len);
	world.state = 1;
	return 1;
}

/* One run in this process, the program's data put back after it; the
 * run's stdout dropped as a child's is.  Not by dup2() onto descriptor 1
 * and back, two system calls a run: stdio's stdout writes to /dev/null's
 * descriptor while the run lasts (glibc's FILE keeps it in _fileno), the
 * same stream, so a program that compares a stream with stdout, or kept
 * a copy of it, sees nothing change.  Nothing in a run writes to
 * descriptor 1 but through stdout (a program's write() is simulated). */
static void xrun_rewound(sim_xrun_body_fn body, struct sim_xctx *x,
			 uint64_t seed, const struct sim_choice *forced,
			 int nr_forced, const char *record,
			 struct sim_xres *res)
{
	int muted = wl_program_muted(), out_fd = fileno(stdout);

	fflush(stdout);
	if (!x->interactive)
		stdout->_fileno = world.null_fd;
	wl_program_mute(1);
	body(x, seed, forced, nr_forced, record, res);
	/* as before any run: the next one, or the program's own run after
	 * a calibration (sim_explore_child_setup()), starts from it */
	memcpy(__data_start, world.data, world.data_len);
	memcpy(__bss_start, world.bss, world.bss_len);
	fflush(stdout);
	stdout->_fileno = out_fd;
	wl_program_mute(muted);
}

int sim__xrun_rewinds(void)
{
	return world_keep();
}

void sim__xrun_fresh(sim_xrun_body_fn body, struct sim_xctx *x,
		     uint64_t seed, const struct sim_choice *forced,
		     int nr_forced, const char *record, struct sim_xres *res)
{
	struct sim_choice *c = NULL;
	int fd[2], len = 0, pre = 0, status, whole;
	pid_t pid;

	if (world_keep()) {
		xrun_rewound(body, x, seed, forced, nr_forced, record, res);
		return;
	}
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
