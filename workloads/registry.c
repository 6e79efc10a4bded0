/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/registry.c - the table of workloads, by name.
 *
 * Stage: workload.  Used by the scenario parser (workload=, and lock= for
 * the kernel locks of a workload) and `futexsim list workloads|locks`.
 */
#include <string.h>

#include "workloads/workload.h"

const struct wl_workload *const wl_registry[] = {
	&wl_mutex,
	&wl_spin,
	&wl_rwlock,
	&wl_program,
	NULL,
};

const struct wl_workload *wl_find(const char *name)
{
	for (int i = 0; wl_registry[i]; i++)
		if (!strcmp(wl_registry[i]->name, name))
			return wl_registry[i];
	return NULL;
}

const struct wl_klock *wl_klock_find(const struct wl_workload *w,
				     const char *name)
{
	if (!w || !w->klocks)
		return NULL;
	for (int i = 0; w->klocks[i]; i++)
		if (!strcmp(w->klocks[i]->name, name))
			return w->klocks[i];
	return NULL;
}
