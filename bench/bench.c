/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/bench.c - how fast the simulator runs on this host: main(), the
 * figures measured in this process, the printout and the JSON file.
 *
 * Stage: a host tool beside the data flow (`make bench`).  Calls the
 * coroutine layer (sim/host/coro.h) for switch costs, the machine
 * (sim_machine_init(), sim_task_create(), sim_run(), sim_hook()) for the
 * cost of a hook, the explore loop (sim/explore/explore_run.h) for its runs per
 * second, and bench/bench_spawn.c (bench/bench.h) for the figures of
 * child processes: the futexsim binary for the mutex throughput, the
 * trace cost and the user program, workloads/scenarios/spin-2014.sh and
 * glibc-tables.sh for the time of the 2014 and 2017 tables, the
 * to-futex-256 scenarios for the 2016 one.
 *
 * Usage: bench OUT.json [FUTEXSIM]
 *
 *	switch_ns		per sim_coro_switch_asm(), two coroutines
 *				ping-ponging, both from one call site as
 *				the simulator's tasks; best of several
 *				rounds
 *	ucontext_switch_ns	the same with the ucontext backend
 *	ucontext_ratio		ucontext_switch_ns / switch_ns
 *	hook_ns			per sim_hook() that does not switch: one task
 *				on a one-CPU machine of the default preset
 *	instrumented_hook_ns	the same through an instrumented program's
 *				call for a plain load, __tsan_read4()
 *				(workloads/libsim/instrument.c)
 *	mutex_ops_per_s		`futexsim run --machine=tiny4 --threads=8
 *				--lock=ww --ops=200000`: simulated operations
 *				per host second (results[0].ops/host.seconds)
 *	native_ops_per_s	the same work done natively: 8 host threads,
 *				one 3-state futex mutex on the host's
 *				futex(2), the same operations and PAUSEs
 *				(bench/bench_native.c), best of 3
 *	sim_native_ratio	mutex_ops_per_s / native_ops_per_s, both
 *				measured in this run (target >= 0.4)
 *	program_ops_per_s	the same work as a user program: the example
 *				workloads/examples/lostwake.c in mode pthread,
 *				built with `futexsim build` (beside OUT.json)
 *				(best of 3)
 *	program_ratio		the built-in run's ops/s over the program's,
 *				best of 3 each, alternately: what the
 *				user-space layer costs (target <= 1.5)
 *	trace_on_slowdown	host wall-clock time of that same command with
 *				--trace=FILE.txt (every event, ftrace text, a
 *				~130 MB file) divided by its time without;
 *				best of BENCH_TRACE_ROUNDS alternating runs
 *				of each, whole processes, file closed
 *	html_bytes_per_event	bytes of the page of --trace=FILE.html
 *				(docs/view.md) of `futexsim run
 *				--machine=tiny4 --threads=4 --ops=19300
 *				--lock=ww` (~100,000 events) per event
 *	explore_runs_per_s	complete runs per host second of `futexsim
 *				explore --threads=2 --ops=10 --lock=ww
 *				--strategy=random` on tiny4 (default oracles),
 *				in this process (sim/explore/explore_run.h, what the
 *				explore command runs), per second of CPU
 *				time of this process; best of BENCH_ROUNDS
 *				rounds of BENCH_EXPLORE_RUNS runs
 *	spin_table_s		host seconds (wall clock) of
 *				`workloads/scenarios/spin-2014.sh -n 500000
 *				-p 0`: the whole 2014 table, same node and
 *				different nodes, 500,000 lock/unlock per task,
 *				the three kernel locks (not the block of the
 *				2014 policies, futex/qspin_2014.c); the table
 *				it prints is kept in spin-2014.txt beside
 *				OUT.json
 *	tp_table_s		{"ww","pi","tp"}: host seconds (wall clock)
 *				of the full published 2016 TO-futex run of
 *				each lock (workloads/scenarios/
 *				to-futex-256{,-pi,-tp}.scn: 256 threads, 10M
 *				ops, pause:5); the reports are kept in
 *				to-futex-256*.txt beside OUT.json
 *	tp_table_total_s	the sum of the three (target <= 30)
 *	instrumented_slowdown	host time of workloads/examples/lostwake.c
 *				(pthread 8 25000, tiny4) built with
 *				--instrument over built without, best of 3
 *				each, alternately
 *	tso_explore_runs_per_s	explore runs per CPU second of the children
 *				of workloads/examples/litmus.c SB 0 0 built
 *				with --instrument, memory=tso, random,
 *				2000 runs (it aborts on a hit, so the
 *				outcome asked for is one it never gives:
 *				SB 2 2); if they take under half a CPU
 *				second, as many runs as take about one,
 *				measured again (bench_spawn.c)
 *	arm64_explore_runs_per_s  the same under memory=arm64
 *	program_explore_runs_per_s  the same for `futexsim explore
 *				--program=P --args="pthread 2 3"` on tiny4,
 *				P workloads/examples/lostwake.c built by
 *				FUTEXSIM (bench_spawn.c)
 *	glibc_tables_s		host seconds (wall clock) of
 *				`workloads/scenarios/glibc-tables.sh -d 100ms
 *				mutex-2017`: the 2017 RFC mutex table (ww,
 *				adaptive, tp when futexsim has it), threads 10/20/40/80
 *				x load 10/50, 0.1 s simulated per point; the
 *				table is kept in glibc-2017-mutex.txt
 *	host_drift		the largest over the smallest of
 *				mutex_ops_per_s and the same run made again
 *				after each long part (the programs, the 2014,
 *				2017 and 2016 tables, the instrumented
 *				programs): about 1 when the host ran at one
 *				speed all along; a virtual machine that
 *				slowed down in between gives more, and the
 *				wall-clock figures of that run do not compare
 *				with another's (printed with the probes'
 *				range above HOST_DRIFT_STEADY)
 *	host_probe_ops_per_s	those probes, in order
 *
 * Each figure is printed next to its target.  This program measures: a
 * slow figure is reported, never a failure (exit 0).  Host time is read
 * in bench/, and only there; it never reaches a simulation.  A figure
 * that could not be measured is null in the JSON.  Exit 1 if OUT.json
 * cannot be written, 2 on bad usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
#include "sim/host/coro.h"
#include "sim/explore/explore_run.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"

#define BENCH_ROUNDS		5
#define BENCH_ASM_TRIPS		1000000	/* round trips per round	*/
#define BENCH_UC_TRIPS		50000
#define BENCH_HOOKS		2000000	/* sim_hook() calls per round	*/
#define BENCH_EXPLORE_RUNS	25000	/* explore runs per round	*/
#define TARGET_EXPLORE_RUNS	100000	/* >= 100,000 runs/s		*/

#define TARGET_SWITCH_NS	20.0
#define TARGET_HOOK_NS		10.0
#define TARGET_RATIO		10.0
#define TARGET_SPIN_TABLE_S	20.0
#define TARGET_TP_TABLE_S	30.0	/* the three locks' full 2016 runs */
#define TARGET_GLIBC_TABLES_S	120.0	/* the 2017 mutex table		*/
#define TARGET_TRACE_SLOWDOWN	3.0
#define TARGET_PROGRAM_RATIO	1.5	/* layer <= 1.5x built-in	*/
#define TARGET_SIM_NATIVE	0.4	/* simulated vs native ops/s	*/
#define TARGET_INSTR_HOOK_NS	5.0	/* an instrumented access	*/
#define HOST_DRIFT_STEADY	1.15	/* probes within 15%: one speed	*/
#define HOST_PROBES		6

/* ---- the host's speed along the run -------------------------------------------- */

static double probe[HOST_PROBES];
static int nr_probes;

/* One more probe of the host's speed, @v: mutex_ops_per_s (the figure
 * itself first, then measured again).  An unmeasured one is left out. */
static void host_probe(double v)
{
	if (v > 0 && nr_probes < HOST_PROBES)
		probe[nr_probes++] = v;
}

/* The largest probe over the smallest; -1 with fewer than two. */
static double host_drift(double *lo, double *hi)
{
	*lo = *hi = -1;
	for (int i = 0; i < nr_probes; i++) {
		if (*lo < 0 || probe[i] < *lo)
			*lo = probe[i];
		if (probe[i] > *hi)
			*hi = probe[i];
	}
	return nr_probes >= 2 ? *hi / *lo : -1;
}

/* ---- coroutine switches ----------------------------------------------------- */

static struct {
	struct sim_coro main, a, b;
	long trips;
} pp;

/*
 * b drives: @trips round trips b->a->b, then back to main.  Each backend
 * gets its own bodies and its own switch function: every switch of a
 * pair is made from that one noinline call site, as the simulator's
 * tasks all switch from resume() (the return-stack predictor then
 * predicts the switch's return, sim/host/coro_x86_64.S).
 */
#define PINGPONG_BODIES(sfx, sw)					\
static void __attribute__((noinline))					\
pp_switch_##sfx(struct sim_coro *from, struct sim_coro *to)		\
{									\
	sw(from, to);							\
	__asm__ volatile("" ::: "memory");	/* not a tail call */	\
}									\
static void pp_a_##sfx(void *arg)					\
{									\
	for (;;)							\
		pp_switch_##sfx(&pp.a, &pp.b);				\
}									\
static void pp_b_##sfx(void *arg)					\
{									\
	for (;;) {							\
		for (long i = 0; i < pp.trips; i++)			\
			pp_switch_##sfx(&pp.b, &pp.a);			\
		pp_switch_##sfx(&pp.b, &pp.main);			\
	}								\
}

PINGPONG_BODIES(asm, sim_coro_switch_asm)
PINGPONG_BODIES(uc, sim_coro_switch_ucontext)

/* Best time per switch over BENCH_ROUNDS rounds; -1 if unavailable. */
static double bench_switch(int (*init)(struct sim_coro *, size_t,
				       void (*)(void *), void *),
			   void (*sw)(struct sim_coro *, struct sim_coro *),
			   void (*body_a)(void *), void (*body_b)(void *),
			   long trips)
{
	double best = -1, t;

	sim_coro_init_main(&pp.main);
	if (init(&pp.a, 64 * 1024, body_a, NULL))
		return -1;
	if (init(&pp.b, 64 * 1024, body_b, NULL)) {
		sim_coro_destroy(&pp.a);
		return -1;
	}
	pp.trips = trips;
	sw(&pp.main, &pp.b);		/* warm-up round */
	for (int r = 0; r < BENCH_ROUNDS; r++) {
		t = host_now();
		sw(&pp.main, &pp.b);
		t = (host_now() - t) / (2.0 * trips + 2) * 1e9;
		if (best < 0 || t < best)
			best = t;
	}
	sim_coro_destroy(&pp.a);
	sim_coro_destroy(&pp.b);
	sim_coro_destroy(&pp.main);
	return best;
}

/* ---- hooks ------------------------------------------------------------------ */

static double hook_best_ns = -1, instr_best_ns = -1;

/* the runtime of an instrumented program (workloads/libsim/instrument.c) */
void __tsan_read4(void *p);

static void hook_task(void *arg)
{
	static volatile int x;
	double t;

	for (int r = 0; r < BENCH_ROUNDS; r++) {
		t = host_now();
		for (long i = 0; i < BENCH_HOOKS; i++)
			sim_hook(SIM_LOAD, &x, 4);
		t = (host_now() - t) / BENCH_HOOKS * 1e9;
		if (hook_best_ns < 0 || t < hook_best_ns)
			hook_best_ns = t;
		t = host_now();
		for (long i = 0; i < BENCH_HOOKS; i++)
			__tsan_read4((void *)&x);
		t = (host_now() - t) / BENCH_HOOKS * 1e9;
		if (instr_best_ns < 0 || t < instr_best_ns)
			instr_best_ns = t;
	}
}

static double bench_hook(void)
{
	static struct sim_preset preset;

	sim_preset_defaults(&preset);
	sim_machine_init(&preset, 1, 1);
	sim_task_create("bench", hook_task, NULL, 0);
	sim_run();
	return hook_best_ns;
}

/* ---- explore runs, in this process ------------------------------------------ */

static double cpu_now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* explore_runs_per_s: runs of the explore command's loop, in process,
 * per second of this process's CPU time ("on one core": other processes
 * on a shared host do not count against it). */
static double bench_explore(void)
{
	static const struct sim_origin at = { .file = "bench" };
	static const char *const keys[][2] = {
		{ "machine", "tiny4" }, { "threads", "2" }, { "ops", "10" },
		{ "lock", "ww" }, { "strategy", "random" },
	};
	struct sim_scenario s;
	struct sim_xctx *x = calloc(1, sizeof(*x));
	struct sim_xres *res = calloc(1, sizeof(*res));
	double best = -1;

	if (!x || !res) {
		free(x);
		free(res);
		return -1;
	}
	sim_scenario_defaults(&s);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		sim_scenario_set(&s, keys[i][0], keys[i][1], &at);
	sim_xctx_init(x, &s);
	for (int round = 0; round < BENCH_ROUNDS; round++) {
		double t0 = cpu_now(), t;

		for (uint64_t k = 0; k < BENCH_EXPLORE_RUNS; k++)
			sim_xrun(x, s.seed + k, NULL, 0, NULL, res);
		t = cpu_now() - t0;
		if (t > 0 && BENCH_EXPLORE_RUNS / t > best)
			best = BENCH_EXPLORE_RUNS / t;
	}
	free(x);
	free(res);
	return best;
}

/* ---- output ------------------------------------------------------------------- */

/* The locks of bench_tp_table()'s three runs, in its order. */
static const char *const tp_table_locks[3] = { "ww", "pi", "tp" };

static void show(const char *key, double v, const char *cmp, double target)
{
	bool met;

	if (v < 0) {
		printf("  %-20s %12s\n", key, "unavailable");
		return;
	}
	if (!cmp) {
		printf("  %-20s %12.2f\n", key, v);
		return;
	}
	met = cmp[0] == '<' ? v <= target : v >= target;
	printf("  %-20s %12.2f   target %s %g: %s\n", key, v, cmp, target,
	       met ? "met" : "MISSED");
}

static void json_num(FILE *f, const char *key, double v, const char *sep)
{
	if (v < 0)
		fprintf(f, "  \"%s\": null%s\n", key, sep);
	else
		fprintf(f, "  \"%s\": %.3f%s\n", key, v, sep);
}

static char *default_futexsim(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');
	char *p;

	if (asprintf(&p, "%.*sfutexsim", slash ? (int)(slash - argv0 + 1) : 0,
		     argv0) < 0)
		return NULL;
	return p;
}

int main(int argc, char **argv)
{
	double sw, uc, ratio, hook, mutex, trace, spin_table, explore, glibc;
	double html;
	double program, program_ratio, native, sim_native, program_explore;
	double instr_slowdown = -1, tso_explore = -1, arm64_explore = -1;
	double tp_table[3] = { -1, -1, -1 }, tp_total = 0;
	double drift, probe_lo, probe_hi;
	char *exe;
	FILE *f;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s OUT.json [FUTEXSIM]\n", argv[0]);
		return 2;
	}
	exe = argc == 3 ? strdup(argv[2]) : default_futexsim(argv[0]);
	sw = bench_switch(sim_coro_init_asm, sim_coro_switch_asm,
			  pp_a_asm, pp_b_asm, BENCH_ASM_TRIPS);
	uc = bench_switch(sim_coro_init_ucontext, sim_coro_switch_ucontext,
			  pp_a_uc, pp_b_uc, BENCH_UC_TRIPS);
	ratio = sw > 0 && uc > 0 ? uc / sw : -1;
	mutex = exe ? bench_mutex(exe) : -1;
	host_probe(mutex);
	native = bench_native();
	sim_native = mutex > 0 && native > 0 ? mutex / native : -1;
	program_ratio = -1;
	program = exe ? bench_program(exe, argv[1], &program_ratio) : -1;
	trace = exe ? bench_trace(exe) : -1;
	html = exe ? bench_html(exe) : -1;
	host_probe(exe ? bench_mutex(exe) : -1);
	spin_table = exe ? bench_spin_table(exe, argv[1]) : -1;
	host_probe(exe ? bench_mutex(exe) : -1);
	glibc = exe ? bench_glibc_tables(exe, argv[1]) : -1;
	host_probe(exe ? bench_mutex(exe) : -1);
	if (exe)
		bench_tp_table(exe, argv[1], tp_table);
	for (int i = 0; i < 3; i++)
		tp_total = tp_table[i] < 0 || tp_total < 0 ? -1 : tp_total + tp_table[i];
	host_probe(exe ? bench_mutex(exe) : -1);
	program_explore = exe ? bench_program_explore(exe, argv[1]) : -1;
	if (exe)
		bench_instrumented(exe, argv[1], &instr_slowdown, &tso_explore,
				   &arm64_explore);
	host_probe(exe ? bench_mutex(exe) : -1);
	drift = host_drift(&probe_lo, &probe_hi);
	free(exe);
	hook = bench_hook();	/* it owns the process's machine ... */
	explore = bench_explore();	/* ... and so does this, after it */

	printf("futexsim bench (sim_coro_switch is %s)\n", sim_coro_backend());
	show("switch_ns", sw, "<=", TARGET_SWITCH_NS);
	show("ucontext_switch_ns", uc, NULL, 0);
	show("ucontext_ratio", ratio, ">=", TARGET_RATIO);
	show("hook_ns", hook, "<=", TARGET_HOOK_NS);
	show("instrumented_hook_ns", instr_best_ns, "<=", TARGET_INSTR_HOOK_NS);
	show("mutex_ops_per_s", mutex, NULL, 0);
	show("native_ops_per_s", native, NULL, 0);
	show("sim_native_ratio", sim_native, ">=", TARGET_SIM_NATIVE);
	show("program_ops_per_s", program, NULL, 0);
	show("program_ratio", program_ratio, "<=", TARGET_PROGRAM_RATIO);
	show("trace_on_slowdown", trace, "<=", TARGET_TRACE_SLOWDOWN);
	show("html_bytes_per_event", html, NULL, 0);
	show("spin_table_s", spin_table, "<=", TARGET_SPIN_TABLE_S);
	show("glibc_tables_s", glibc, "<=", TARGET_GLIBC_TABLES_S);
	for (int i = 0; i < 3; i++) {
		char key[32];

		snprintf(key, sizeof(key), "tp_table_s %s", tp_table_locks[i]);
		show(key, tp_table[i], NULL, 0);
	}
	show("tp_table_total_s", tp_total, "<=", TARGET_TP_TABLE_S);
	show("explore_runs_per_s", explore, ">=", TARGET_EXPLORE_RUNS);
	show("program_explore_runs_per_s", program_explore, NULL, 0);
	show("instrumented_slowdown", instr_slowdown, NULL, 0);
	show("tso_explore_runs_per_s", tso_explore, NULL, 0);
	show("arm64_explore_runs_per_s", arm64_explore, NULL, 0);
	show("host_drift", drift, NULL, 0);
	if (drift > HOST_DRIFT_STEADY)
		printf("  the host's speed changed during this run (mutex_ops_per_s probes %.2f M to %.2f M):\n"
		       "  its wall-clock figures do not compare with another run's; run it again\n",
		       probe_lo / 1e6, probe_hi / 1e6);

	f = fopen(argv[1], "w");
	if (!f) {
		fprintf(stderr, "bench: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	fprintf(f, "{\n  \"coro_backend\": \"%s\",\n", sim_coro_backend());
	json_num(f, "switch_ns", sw, ",");
	json_num(f, "ucontext_switch_ns", uc, ",");
	json_num(f, "ucontext_ratio", ratio, ",");
	json_num(f, "hook_ns", hook, ",");
	json_num(f, "instrumented_hook_ns", instr_best_ns, ",");
	json_num(f, "mutex_ops_per_s", mutex, ",");
	json_num(f, "native_ops_per_s", native, ",");
	json_num(f, "sim_native_ratio", sim_native, ",");
	json_num(f, "program_ops_per_s", program, ",");
	json_num(f, "program_ratio", program_ratio, ",");
	json_num(f, "trace_on_slowdown", trace, ",");
	json_num(f, "html_bytes_per_event", html, ",");
	json_num(f, "spin_table_s", spin_table, ",");
	json_num(f, "glibc_tables_s", glibc, ",");
	fputs("  \"tp_table_s\": {", f);
	for (int i = 0; i < 3; i++) {
		fprintf(f, "%s\"%s\": ", i ? ", " : "", tp_table_locks[i]);
		if (tp_table[i] < 0)
			fputs("null", f);
		else
			fprintf(f, "%.3f", tp_table[i]);
	}
	fputs("},\n", f);
	json_num(f, "tp_table_total_s", tp_total, ",");
	json_num(f, "explore_runs_per_s", explore, ",");
	json_num(f, "program_explore_runs_per_s", program_explore, ",");
	json_num(f, "instrumented_slowdown", instr_slowdown, ",");
	json_num(f, "tso_explore_runs_per_s", tso_explore, ",");
	json_num(f, "arm64_explore_runs_per_s", arm64_explore, ",");
	json_num(f, "host_drift", drift, ",");
	fputs("  \"host_probe_ops_per_s\": [", f);
	for (int i = 0; i < nr_probes; i++)
		fprintf(f, "%s%.0f", i ? ", " : "", probe[i]);
	fputs("]\n}\n", f);
	if (fclose(f)) {
		fprintf(stderr, "bench: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	printf("wrote %s\n", argv[1]);
	return 0;
}
