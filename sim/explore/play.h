/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/play.h - `futexsim play`: the player is the scheduler.
 *
 *   futexsim play [SCENARIO | FILE.replay] [--goal=GOAL] [--out=PATH] [--key=value ...]
 *
 * Stage: the driver of the whole flow, like sim/explore/explore_cmd.c;
 * called by sim/cli/cli.c.  Runs one scenario (one lock of a built-in
 * workload) in this process through sim/explore/explore_run.c, with the
 * explore hook sim_explore_chooser (sim/explore/explore.h) asking the
 * player, on stdin, which candidate CPU runs at each branching point.
 * Each question comes with a state screen: the CPUs' clocks and tasks,
 * each task's state and last futex(2) call, the futex words, and the
 * last lines of the narration (sim/trace/trace_narrate.c, through the
 * trace stream's ring, sim_trace_last_events()).  The schedule chosen is
 * recorded as a replay file by a second run (sim_xrun() with the choices
 * forced), so `futexsim replay FILE` reproduces it exactly.
 *
 * Goals (--goal): lost-wakeup, deadlock and mutex are the oracles'
 * verdicts (sim_oracle_classify()); eagain and steal are counted at the
 * futex(2) exit (struct sim_syscall_counters).  Exit status: 0 the goal
 * was reached (or, with no goal, the run ended or the player quit), 3 a
 * simulated failure other than the goal ended the run,
 * SIM_EXIT_GOAL_MISSED the run ended, or the player quit, before the
 * goal; 2 bad input on the command line; 1 a host error, or a recorded
 * run that did not reach the goal again (a determinism bug).  A bad line
 * of input is one line of output, and the question is asked again.
 */
#ifndef SIM_EXPLORE_PLAY_H
#define SIM_EXPLORE_PLAY_H

#include <stdbool.h>
#include <stdint.h>

struct sim_cpu;

/* sim_cmd_play - `futexsim play` with the @argc arguments @argv after
 * the command word, @self the binary's name (argv[0], in the replay
 * command it prints); input from stdin, the screens on stdout.
 * Return: the exit status (above). */
int sim_cmd_play(const char *self, int argc, char **argv);

/* ---- between play.c and play_screen.c (the state screen) ---- */

/* A line of the narration (SIM_NARRATE_LINE of sim/trace/, checked in
 * play_screen.c). */
#define SIM_PLAY_LINE	256

/* What the screen says of the game, and what it remembers. */
struct sim_play_view {
	const char *scenario;		/* the file's name, or "defaults" */
	const char *lock, *goal;	/* the lock's name, the goal's	*/
	const char *program;		/* a user program's, or NULL	*/
	int threads;
	uint64_t seed;
	int tty;			/* stdout is a terminal: clear it */
	char last_shown[SIM_PLAY_LINE];	/* the newest event shown:
						 * those after it are new */
};

/*
 * sim__play_screen - before a question, in the middle of a run: the
 * CPUs, the tasks, the futex words, the last events of the narration
 * (those told since the last screen marked) and the choices
 * @cand[0..@n) (@cur: @cand[0] was running), on stdout.
 */
void sim__play_screen(struct sim_play_view *v, struct sim_cpu *const *cand,
		      int n, bool cur);
/* sim__play_end_events - after the run: its last events, on stdout. */
void sim__play_end_events(void);

#endif /* SIM_EXPLORE_PLAY_H */
