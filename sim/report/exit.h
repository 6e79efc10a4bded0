/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/exit.h - the exit statuses of futexsim, every one.
 *
 * Stage: report, the end of every run.  The one list: every exit() of
 * the simulator and of a user program's layer (workloads/libsim) names
 * one of these; `futexsim --help` and docs/usage.md list the same, and
 * tests/test_cli.c checks that --help names every status.
 */
#ifndef SIM_REPORT_EXIT_H
#define SIM_REPORT_EXIT_H

enum sim_exit {
	SIM_EXIT_OK		= 0,	/* the run completed			*/
	SIM_EXIT_HOST		= 1,	/* a host error: a file that cannot be
					 * written, a fork or memory refused,
					 * or explore/shrink re-ran a hit that
					 * did not fail again (determinism)	*/
	SIM_EXIT_INPUT		= 2,	/* bad input: one line names the file,
					 * line, key and what was expected	*/
	SIM_EXIT_FAILURE	= 3,	/* a simulated failure: deadlock,
					 * livelock, BUG/WARN, a broken lock,
					 * a stack overflow, an oracle		*/
	SIM_EXIT_DIVERGED	= 4,	/* futexsim replay: the run diverged	*/
	SIM_EXIT_REPORT_AGAIN	= 5,	/* between the CLI and its child only:
					 * fail again with the narration kept	*/
	SIM_EXIT_PROGRAM	= 6,	/* --program: the user program exited
					 * with a non-zero status		*/
	SIM_EXIT_GOAL_MISSED	= 7,	/* futexsim play: the run ended, or
					 * the player quit, before the goal	*/
	SIM_EXIT_NR			/* how many: the --help table's size	*/
};

#endif /* SIM_REPORT_EXIT_H */
