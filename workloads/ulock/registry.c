/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/registry.c - the table of user-space locks, by name.
 *
 * Stage: user-space lock.  Used by the scenario parser (lock=) and
 * `futexsim list locks`.
 */
#include <string.h>

#include "workloads/ulock/ulock.h"

const struct ulock_ops *const ulock_registry[] = {
	&ulock_ww_ops,
	&ulock_ww_timed_ops,
	&ulock_pi_ops,
	&ulock_tp_ops,
	&ulock_tp_timed_ops,
	&ulock_tp_timed_busted_ops,
	&ulock_ww_busted_ops,
	&ulock_racy_ops,
	&ulock_tas_relaxed_ops,
	&ulock_adaptive_ops,
	&ulock_rw_prefer_reader_ops,
	&ulock_rw_prefer_writer_ops,
	&ulock_rw_prefer_writer_nr_ops,
	&ulock_rw_tp_ops,
	&ulock_rw_tp_preader_ops,
	&ulock_rw_tp_timed_ops,
	&ulock_rw_tp_timed_busted_ops,
	&ulock_rw_busted_ops,
	NULL,
};

const struct ulock_ops *ulock_find(const char *name)
{
	for (int i = 0; ulock_registry[i]; i++)
		if (!strcmp(ulock_registry[i]->name, name))
			return ulock_registry[i];
	return NULL;
}
