/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/scenario.h - what a run simulates: the resolved set of scenario keys.
 *
 * Stage: CLI input.  A scenario file holds "key = value" lines using
 * exactly the long-option names of `futexsim run`, so a file and a command
 * line say the same thing; command-line keys override the file's.  The
 * report echoes the resolved scenario (sim_scenario_print()).
 *
 * Keys (README "Scenario keys" documents the same list):
 *   machine   preset name or path			default tiny4
 *   cpus      CPUs used, <= the preset's		default all
 *   threads   worker tasks				default = cpus
 *   workload  mutex					default mutex
 *   lock      comma-separated list of ulock names	default ww
 *   ops       total operations (fixed-ops mode)	default 100000
 *   duration  simulated run time (fixed-time mode)	e.g. 5s, 20ms
 *   cs        pause:N | sleep:DURATION | none		default pause:5
 *   between   pause:N | sleep:DURATION | none		default pause:1
 *   seed      64-bit seed				default 1
 *   json      path of the JSON results file		default none
 *   livelock  virtual time without any completed operation that counts
 *             as a livelock				default 10s
 * ops and duration are exclusive; giving duration selects fixed-time mode.
 */
#ifndef SIM_SCENARIO_H
#define SIM_SCENARIO_H

#include <stdint.h>
#include <stdio.h>

#include "sim/config.h"

#define SIM_MAX_LOCKS	8

enum sim_work_kind {
	SIM_WORK_NONE,		/* nothing					*/
	SIM_WORK_PAUSE,		/* N cpu_relax()/PAUSE in a row			*/
	SIM_WORK_SLEEP,		/* nanosleep(DURATION): timer slack applies	*/
};

struct sim_work {
	enum sim_work_kind kind;
	uint64_t n;		/* PAUSE count					*/
	uint64_t sleep_ps;	/* sleep length					*/
};

struct sim_scenario {
	char machine[256];
	int cpus;			/* 0: all of the preset's		*/
	int threads;			/* 0: = cpus				*/
	char workload[32];
	char locks[SIM_MAX_LOCKS][32];
	int nr_locks;
	uint64_t ops;			/* fixed-ops mode: total; 0 after
					 * resolve in fixed-time mode	*/
	uint64_t duration_ps;		/* fixed-time mode when non-zero	*/
	struct sim_work cs;
	struct sim_work between;
	uint64_t seed;
	char json[256];			/* "" when not wanted			*/
	uint64_t livelock_ps;
	char file[256];			/* scenario file, "" if none		*/
	/* Where some keys were given, for errors found after sim_scenario_set()
	 * (the machine preset, cross-key checks, the JSON file); .file is NULL
	 * when the key kept its default.  The strings are the caller's (the
	 * path given to sim_scenario_load(), the @at of sim_scenario_set()). */
	struct sim_origin machine_at, cpus_at, ops_at, duration_at, json_at;
};

/* sim_scenario_defaults - fill @s with the documented defaults. */
void sim_scenario_defaults(struct sim_scenario *s);
/* sim_scenario_load - apply the keys of scenario file @path. */
void sim_scenario_load(struct sim_scenario *s, const char *path);
/* sim_scenario_set - apply one key; @at says where it came from.  Unknown
 * key, bad value or unit, unknown lock/machine/workload: one line, exit 2.
 * Cross-key checks happen in sim_scenario_resolve(). */
void sim_scenario_set(struct sim_scenario *s, const char *key,
		      const char *value, const struct sim_origin *at);
/* sim_scenario_resolve - fill derived defaults (cpus, threads) against the
 * machine's CPU count and check cross-key constraints (exit 2). */
void sim_scenario_resolve(struct sim_scenario *s, int machine_cpus);
/* sim_scenario_print - the resolved scenario as "key = value" lines, a
 * valid scenario file (the report prints it first). */
void sim_scenario_print(const struct sim_scenario *s, FILE *out);
/* sim_scenario_json - the resolved scenario as a JSON object. */
void sim_scenario_json(const struct sim_scenario *s, FILE *out);
/* sim_work_format - "pause:5", "sleep:1us", "none". */
const char *sim_work_format(const struct sim_work *w, char *buf, int len);
/* sim_scenario_each - call @fn with every key of @s and its value as a
 * scenario file or --key=value would spell it, in the order of
 * sim_scenario_print() (which is this with "key = value\n"); the CLI
 * builds the replay command line with it.  Keys at their "unset" value
 * (threads 0, json "") are left out; cpus 0 is "all". */
void sim_scenario_each(const struct sim_scenario *s,
		       void (*fn)(void *ctx, const char *key, const char *value),
		       void *ctx);
/* sim_scenario_usage - one line per key (form, meaning, default), for
 * `futexsim --help`. */
void sim_scenario_usage(FILE *out);

#endif /* SIM_SCENARIO_H */
