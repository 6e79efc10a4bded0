/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/cli/cli.h - the command line apart from main() and the runs
 * (sim/cli/cli.c): the usage text and `futexsim list`, and the check of a
 * run's files.
 *
 * Stage: the driver of the whole flow, before any simulation: nothing
 * here builds a machine.  Called by main() and the `run`/`replay`
 * commands of sim/cli/cli.c; implemented in sim/cli/cli_list.c and
 * sim/cli/cli_files.c.
 */
#ifndef SIM_CLI_H
#define SIM_CLI_H

#include <stdio.h>

/* sim_cli_usage - the commands, every scenario key
 * (sim_scenario_usage()), the units, where machines are looked up and
 * the exit statuses, to @out (`futexsim --help`, `run --help`). */
void sim_cli_usage(FILE *out);
/*
 * sim_cmd_list - `futexsim list [machines|locks|workloads]` with the
 * @argc arguments @argv after "list": the machine presets, the user,
 * reader-writer and kernel locks that are not broken, the workloads; all
 * three under their titles when @argc is 0.  Bad input (an unknown or a
 * second word) is one line on stderr and exit 2 (sim_config_fail()).
 * Return: 0.
 */
int sim_cmd_list(int argc, char **argv);

struct sim_scenario;
struct sim_replay_src;

/*
 * sim_cli_check_files - before the run of the resolved scenario @s (read
 * from the scenario file @scenario, NULL if none; replaying @src, NULL if
 * not): no two of its output files (json, lock-stat, each lock's trace
 * and record) are one file, and none is a file the run reads (the
 * scenario file, the machine file, the replay file, the executable).
 * Outputs are compared by the directory entry they replace (the real
 * path of their directory, and their name); inputs by the file read.
 * Else bad input: one line naming both keys and the path, exit 2.
 */
void sim_cli_check_files(const struct sim_scenario *s, const char *scenario,
			 const struct sim_replay_src *src);

/*
 * sim_cli_same_file - would writing the output @out replace @other, an
 * input (the file read, if @input) or another output, by the rule of
 * sim_cli_check_files()?  Return: 1 or 0.
 */
int sim_cli_same_file(const char *out, const char *other, int input);

#endif /* SIM_CLI_H */
