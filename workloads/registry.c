/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/registry.c - the table of workloads, by name.
 *
 * Stage: workload.  Used by the scenario parser (workload=) and
 * `futexsim list workloads`.
 */
#include <string.h>

#include "workloads/workload.h"

const struct wl_workload *const wl_registry[] = {
	&wl_mutex,
	NULL,
};

const struct wl_workload *wl_find(const char *name)
{
	for (int i = 0; wl_registry[i]; i++)
		if (!strcmp(wl_registry[i]->name, name))
			return wl_registry[i];
	return NULL;
}
