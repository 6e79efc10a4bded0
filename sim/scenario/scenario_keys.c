/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/scenario/scenario_keys.c - the scenario keys that belong to one workload or
 * one lock: spin's data, placement and data-access; rwlock's readers,
 * writers, read-ratio, read-depth and roles; lock=adaptive's adaptive and
 * spin-count; workload=program's program and args; lock=tp's tp-policy,
 * tp-handoff and tp-mutex; the watchdog's stuck, and progress.  Each setter checks its
 * value and stores it.
 *
 * Stage: CLI input.  Called through the keys[] table of sim/scenario/scenario.c
 * (sim_scenario_set()), whose helpers it uses for strings and counts
 * (sim/scenario/scenario_keys.h); calls sim/scenario/config.c for errors and
 * ulock_adaptive_name() for the adaptive variants.  The cross-key checks
 * of spin's and rwlock's keys are sim_scenario_resolve()'s
 * (sim/scenario/scenario_resolve.c).
 */
#include <string.h>

#include "sim/scenario/config.h"
#include "sim/machine/memmodel.h"

#include "futex/tp_abi.h"
#include "sim/machine/machine.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_keys.h"
#include "workloads/ulock/adaptive.h"
#include "workloads/ulock/ulock.h"
#include "workloads/workload.h"

void sim__scenario_set_data(struct sim_scenario *s, const struct key *k,
			    const char *v, const struct sim_origin *at)
{
	s->data = sim__scenario_get_choice(k, v, "standalone", "embedded", at) ?
		SIM_DATA_EMBEDDED : SIM_DATA_STANDALONE;
	s->data_at = *at;
}

void sim__scenario_set_placement(struct sim_scenario *s, const struct key *k,
				 const char *v, const struct sim_origin *at)
{
	s->placement = sim__scenario_get_choice(k, v, "pack", "nodes", at) ?
		SIM_PLACE_NODES : SIM_PLACE_PACK;
	s->placement_at = *at;
}

void sim__scenario_set_access(struct sim_scenario *s, const struct key *k,
			      const char *v, const struct sim_origin *at)
{
	s->access = sim__scenario_get_choice(k, v, "read-write", "write", at) ?
		SIM_ACCESS_WRITE : SIM_ACCESS_READ_WRITE;
	s->access_at = *at;
}

/* workload=rwlock: readers=, writers=, read-ratio=, read-depth= */
void sim__scenario_set_rwlock_key(struct sim_scenario *s, const struct key *k,
				  const char *v, const struct sim_origin *at)
{
	if (!strcmp(k->name, "readers")) {
		s->readers = (int)sim__scenario_get_count(k, v, 0, SIM_MAX_TASKS - 1, at);
		s->readers_at = *at;
	} else if (!strcmp(k->name, "writers")) {
		s->writers = (int)sim__scenario_get_count(k, v, 0, SIM_MAX_TASKS - 1, at);
		s->writers_at = *at;
	} else if (!strcmp(k->name, "read-ratio")) {
		s->read_ratio = (unsigned int)sim__scenario_get_count(k, v, 0, 100, at);
		s->read_ratio_at = *at;
	} else {
		s->read_depth = (unsigned int)sim__scenario_get_count(k, v, 1, 8, at);
		s->read_depth_at = *at;
	}
}

/* workload=rwlock with readers/writers: roles=alternate|split */
void sim__scenario_set_roles(struct sim_scenario *s, const struct key *k,
			     const char *v, const struct sim_origin *at)
{
	s->roles = sim__scenario_get_choice(k, v, "alternate", "split", at) ?
		SIM_ROLES_SPLIT : SIM_ROLES_ALTERNATE;
	s->roles_at = *at;
}

/* lock=adaptive: adaptive=VARIANT, spin-count=N (glibc's tunable range) */
void sim__scenario_set_adaptive(struct sim_scenario *s, const struct key *k,
				const char *v, const struct sim_origin *at)
{
	int i;

	if (!strcmp(k->name, "spin-count")) {
		s->spin_count = (unsigned int)sim__scenario_get_count(k, v, 0, 32767, at);
		return;
	}
	for (i = 0; i <= ULOCK_ADAPTIVE_GLIBC236; i++)
		if (!strcmp(v, ulock_adaptive_name(i))) {
			s->adaptive = i;
			return;
		}
	sim_config_fail(at, k->name, "pre2018, seed2018, glibc235 or glibc236", v);
}

/* workload=program: the binary `futexsim build` made, and its argv. */
void sim__scenario_set_program(struct sim_scenario *s, const struct key *k,
			       const char *v, const struct sim_origin *at)
{
	if (!strcmp(v, "none")) {
		s->program[0] = '\0';
		return;
	}
	sim__scenario_set_str(s->program, sizeof(s->program), k, v, at);
	memcpy(s->workload, "program", sizeof("program"));
	s->wl = &wl_program;
}

void sim__scenario_set_args(struct sim_scenario *s, const struct key *k,
			    const char *v, const struct sim_origin *at)
{
	if (!*v || !strcmp(v, "none")) {
		s->args[0] = '\0';
		return;
	}
	sim__scenario_set_str(s->args, sizeof(s->args), k, v, at);
	s->args_at = *at;
}

/* tp-policy=v2|v6, tp-handoff=on|off, tp-mutex=6.1|4.8: lock=tp
 * (futex/tp.c) */
void sim__scenario_set_tp_policy(struct sim_scenario *s, const struct key *k,
				 const char *v, const struct sim_origin *at)
{
	s->tp_policy = sim__scenario_get_choice(k, v, "v2", "v6", at) ?
		TP_POLICY_V6 : TP_POLICY_V2;
}

void sim__scenario_set_memory(struct sim_scenario *s, const struct key *k,
			      const char *v, const struct sim_origin *at)
{
	if (!strcmp(v, "sc"))
		s->memory = SIM_MEMORY_SC;
	else if (!strcmp(v, "tso"))
		s->memory = SIM_MEMORY_TSO;
	else if (!strcmp(v, "arm64"))
		s->memory = SIM_MEMORY_ARM64;
	else
		sim_config_fail(at, k->name, "sc, tso or arm64", v);
	s->memory_at = *at;
}

void sim__scenario_set_tp_handoff(struct sim_scenario *s, const struct key *k,
				  const char *v, const struct sim_origin *at)
{
	s->tp_handoff = !sim__scenario_get_choice(k, v, "on", "off", at);
}

void sim__scenario_set_tp_mutex(struct sim_scenario *s, const struct key *k,
				const char *v, const struct sim_origin *at)
{
	s->tp_mutex = sim__scenario_get_choice(k, v, "6.1", "4.8", at) ?
		TP_MUTEX_48 : TP_MUTEX_61;
}

/* progress=: auto, yes or no */
static void set_progress(struct sim_scenario *s, const struct key *k,
			 const char *v, const struct sim_origin *at)
{
	if (!strcmp(v, "auto"))
		s->progress = SIM_PROGRESS_AUTO;
	else
		s->progress = sim__scenario_get_choice(k, v, "no", "yes", at) ?
			      SIM_PROGRESS_YES : SIM_PROGRESS_NO;
}

/* stuck=: host CPU time, whole milliseconds, at most a day; none: off.
 * progress= goes to set_progress(). */
void sim__scenario_set_stuck(struct sim_scenario *s, const struct key *k,
			     const char *v, const struct sim_origin *at)
{
	uint64_t ps;

	if (!strcmp(k->name, "progress")) {
		set_progress(s, k, v, at);
		return;
	}
	if (!strcmp(v, "none")) {
		s->stuck_ms = 0;
		return;
	}
	if (sim_parse_duration_ps(v, &ps) || ps < 1000000000ULL ||
	    ps % 1000000000ULL || ps > 86400ULL * 1000000000000ULL)
		sim_config_fail(at, k->name,
				"a duration of host CPU time in whole milliseconds, 1ms to 24h (like 5s or 500ms), or none",
				v);
	s->stuck_ms = ps / 1000000000ULL;
}
