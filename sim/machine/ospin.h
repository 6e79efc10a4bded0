/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/ospin.h - owner-spin rounds run by the dispatcher, without
 * their code.
 *
 * Stage: machine.  mutex_spin_on_owner() (kernel/locking/mutex.c) spins
 * on a mutex's owner while it runs: each round loads lock->owner (A),
 * loads owner->on_cpu (B, whose value the scheduler supplies:
 * owner_on_cpu() of sim/arch/include/linux/sched.h), tests
 * need_resched() and calls cpu_relax() (R).  Two spinners on two CPUs
 * (the serialization mutex of the TP futex: its owner spins on the
 * futex's owner, the next waiter on it) pass each other's clocks at
 * every round, a coroutine switch per hook.  Once two rounds of a CPU
 * were the same (hooks, costs, values read), the round is a function of
 * those values, so the dispatcher makes the CPU's next rounds itself:
 * each hook charged through the same cost model, the same horizon and
 * run-heap steps, each load's value compared with the round's, no code
 * run and no switch.  The CPU's task stays suspended in the R hook where
 * this began; its code is equal at every round's R.
 *
 * Rounds as (mode, hook) tuples, mode of struct sim_ospin:
 *
 *   (OFF) --owner_on_cpu() in mutex_spin_on_owner()--> (REC, after B)
 *   (REC) --A, B, R of a round--> (REC); two equal rounds and R reaches
 *         the horizon --> (RUN, at R)
 *   (REC) --any other hook or task--> (OFF)
 *   (RUN, at h) --the dispatcher picks the CPU: h's access made, the next
 *         hook charged, until the horizon--> (RUN, at h')
 *   (RUN, at h) --need_resched, a value not the round's, a charge not the
 *         round's--> the task resumed: (REPLAY) or, at R's access, (OFF)
 *   (REPLAY) --the round's hooks before h: no charge, the round's values
 *         read (A's bytes put in memory for the load, B's value given)-->
 *         (REPLAY) --hook h--> (OFF): h's access made live (or, if only
 *         its charge was made, the rest of sim__hook)
 *
 * A hook in REPLAY that is not the round's (the loop is not a function
 * of what it read) is a simulator failure: SIM_FAIL_INVARIANT.
 *
 * Off under explore (every hook is a scheduling point there),
 * memory=tso|arm64, recording or replaying (a replay file lists every
 * switch), with FUTEXSIM_OWNER_SPIN_RUN=0 in the environment (the tests
 * compare the two), and in a build over a user's kernel tree or a patch
 * that touches kernel/locking/mutex.c (FUTEXSIM_OSPIN_KERNEL of
 * version.h): the loop is known to be a function of what it reads only
 * as Debian ships it.  Speed never changes a result: every report is
 * the same bytes.
 */
#ifndef SIM_MACHINE_OSPIN_H
#define SIM_MACHINE_OSPIN_H

#include <stdint.h>

#include "sim/machine/hooks.h"

struct sim_cpu;
struct sim_cache_line;

enum sim_ospin_mode { OSPIN_OFF, OSPIN_REC, OSPIN_RUN, OSPIN_REPLAY };

/* One hook of a round: A, B, R. */
struct sim_ospin_hook {
	const volatile void *addr;
	struct sim_cache_line *line;	/* RUN: addr's, for a load's charge */
	uint64_t cost_ps;	/* its charge				*/
	uint64_t val;		/* A: the bytes loaded; B: on_cpu	*/
	unsigned int size;
	enum sim_access kind;
};

#define OSPIN_HOOKS	3	/* A, B, R				*/
#define OSPIN_R		2	/* R's place: it reads nothing	*/

struct sim_ospin {
	uint8_t n;		/* REC: hooks of the round so far	*/
	uint8_t have_round;	/* REC: round[] is a whole round	*/
	uint8_t noted;		/* REC: owner_on_cpu() told B's value	*/
	uint8_t pos;		/* RUN: the hook it is in; REPLAY: next	*/
	uint8_t left;		/* REPLAY: hooks before the last	*/
	uint8_t charged_only;	/* REPLAY: the last hook's access not made */
	uint8_t swapped;	/* REPLAY: A's bytes are in memory	*/
	uint8_t onc_given;	/* REPLAY: B's value to give		*/
	int saved_resched;	/* REPLAY: need_resched, given as 0	*/
	const struct sim_task *owner, *task;
	uint64_t post_ps;	/* REPLAY: the last hook's arrival rest	*/
	uint64_t swap_val;	/* REPLAY: A's bytes in memory now	*/
	struct sim_ospin_hook cur[OSPIN_HOOKS], round[OSPIN_HOOKS];
};

/* The machine's switch for this run, set at sim_run(). */
void sim_ospin_setup(void);
extern int sim__ospin_on;

/* What the dispatcher made, since sim_run() (for the tests): rounds
 * begun without their code; the task resumed, by cause; of those, the
 * ones that replayed hooks, and those whose A had changed since. */
enum sim_ospin_cause { OSPIN_RESCHED, OSPIN_VALUE, OSPIN_CHARGE,
		       OSPIN_NR_CAUSES };
struct sim_ospin_stats {
	uint64_t runs;
	uint64_t leaves[OSPIN_NR_CAUSES][OSPIN_HOOKS];
	uint64_t replays, stale_a;
};
extern struct sim_ospin_stats sim_ospin_stats;
/* For the tests only, bits: OSPIN_TEST_LEAVE_AT_B resumes the task at
 * every B's access (early, which is exact: it exercises the replay);
 * the negative controls, inexact runs: OSPIN_TEST_NO_RESCHED ignores
 * need_resched while rounds are made, OSPIN_TEST_NO_SWAP replays A with
 * the bytes memory has now, not the round's. */
#define OSPIN_TEST_LEAVE_AT_B	1
#define OSPIN_TEST_NO_RESCHED	2
#define OSPIN_TEST_NO_SWAP	4
extern int sim__ospin_test;

/* (REC) hook of @c charged @cost_ps (arrival rest @post_ps); at an R
 * that ends a round like the one before, with @at_horizon, the CPU goes
 * (RUN). */
void sim_ospin_charged(struct sim_cpu *c, enum sim_access kind,
		       const volatile void *addr, unsigned int size,
		       uint64_t cost_ps, uint64_t post_ps, int at_horizon);

/* (RUN) the access of hook @pos is the round's: -1, else the cause.  At
 * OSPIN_R only need_resched can end the round: sim/machine/machine.c's
 * ospin_run() tests that itself there, with no call, when it is clear. */
int sim_ospin_access_same(const struct sim_cpu *c, unsigned int pos);
/* (RUN) -> (REPLAY) or (OFF), for @cause: the task resumes at hook @pos,
 * its access made, or if the cause is the charge, only charged (arrival
 * rest @post_ps). */
void sim_ospin_leave(struct sim_cpu *c, unsigned int pos,
		     enum sim_ospin_cause cause, uint64_t post_ps);

enum sim_ospin_replayed { OSPIN_PAST, OSPIN_MADE, OSPIN_CHARGED };
/* (REPLAY) a hook of the resumed task. */
enum sim_ospin_replayed sim_ospin_replay(struct sim_cpu *c,
					 enum sim_access kind,
					 const volatile void *addr,
					 unsigned int size, uint64_t *post_ps);

#endif /* SIM_MACHINE_OSPIN_H */
