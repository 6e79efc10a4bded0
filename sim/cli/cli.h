/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/cli/cli.h - the help side of the futexsim command line: the usage text
 * and `futexsim list`, apart from main() and the runs (sim/cli/cli.c).
 *
 * Stage: the driver of the whole flow, before any simulation: nothing
 * here builds a machine.  Called by main() and the `run`/`replay`
 * commands of sim/cli/cli.c; implemented in sim/cli/cli_list.c.
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

#endif /* SIM_CLI_H */
