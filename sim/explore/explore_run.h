/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/explore_run.h - many runs of one scenario in one process: the
 * commands `futexsim explore`, `futexsim merge` (sim/explore/explore_run.c,
 * sim/explore/explore_cmd.c) and `futexsim shrink` (sim/explore/shrink.c).
 *
 * Stage: the driver of the whole flow, like sim/cli/cli.c (which calls the
 * commands).  A run here is what one child process of `futexsim run`
 * does (machine, workload, report figures), without the fork: the
 * machine is built again for every run (sim_machine_init()) and a
 * simulated failure ends the run, not the process (sim_fail_hook,
 * sim_run_abort()).  Runs are pure functions of (scenario, strategy,
 * seed, forced choices), whichever runs came before in the process.
 * A user program's run (workload program) is made from the world as it
 * was before the first run: its globals put back after each run, or in
 * a child process of its own (sim/explore/explore_fork.c).
 */
#ifndef SIM_EXPLORE_RUN_H
#define SIM_EXPLORE_RUN_H

#include <stdint.h>

#include "sim/explore/explore.h"
#include "sim/report/failure.h"
#include "sim/explore/oracle.h"
#include "sim/scenario/preset.h"
#include "sim/scenario/scenario.h"
#include "sim/report/stats.h"

/* What the runs share: the resolved scenario (one lock), its machine. */
struct sim_xctx {
	struct sim_scenario s;
	struct sim_preset preset;
	struct sim_strategy st;
	struct sim_oracles oracles;
	uint64_t pct_steps;		/* calibration, for pct		*/
	/* each run in a fresh world (workload program), unless the
	 * environment has FUTEXSIM_EXPLORE_SAME_PROCESS=1: the tests'
	 * negative control, runs that share one world */
	int fresh_world;
	/* FUTEXSIM_PROMISE_FORK=1: memory=arm64 certifies every promise in
	 * a forked child, never by making the run again (the comparison of
	 * the two ways in tests/test_instrument.c) */
	int promise_fork;
	/* keep the narration of each run (--narrate's ring of last lines,
	 * sim_trace_last_events()), open until the caller's
	 * sim_trace_close(): `futexsim play` shows it (sim/explore/play.c) */
	int narrate;
	/* the runs ask on stdin and answer on stdout (`futexsim play`):
	 * a program's run keeps stdout, its own lines still dropped */
	int interactive;
};

/* The outcome of one run. */
struct sim_xres {
	int failed;			/* a simulated failure ended it	*/
	enum sim_failure kind;
	char what[240];			/* its headline detail		*/
	const char *oracle;		/* sim_oracle_classify()	*/
	unsigned int bit;		/* its SIM_ORACLE_* bit		*/
	int hit;			/* failed, of a selected oracle	*/
	struct sim_result r;		/* the figures (not all on failure) */
	int choices;			/* branching points		*/
	int preemptions;
	int nonzero;			/* choices other than index 0	*/
	uint64_t fingerprint;		/* of the choices and the figures */
};

/*
 * sim_xctx_init - resolve @s (loaded, command line applied) against its
 * machine, check that it names one lock of a user-lock or kernel-lock
 * workload, read its strategy and oracles.  Bad input: one line, exit 2.
 */
void sim_xctx_init(struct sim_xctx *x, struct sim_scenario *s);

/*
 * sim_xrun - run @x's scenario with @seed, the first @nr_forced choices
 * taken from @forced, into @res; @record: a replay file to write, or
 * NULL.  The choices made stay in sim_explore_log() until the next run.
 */
void sim_xrun(struct sim_xctx *x, uint64_t seed,
	      const struct sim_choice *forced, int nr_forced,
	      const char *record, struct sim_xres *res);

/*
 * sim__xrun_fresh - run @body(@x, @seed, ...) from the world as it was
 * before the first run, and leave it so: in this process, the program's
 * globals put back after the run, or in a child process, a fresh copy
 * of this process's world, that sends back @res and the choices
 * (sim_explore_log()); sim_xrun() calls it for workload program
 * (sim/explore/explore_fork.c).  The run's stdout goes to /dev/null.  A
 * child that ends with bad input or a host error exits this process with
 * its status.
 */
typedef void (*sim_xrun_body_fn)(struct sim_xctx *x, uint64_t seed,
				 const struct sim_choice *forced, int nr_forced,
				 const char *record, struct sim_xres *res);
void sim__xrun_fresh(sim_xrun_body_fn body, struct sim_xctx *x,
		     uint64_t seed, const struct sim_choice *forced,
		     int nr_forced, const char *record, struct sim_xres *res);
/* sim__explore_env_on - is the environment's @name "1"? (the switches
 * the tests compare the ways of making runs with) */
int sim__explore_env_on(const char *name);
/* sim__xrun_rewinds - will sim__xrun_fresh() make its runs in this
 * process (the program's globals put back), not a child each? */
int sim__xrun_rewinds(void);

/*
 * sim_explore_child_setup - the CLI's child, before recording starts and
 * before sim_machine_init(): calibrate PCT if @s asks for it (one run in
 * this process).  sim_explore_child_start - after sim_machine_init():
 * the oracles and the strategy of @s for the run about to start.
 */
void sim_explore_child_setup(const struct sim_scenario *s,
			     const struct sim_preset *preset);
void sim_explore_child_start(const struct sim_scenario *s);

/* The commands; @argc/@argv after the command word.  Return: exit status. */
int sim_cmd_explore(const char *self, int argc, char **argv);
int sim_cmd_merge(int argc, char **argv);
int sim_cmd_shrink(const char *self, int argc, char **argv);

/* ---- shared by explore_run.c, explore_cmd.c and shrink.c ---- */
/* sim__explore_replay_show - run "SELF replay FILE --narrate=yes" in a
 * child (its report on our stderr).  Return: its exit status. */
int sim__explore_replay_show(const char *self, const char *file);
/* sim__explore_alloc - @n zeroed bytes (at least one); out of memory is
 * a message and exit 1.  Return: the memory, for free(). */
void *sim__explore_alloc(size_t n);
/* sim__explore_take_log - copy the last run's choices (sim_explore_log())
 * into *@buf, grown as needed (to *@cap entries).  Return: how many. */
int sim__explore_take_log(struct sim_choice **buf, int *cap);

#endif /* SIM_EXPLORE_RUN_H */
