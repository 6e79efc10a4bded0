/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/failure.h - reports of simulated failures: deadlock, livelock,
 * kernel BUG()/WARN(), stack overflow, crash (a fatal signal) or stuck
 * task (no scheduling point for too long) of a simulated task.
 *
 * Stage: trace/report.  Called by the machine when it detects a failure,
 * and by the arch shim through sim_bug()/sim_warn() (sim/machine/hooks.h).
 *
 * A report gives the kind of failure, the seed, the simulated time, the
 * last events before the failure in narrated form (with --narrate=yes;
 * sim_trace_last_events()), every task's state and its stack (function
 * names through libunwind, the only file that uses it, and file:line
 * from the binary's line tables through addr2line, sim/report/failure_lines.c),
 * and the command that reproduces the run.  Then the process exits with
 * status 3.  Nothing in a report depends on host addresses, so a failure
 * reproduces byte for byte.
 */
#ifndef SIM_FAILURE_H
#define SIM_FAILURE_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "sim/report/exit.h"

struct sim_task;

enum sim_failure {
	SIM_FAIL_DEADLOCK,	/* every task blocked, no event pending	*/
	SIM_FAIL_LIVELOCK,	/* no operation completed within bound	*/
	SIM_FAIL_BUG,		/* kernel BUG()/BUG_ON()		*/
	SIM_FAIL_WARN,		/* kernel WARN()/WARN_ON()		*/
	SIM_FAIL_STACK,		/* a task overflowed its stack		*/
	SIM_FAIL_INVARIANT,	/* a simulator invariant check failed	*/
	SIM_FAIL_STARVATION,	/* a starvation oracle (sim/explore/oracle.h)	*/
	SIM_FAIL_CRASH,		/* a task got SIGSEGV, SIGBUS, SIGFPE ...	*/
	SIM_FAIL_STUCK,		/* a task ran too long with no scheduling point */
	SIM_FAIL_RACE,		/* the race oracle (sim/explore/race.h)	*/
	SIM_FAIL_INFEASIBLE,	/* memory=arm64: a promise not kept, the
				 * run is no execution (memmodel.h)	*/
};

/* sim_failure_set_replay - the command line that reproduces this run
 * (the CLI sets it before the run). */
void sim_failure_set_replay(const char *cmd);
/*
 * sim_failure_defer - @on: a failure prints no report and exits with
 * SIM_EXIT_REPORT_AGAIN instead of 3.  The CLI sets it in a run that does
 * not narrate and, on that status, runs the same (deterministic) run
 * again with the narration kept in memory only, so that the report can
 * show the last events: runs that do not fail pay nothing for it.
 */
void sim_failure_defer(int on);

/*
 * sim_failure_install - install the handlers of sim/report/failure_signal.c:
 * a fault in a task's guard region is a SIM_FAIL_STACK failure; SIGSEGV,
 * SIGBUS, SIGFPE, SIGILL or SIGTRAP raised while a task runs (its stack
 * pointer on a task's stack) is a SIM_FAIL_CRASH; the watchdog's SIGPROF
 * finding a task that has made no scheduling point for the stuck bound
 * is a SIM_FAIL_STUCK.  Each goes through sim_fail_hook when it is set,
 * as sim_fail() does.  A fault anywhere else keeps its default action.
 * The handlers are installed at the first call of the process (a fork()'s
 * child keeps them); every call arms the watchdog for the stuck bound.
 */
void sim_failure_install(void);
/*
 * sim_failure_set_stuck_ms - the stuck bound: host CPU time (of the
 * process) a task may run without a scheduling point; 0: no watchdog.
 * Default 5000.  Takes effect at the next sim_failure_install().
 */
void sim_failure_set_stuck_ms(uint64_t ms);
/* sim_fail - report @kind with the detail @what (file:line for BUG/WARN;
 * NULL: the kind's standard headline) and exit with status 3. */
void sim_fail(enum sim_failure kind, const char *what)
	__attribute__((noreturn));
/* sim_fail_hook - when set, sim_fail() calls it first, with no report;
 * it must not return (explore mode, sim/explore/explore_run.c: it notes the
 * failure and ends the run with sim_run_abort()). */
extern void (*sim_fail_hook)(enum sim_failure kind, const char *what);
/* sim_failure_stack_here - the calling task's stack, one function name per
 * line into @out (used by the machine to collect each task's stack). */
void sim_failure_stack_here(char *out, int len);

/* sim_failure_data_name - @addr as the debug information names it, or,
 * when no symbol does, as an address on the stack of the task whose stack
 * holds it ("0x... (on the stack of task 100 \"main\")"), into @buf. */
const char *sim_failure_data_name(uint64_t addr, char *buf, size_t len);
/* sim_failure_name_data - until the next call, the reports name the
 * @n regions [@addr[i], @addr[i] + @size[i]) @name[i] where no symbol
 * names them (the built-in workloads' lock word and protected data,
 * which live in the arena); @name[i] must outlive them.  At most 4. */
void sim_failure_name_data(int n, const void *const *addr,
			   const unsigned int *size, const char *const *name);

/* Internal to sim/report/failure.c: file:line of code addresses, resolved by
 * sim/report/failure_lines.c.  sim__failure_lines_add - remember @pc (an address
 * inside a call or faulting instruction, not a return address); at most
 * a fixed number are kept, the rest stay unresolved.
 * sim__failure_lines_resolve - resolve all those remembered, at once.
 * sim__failure_lines_of - Return: @pc's frames, one "function\tfile:line"
 * line each (the location may be empty), innermost inlined function
 * first and the function that holds @pc last; NULL if unresolved. */
void sim__failure_lines_add(uintptr_t pc);
/* Internal to sim/report/failure*.c: sim__failure_from_signal - the end of
 * a failure caught by a signal handler, called once the handler has
 * returned (out of signal context), with a copy of the signal's context
 * @uc (a ucontext_t) of task @t: sim_fail_hook, or the report and exit 3.
 * sim__failure_task_of - the task whose stack or guard region holds @addr. */
void sim__failure_from_signal(enum sim_failure kind, const char *what,
			      void *uc, const struct sim_task *t)
	__attribute__((noreturn));
const struct sim_task *sim__failure_task_of(uintptr_t addr);
/* sim__failure_active - set once a report has begun. */
extern volatile sig_atomic_t sim__failure_active;
void sim__failure_lines_resolve(void);
const char *sim__failure_lines_of(uintptr_t pc);

#endif /* SIM_FAILURE_H */
