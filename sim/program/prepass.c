/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/program/prepass.c - which words of a user program are futex words,
 * learned from an identical run made before the one that is reported
 * (see sim/program/program.h).
 *
 * Stage: CLI, at the start of the flow.  Called by the CLI's child
 * (sim/cli/cli.c) before a program's run; calls fork(), the machine and
 * the workload (a whole run, muted), sim/trace/uword.h for the words.
 *
 * Why: the report's "futex words" figures, the trace's atomic events and
 * a deadlock's holders follow the program's atomics on its futex words,
 * but a word becomes known as one only when it is first passed to
 * futex(2), after the atomics that first took it (a lock's uncontended
 * acquisitions make no system call at all).  A run is a function of its
 * scenario and seed, so the same run made first, in a child process with
 * its output dropped, ends with the list of every word passed to futex(2);
 * preloaded (sim_uword_preload()), those words are futex words from the
 * first instruction of the run that counts.  The first run changes
 * nothing the second one simulates: it is another process, and the
 * preloaded list only decides what is counted and traced.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/cache/cache.h"
#include "sim/host/fdio.h"
#include "sim/explore/explore_run.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/program/program.h"
#include "sim/replay/replay.h"
#include "sim/report/failure.h"
#include "sim/trace/uword.h"
#include "workloads/workload.h"

static void __attribute__((noreturn)) prepass_fail(enum sim_failure kind,
						   const char *what)
{
	(void)kind;
	(void)what;
	sim_run_abort();	/* the words seen so far still count */
}

static void __attribute__((noreturn))
prepass_child(const struct sim_scenario *one, const struct sim_preset *preset,
	      const struct sim_replay_src *src, int fd)
{
	static uintptr_t words[SIM_UWORD_MAX];
	struct sim_result r;
	int null = open("/dev/null", O_WRONLY), n;

	if (null >= 0) {
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		close(null);
	}
	wl_program_mute(1);
	sim_fail_hook = prepass_fail;
	if (src)	/* a replay's forced choices: the same run */
		sim_replay_start(src);
	sim_machine_init(preset, one->cpus, one->seed);
	sim_cache_set_jitter(one->cost_jitter_pct);
	sim_memory_set((enum sim_memory)one->memory);
	sim_set_livelock_ps(one->livelock_ps);
	sim_explore_child_start(one);
	one->wl->run(one, one->ulock[0], &r);
	n = sim_uword_list(words, SIM_UWORD_MAX);
	if (sim_write_full(fd, &n, sizeof(n)) ||
	    sim_write_full(fd, words, (size_t)n * sizeof(*words)))
		_exit(SIM_EXIT_HOST);
	_exit(0);
}

void sim_program_prepass(const struct sim_scenario *one,
			 const struct sim_preset *preset,
			 const struct sim_replay_src *src)
{
	static uintptr_t words[SIM_UWORD_MAX];
	int fd[2], n = 0, status;
	size_t got, want;
	pid_t pid;

	if (one->wl != &wl_program)
		return;
	fflush(NULL);
	if (pipe(fd) || (pid = fork()) < 0)
		return;		/* nothing preloaded: fewer figures, same run */
	if (!pid) {
		close(fd[0]);
		prepass_child(one, preset, src, fd[1]);
	}
	close(fd[1]);
	if (sim_read_full(fd[0], &n, sizeof(n)) != sizeof(n) || n < 0 ||
	    n > SIM_UWORD_MAX)
		n = 0;
	want = (size_t)n * sizeof(*words);
	got = sim_read_full(fd[0], words, want);
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	sim_uword_preload(words, got == want ? n : 0);
}
