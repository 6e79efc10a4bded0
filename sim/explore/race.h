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
 * never a false one.
 *
 * The kernel's accesses are watched when its files are instrumented
 * (make INSTR=1; sim/arch/instrument.c): then the kernel's own marks
 * are honoured as KCSAN honours them (sim/arch/kcsan.c): READ_ONCE(),
 * WRITE_ONCE() and atomics are marked, data_race() hides its accesses,
 * ASSERT_EXCLUSIVE_WRITER()/ACCESS() and their scoped forms are checked
 * (sim/explore/race_abi.h).  The simulator's own kernel-side code (the
 * scheduler's task_struct, the timers) is not instrumented: bytes it
 * changes under a kernel watchpoint are a race with code that is not
 * instrumented, as for a program's libraries.
 *
 * Off unless oracle= names race (the watchpoints cost a wait at every
 * plain access).  A race ends the run with sim_fail(SIM_FAIL_RACE): exit
 * 3, the report with both tasks' stacks (the watcher's stopped at its
 * access) and a replay file; explore's "race".
 */
#ifndef SIM_EXPLORE_RACE_H
#define SIM_EXPLORE_RACE_H

#include <stdint.h>

#include "sim/explore/oracle.h"
#include "sim/explore/race_abi.h"

#define SIM_RACE_WINDOW_PS	200000	/* a watchpoint's wait: 200 ns	*/

/* sim_race_access - sim_race_check() for a program's access: @write,
 * @marked as SIM_RACE_WRITE, SIM_RACE_MARKED; @pc where it is. */
static inline void sim_race_access(const volatile void *p, unsigned int size,
				   int write, int marked, uintptr_t pc)
{
	sim_race_check(p, size, (write ? SIM_RACE_WRITE : 0) |
		       (marked ? SIM_RACE_MARKED : 0), pc);
}

/* sim_race_on - is the race oracle on in this run? */
static inline int sim_race_on(void)
{
	return (sim_oracles.mask & SIM_ORACLE_RACE) != 0;
}

/* sim_race_reset - no watchpoint, sim__race_live from the oracles (a
 * run begins, after sim_oracles is set). */
void sim_race_reset(void);

/* One access of the race that ended the run, for the failure report
 * (sim/report/failure.c). */
struct sim_race_side {
	uint64_t addr;
	unsigned int size, how;		/* SIM_RACE_*			*/
	uintptr_t pc;			/* its code, or 0		*/
	int tid;
	char task[16];
};

/* sim_race_met - the race that ended this run: [0] the access being
 * made, [1] the watched one it met.  Return: NULL if none did. */
const struct sim_race_side *sim_race_met(void);

/* sim_race_how - "plain read", "marked write", "ASSERT_EXCLUSIVE_ACCESS"... */
const char *sim_race_how(unsigned int how);

#endif /* SIM_EXPLORE_RACE_H */
