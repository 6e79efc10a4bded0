/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/lines.h - code addresses of the simulator's own executable
 * as function names and file:line: the frames of a failure report's
 * stacks (sim/report/failure_lines.c) and where each task is on the
 * page of an HTML trace (sim/trace/trace_where.c).
 *
 * Stage: trace/report.  Runs binutils' addr2line once per call, on the
 * executable's DWARF line tables (the build compiles everything with
 * -g), the addresses on its standard input; no library beyond libc.
 *
 * Contract: what comes back is function names and source paths only,
 * never an address; paths are relative to the source tree
 * (FUTEXSIM_SOURCE_DIR) and, for the kernel tree extracted into the
 * build directory, to the kernel's top directory (kernel/futex/core.c),
 * so the text does not depend on host addresses nor on the build
 * directory's name.  Addresses outside the executable (libc, libunwind)
 * and all of them when addr2line is missing or fails get no pair.
 */
#ifndef SIM_REPORT_LINES_H
#define SIM_REPORT_LINES_H

#include <stdbool.h>
#include <stdint.h>

/*
 * sim_lines_resolve - for each address @pcs[i] (inside a call or a
 * faulting instruction, not a return address), call @fn(@i, function,
 * file:line, @arg) for each function at it, innermost inlined function
 * first and the function that holds the address last (a compiler's
 * suffix for a clone or a split part, ".constprop.0", dropped);
 * file:line is "" when the line tables do not have it.  A function
 * "inlined" into its own out-of-line copy is told once.
 * Return: 0, or -1 if addr2line could not be run (no call made).
 */
int sim_lines_resolve(const uintptr_t *pcs, int n,
		      void (*fn)(int i, const char *func, const char *loc,
				 void *arg),
		      void *arg);

/*
 * sim_lines_machinery - whether function @fn at @loc (as told above,
 * @fn_len and @loc_len bytes; @loc may be empty) is the simulator's own
 * machinery around a task's stack rather than where the task is: the
 * trace's and the scheduler's switch and the machine's dispatch above it
 * (sim/trace/, sched/core.c, sim/machine/, sim/host/), the coroutine's
 * start below it (sim__coro_*), or a function with no name ("??").  The
 * page of an HTML trace and the failure report leave such functions out
 * at both ends of a stack.
 */
bool sim_lines_machinery(const char *fn, int fn_len, const char *loc,
			 int loc_len);

#endif /* SIM_REPORT_LINES_H */
