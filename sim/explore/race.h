/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/race.h - the race oracle (oracle= ... race): two accesses
 * of an instrumented program to the same bytes, at least one a write and
 * at least one plain, that the simulation shows at the same time.
 *
 * Stage: trace/report, beside the flow, as the other oracles
 * (sim/explore/oracle.h).  Called by the program's instrumentation
 * (workloads/libsim/instrument.c) at each access, after its hook.
 *
 * The method is KCSAN's (Marco Elver and Paul E. McKenney, "Concurrency
 * bugs should fear the big bad data-race detector", LWN, 2020; the kernel's
 * Documentation/dev-tools/kcsan.rst): a plain access sets a watchpoint on
 * its bytes and its task waits a little before it makes the access
 * (SIM_RACE_WINDOW_PS of its CPU's clock: a scheduling point, where
 * explore's strategy and the timed machine run the other CPUs); an
 * access of another task to those bytes in the meantime, if it or the
 * watched one writes, is a data race.  When the wait ends the bytes are
 * compared with what they held before: a change no instrumented access
 * made is a race with code that is not instrumented (the libraries, the
 * kernel).  Marked accesses (volatile ones and atomics: the program's
 * READ_ONCE()s) set no watchpoint; two marked accesses never race.
 *
 * Concurrency here is what the simulation shows: no happens-before
 * order is kept, so a race is reported only when a schedule makes the
 * two accesses meet, as KCSAN reports it only when they meet on real
 * CPUs; correct synchronization never lets them meet, so a report is
 * never a false one.  Races of the kernel's own code are not looked
 * for: its files are instrumented only with make INSTR=1, and then their
 * accesses are hooks only (sim/arch/instrument.c), for data_race() and
 * ASSERT_EXCLUSIVE_*() would need KCSAN's runtime interface.
 *
 * Off unless oracle= names race (the watchpoints cost a wait at every
 * plain access).  A race ends the run with sim_fail(SIM_FAIL_RACE): exit
 * 3, the report with both tasks' stacks (the watcher's stopped at its
 * access) and a replay file; explore's "race".
 */
#ifndef SIM_EXPLORE_RACE_H
#define SIM_EXPLORE_RACE_H

#include "sim/explore/oracle.h"

#define SIM_RACE_WINDOW_PS	200000	/* a watchpoint's wait: 200 ns	*/

/* sim_race_access - the running task is about to access @size bytes at
 * @p, a write if @write, a marked access if @marked.  Call only when
 * sim_race_on(); after the access's hook, before the access. */
void sim_race_access(const volatile void *p, unsigned int size, int write,
		     int marked);

/* sim_race_on - is the race oracle on in this run? */
static inline int sim_race_on(void)
{
	return (sim_oracles.mask & SIM_ORACLE_RACE) != 0;
}

/* sim_race_reset - no watchpoint (a run begins). */
void sim_race_reset(void);

#endif /* SIM_EXPLORE_RACE_H */
