/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/explore.h - explore mode: a strategy chooses which CPU runs next at
 * every scheduling point, instead of timed mode's smallest clock.
 *
 * Stage: machine.  sim/machine/machine.c calls sim_explore_note() at every hook
 * and sim_explore_pick() at every dispatch while sim_explore_on is set;
 * the explore and shrink commands (sim/explore/explore_run.c, sim/explore/shrink.c) and
 * the CLI's child (a replay of an explore run) start and stop it around
 * a run and read the choices it made; `futexsim play` (sim/explore/play.c)
 * makes the choices itself through sim_explore_chooser.  Implemented in
 * sim/explore/explore.c.
 *
 * A scheduling point with two or more candidate CPUs is a "branching
 * point".  Its candidates are ordered: first the CPU that was running (if
 * it may go on: index 0 then means "no preemption"), then the others by
 * CPU number.  A choice is recorded as the decision "X N K" of replay
 * files (sim/replay/replay.h), and a replay takes K from the file.
 *
 * Spin loops need no annotation.  A CPU whose last access was a load and
 * which now executes cpu_relax()/PAUSE is spinning on the lines it loaded
 * since its previous cpu_relax() (up to four, the last ones: a loop that
 * reads a lock's owner and then the owner's on_cpu waits on both): it is
 * no candidate while some other CPU is, until a store or RMW to one of
 * those lines (by anyone) or its next access of another kind.  A CPU that
 * loads a line it already loaded since its last write or relax is in a
 * loop with no relax in it (glibc's rwlock has one) and waits the same
 * way on the lines of that stretch.  When every
 * CPU that may run is spinning, the one with the smallest clock runs (no
 * choice is made), so each spinner's time moves.  Kernel
 * smp_cond_load_*() loops are parked by the machine itself
 * (sim_spin_wait_reload()).  So a spinner cannot keep the CPU that would release
 * it from running (no false livelock), and a bounded spin still runs out
 * when nothing else can run, bounded by time or by count.
 *
 * Strategies (the scenario key strategy=, `futexsim explore --strategy`):
 *   timed    timed mode (no choices): seeds explore timings through the
 *            cost jitter (cost-jitter=, 10% if the scenario gives none)
 *   random   uniform among the candidates at every branching point
 *   pct:D    probabilistic concurrency testing (Burckhardt et al. 2010):
 *            random task priorities, D-1 change points spread uniformly
 *            over the branching points of a calibration run; the highest
 *            priority candidate runs; at change point i the running
 *            task's priority drops to i, below every initial one
 *   dfs:P    depth-first enumeration of the schedules with at most P
 *            preemptions (iterative context bounding, Musuvathi and
 *            Qadeer 2007); explore_run.c drives it run after run through
 *            the forced prefix below
 * Random and PCT draw from a generator of their own, seeded from the run's
 * seed, so the machine's generator (tie-breaks, jitter) is untouched.
 */
#ifndef SIM_EXPLORE_H
#define SIM_EXPLORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/machine/hooks.h"

struct sim_cpu;

enum sim_strategy_kind {
	SIM_STRAT_TIMED,
	SIM_STRAT_RANDOM,
	SIM_STRAT_PCT,
	SIM_STRAT_DFS,
};

struct sim_strategy {
	enum sim_strategy_kind kind;
	unsigned int param;		/* pct: D; dfs: P		*/
};

/* One branching point of a run. */
struct sim_choice {
	uint16_t n;			/* candidates			*/
	uint16_t k;			/* the one that ran		*/
	uint8_t cur;			/* index 0 was the running CPU	*/
};

/* The choices of one run at most (200 MB of log): a bigger run is a
 * scenario too large to explore, one line and exit 2. */
#define SIM_EXPLORE_LOG_MAX	(1 << 25)

/* The choices of the current (or last) run. */
struct sim_explore_log {
	struct sim_choice *c;
	int len, cap;
	int preemptions;		/* k > 0 where cur		*/
};

extern int sim_explore_on;

/*
 * sim_strategy_parse - "timed", "random", "pct:D" (1 <= D <= 64) or
 * "dfs:P" (0 <= P <= 64) into @st.  Return: 0, or -1 if malformed.
 */
int sim_strategy_parse(const char *text, struct sim_strategy *st);
/* sim_strategy_format - @st as sim_strategy_parse() reads it. */
const char *sim_strategy_format(const struct sim_strategy *st, char *buf,
				size_t len);

/*
 * sim_explore_start - explore the run about to start (after
 * sim_machine_init(), before sim_run()) with @st and @seed.  The first
 * @nr_forced branching points take the choices @forced[i].k (clamped to
 * the candidates); after them, dfs (and a forced run of any strategy but
 * random and pct) takes index 0.  @pct_steps: the branching points of a
 * calibration run, over which PCT spreads its change points.  Timed:
 * nothing to do, explore mode stays off.
 */
void sim_explore_start(const struct sim_strategy *st, uint64_t seed,
		       const struct sim_choice *forced, int nr_forced,
		       uint64_t pct_steps);
/* sim_explore_stop - leave explore mode (the log stays readable). */
void sim_explore_stop(void);
/* sim_explore_log - the choices of the current or last run. */
const struct sim_explore_log *sim_explore_log(void);
/*
 * sim_explore_log_set - make @c[0..@len) (with @preemptions of them) the
 * last run's choices: the choices of a run made in another process (a
 * program's run in its own fresh world, sim/explore/explore_fork.c).
 */
void sim_explore_log_set(const struct sim_choice *c, int len, int preemptions);

/*
 * sim_explore_dfs_next - dfs:@bound, from the choices @c[0..*@len) of the
 * last run to the forced prefix of the next: the deepest branching point
 * with an untried candidate whose choice keeps the preemptions within
 * @bound takes the next candidate, and the choices after it are dropped
 * (index 0 from there on: no preemption).  Every schedule within the
 * bound comes once, given that a run is a function of its choices.
 * Return: 1, or 0 when the enumeration is exhausted.
 */
int sim_explore_dfs_next(struct sim_choice *c, int *len, unsigned int bound);

/*
 * sim_explore_chooser - when set (`futexsim play`, sim/explore/play.c), the
 * choice at every branching point after the forced prefix, before the
 * strategy's: @cand[0..@n) are the candidates in their order, @cur says
 * that @cand[0] is the CPU that was running.  It may end the run
 * (sim_run_abort()).  Return: the index of the CPU to run, or -1 to let
 * the strategy choose.
 */
typedef int (*sim_explore_chooser_fn)(struct sim_cpu *const *cand, int n,
				      bool cur);
extern sim_explore_chooser_fn sim_explore_chooser;
/* sim_explore_spinning - is CPU @cpu spinning by the spin rule (no
 * candidate while another CPU is)?  Return: true or false. */
bool sim_explore_spinning(int cpu);

/* sim_explore_solo - from now on only CPU @cpu is dispatched, @steps
 * times at most; when it cannot run or has taken them, the memory
 * model's certified window ends (sim_sb_certify_end(): the certifying
 * child of sim/explore/promise.h, the only caller). */
void sim_explore_solo(int cpu, unsigned int steps);
/* sim_explore_solo_on - is a CPU running alone (sim_explore_solo())? */
bool sim_explore_solo_on(void);

/* ---- for sim/machine/machine.c ---- */
/* sim_explore_note - CPU @c is about to make access @kind to @addr. */
void sim_explore_note(struct sim_cpu *c, enum sim_access kind,
		      const volatile void *addr);
/* sim_explore_pick - take the CPU that runs next out of the run heap;
 * @held, if not NULL, is the running CPU, which may run on and was not
 * put back in the heap: it counts as in it, and is put back unless it
 * is the one taken.  The heap (with @held) is not empty.  Return: that
 * CPU, out of the heap. */
struct sim_cpu *sim_explore_pick(struct sim_cpu *held);

#endif /* SIM_EXPLORE_H */
