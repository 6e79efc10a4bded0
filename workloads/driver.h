/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/driver.h - what every benchmark driver shares: its worker
 * tasks and their share of the operations, fixed-ops or fixed-time
 * termination, the driver's own mutual-exclusion check, and the figures
 * every result has.
 *
 * Stage: workload.  Used by workloads/mutex.c, spin.c and rwlock.c (and
 * wl_add_thread() by workloads/program.c); calls
 * the machine (tasks, events, clock) and sim/report/stats.c.
 */
#ifndef WL_DRIVER_H
#define WL_DRIVER_H

#include <stdint.h>

#include "sim/machine/event.h"
#include "sim/machine/machine.h"
#include "sim/scenario/scenario.h"
#include "sim/report/stats.h"
#include "workloads/ulock/ulock.h"

/* One worker task of a run. */
struct wl_worker {
	int idx;
	uint64_t quota;			/* fixed-ops: operations to do	*/
	uint64_t ops;			/* operations done		*/
	uint64_t start_ps, end_ps;	/* its first and last moment	*/
	struct ulock_stats st;		/* user locks' slow paths	*/
	struct sim_task *task;
};

/* A run of one lock. */
struct wl_run {
	const struct sim_scenario *s;
	int n;				/* workers			*/
	struct wl_worker *w;
	int holder;			/* worker in the section, + 1	*/
	uint32_t data_writes;		/* the protected word's updates	*/
	int stop;			/* fixed-time: set at duration	*/
	/* every worker's lock call to lock held (wl_note_acquire()): the
	 * driver's one histogram, emptied by wl_run_begin() */
	struct sim_hist *acquire_ns;
	struct sim_event stop_ev;
};

/* wl_run_begin - allocate @s->threads workers with their share of the
 * operations; wl_run_end() frees them. */
void wl_run_begin(struct wl_run *run, const struct sim_scenario *s);
/* wl_run_tasks - create the workers' tasks, named PREFIX<idx>, running
 * @fn(worker) on @cpu_of[idx] (NULL: idx modulo the CPUs), then arm the
 * fixed-time stop. */
void wl_run_tasks(struct wl_run *run, const char *prefix,
		  void (*fn)(void *), const int *cpu_of);
/* wl_keep_going - should @w start another operation?  Tells the
 * oracles (sim/explore/oracle.h) that @w calls the lock next, or is done. */
int wl_keep_going(const struct wl_run *run, const struct wl_worker *w);
/* wl_note_acquire - a worker holds the lock it called for at @t0_ps:
 * its latency (ns) into @run's histogram. */
static inline void wl_note_acquire(struct wl_run *run, uint64_t t0_ps)
{
	sim_hist_add(run->acquire_ns, (sim_now_ps() - t0_ps) / 1000);
}
/* wl_cs_enter/exit - the driver's mutual-exclusion check around a
 * critical section; a second worker inside is a simulated failure
 * (report, exit 3).  wl_cs_enter also tells the oracles of the
 * acquisition. */
void wl_cs_enter(struct wl_run *run, const struct wl_worker *w);
void wl_cs_exit(struct wl_run *run, const struct wl_worker *w);
/*
 * The protected word: the driver's check that the lock orders memory.
 * The critical sections count in @data (simulated memory) and in
 * @run->data_writes (the driver's own): each value a section reads must
 * be the number of updates before it, else one was lost (a store the
 * lock left unordered before the next holder's load, which only a weak
 * memory model shows), a simulated failure reported by the task that
 * read it.
 * wl_data_write - a writer's update of @data: under memory=sc an atomic
 * add (one RMW, the access the studies' figures were measured with);
 * under tso|arm64 a relaxed load and a relaxed store (LDR, STR on
 * arm64), whose order only the lock gives.
 * wl_data_read - a reader's relaxed load of @data (no update).
 * wl_data_seen - @v was read from the word by a section that stores
 * @v + 1 next (workloads/spin.c): counts that update.
 * wl_data_expect - @v, read from the word by a task, must be @n.
 */
void wl_data_write(struct wl_run *run, uint32_t *data);
/* wl_name_data - the reports name the lock (@size bytes at @word)
 * "lock word (lock=@lock)" and @data "protected data"; @lock must
 * outlive the run. */
void wl_name_data(const char *lock, const void *word, unsigned int size,
		  const uint32_t *data);
void wl_data_read(struct wl_run *run, uint32_t *data);
void wl_data_seen(struct wl_run *run, uint32_t v);
void wl_data_expect(struct wl_run *run, uint32_t v, uint32_t n);
/* wl_do_work - the critical section or the work between operations:
 * PAUSEs, a plain loop (1 ns per iteration, no memory access), a sleep. */
void wl_do_work(const struct sim_work *w);
/* wl_run_sim - sim_run(), with the host time it took into @r. */
void wl_run_sim(struct sim_result *r);
/* wl_collect - the figures every result has (ops, thread times, sys and
 * user time, the lock's slow-path counts, acquisition latency, Jain's
 * index, host effort) into @r; @start_ps/@end_ps: the first start and the
 * last end. */
void wl_collect(const struct wl_run *run, struct sim_result *r,
		uint64_t *start_ps, uint64_t *end_ps);
/*
 * wl_add_thread - add one thread's figures to @r, whose thread_min_ns and
 * ops_thread_min start at UINT64_MAX: its @ops acquisitions (the total,
 * the per-thread minimum and maximum; with @lockers_only, a thread of no
 * acquisition is left out of the minimum), its time @ns (the thread
 * minimum and maximum, and added to *@tsum for the average), its @task's
 * system and user time and its lock's slow-path counters @st.  Used by
 * wl_collect() and by the program workload (workloads/program.c).
 */
void wl_add_thread(struct sim_result *r, const struct sim_task *task,
		   const struct ulock_stats *st, uint64_t ops, uint64_t ns,
		   int lockers_only, uint64_t *tsum);
void wl_run_end(struct wl_run *run);

#endif /* WL_DRIVER_H */
