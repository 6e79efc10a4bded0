/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/progress.h - the size checks before a run and the progress
 * line during one (sim/report/progress.c).
 *
 * Stage: report, beside the flow.  Called by the CLI (sim/cli/cli.c) and
 * by sim/report/failure.c (the line is cleared before a report).
 */
#ifndef SIM_PROGRESS_H
#define SIM_PROGRESS_H

struct sim_scenario;

/*
 * sim_progress_check_size - refuse (exit 2, one line naming the key and
 * the limit) ops over 10^12 or a duration over 24 h, and, unless
 * sim_progress_force, a run whose estimate from @s alone is over an hour
 * of host time with @busy_cpus CPUs at work; warn in one line on stderr
 * over about 10 minutes.
 */
extern int sim_progress_force;	/* --force: run whatever the estimate	*/
void sim_progress_check_size(const struct sim_scenario *s, int busy_cpus);
/*
 * sim_progress_bar_start - the run of lock @one starts in this process:
 * tick every host second and, after the first few, show the progress
 * line on stderr (a terminal, or progress=yes).  sim_progress_bar_stop -
 * stop the ticks and clear the line; nothing if none was started.
 */
void sim_progress_bar_start(const struct sim_scenario *one);
void sim_progress_bar_stop(void);

#endif /* SIM_PROGRESS_H */
