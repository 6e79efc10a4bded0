/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/replay/replay.h - replay files: every scheduling decision of a run, written
 * (--record, and on a simulated failure) and checked again (futexsim
 * replay).
 *
 * Stage: trace/report, beside the flow.  The machine reports each decision
 * through sim_decision() and sim_draw() (sim/machine/machine.c: the task a dispatch
 * switches to, cost jitter, timer slack; sim/machine/runheap.c: the tie-break among
 * CPUs with equal clocks); the CLI (sim/cli/cli.c) reads a file's header into a
 * scenario in the parent process and starts recording or checking in the
 * child that runs one lock.  Implemented in sim/replay/replay.c (the decision
 * stream) and sim/replay/replay_file.c (header, paths).
 *
 * A replay file is text, format version 1:
 *
 *	futexsim-replay 1
 *	# comment lines ('#') and blank lines are allowed in the header
 *	futexsim = 0.3                   the futexsim that recorded it
 *	kernel = 6.1.158 (...)           and its kernel version
 *	machine = tiny4                  the resolved scenario of one lock,
 *	...                              as `key = value` lines (no output
 *	seed = 7                         keys: json, record, trace...)
 *	decisions
 *	S 1250000 2 103                  decision 1: CPU 2 switched to task
 *	J 2501 1210                        103 at 1250000 ps; decision 2: a
 *	...                                jitter draw below 2501 gave 1210
 *	end 5678                         the run ended after 5678 decisions
 *
 * Decision lines, one per decision, numbered from 1 in file order:
 *	S TIME_PS CPU TID   a dispatch switched to task TID on CPU, whose
 *	                    clock read TIME_PS (dispatches that keep the
 *	                    running task are no decision)
 *	T N K               the PRNG chose the K-th (from 0) of N CPUs with
 *	                    equal clocks, in CPU order
 *	J BOUND VALUE       a cost jitter draw in [0, BOUND)
 *	L BOUND VALUE       a timer slack draw in [0, BOUND)
 *	X N K               explore mode: the strategy ran the K-th of N
 *	                    candidate CPUs (sim/explore/explore.h orders them);
 *	                    replaying takes K from the file, so a schedule
 *	                    found, enumerated or shrunk by `futexsim explore`
 *	                    or `futexsim shrink` replays whatever made it
 *	end N               the run ended (returned or failed) after N
 * The lines are short and streamed: memory does not grow with the run.
 *
 * Replaying re-runs the header's scenario with the same seed and compares
 * every decision with the file's.  The first that differs (or a file that
 * ends early, or a run that ends early) is reported as one line on stderr:
 *
 *	futexsim: replay: diverged at decision 1234 (t=5.123456 ms,
 *	FILE:1250): recorded switch to cpu 2 task 103, got switch to cpu 1
 *	task 101
 *
 * then the run goes on unchecked to its end, and the CLI exits with
 * SIM_EXIT_DIVERGED.  A bad header, a decision line that is complete but
 * malformed, or a file without its final "end N" line (cut short) is bad
 * input (one line, exit 2); a run that ends before the file does is a
 * divergence ("got the end of the run").
 */
#ifndef SIM_REPLAY_H
#define SIM_REPLAY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/machine/prng.h"
#include "sim/report/exit.h"	/* SIM_EXIT_DIVERGED */

struct sim_scenario;

#define SIM_REPLAY_FORMAT	"futexsim-replay 1"	/* first line	*/

/* The decisions of a run (what the letters of the file stand for). */
enum sim_decision {
	SIM_DEC_SWITCH,		/* S: a = clock (ps), b = CPU, c = TID	*/
	SIM_DEC_TIE,		/* T: a = CPUs tied, b = the pick	*/
	SIM_DEC_JITTER,		/* J: a = bound, b = value		*/
	SIM_DEC_SLACK,		/* L: a = bound, b = value		*/
	SIM_DEC_EXPLORE,	/* X: a = candidates, b = the pick	*/
	SIM_DEC_DRAIN,		/* D: a = bound, b = the pick: below the
				 * number of CPUs with stores, whose
				 * oldest drains, else none
				 * (sim/machine/memmodel.c)		*/
	SIM_DEC_END,		/* end: a = decisions before it		*/
	SIM_DEC_NR
};

/* Non-zero while this process records or checks decisions. */
extern int sim_replay_active;

void sim__decision(enum sim_decision kind, uint64_t a, uint64_t b,
		   uint64_t c);

/*
 * sim_decision - the machine took decision @kind (@a, @b, @c as in enum
 * sim_decision).  One load and one predictable branch when neither
 * recording nor replaying; never changes the simulation.
 */
static inline void sim_decision(enum sim_decision kind, uint64_t a,
				uint64_t b, uint64_t c)
{
	if (__builtin_expect(sim_replay_active, 0))
		sim__decision(kind, a, b, c);
}

/*
 * sim_draw - the one way to draw from the run's generator: uniform in
 * [0, @n), @n > 0, reported as decision @kind.
 * Return: the value drawn.
 */
static inline uint64_t sim_draw(enum sim_decision kind, uint64_t n)
{
	uint64_t v = sim_prng_below(&sim_rng, n);

	sim_decision(kind, n, v, 0);
	return v;
}

/*
 * sim_replay_forced - explore mode asks, before its choice among @n
 * candidates, whether a replayed file dictates it: the file's next
 * decision is "X @n K".  Return: 1 with *@k = K, or 0 (not replaying, or
 * the file says something else: the strategy chooses, and the check of
 * the decision reports the divergence).
 */
int sim_replay_forced(uint64_t n, uint64_t *k);

/* Where the decisions of a replay file start, and who recorded it. */
struct sim_replay_src {
	const char *path;	/* as given: the caller's string	*/
	long offset;		/* byte offset of the first decision	*/
	int line;		/* its line number			*/
	char futexsim[64];	/* the header's futexsim and kernel	*/
	char kernel[160];
};

/* ---- the CLI's side, parent process (sim/replay/replay_file.c) ---- */

/*
 * sim_replay_load - apply the header of replay file @path to @s (fresh
 * from sim_scenario_defaults()) and fill @src.  A missing file, an
 * unknown format, a malformed or truncated header, an unknown key, a
 * missing futexsim, kernel or seed key, or no final "end N" line (the
 * file was cut short): one line naming the file, the line and what was
 * expected, exit 2.
 */
void sim_replay_load(const char *path, struct sim_scenario *s,
		     struct sim_replay_src *src);

/*
 * sim_replay_check - after sim_scenario_resolve(), before any run: a
 * replay (@src not NULL) runs exactly one lock; every --record file of @s
 * could be written (sim_outfile_check(): the file is not touched) and is
 * not the file replayed.  Bad
 * input: one line, exit 2.  A replay file recorded by another futexsim
 * or kernel version gets one note on stderr (the run goes on).
 */
void sim_replay_check(const struct sim_scenario *s,
		      const struct sim_replay_src *src);

/*
 * sim_record_lock_path - the replay file of lock @lock when --record
 * names @path: @path itself for one lock, else @path with ".LOCK" before
 * its extension (out.replay -> out.ww.replay; no extension: out.ww).
 * Return: 0, or -1 if it does not fit in @len bytes.
 */
int sim_record_lock_path(const char *path, const char *lock, int nr_locks,
			 char *out, size_t len);

/*
 * sim_replay_command - what reproduces the run of @one (one lock): the
 * line "SELF run --key=value ..." with every resolved key but the output
 * keys (json, record, trace..., lock-stat, narrate), words quoted for the
 * shell; then, if @file, a second line "replay file: FILE (SELF replay
 * FILE)".  The failure report prints it after "replay: ".
 */
void sim_replay_command(const char *self, const struct sim_scenario *one,
			const char *file, char *buf, size_t size);

/*
 * sim_replay_run_name - the name of @one's run in the files it leaves:
 * its lock, or, for a user program (workload=program), the program's
 * file name without its directory and extension, each character but
 * letters, digits, '_' and '-' written '_' ("program" if nothing is
 * left); at most @len - 1 characters.  A program's lock key says nothing
 * of the program: its file names it.
 * sim_replay_failure_path - where a failed run of @one without --record
 * is saved: "futexsim-failure-NAME-SEED.replay" in the current directory
 * (NAME as above, SEED the run's).  No pid, no time: the name is part of
 * the failure report, which must reproduce byte for byte.
 */
void sim_replay_run_name(const struct sim_scenario *one, char *out,
			 size_t len);
void sim_replay_failure_path(const struct sim_scenario *one, char *out,
			     size_t len);

/* ---- the run's side, child process (sim/replay/replay.c) ---- */

/*
 * sim_record_start - write the header of the run of @s (one lock) to
 * @path and record every decision from now on.  Call before
 * sim_machine_init().  A failure (exit()) still ends the file with its
 * "end" line.  The file is written through sim/host/outfile.h: @path
 * appears, whole, when the record ends (sim_replay_finish(),
 * sim_record_end() or the exit), and is left as it was if it could not
 * be written (one line on stderr).  Return: 0, or -1 with errno if the
 * file cannot be created.
 */
int sim_record_start(const char *path, const struct sim_scenario *s);

/*
 * sim_record_failed_only - the record started is kept only if the run
 * fails (the file a failed run is saved in): a run that returns to
 * sim_replay_finish() removes it and leaves @path as it was.
 */
void sim_record_failed_only(void);

/*
 * sim_record_end - the run failed: end the record now (its "end" line)
 * and put the file in place, before the failure report names it.
 * Return: 0 if no record was started or it is written; -1 if it could not
 * be written (its line is printed: the report must not name it).
 */
int sim_record_end(void);

/*
 * sim_record_discard - drop the record started: its temporary is removed
 * and its file left as it was (a run that fails and is run again to
 * report, which records again).
 */
void sim_record_discard(void);

/*
 * sim_replay_start - check every decision from now on against the file
 * of @src (sim_replay_load() read its header).  Call before
 * sim_machine_init().  An unreadable file: one line, exit 2.
 */
void sim_replay_start(const struct sim_replay_src *src);

/*
 * sim_replay_finish - the run returned: check that the replayed file ends
 * here too, write the record's end and close both.  A write error of the
 * record: one line (sim/host/outfile.h), exit 1.
 * Return: 0, or SIM_EXIT_DIVERGED if the replay diverged.
 */
int sim_replay_finish(void);

/*
 * sim_replay_end_now - the process is ending in the middle of the run (a
 * simulated failure): write the record's end, check that the replayed
 * file ends here too, close both.  Registered with atexit(); the
 * SIGSEGV handler of sim/report/failure.c, which ends with _exit(), calls it.
 */
void sim_replay_end_now(void);

/* ---- between the two files ---- */

/* sim__replay_header - write the header of @s (one lock) to @f, up to and
 * including the "decisions" line. */
void sim__replay_header(FILE *f, const struct sim_scenario *s);

#endif /* SIM_REPLAY_H */
