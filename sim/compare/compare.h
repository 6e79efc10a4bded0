/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/compare/compare.h - `futexsim compare`: one scenario run over seeds
 * 1..N by two sides, A (this binary) and B (another futexsim build, or
 * this one with some keys changed), and each metric's difference tested
 * against the noise of the seeds (sim/compare/compare.c).
 *
 * Stage: the driver of the whole flow, above `run`: called by main()
 * (sim/cli/cli.c); every run is a child process `futexsim run`.
 */
#ifndef SIM_COMPARE_COMPARE_H
#define SIM_COMPARE_COMPARE_H

/*
 * sim_cmd_compare - `futexsim compare [SCENARIO] --seeds=N
 * (--against=OTHER | --b-set=KEY=VALUE,...) [--json=PATH] [--key=value
 * ...]` with the @argc arguments @argv after "compare"; @self is the
 * path this binary was started by (A, and B without --against).
 * Bad input: one line, exit 2.  A run that fails: one line naming the
 * side and the seed, exit with the run's status.
 * Return: 0 after the table (and the JSON file) is written.
 */
int sim_cmd_compare(const char *self, int argc, char **argv);

#endif /* SIM_COMPARE_COMPARE_H */
