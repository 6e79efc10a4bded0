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

#include "sim/scenario.h"
#include "sim/stats.h"
#include "workloads/ulock/ulock.h"

struct wl_workload {
	const char *name;
	const char *description;
	/* run - create the tasks on the (initialised) machine, sim_run(),
	 * and fill @r.  Runs in a process of its own (one per lock). */
	void (*run)(const struct sim_scenario *s, const struct ulock_ops *lock,
		    struct sim_result *r);
};

/* wl_find - the workload called @name, or NULL. */
const struct wl_workload *wl_find(const char *name);
extern const struct wl_workload *const wl_registry[];

extern const struct wl_workload wl_mutex;	/* mutex.c */

#endif /* WL_WORKLOAD_H */
