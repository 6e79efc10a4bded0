/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/program/program.h - user programs on the command line: `futexsim build`
 * and the --program key of `futexsim run` and `futexsim replay`.
 *
 * Stage: CLI.  Called by sim/cli/cli.c (and sim_program_spawn() by
 * sim/explore/explore_run.c and bench/bench_spawn.c); sim/program/build.c
 * runs the C compiler (build), sim/program/program.c exec()s the
 * program's binary (run) and writes the program's lines of the report.
 *
 * A program binary is a whole futexsim: the simulator (libfutexsim.a of
 * the build directory) linked with the user's objects, compiled with
 * workloads/libsim/futexsim.h force-included and main() renamed to
 * futexsim_user_main.  `futexsim run --program=OUT ...` exec()s OUT with
 * the same arguments; OUT's futexsim then runs workload "program".
 */
#ifndef SIM_PROGRAM_H
#define SIM_PROGRAM_H

#include <stdbool.h>
#include <stdio.h>

#include "sim/scenario/scenario.h"
#include "sim/report/stats.h"

#include "sim/report/exit.h"	/* SIM_EXIT_PROGRAM */

/*
 * sim_program_build - `futexsim build SOURCE.c... [-o OUT] [CC-OPTION...]`
 * (sim/program/build.c): compile and link the program against the
 * layer.  Without -o, OUT is the first source without its ".c".
 * Options go to the compiler after futexsim's own (-I, -D, -O, -W ...),
 * -L, -l, -Xlinker, -Wl, and objects to the link; an option that takes
 * an argument takes it as gcc does, separated or joined (-I DIR, -IDIR).
 * Before linking, every object (the compiled sources, and the objects
 * and archives of the link line) is checked: each undefined symbol (nm)
 * must be defined by another of them, be a futexsim_* function of the
 * layer, or be on the allow list of sim/program/hostcalls.h, and no
 * function may contain an instruction that reaches the host (objdump).
 * Each refusal is named on stderr and the build fails.
 * Return: 0; bad arguments exit 2, as does a failed compilation or a
 * refusal (the messages are on stderr).
 */
int sim_program_build(int argc, char **argv);

/* sim_program_args - the process's command line, for the exec below. */
void sim_program_args(int argc, char **argv);

/* sim_program_linked - whether this binary is a program's (`futexsim
 * build` linked a program into it). */
bool sim_program_linked(void);

/*
 * sim_program_select - after the scenario keys are applied: in a binary
 * with no program linked, a scenario with a program exec()s that program
 * with this process's arguments (bad input, exit 2, if it is not a
 * futexsim program); in a program's binary, the workload is "program"
 * and the program key defaults to the binary's path.  There, a workload
 * key other than program, or a key only the built-in workloads have
 * (threads, ops, ops-per-thread, duration, cs, between), given on the
 * command line or in a scenario file, is bad input (exit 2).  Called by
 * run and replay (sim/cli/cli.c), explore and shrink (sim/explore/).
 */
void sim_program_select(struct sim_scenario *s);
/* sim_program_refuse_builtin_keys - what a program's binary refuses in
 * @s: a built-in workload, or a key only a built-in workload has
 * (threads, ops, ops-per-thread, duration, cs, between), given on the
 * command line or in a scenario file: bad input (exit 2) naming it. */
void sim_program_refuse_builtin_keys(const struct sim_scenario *s);

/*
 * sim_program_prepass - before the run of a user program (workload
 * program; nothing for others) with scenario @one on @preset: make the
 * same run in a child process, muted, and preload the futex words it
 * passed to futex(2) (sim_uword_preload()), so that the run that follows
 * counts and traces the atomics before each word's first system call.
 * @src: the replay being checked (its forced choices make the same run),
 * or NULL.  Call after sim_explore_child_setup() and before recording or
 * replay starts.  If the child cannot run, nothing is preloaded
 * (sim/program/prepass.c).
 */
struct sim_preset;
struct sim_replay_src;
void sim_program_prepass(const struct sim_scenario *one,
			 const struct sim_preset *preset,
			 const struct sim_replay_src *src);

/* sim_program_report - the program lines of the report (nothing for
 * other workloads). */
void sim_program_report(FILE *out, const struct sim_scenario *s,
			const struct sim_result *r, int nr);

/* sim_program_status - SIM_EXIT_PROGRAM if a program of @r exited with
 * a non-zero status, else 0. */
int sim_program_status(const struct sim_result *r, int nr);

/*
 * sim_program_spawn - run a command in a child process and wait for it:
 * exec @path if it is not NULL, else (or if that fails) @argv[0] looked
 * up in PATH as execvp() does, with the NULL-terminated @argv.  Its
 * stdout goes to the file @out ("/dev/null" drops it), or stays this
 * process's if @out is NULL; stderr stays ours.  @out is written
 * through sim/host/outfile.h: put in place when the command exits 0,
 * else left as it was (a write error: one line, Return -1).  If
 * no exec works, the child says "@who: cannot run ARGV0: REASON" on
 * stderr and exits 127.  Used by `futexsim build` (the compiler), the
 * explore command (a hit's replay) and bench/bench_spawn.c.
 * Return: the command's exit status, 128 + the signal's number if a
 * signal ended it, -1 if it could not be started or waited for.
 */
int sim_program_spawn(const char *path, char *const argv[], const char *out,
		      const char *who);

#endif /* SIM_PROGRAM_H */
