/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/explore_run.c - one run of a scenario inside this process, for the
 * explore and shrink commands, and the explore keys of the CLI's child
 * (see sim/explore/explore_run.h).
 *
 * Stage: the driver of the whole flow, like sim/cli/cli.c.  Called by
 * sim/explore/explore_cmd.c, sim/explore/shrink.c, bench/bench.c and the CLI's child
 * (sim/cli/cli.c).  Calls the machine (sim_machine_init(), sim_run_abort()),
 * the workload (workload -> ulock -> futex(2) -> kernel -> sched ->
 * machine), sim/explore/explore.c for the strategy, sim/explore/oracle.c for the oracles,
 * sim/replay/replay.c to record a run and sim_program_spawn() (sim/program/program.h)
 * to replay a hit.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cache/cache.h"
#include "sim/explore/explore_run.h"
#include "sim/explore/promise.h"
#include "sim/explore/race.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/program/program.h"
#include "sim/replay/replay.h"
#include "sim/trace/trace.h"
#include "workloads/workload.h"

#define TIMED_JITTER_PCT	10	/* strategy timed, no cost-jitter= */

static const struct sim_origin cmdline = { .file = "command line" };
static struct sim_xres *running;	/* the run sim_xrun() is in	*/

static void __attribute__((noreturn)) on_fail(enum sim_failure kind,
					      const char *what)
{
	running->failed = 1;
	running->kind = kind;
	snprintf(running->what, sizeof(running->what), "%s", what ? what : "");
	sim_run_abort();
}

/* PCT spreads its change points over the branching points of this run:
 * index 0 everywhere, seed 0 (a function of the scenario alone). */
static void calibrate(struct sim_xctx *x)
{
	struct sim_strategy keep = x->st;
	struct sim_xres *res = sim__explore_alloc(sizeof(*res));

	x->st = (struct sim_strategy){ SIM_STRAT_DFS, 0 };
	sim_xrun(x, 0, NULL, 0, NULL, res);
	x->pct_steps = (uint64_t)res->choices;
	x->st = keep;
	free(res);
}

/* Explore and shrink search one lock's runs: else one line, exit 2,
 * with the locks given (or the workload's default list). */
static void need_one_lock(const struct sim_scenario *s)
{
	char got[SIM_MAX_LOCKS * 33 + 40];
	size_t n = 0;

	if (s->nr_locks == 1)
		return;
	got[0] = '\0';
	for (int i = 0; i < s->nr_locks; i++)
		n += (size_t)snprintf(got + n, sizeof(got) - n, "%s%s",
				      i ? "," : "", s->locks[i]);
	if (!s->lock_at.file)
		snprintf(got + n, sizeof(got) - n, " (workload %s's default)",
			 s->workload);
	sim_config_fail(s->lock_at.file ? &s->lock_at : &cmdline, "lock",
			"one lock (explore and shrink search one lock's runs)",
			got);
}

int sim__explore_env_on(const char *name)
{
	const char *e = getenv(name);

	return e && !strcmp(e, "1");
}

/* FUTEXSIM_EXPLORE_SAME_PROCESS=1: a program's runs share one world (a
 * negative control for tests/test_explore_program.c). */
static int same_process(void)
{
	return sim__explore_env_on("FUTEXSIM_EXPLORE_SAME_PROCESS");
}

void sim_xctx_init(struct sim_xctx *x, struct sim_scenario *s)
{

	memset(x, 0, sizeof(*x));
	sim_preset_load_at(&x->preset, s->machine, &s->machine_at);
	sim_preset_apply_set(&x->preset, s->machine_set, &s->machine_set_at);
	sim_scenario_resolve(s, sim_preset_nr_cpus(&x->preset));
	need_one_lock(s);	/* its entry: resolved, or the resolve failed */
	x->st = s->strategy_st;
	x->oracles = s->oracles;
	if (x->st.kind == SIM_STRAT_TIMED && !s->cost_jitter_pct)
		s->cost_jitter_pct = TIMED_JITTER_PCT;
	x->s = *s;
	x->fresh_world = s->wl == &wl_program &&
		!same_process();
	x->promise_fork = sim__explore_env_on("FUTEXSIM_PROMISE_FORK");
	if (x->st.kind == SIM_STRAT_PCT)
		calibrate(x);
}

/* FNV-1a over the choices and the figures that are simulated results. */
static uint64_t fingerprint(const struct sim_explore_log *l,
			    const struct sim_xres *res)
{
	uint64_t h = 1469598103934665603ULL;
	const uint64_t v[5] = { (uint64_t)res->failed, (uint64_t)res->kind,
				res->r.ops, res->r.elapsed_ns,
				res->r.acquire_max_ns };

	for (int i = 0; i < l->len; i++)
		h = (h ^ ((uint64_t)l->c[i].n << 16 | l->c[i].k)) * 1099511628211ULL;
	for (int i = 0; i < 5; i++)
		h = (h ^ v[i]) * 1099511628211ULL;
	return h;
}

static void xrun_here(struct sim_xctx *x, uint64_t seed,
		      const struct sim_choice *forced, int nr_forced,
		      const char *record, struct sim_xres *res)
{
	struct sim_scenario one = x->s;
	const struct wl_workload *wl = one.wl;
	const struct ulock_ops *lock = one.ulock[0];
	const struct sim_explore_log *l = sim_explore_log();

	one.seed = seed;
	memset(res, 0, sizeof(*res));
	if (record && sim_record_start(record, &one)) {
		fprintf(stderr, "futexsim: %s: %s\n", record, strerror(errno));
		exit(SIM_EXIT_HOST);
	}
	sim_failure_set_stuck_ms(one.stuck_ms);
	sim_machine_init(&x->preset, one.cpus, seed);
	sim_cache_set_jitter(one.cost_jitter_pct);
	sim_memory_set((enum sim_memory)one.memory);
	sim_set_livelock_ps(one.livelock_ps);
	sim_oracles = x->oracles;
	sim_race_reset();
	sim_set_check_state(!!(x->oracles.mask & SIM_ORACLE_STATE));
	if (x->narrate) {
		one.narrate = SIM_NARRATE_QUIET;	/* the ring only */
		sim_trace_open(NULL, &one);	/* no file: cannot fail */
	}
	sim_explore_start(&x->st, seed, forced, nr_forced, x->pct_steps);
	running = res;
	sim_fail_hook = on_fail;
	wl->run(&one, lock, &res->r);
	sim_fail_hook = NULL;
	sim_explore_stop();
	if (record)
		sim_replay_finish();
	if (res->failed) {
		res->oracle = sim_oracle_classify(res->kind, res->what, &res->bit);
		res->hit = !!(res->bit & x->oracles.mask);
	}
	res->choices = l->len;
	res->preemptions = l->preemptions;
	for (int i = 0; i < l->len; i++)
		res->nonzero += l->c[i].k != 0;
	res->fingerprint = fingerprint(l, res);
}

/*
 * Under memory=arm64 a run that stopped to certify a promise in itself
 * (sim/explore/promise.c) is made again, from the start, until it ends:
 * only when it can be, in this process from its fresh world, with nothing
 * recording it or keeping its narration.
 */
void sim_xrun(struct sim_xctx *x, uint64_t seed,
	      const struct sim_choice *forced, int nr_forced,
	      const char *record, struct sim_xres *res)
{
	sim_promise_redo_begin(!record && !x->narrate && !x->promise_fork &&
			       (!x->fresh_world || sim__xrun_rewinds()));
	do {
		sim_promise_redo_attempt();
		if (x->fresh_world)
			sim__xrun_fresh(xrun_here, x, seed, forced, nr_forced,
					record, res);
		else
			xrun_here(x, seed, forced, nr_forced, record, res);
	} while (sim_promise_redo_pending());
	sim_promise_redo_end();
}

/* ---- the CLI's child ------------------------------------------------------- */

static struct sim_xctx child;

void sim_explore_child_setup(const struct sim_scenario *s,
			     const struct sim_preset *preset)
{
	memset(&child, 0, sizeof(child));
	child.st = s->strategy_st;
	child.oracles = s->oracles;
	if (child.st.kind != SIM_STRAT_PCT)
		return;
	child.s = *s;
	child.preset = *preset;
	child.fresh_world = s->wl == &wl_program && !same_process();
	child.promise_fork = sim__explore_env_on("FUTEXSIM_PROMISE_FORK");
	calibrate(&child);	/* a program's: in a world of its own */
}

void sim_explore_child_start(const struct sim_scenario *s)
{
	sim_oracles = child.oracles;
	sim_race_reset();
	/* the default list leaves the state checks to FUTEXSIM_CHECK_STATE */
	if (s->oracle[0] && (child.oracles.mask & SIM_ORACLE_STATE))
		sim_set_check_state(1);
	sim_explore_start(&child.st, s->seed, NULL, 0, child.pct_steps);
}

/* ---- shared by the commands ---------------------------------------------------- */

void *sim__explore_alloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p) {
		fprintf(stderr, "futexsim: out of memory\n");
		exit(SIM_EXIT_HOST);
	}
	return p;
}

int sim__explore_take_log(struct sim_choice **buf, int *cap)
{
	const struct sim_explore_log *l = sim_explore_log();

	if (l->len > *cap) {
		free(*buf);
		*cap = l->len;
		*buf = sim__explore_alloc((size_t)*cap * sizeof(**buf));
	}
	if (l->len)
		memcpy(*buf, l->c, (size_t)l->len * sizeof(**buf));
	return l->len;
}

int sim__explore_replay_show(const char *self, const char *file)
{
	char *argv[] = { (char *)self, "replay", (char *)file, "--narrate=yes",
			 NULL };
	/* this very binary, whatever argv[0] says */
	int status = sim_program_spawn("/proc/self/exe", argv, NULL, "futexsim");

	if (status < 0) {
		perror("futexsim: fork");
		return 1;
	}
	return status;
}
