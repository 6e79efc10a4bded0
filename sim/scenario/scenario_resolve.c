/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/scenario/scenario_resolve.c - cross-key resolution of a scenario: derived
 * defaults (cpus, threads, ops from ops-per-thread, readers and writers,
 * the lock list of a workload with kernel locks) and the checks that need
 * more than one key or the machine (exit 2, naming the key given last).
 *
 * Stage: CLI input.  Called by the CLI through sim_scenario_resolve()
 * after every key is set (sim/scenario/scenario.c) and the machine preset is
 * loaded; calls wl_klock_find()/ulock_find() once per lock name, to
 * check it against the workload's namespace and keep its entry
 * (s->ulock[], s->klock[]: nothing looks a name up after this), and
 * sim/scenario/config.c for errors.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sim/machine/machine.h"
#include "sim/scenario/scenario.h"
#include "workloads/workload.h"

/* Was @a given after @b?  The command line comes after every file line;
 * two command-line keys count as @a later. */
static int later(const struct sim_origin *a, const struct sim_origin *b)
{
	if (!a->line || !b->line)
		return !a->line;
	return a->line > b->line;
}

/* Two exclusive keys both given: blame the later one. */
static void exclusive(const struct sim_origin *a_at, const char *a,
		      const struct sim_origin *b_at, const char *b)
{
	char expected[320], got[48];
	int b_later = later(b_at, a_at);
	const struct sim_origin *at = b_later ? b_at : a_at;
	const struct sim_origin *other = b_later ? a_at : b_at;

	/* @other is in the one scenario file, or on the command line (then
	 * @at is too: the command line comes later). */
	if (other->line)
		snprintf(got, sizeof(got), "at line %d%s", other->line,
			 at->line ? "" : " of the scenario file");
	else
		snprintf(got, sizeof(got), "on the command line");
	snprintf(expected, sizeof(expected),
		 "either %s or %s, not both (%s is given %s)", a, b,
		 b_later ? a : b, got);
	sim_config_fail(at, b_later ? b : a, expected, NULL);
}

/* ops, ops-per-thread, duration: one of them at most; then the total. */
static void resolve_ops(struct sim_scenario *s)
{
	if (s->ops_at.file && s->duration_at.file)
		exclusive(&s->ops_at, "ops", &s->duration_at, "duration");
	if (s->ops_at.file && s->ops_per_thread_at.file)
		exclusive(&s->ops_at, "ops", &s->ops_per_thread_at,
			  "ops-per-thread");
	if (s->duration_at.file && s->ops_per_thread_at.file)
		exclusive(&s->duration_at, "duration", &s->ops_per_thread_at,
			  "ops-per-thread");
	if (s->duration_ps)
		s->ops = 0;
	/* set_ops_per_thread() caps it so that this cannot overflow */
	if (s->ops_per_thread)
		s->ops = s->ops_per_thread * (uint64_t)s->threads;
}

/* Every lock must be of the workload's namespace; a workload with kernel
 * locks runs all of them when no lock was given (but the ->opt_in ones).
 * Fills ->ulock[] and ->klock[]. */
static void resolve_locks(struct sim_scenario *s, const struct wl_workload *w)
{
	char expected[512];
	int i, n = 0;

	if (w->klocks && !s->lock_at.file) {
		for (i = 0; w->klocks[i] && n < SIM_MAX_LOCKS; i++)
			if (!w->klocks[i]->broken && !w->klocks[i]->opt_in)
				snprintf(s->locks[n++], sizeof(s->locks[0]), "%s",
					 w->klocks[i]->name);
		s->nr_locks = n;
	} else if (w->rwlocks && !s->lock_at.file) {	/* every rwlock */
		for (i = 0; ulock_registry[i] && n < SIM_MAX_LOCKS; i++)
			if (ulock_registry[i]->rw && !ulock_registry[i]->broken)
				snprintf(s->locks[n++], sizeof(s->locks[0]), "%s",
					 ulock_registry[i]->name);
		s->nr_locks = n;
	}
	/* each name checked, and resolved into its registry entry */
	for (i = 0; i < s->nr_locks; i++) {
		const struct ulock_ops *u = w->klocks ? NULL : ulock_find(s->locks[i]);
		const struct wl_klock *kl = wl_klock_find(w, s->locks[i]);

		s->ulock[i] = u;
		s->klock[i] = kl;
		if (w->klocks ? !!kl : u && (!w->rwlocks || u->rw))
			continue;
		snprintf(expected, sizeof(expected), "a %s lock of workload %s:",
			 w->klocks ? "kernel" : w->rwlocks ? "reader-writer" : "user",
			 w->name);
		sim__scenario_lock_names(w, expected, sizeof(expected));
		sim_config_fail(&s->lock_at, "lock", expected, s->locks[i]);
	}
}

/* The keys of workload=rwlock: readers and writers make the threads. */
static void resolve_rwlock(struct sim_scenario *s, const struct wl_workload *w)
{
	const struct sim_origin *at[] = {
		&s->readers_at, &s->writers_at, &s->read_ratio_at, &s->read_depth_at,
	};
	static const char *const name[] = {
		"readers", "writers", "read-ratio", "read-depth",
	};
	const struct sim_origin *rw_at = s->readers_at.file ? &s->readers_at :
					 &s->writers_at;
	const char *rw_key = rw_at == &s->readers_at ? "readers" : "writers";
	char expected[96], got[16];

	for (int i = 0; !w->rwlocks && i < 4; i++) {
		if (!at[i]->file)
			continue;
		snprintf(expected, sizeof(expected),
			 "no %s key: it belongs to workload rwlock", name[i]);
		sim_config_fail(at[i], name[i], expected, NULL);
	}
	if (s->roles_at.file && (!w->rwlocks || !rw_at->file))
		sim_config_fail(&s->roles_at, "roles",
				w->rwlocks ? "readers and writers keys: roles lays out separate reader and writer threads" :
				"no roles key: it belongs to workload rwlock", NULL);
	if (!w->rwlocks || !rw_at->file)
		return;
	if (s->read_ratio_at.file)
		exclusive(&s->read_ratio_at, "read-ratio", rw_at, rw_key);
	snprintf(got, sizeof(got), "%d", s->readers + s->writers);
	if (s->readers + s->writers < 1 || s->readers + s->writers >= SIM_MAX_TASKS)
		sim_config_fail(rw_at, rw_key, "readers + writers from 1 to 4095", got);
	if (s->threads_at.file && s->threads != s->readers + s->writers) {
		snprintf(expected, sizeof(expected),
			 "readers + writers (%s), or no threads key", got);
		snprintf(got, sizeof(got), "%d", s->threads);
		sim_config_fail(&s->threads_at, "threads", expected, got);
	}
	s->threads = s->readers + s->writers;
}

/* The keys of workload=spin, and what it cannot do. */
static void resolve_spin(struct sim_scenario *s, const struct wl_workload *w)
{
	char expected[96], got[16];

	if (w != &wl_spin) {
		if (s->data_at.file)
			sim_config_fail(&s->data_at, "data",
					"no data key: it belongs to workload spin", NULL);
		if (s->placement_at.file)
			sim_config_fail(&s->placement_at, "placement",
					"no placement key: it belongs to workload spin", NULL);
		if (s->access_at.file)
			sim_config_fail(&s->access_at, "data-access",
					"no data-access key: it belongs to workload spin", NULL);
		return;
	}
	if (s->threads > s->cpus) {
		snprintf(expected, sizeof(expected),
			 "at most cpus (%d): workload spin runs one task per CPU",
			 s->cpus);
		snprintf(got, sizeof(got), "%d", s->threads);
		sim_config_fail(&s->threads_at, "threads", expected, got);
	}
	if (s->cs.kind == SIM_WORK_SLEEP)
		sim_config_fail(&s->cs_at, "cs",
				"pause:N, loop:N or none (a spinlock holder cannot sleep)", NULL);
	if (s->between.kind == SIM_WORK_SLEEP)
		sim_config_fail(&s->between_at, "between",
				"pause:N, loop:N or none (workload spin's tasks never sleep)", NULL);
}

void sim_scenario_resolve(struct sim_scenario *s, int machine_cpus)
{
	const struct wl_workload *w = s->wl;
	char expected[320], got[48];

	if (s->cpus > machine_cpus) {
		snprintf(expected, sizeof(expected),
			 "at most %d (the CPUs of machine %s)", machine_cpus,
			 s->machine);
		snprintf(got, sizeof(got), "%d", s->cpus);
		sim_config_fail(&s->cpus_at, "cpus", expected, got);
	}
	if (!s->cpus)
		s->cpus = machine_cpus;
	resolve_rwlock(s, w);
	if (!s->threads)
		s->threads = s->cpus;
	resolve_ops(s);
	resolve_locks(s, w);
	resolve_spin(s, w);
	if (s->trace_to_ps && s->trace_to_ps <= s->trace_from_ps) {
		snprintf(expected, sizeof(expected), "a time after trace-from (%s)",
			 sim_format_duration_ps(s->trace_from_ps, got, sizeof(got)));
		sim_config_fail(&s->trace_to_at, "trace-to", expected,
				sim_format_duration_ps(s->trace_to_ps, got, sizeof(got)));
	}
}

