/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/scenario/scenario_keys.h - private to sim/scenario/scenario*.c: the key table's entry,
 * the value helpers of sim/scenario/scenario.c and the setters of
 * sim/scenario/scenario_keys.c that its keys[] table names.
 *
 * Stage: CLI input.  sim_scenario_set() (sim/scenario/scenario.c) finds a key in
 * keys[] and calls its ->set(); the setters of the keys that belong to one
 * workload or one lock live in sim/scenario/scenario_keys.c.  A setter checks the
 * value, stores it in the scenario, or fails with one line and exit 2
 * (sim_config_fail()).
 */
#ifndef SIM_SCENARIO_KEYS_H
#define SIM_SCENARIO_KEYS_H

#include <stddef.h>
#include <stdint.h>

#include "sim/scenario/config.h"
#include "sim/scenario/scenario.h"

/* One scenario key: its name, its help text, its setter. */
struct key {
	const char *name;
	const char *form;	/* for --help				*/
	const char *doc;	/* meaning and default, for --help	*/
	void (*set)(struct sim_scenario *s, const struct key *k,
		    const char *v, const struct sim_origin *at);
};

/* sim__scenario_set_str - copy @v into @dst of @size bytes, or fail (exit
 * 2): an empty value, or one of @size characters or more. */
void sim__scenario_set_str(char *dst, size_t size, const struct key *k,
			   const char *v, const struct sim_origin *at);
/* sim__scenario_get_count - @v as a count in [@lo, @hi] (suffixes k, M, G
 * allowed), or fail (exit 2). */
uint64_t sim__scenario_get_count(const struct key *k, const char *v,
				 uint64_t lo, uint64_t hi,
				 const struct sim_origin *at);
/* sim__scenario_get_choice - 0 if @v is @no, 1 if it is @yes, or fail
 * (exit 2: "expected NO or YES"). */
int sim__scenario_get_choice(const struct key *k, const char *v,
			     const char *no, const char *yes,
			     const struct sim_origin *at);

/* The setters of sim/scenario/scenario_keys.c, one per key, or per group of keys
 * told apart by @k->name (rwlock's four, adaptive and spin-count). */
void sim__scenario_set_data(struct sim_scenario *s, const struct key *k,
			    const char *v, const struct sim_origin *at);
void sim__scenario_set_roles(struct sim_scenario *s, const struct key *k,
			     const char *v, const struct sim_origin *at);
void sim__scenario_set_placement(struct sim_scenario *s, const struct key *k,
				 const char *v, const struct sim_origin *at);
void sim__scenario_set_access(struct sim_scenario *s, const struct key *k,
			      const char *v, const struct sim_origin *at);
void sim__scenario_set_rwlock_key(struct sim_scenario *s, const struct key *k,
				  const char *v, const struct sim_origin *at);
void sim__scenario_set_adaptive(struct sim_scenario *s, const struct key *k,
				const char *v, const struct sim_origin *at);
void sim__scenario_set_program(struct sim_scenario *s, const struct key *k,
			       const char *v, const struct sim_origin *at);
void sim__scenario_set_args(struct sim_scenario *s, const struct key *k,
			    const char *v, const struct sim_origin *at);
void sim__scenario_set_tp_policy(struct sim_scenario *s, const struct key *k,
				 const char *v, const struct sim_origin *at);
void sim__scenario_set_tp_mutex(struct sim_scenario *s, const struct key *k,
				const char *v, const struct sim_origin *at);
/* stuck= and progress= (told apart by @k->name) */
void sim__scenario_set_stuck(struct sim_scenario *s, const struct key *k,
			     const char *v, const struct sim_origin *at);
void sim__scenario_set_memory(struct sim_scenario *s, const struct key *k,
			      const char *v, const struct sim_origin *at);
void sim__scenario_set_tp_handoff(struct sim_scenario *s, const struct key *k,
				  const char *v, const struct sim_origin *at);

#endif /* SIM_SCENARIO_KEYS_H */
