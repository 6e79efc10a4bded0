/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/failure.h - reports of simulated failures: deadlock, livelock,
 * kernel BUG()/WARN(), stack overflow of a simulated task.
 *
 * Stage: trace/report.  Called by the machine when it detects a failure,
 * and by the arch shim through sim_bug()/sim_warn() (sim/hooks.h).
 *
 * A report gives the kind of failure, the seed, the simulated time, every
 * task's state and its stack (function names, through libunwind: the only
 * file that uses it), and the command that reproduces the run.  Then the
 * process exits with status 3.  Nothing in a report depends on host
 * addresses, so a failure reproduces byte for byte.
 */
#ifndef SIM_FAILURE_H
#define SIM_FAILURE_H

enum sim_failure {
	SIM_FAIL_DEADLOCK,	/* every task blocked, no event pending	*/
	SIM_FAIL_LIVELOCK,	/* no operation completed within bound	*/
	SIM_FAIL_BUG,		/* kernel BUG()/BUG_ON()		*/
	SIM_FAIL_WARN,		/* kernel WARN()/WARN_ON()		*/
	SIM_FAIL_STACK,		/* a task overflowed its stack		*/
	SIM_FAIL_INVARIANT,	/* a simulator invariant check failed	*/
};

/* sim_failure_set_replay - the command line that reproduces this run
 * (the CLI sets it before the run). */
void sim_failure_set_replay(const char *cmd);
/* sim_failure_install - install the SIGSEGV handler that turns a fault on
 * a task's guard page into a SIM_FAIL_STACK report. */
void sim_failure_install(void);
/* sim_fail - report @kind with the detail @what (file:line for BUG/WARN;
 * NULL: the kind's standard headline) and exit with status 3. */
void sim_fail(enum sim_failure kind, const char *what)
	__attribute__((noreturn));
/* sim_failure_stack_here - the calling task's stack, one function name per
 * line into @out (used by the machine to collect each task's stack). */
void sim_failure_stack_here(char *out, int len);

#endif /* SIM_FAILURE_H */
