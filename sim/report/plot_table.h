/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/plot_table.h - `futexsim plot-table TABLE -o FILE.svg`: a
 * table file (its format: sim/report/plot_table.c, docs/output.md
 * "Plots") drawn as grouped bars or lines.
 *
 * Stage: beside the flow.  Called by main() (sim/cli/cli.c).
 */
#ifndef SIM_REPORT_PLOT_TABLE_H
#define SIM_REPORT_PLOT_TABLE_H

/* sim_cmd_plot_table - the command, @argv after "plot-table".  Bad input
 * (arguments, the table file): one line, exit 2.
 * Return: 0, or SIM_EXIT_HOST if the SVG could not be written. */
int sim_cmd_plot_table(int argc, char **argv);

#endif /* SIM_REPORT_PLOT_TABLE_H */
