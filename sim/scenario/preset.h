/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/scenario/preset.h - machine presets: topology and costs, loaded from a small
 * text file a user can copy and edit (machines/NAME.machine).
 *
 * Stage: CLI input -> machine.  A preset is "key = value" lines
 * (sim/scenario/config.h); every cost is a duration ("45ns", "1.7ns", "2us").
 * Missing keys keep the defaults documented in machines/README.md; an
 * unknown key or a bad value fails like a bad scenario (exit 2).
 *
 * With cache-model = off a preset charges one flat cost per access kind;
 * otherwise (the default) the cache-line model (sim/cache/cache.h) prices
 * each access from the topology fields and the transfer costs.
 */
#ifndef SIM_PRESET_H
#define SIM_PRESET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/scenario/config.h"
#include "sim/machine/hooks.h"

struct sim_preset {
	char name[64];
	char description[160];
	/* topology */
	int sockets;
	int cores_per_socket;
	int threads_per_core;
	/* flat access costs, indexed by enum sim_access */
	uint64_t access_ps[SIM_NR_ACCESS];
	/* cache-line transfer costs (used by the cache model; carried now) */
	uint64_t xfer_smt_ps, xfer_socket_ps, xfer_remote_ps;
	/* cache-line model (sim/cache/cache.h); off: the flat access_ps[] costs */
	bool cache_model;
	uint64_t xfer_2hop_ps;		/* from a socket two hops away; 0: none	*/
	uint64_t shared_read_ps;	/* load miss on a line only shared (L3)	*/
	uint64_t sharer_penalty_ps;	/* per extra sharer a write invalidates	*/
	bool store_buffer;		/* stores retire into a store buffer	*/
	bool spin_exit_overlap;		/* sim/cache/cache.h: a load after a spin-wait
					 * that ends at the first change	*/
	int line_handover;		/* enum sim_handover (sim/cache/cache.h)	*/
	/* instructions of one kernel lock or unlock call not priced as
	 * accesses (call, return, preempt_count): workload=spin */
	uint64_t lock_call_ps;
	/* kernel paths */
	uint64_t syscall_ps;		/* syscall entry + exit			*/
	uint64_t ctxsw_ps;		/* context switch on one CPU		*/
	uint64_t wake_ps;		/* waker side of try_to_wake_up		*/
	uint64_t wakeup_to_run_ps;	/* wakee's CPU busy: until it runs	*/
	uint64_t idle_exit_ps;		/* wakee's CPU idle: C-state exit	*/
	uint64_t idle_enter_ps;		/* schedule() of a CPU going idle	*/
	uint64_t timer_slack_ps;	/* default hrtimer slack of a task	*/
	uint64_t tick_ps;		/* scheduler tick period (1/HZ)		*/
	uint64_t tick_cost_ps;		/* a busy CPU's time in the tick IRQ	*/
	uint64_t timeslice_ps;		/* slice before tick preemption		*/
};

/* sim_preset_defaults - fill @p with the built-in defaults (tiny4). */
void sim_preset_defaults(struct sim_preset *p);
/* sim_preset_load - load @name_or_path: a path if it contains '/' or ends
 * in ".machine", else NAME.machine in sim_preset_dir().  ->name is the
 * file name without ".machine".  Unknown name or bad file: one line,
 * exit 2. */
void sim_preset_load(struct sim_preset *p, const char *name_or_path);
/* sim_preset_load_at - sim_preset_load() for the machine key given at @at
 * (NULL or a NULL .file: the command line): an unknown name or unreadable
 * file is reported as a bad value of that key, with the known machines. */
void sim_preset_load_at(struct sim_preset *p, const char *name_or_path,
			const struct sim_origin *at);
/*
 * The scenario's machine-set (SIM_MACHINE_SET_MAX bytes at most): machine
 * keys changed for one run, "KEY=VALUE[,KEY=VALUE...]", the syntax and
 * values of machines/README.md.  sim_preset_check_set - check @list
 * (keys and values; one line naming "machine-set: KEY" at @at, exit 2).
 * sim_preset_apply_set - set them in the loaded @p, in order, then check
 * what a preset file is checked for (the CPU count); "" changes nothing.
 */
#define SIM_MACHINE_SET_MAX	512
/* The longest duration a machine key takes: 1 s.  No cost or period of a
 * real machine comes near it, and with every step of a clock bounded, no
 * clock can overflow (sim/machine/machine.c also checks). */
#define SIM_PRESET_DURATION_MAX	1000000000000ULL
void sim_preset_check_set(const char *list, const struct sim_origin *at);
void sim_preset_apply_set(struct sim_preset *p, const char *list,
			  const struct sim_origin *at);
/* sim_preset_print - @p as a machine file: every key, "key = value" lines
 * in the order of machines/README.md, values as sim_preset_load() reads
 * them back (no name: a file's name is its file name). */
void sim_preset_print(const struct sim_preset *p, FILE *out);
/* sim_preset_nr_cpus - sockets * cores * threads. */
int sim_preset_nr_cpus(const struct sim_preset *p);
/* sim_preset_topology - socket, core and SMT thread of @cpu (CPUs are
 * numbered thread-major like Linux: all first threads, then siblings). */
void sim_preset_topology(const struct sim_preset *p, int cpu,
			 int *socket, int *core, int *thread);
/* sim_preset_list - print every preset of sim_preset_dir() on stdout, one
 * line each: name, sockets x cores x threads = N CPUs, description. */
void sim_preset_list(void);
/* sim_preset_dir - where presets are looked up by name: $FUTEXSIM_MACHINES
 * if set and not empty, else the source tree's machines/ (set at build
 * time: FUTEXSIM_MACHINES_DIR of build/version.h). */
const char *sim_preset_dir(void);

#endif /* SIM_PRESET_H */
