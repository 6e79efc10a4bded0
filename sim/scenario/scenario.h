/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/scenario/scenario.h - what a run simulates: the resolved set of scenario keys.
 *
 * Stage: CLI input.  A scenario file holds "key = value" lines using
 * exactly the long-option names of `futexsim run`, so a file and a command
 * line say the same thing; command-line keys override the file's.  The
 * report echoes the resolved scenario (sim_scenario_print()).
 * Implemented in sim/scenario/scenario.c (keys, parsing), sim/scenario/scenario_keys.c
 * (the keys of one workload or one lock), sim/scenario/scenario_resolve.c
 * (resolution) and sim/scenario/scenario_echo.c (the echo as key = value lines and
 * as JSON).
 *
 * Keys (docs/usage.md "Scenario keys" documents the same list, and
 * tests/test_docs.c checks that it does):
 *   machine   preset name or path			default tiny4
 *   machine-set  KEY=VALUE[,...] | none: machine keys changed for this
 *             run (sim/scenario/preset.h)			default none
 *   cpus      CPUs used, <= the preset's		default all
 *   threads   worker tasks				default = cpus
 *   workload  mutex | spin | rwlock | program		default mutex
 *   lock      comma-separated list of locks of the workload's namespace:
 *             user locks (ulock) for mutex		default ww
 *             kernel locks (wl_klock) for spin		default all of them
 *   ops       total operations (fixed-ops mode)	default 100000
 *   duration  simulated run time (fixed-time mode)	e.g. 5s, 20ms
 *   cs        pause:N | loop:N | sleep:DURATION | none  default pause:5
 *   between   pause:N | sleep:DURATION | none		default pause:1
 *   seed      64-bit seed				default 1
 *   json      path of the JSON results file		default none
 *   plot      FILE.svg: fairness and latency CDF of the run	default none
 *   livelock  virtual time without any completed operation that counts
 *             as a livelock				default 10s
 *   memory       sc|tso: the memory model of an instrumented program's
 *                plain stores (sim/machine/memmodel.h)
 *   cost-jitter  PCT: every cache-miss cost varies uniformly over PCT%
 *             of itself, centred, from the PRNG (sim/cache/cache.h)	default 0
 *   ops-per-thread  operations of each thread: ops = this x threads
 *   data      spin: standalone | embedded (the data in its own cache line
 *             or in the lock's)			default standalone
 *   placement spin: pack | nodes (fill a socket, or one task per socket
 *             round-robin)				default pack
 *   data-access  spin: read-write | write (the critical section loads
 *             the data and stores it + 1, or only stores)	default read-write
 *   trace     PATH.txt | PATH.json | PATH.html | none: a trace of each lock's run
 *             (sim/trace/trace.h); PATH.LOCK.txt with several locks	default none
 *   trace-from, trace-to  the simulated time window traced	default all
 *   trace-events  comma-separated events and groups	default all
 *   narrate   yes | no: one plain-English line per interesting event on
 *             stderr (sim/trace/trace_narrate.c)		default no
 *   lock-stat yes | no | PATH: a /proc/lock_stat table of each lock's run
 *             (sim/trace/lockstat.h), on stdout after the report or in PATH
 *             							default no
 *   program   PATH | none: a program built by `futexsim build` to run
 *             (workload program, workloads/program.c)	default none
 *   args      its arguments, split at blanks ('' "" group)	default none
 *   record    PATH | none: write each lock's run as a replay file
 *             (sim/replay/replay.h); PATH with ".LOCK" before its extension
 *             when there are several locks		default none
 *   readers, writers  rwlock: separate reader and writer threads
 *             (threads = readers + writers)		default not given
 *   read-ratio  rwlock: % of each thread's operations that read, when
 *             readers/writers are not given		default 50
 *   read-depth  rwlock: read locks a reader nests	default 1
 *   roles     rwlock with readers/writers: alternate (readers and writers
 *             alternate over the tasks, so over the CPUs) | split (the
 *             readers first: `perf bench futex rwlock -x`)	default alternate
 *   adaptive  lock=adaptive's spin loop: pre2018 | seed2018 | glibc235 |
 *             glibc236 (docs/studies/adaptive-2018.md)	default pre2018
 *   spin-count  lock=adaptive's glibc.pthread.mutex_spin_count	default 100
 *   strategy  timed | random | pct:D | dfs:P (sim/explore/explore.h)	default timed
 *   oracle    oracle list (sim/explore/oracle.h)		default mutex,deadlock,state,bug,crash
 *   stuck     host CPU time a task may run with no scheduling point
 *             (sim/report/failure_signal.c), or none	default 5s
 *   progress  auto | yes | no: the progress line on stderr
 *             (sim/report/progress.h)			default auto
 *   tp-policy lock=tp's handoff trigger: v2 (spin budget 1<<13, -1/32 per
 *             sleep) | v6 (5 ms as the top waiter)	default v2
 *   tp-handoff lock=tp: on | off (never hand the lock off)	default on
 *   tp-mutex  lock=tp's serialization mutex: 6.1 (the real mutex.c) |
 *             4.8 (futex/mutex48.c: no handoff, waiters sleep)	default 6.1
 * ops, ops-per-thread and duration are exclusive; giving duration selects
 * fixed-time mode.  data, placement and data-access are keys of
 * workload=spin only;
 * spin also needs threads <= cpus and no sleep in cs or between.
 */
#ifndef SIM_SCENARIO_H
#define SIM_SCENARIO_H

#include <stdint.h>
#include <stdio.h>

#include "sim/scenario/config.h"
#include "sim/explore/explore.h"
#include "sim/explore/oracle.h"

struct wl_workload;
struct wl_klock;
struct ulock_ops;

#define SIM_MAX_LOCKS	8
#define SIM_NARRATE_QUIET 2	/* ->narrate: keep the last lines only	*/
#define SIM_STUCK_MS_DEFAULT 5000	/* stuck= default: 5 s of host CPU */
/* progress=: auto (on a terminal), yes, no (sim/report/progress.h) */
enum { SIM_PROGRESS_AUTO, SIM_PROGRESS_YES, SIM_PROGRESS_NO };

enum sim_work_kind {
	SIM_WORK_NONE,		/* nothing					*/
	SIM_WORK_PAUSE,		/* N cpu_relax()/PAUSE in a row			*/
	SIM_WORK_SLEEP,		/* nanosleep(DURATION): timer slack applies	*/
	SIM_WORK_LOOP,		/* a plain loop of N iterations, 1 ns each	*/
};

enum sim_spin_data {
	SIM_DATA_STANDALONE,	/* the data in a line of its own		*/
	SIM_DATA_EMBEDDED,	/* the data in the lock's line			*/
};

enum sim_spin_access {
	SIM_ACCESS_READ_WRITE,	/* load the data, store it + 1			*/
	SIM_ACCESS_WRITE,	/* store only (no miss the section waits for)	*/
};

enum sim_placement {
	SIM_PLACE_PACK,		/* socket after socket, in CPU order		*/
	SIM_PLACE_NODES,	/* round-robin over the sockets			*/
};

enum sim_rw_roles {
	SIM_ROLES_ALTERNATE,	/* reader, writer, reader ... while both last	*/
	SIM_ROLES_SPLIT,	/* tasks 0..readers-1 read, the rest write	*/
};

struct sim_work {
	enum sim_work_kind kind;
	uint64_t n;		/* PAUSE count, or loop iterations		*/
	uint64_t sleep_ps;	/* sleep length					*/
};

struct sim_scenario {
	char machine[256];
	char machine_set[512];		/* machine keys changed, "" none:
					 * sim_preset_apply_set()	*/
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
	char plot[256];			/* plot= FILE.svg, "" when not wanted	*/
	uint64_t livelock_ps;
	uint64_t stuck_ms;		/* stuck=, host CPU ms; 0: none	*/
	int progress;			/* progress=: SIM_PROGRESS_*	*/
	char strategy[32];		/* explore strategy, "" timed	*/
	char oracle[128];		/* oracle list, "" the default	*/
	unsigned int cost_jitter_pct;	/* cache-miss cost jitter, % width	*/
	int memory;			/* memory=: enum sim_memory		*/
	struct sim_origin memory_at, oracle_at;	/* where they were given	*/
	uint64_t ops_per_thread;	/* ops-per-thread given; 0: not	*/
	enum sim_spin_data data;	/* workload=spin			*/
	enum sim_placement placement;	/* workload=spin			*/
	enum sim_spin_access access;	/* workload=spin: data-access		*/
	int readers, writers;		/* workload=rwlock; 0: not given	*/
	unsigned int read_ratio;	/* rwlock: % reads of each thread	*/
	unsigned int read_depth;	/* rwlock: nested read locks		*/
	enum sim_rw_roles roles;	/* rwlock with readers/writers	*/
	int adaptive;			/* lock=adaptive: enum ulock_adaptive	*/
	unsigned int spin_count;	/* lock=adaptive: spin budget cap	*/
	char trace[256];		/* trace file, "" when not wanted	*/
	uint64_t trace_from_ps;		/* trace window: start (0: the start)	*/
	uint64_t trace_to_ps;		/* trace window: end (0: the end)	*/
	unsigned int trace_events;	/* SIM_TRACE_BIT()s of sim/machine/hooks.h	*/
	int narrate;			/* narrate: 1 yes, 0 no; or
					 * SIM_NARRATE_QUIET (the CLI's
					 * re-run of a failed run)	*/
	char lock_stat[256];		/* "" none, "-" stdout, else a file	*/
	char record[256];		/* replay file to write, "" if none	*/
	int tp_policy;			/* lock=tp: TP_POLICY_V2 or _V6	*/
	int tp_handoff;			/* lock=tp: 1 on, 0 off		*/
	int tp_mutex;			/* lock=tp: TP_MUTEX_61 or _48	*/
	char program[256];		/* workload=program: its binary	*/
	char args[512];			/* ... and its arguments		*/
	char file[256];			/* scenario file, "" if none		*/
	/* Where some keys were given, for errors found after sim_scenario_set()
	 * (the machine preset, cross-key checks, the JSON file); .file is NULL
	 * when the key kept its default.  The strings are the caller's (the
	 * path given to sim_scenario_load(), the @at of sim_scenario_set()). */
	struct sim_origin machine_at, machine_set_at, cpus_at, ops_at;
	struct sim_origin duration_at, json_at, plot_at;
	struct sim_origin threads_at, workload_at, lock_at, cs_at, between_at;
	struct sim_origin ops_per_thread_at, data_at, placement_at, access_at;
	struct sim_origin trace_at, trace_from_at, trace_to_at;
	struct sim_origin record_at, lock_stat_at;
	struct sim_origin readers_at, writers_at, read_ratio_at, read_depth_at;
	struct sim_origin roles_at, args_at;
	/*
	 * Names resolved once, into the registries' entries: nothing after
	 * the scenario's resolution parses a name or looks it up again.
	 * ->wl and ->strategy_st and ->oracles are set with their keys (and
	 * by sim_scenario_defaults()); ->ulock[] and ->klock[] by
	 * sim_scenario_resolve(), one per ->locks[] name: the user lock
	 * (NULL for a workload with kernel locks) or the kernel lock (NULL
	 * for a workload with user locks).  A copy of one lock's scenario
	 * (the CLI's and explore's runs) copies its entries with its name.
	 */
	const struct wl_workload *wl;		/* workload=		*/
	const struct ulock_ops *ulock[SIM_MAX_LOCKS];	/* lock=	*/
	const struct wl_klock *klock[SIM_MAX_LOCKS];	/* lock=	*/
	struct sim_strategy strategy_st;	/* strategy=; timed if ""	*/
	struct sim_oracles oracles;		/* oracle=; the default if ""	*/
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
/* sim_scenario_resolve - fill derived defaults (cpus, threads, ops from
 * ops-per-thread, the lock list of a workload with kernel locks) against
 * the machine's CPU count and check cross-key constraints, the lock names
 * against the workload's namespace included (exit 2). */
void sim_scenario_resolve(struct sim_scenario *s, int machine_cpus);
/* sim_scenario_pick_lock - make @one (a copy of the resolved @s) the
 * scenario of @s's lock @idx alone: its name and its registry entries. */
void sim_scenario_pick_lock(struct sim_scenario *one,
			    const struct sim_scenario *s, int idx);
/* sim_scenario_print - the resolved scenario as "key = value" lines, a
 * valid scenario file (the report prints it first). */
void sim_scenario_print(const struct sim_scenario *s, FILE *out);
/* sim_scenario_json - the resolved scenario as a JSON object. */
void sim_scenario_json(const struct sim_scenario *s, FILE *out);
/* sim_data_name, sim_placement_name, sim_access_name - the key values:
 * "standalone", "embedded"; "pack", "nodes"; "read-write", "write". */
const char *sim_data_name(enum sim_spin_data d);
const char *sim_placement_name(enum sim_placement p);
const char *sim_roles_name(enum sim_rw_roles r);
const char *sim_access_name(enum sim_spin_access a);
/* sim_work_format - "pause:5", "sleep:1us", "none". */
const char *sim_work_format(const struct sim_work *w, char *buf, int len);
/* sim_scenario_each - call @fn with every key of @s and its value as a
 * scenario file or --key=value would spell it, in the order of
 * sim_scenario_print() (which is this with "key = value\n"); the CLI
 * builds the replay command line with it.  Keys at their "unset" value
 * (threads 0, json "", record "", the trace keys at their defaults) are
 * left out; cpus 0 is "all"; ops-per-thread, when given, stands instead
 * of ops; data and placement are given for workload spin only, and
 * data-access when it is write. */
void sim_scenario_each(const struct sim_scenario *s,
		       void (*fn)(void *ctx, const char *key, const char *value),
		       void *ctx);
/* sim__scenario_lock_names - append to @buf (@size bytes) the lock names
 * of @w's namespace (its kernel locks, its reader-writer locks, or the
 * user locks; all user locks when @w is NULL), ", "-separated after a
 * blank, for errors; broken locks are left out.  Shared by the key
 * parser and sim_scenario_resolve(). */
void sim__scenario_lock_names(const struct wl_workload *w, char *buf,
			      size_t size);
/* sim_scenario_key_name - the name of key @i (0, 1, ...) of the key
 * table, the keys sim_scenario_set() accepts, in --help order; NULL past
 * the last.  tests/test_docs.c holds docs/usage.md's key table to it. */
const char *sim_scenario_key_name(int i);
/* sim_scenario_usage - one line per key (form, meaning, default), for
 * `futexsim --help`. */
void sim_scenario_usage(FILE *out);

#endif /* SIM_SCENARIO_H */
