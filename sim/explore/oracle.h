/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/oracle.h - what makes a run fail, beyond the machine's own checks,
 * and the starvation figures of every run.
 *
 * Stage: trace/report, beside the flow.  The workload drivers
 * (workloads/driver.c, mutex.c, spin.c) tell it when a worker starts to
 * wait for the lock, gets it and finishes; it keeps the starvation
 * figures of every run (the longest wait is the driver's acquire
 * latency; here: the most acquisitions that overtook one waiter) and
 * checks the starvation oracles, which end the run through sim_fail()
 * (SIM_FAIL_STARVATION, exit 3, like any simulated failure).  The CLI's
 * child and the explore command (sim/explore/explore_run.c) set the oracles from
 * the scenario's oracle= key; explore names the oracle a failure belongs
 * to (sim_oracle_classify()).  Implemented in sim/explore/oracle.c.
 *
 * Oracles (comma-separated in oracle=):
 *   mutex        two tasks inside one lock's critical section
 *   deadlock     every task blocked (a "lost wakeup" when a task sleeps
 *                while the lock word it waits on reads 0: free), or no
 *                operation completed within the livelock bound
 *   state        the *_assert_state() invariants at every dispatch
 *                (sched_assert_state(), TP's, as FUTEXSIM_CHECK_STATE=1)
 *   bug          kernel BUG()/WARN(), stack overflow
 *   crash        a task got a fatal signal (SIGSEGV, SIGFPE ...), or ran
 *                the stuck bound without a scheduling point ("stuck")
 *   starve=WAIT  one acquisition waited longer than WAIT (a duration)
 *   overtake=N   a waiter was overtaken by N or more acquisitions
 *   race         two accesses of an instrumented program met, one a
 *                write, one plain (sim/explore/race.h); not in the default
 *   share=F      over a window of 10 x threads acquisitions, a thread
 *                that was working the whole window got fewer than F
 *                (0 < F < 1) of its fair share of them
 * Default: mutex,deadlock,state,bug,crash.  A failure of a kind left out of the
 * list still ends a run (the machine cannot go on), but `futexsim explore`
 * counts it apart and goes on searching.
 */
#ifndef SIM_ORACLE_H
#define SIM_ORACLE_H

#include <stddef.h>
#include <stdint.h>

#include "sim/report/failure.h"
#include "sim/report/stats.h"

enum sim_oracle_bit {
	SIM_ORACLE_MUTEX	= 1 << 0,
	SIM_ORACLE_DEADLOCK	= 1 << 1,
	SIM_ORACLE_STATE	= 1 << 2,
	SIM_ORACLE_BUG		= 1 << 3,
	SIM_ORACLE_STARVE	= 1 << 4,
	SIM_ORACLE_OVERTAKE	= 1 << 5,
	SIM_ORACLE_SHARE	= 1 << 6,
	SIM_ORACLE_CRASH	= 1 << 7,
	SIM_ORACLE_RACE		= 1 << 8,
};

#define SIM_ORACLE_DEFAULT	"mutex,deadlock,state,bug,crash"

struct sim_oracles {
	unsigned int mask;		/* enum sim_oracle_bit		*/
	uint64_t starve_ps;		/* starve=				*/
	uint64_t overtake;		/* overtake=				*/
	double share;			/* share=				*/
};

/* The oracles of the run in this process (all off until set). */
extern struct sim_oracles sim_oracles;

/*
 * sim_oracle_parse - the list @text into @o.  Return: 0, or -1 with a
 * description of what was expected in @err (@len bytes).
 */
int sim_oracle_parse(const char *text, struct sim_oracles *o, char *err,
		     size_t len);
/*
 * sim_oracle_classify - the oracle a failure of @kind with headline detail
 * @what belongs to: "mutex", "deadlock", "lost-wakeup", "livelock",
 * "state", "bug", "crash", "stuck", "starve", "overtake" or "share";
 * *@bit gets its bit.
 */
const char *sim_oracle_classify(enum sim_failure kind, const char *what,
				unsigned int *bit);

/* ---- the workload drivers' side ---- */
/* sim_oracle_run_begin - a run of @threads workers starts. */
void sim_oracle_run_begin(int threads);
/* sim_oracle_watch - @word is the run's lock word, 0 when free (for the
 * lost-wakeup diagnosis; none by default). */
void sim_oracle_watch(const void *word);
/* sim_oracle_watched - the word sim_oracle_watch() set for this run, or
 * NULL (`futexsim play` shows its value). */
const void *sim_oracle_watched(void);
/* sim_oracle_wait - worker @idx calls the lock. */
void sim_oracle_wait(int idx);
/* sim_oracle_acquired - worker @idx holds the lock (checks the oracles). */
void sim_oracle_acquired(int idx);
/* sim_oracle_done - worker @idx does no more operations. */
void sim_oracle_done(int idx);
/* sim_oracle_collect - this run's starvation figures into @r. */
void sim_oracle_collect(struct sim_result *r);
/* sim_oracle_lock_free - the watched lock word reads 0 (1), not (0), or
 * there is none (-1). */
int sim_oracle_lock_free(void);
/*
 * sim_oracle_lost_wakeup - is a deadlock at hand a lost wakeup: the
 * watched lock word reads 0 (free) while every task is blocked?  The one
 * diagnosis of both sim_oracle_classify() and the DEADLOCK report's
 * headline (sim/report/failure.c).  If so and @buf is not NULL, @buf (@len
 * bytes) gets what is seen: 'task 101 "worker1" sleeps in
 * FUTEX_WAIT on 0x200000049180, whose word reads 0, free' (the
 * first task asleep in a futex(2) call on the word, "(and N more)" if
 * others are), or that every task is blocked while the word reads 0.
 * Return: 1 if it is a lost wakeup, 0 if not or no lock word is watched.
 */
int sim_oracle_lost_wakeup(char *buf, size_t len);

#endif /* SIM_ORACLE_H */
