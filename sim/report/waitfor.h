/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/waitfor.h - a deadlock's wait-for graph: what each blocked
 * task waits on, who holds it, and the cycle.
 *
 * Stage: trace/report.  Called by the failure report (sim/report/failure.c)
 * for SIM_FAIL_DEADLOCK; reads the machine's tasks (the futex word each
 * sleeps on: sim_sys_futex() records it), the words' holders
 * (sim/trace/uword.h: a pthread mutex's holder, a raw word's last
 * acquirer), a PI word's TID, and the owners the workload knows
 * (sim_waitfor_set_owner(): a joined thread); names words with
 * sim/report/symbols.h.
 */
#ifndef SIM_REPORT_WAITFOR_H
#define SIM_REPORT_WAITFOR_H

#include <stddef.h>

/* sim_waitfor_set_owner - @fn gives the TID that owns futex word @word as
 * the workload knows it (0: none), asked when sim/trace/uword.h knows no
 * holder (workloads/program.c: the thread a pthread_join() waits for).
 * NULL: none. */
void sim_waitfor_set_owner(int (*fn)(const void *word));

/*
 * sim_waitfor_text - into @buf: one line per task sleeping in a futex
 * call, "    thread1 (TID 101) waits on lockB (prog.c:10), held by
 * thread2" ("held by nobody (the word is 0)": a known futex word nobody
 * holds, as in a lost wakeup), then the first cycle found, "wait-for cycle: thread1 ->
 * lockB (prog.c:10) (held by thread2) -> thread2 -> lockA (prog.c:9)
 * (held by thread1) -> thread1" (starting at its task created first),
 * or "wait-for cycle: none found".  Only in a program's run (an owner
 * function is set: the words have names).  Return: @buf ("" if no task
 * waits, or not a program's run).
 */
const char *sim_waitfor_text(char *buf, size_t len);

#endif /* SIM_REPORT_WAITFOR_H */
