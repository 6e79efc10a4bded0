/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/workload.h - the benchmark drivers that create the simulated
 * tasks of a scenario, run them and collect the figures.
 *
 * Stage: workload, first in the flow: workload -> ulock -> futex(2) ->
 * kernel -> sched -> machine -> report.
 */
#ifndef WL_WORKLOAD_H
#define WL_WORKLOAD_H

#include <stdbool.h>

#include "sim/scenario/scenario.h"
#include "sim/report/stats.h"
#include "workloads/ulock/ulock.h"

/*
 * struct wl_klock - a kernel spinlock of workload=spin (futex/kspin.h).
 * Kernel locks are a lock= namespace of their own, apart from the user
 * locks of workloads/ulock: each workload accepts the names of its own
 * namespace only (sim_scenario_resolve()).
 */
struct wl_klock {
	const char *name;		/* the scenario's lock= value	*/
	const char *description;	/* one line, for `futexsim list`*/
	/* lock/unlock - @l: KSIM_SPIN_BYTES of zeroed simulated memory.
	 * lock disables preemption, unlock enables it again. */
	void (*lock)(void *l);
	void (*unlock)(void *l);
	bool paths;			/* counts fast/pending/queue	*/
	bool broken;			/* a negative control: hidden	*/
	bool opt_in;			/* listed, run only when named	*/
};

struct wl_workload {
	const char *name;
	const char *description;
	/* run - create the tasks on the (initialised) machine, sim_run(),
	 * and fill @r.  Runs in a process of its own (one per lock).
	 * @lock is the user lock s->locks[0], or NULL for a workload with
	 * ->klocks, which finds its kernel lock by name itself. */
	void (*run)(const struct sim_scenario *s, const struct ulock_ops *lock,
		    struct sim_result *r);
	/* klocks - NULL-terminated table of the kernel locks the workload
	 * runs; NULL: it runs the user locks (ulock_registry). */
	const struct wl_klock *const *klocks;
	/* rwlocks - it runs the user locks that have a read side (->rw,
	 * workloads/ulock/rwlock.h) only, all of them when no lock= */
	bool rwlocks;
};

/* wl_find - the workload called @name, or NULL. */
const struct wl_workload *wl_find(const char *name);
extern const struct wl_workload *const wl_registry[];
/* wl_klock_find - kernel lock @name of workload @w (broken ones included),
 * or NULL (also when @w runs user locks). */
const struct wl_klock *wl_klock_find(const struct wl_workload *w,
				     const char *name);

extern const struct wl_workload wl_mutex;	/* mutex.c */
extern const struct wl_workload wl_spin;	/* spin.c  */
extern const struct wl_workload wl_rwlock;	/* rwlock.c */
extern const struct wl_workload wl_program;	/* program.c */
/* wl_program_mute - @on: the program's stdout and stderr lines are
 * dropped and its futex words go unnamed in the figures (the runs of a
 * search, sim/explore/explore_fork.c, and sim/program/prepass.c: naming
 * reads the executable's debug info, which costs more than a run).
 * wl_program_muted - whether it is so now. */
void wl_program_mute(int on);
int wl_program_muted(void);

/*
 * wl_spin_run_lock - workload=spin with kernel lock @k, which need not be
 * in the table (the tests run their own broken lock through it).  Same
 * contract as ->run().
 */
void wl_spin_run_lock(const struct sim_scenario *s, const struct wl_klock *k,
		      struct sim_result *r);

#endif /* WL_WORKLOAD_H */
