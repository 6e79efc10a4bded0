/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/explore.c - explore mode's choice of the next CPU (see
 * sim/explore/explore.h for the strategies and the spin rule).
 *
 * Stage: machine.  Called by sim/machine/machine.c at every hook
 * (sim_explore_note()) and dispatch (sim_explore_pick()) in explore mode;
 * started and stopped by sim/explore/explore_run.c, sim/explore/shrink.c and the CLI's
 * child; asks sim/explore/play.c's chooser, when one is set.  Calls the run heap (sim/machine/runheap.h) and the replay files
 * (sim_replay_forced(), sim_decision()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/cache/cache.h"
#include "sim/explore/explore.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/machine/prng.h"
#include "sim/replay/replay.h"
#include "sim/machine/runheap.h"

#define PCT_MAX_D	64
#define SPIN_LINES	4	/* lines one spin iteration may watch	*/

int sim_explore_on;
sim_explore_chooser_fn sim_explore_chooser;

static struct {
	struct sim_strategy st;
	struct sim_prng rng;		/* random, pct: not the machine's */
	const struct sim_choice *forced;
	int nr_forced;
	uint64_t steps;			/* branching points so far	*/
	/* the spin rule, per CPU: the lines loaded since the last relax */
	bool spinning[SIM_MAX_CPUS];
	bool after_load[SIM_MAX_CPUS];
	bool after_relax[SIM_MAX_CPUS];
	uint64_t line[SIM_MAX_CPUS][SPIN_LINES];	/* a ring	*/
	unsigned int nr_lines[SIM_MAX_CPUS];		/* loads in it	*/
	/* pct */
	int nr_prio;
	int *prio;			/* by task index; higher runs	*/
	uint64_t change[PCT_MAX_D];	/* change points (steps)	*/
	int nr_change;
	struct sim_explore_log log;
} ex;

int sim_strategy_parse(const char *text, struct sim_strategy *st)
{
	unsigned int v;
	char tail;

	if (!strcmp(text, "timed") || !strcmp(text, "random")) {
		st->kind = text[0] == 't' ? SIM_STRAT_TIMED : SIM_STRAT_RANDOM;
		st->param = 0;
		return 0;
	}
	if (sscanf(text, "pct:%u%c", &v, &tail) == 1 && v >= 1 &&
	    v <= PCT_MAX_D) {
		*st = (struct sim_strategy){ SIM_STRAT_PCT, v };
		return 0;
	}
	if (sscanf(text, "dfs:%u%c", &v, &tail) == 1 && v <= 64) {
		*st = (struct sim_strategy){ SIM_STRAT_DFS, v };
		return 0;
	}
	return -1;
}

const char *sim_strategy_format(const struct sim_strategy *st, char *buf,
				size_t len)
{
	static const char *const names[] = { "timed", "random", "pct", "dfs" };

	if (st->kind == SIM_STRAT_PCT || st->kind == SIM_STRAT_DFS)
		snprintf(buf, len, "%s:%u", names[st->kind], st->param);
	else
		snprintf(buf, len, "%s", names[st->kind]);
	return buf;
}

static void pct_setup(uint64_t pct_steps)
{
	int d = (int)ex.st.param;

	ex.nr_change = 0;
	if (!pct_steps)
		pct_steps = 1;
	for (int i = 1; i < d; i++)	/* change point i lowers to i */
		ex.change[ex.nr_change++] = 1 + sim_prng_below(&ex.rng, pct_steps);
	ex.nr_prio = 0;		/* priorities: at the first pick */
}

/* sim_explore_solo(): the one CPU that runs, the steps it has left */
static int solo_cpu = -1;
static unsigned int solo_left;

void sim_explore_start(const struct sim_strategy *st, uint64_t seed,
		       const struct sim_choice *forced, int nr_forced,
		       uint64_t pct_steps)
{
	ex.st = *st;
	ex.forced = forced;
	ex.nr_forced = nr_forced;
	ex.steps = 0;
	ex.log.len = 0;
	ex.log.preemptions = 0;
	solo_cpu = -1;		/* a certification's, in a run abandoned */
	memset(ex.spinning, 0, sizeof(ex.spinning));
	memset(ex.after_load, 0, sizeof(ex.after_load));
	memset(ex.after_relax, 0, sizeof(ex.after_relax));
	memset(ex.nr_lines, 0, sizeof(ex.nr_lines));
	sim_prng_seed(&ex.rng, seed ^ 0x6578706c6f726521ULL);	/* "explore!" */
	if (st->kind == SIM_STRAT_PCT)
		pct_setup(pct_steps);
	sim_explore_on = st->kind != SIM_STRAT_TIMED;
}

void sim_explore_stop(void)
{
	sim_explore_on = 0;
}

const struct sim_explore_log *sim_explore_log(void)
{
	return &ex.log;
}

/* Does CPU @cpu's spin iteration watch line @line? */
static bool spin_watches(int cpu, uint64_t line)
{
	unsigned int n = ex.nr_lines[cpu] < SPIN_LINES ? ex.nr_lines[cpu] :
							  SPIN_LINES;

	for (unsigned int i = 0; i < n; i++)
		if (ex.line[cpu][i] == line)
			return true;
	return false;
}

/*
 * The spin rule (sim/explore/explore.h): a relax after loads parks the CPU on
 * the lines those loads read since its previous relax (up to SPIN_LINES,
 * the last ones), until a store or RMW to one of them.  A loop that
 * reads a lock word and then its owner's state (mutex_spin_on_owner())
 * waits on both: a write to either may end it.  A load of a line already
 * read in the same stretch (no relax, no write since) parks it the same
 * way: a loop with no relax in it.
 */
void sim_explore_note(struct sim_cpu *c, enum sim_access kind,
		      const volatile void *addr)
{
	int cpu = c->k.cpu;
	uint64_t line;

	switch (kind) {
	case SIM_RELAX:
		if (ex.after_load[cpu])
			ex.spinning[cpu] = true;
		ex.after_relax[cpu] = true;
		return;
	case SIM_LOAD:
		line = sim_cache_line_id(addr);
		if (ex.after_load[cpu] && !ex.after_relax[cpu] &&
		    spin_watches(cpu, line)) {
			/* it reads a line again and has written nothing: a
			 * loop with no relax in it (glibc's wrlock waits for
			 * __writers_futex so) */
			ex.spinning[cpu] = true;
			return;
		}
		ex.spinning[cpu] = false;
		if (ex.after_relax[cpu] || !ex.after_load[cpu])
			ex.nr_lines[cpu] = 0;	/* a new iteration */
		ex.after_relax[cpu] = false;
		ex.after_load[cpu] = true;
		if (!spin_watches(cpu, line))
			ex.line[cpu][ex.nr_lines[cpu]++ % SPIN_LINES] = line;
		return;
	case SIM_STORE:
	case SIM_RMW:
		line = sim_cache_line_id(addr);
		for (int i = 0; i < sim.nr_cpus; i++)
			if (ex.spinning[i] && spin_watches(i, line))
				ex.spinning[i] = false;
		break;
	default:
		break;
	}
	ex.spinning[cpu] = false;
	ex.after_load[cpu] = false;
	ex.after_relax[cpu] = false;
}

static int task_prio(const struct sim_cpu *c)
{
	return ex.prio[c->curr->tid - SIM_TID_BASE];
}

static int pct_best(struct sim_cpu **cand, int n)
{
	int best = 0;

	for (int i = 1; i < n; i++)
		if (task_prio(cand[i]) > task_prio(cand[best]))
			best = i;
	return best;
}

/* PCT's priorities, at the first pick of a run: a random permutation of
 * the tasks, all above the change points' priorities 1..D-1. */
static void pct_prios(void)
{
	free(ex.prio);
	ex.nr_prio = sim.nr_tasks;
	ex.prio = calloc((size_t)ex.nr_prio, sizeof(*ex.prio));
	if (!ex.prio) {
		fprintf(stderr, "futexsim: out of memory for PCT priorities\n");
		exit(SIM_EXIT_HOST);
	}
	for (int i = 0; i < ex.nr_prio; i++)
		ex.prio[i] = i;
	for (int i = ex.nr_prio - 1; i > 0; i--) {
		int j = (int)sim_prng_below(&ex.rng, (uint64_t)i + 1);
		int t = ex.prio[i];

		ex.prio[i] = ex.prio[j];
		ex.prio[j] = t;
	}
	for (int i = 0; i < ex.nr_prio; i++)
		ex.prio[i] += PCT_MAX_D;
}

/* PCT: the candidate whose task has the highest priority; at change
 * point i, that task drops to priority i first. */
static int pct_pick(struct sim_cpu **cand, int n)
{
	int best;

	if (ex.nr_prio != sim.nr_tasks)
		pct_prios();
	best = pct_best(cand, n);
	for (int i = 0; i < ex.nr_change; i++) {
		if (ex.change[i] == ex.steps) {
			ex.prio[cand[best]->curr->tid - SIM_TID_BASE] = i + 1;
			best = pct_best(cand, n);
		}
	}
	return best;
}

static int choose(struct sim_cpu **cand, int n, bool cur)
{
	uint64_t k;
	int pick;

	if (sim_replay_active && sim_replay_forced((uint64_t)n, &k))
		return (int)k;
	if (ex.log.len < ex.nr_forced) {
		k = ex.forced[ex.log.len].k;
		return k < (uint64_t)n ? (int)k : 0;
	}
	if (sim_explore_chooser) {	/* futexsim play: the player */
		pick = sim_explore_chooser(cand, n, cur);
		if (pick >= 0 && pick < n)
			return pick;
	}
	switch (ex.st.kind) {
	case SIM_STRAT_RANDOM:
		if (ex.nr_forced)
			return 0;
		return (int)sim_prng_below(&ex.rng, (uint64_t)n);
	case SIM_STRAT_PCT:
		if (ex.nr_forced)
			return 0;
		return pct_pick(cand, n);
	default:
		return 0;
	}
}

static void log_choice(int n, int k, bool cur);

void sim_explore_log_set(const struct sim_choice *c, int len, int preemptions)
{
	struct sim_explore_log *l = &ex.log;

	l->len = 0;
	l->preemptions = 0;
	for (int i = 0; i < len; i++)
		log_choice(c[i].n, c[i].k, c[i].cur);
	l->preemptions = preemptions;
}

static void log_choice(int n, int k, bool cur)
{
	struct sim_explore_log *l = &ex.log;

	if (l->len == l->cap) {
		if (l->cap >= SIM_EXPLORE_LOG_MAX) {
			fprintf(stderr, "futexsim: explore: a run made more than %d scheduling choices; explore wants a small scenario: fewer ops, threads or a shorter duration\n",
				SIM_EXPLORE_LOG_MAX);
			exit(SIM_EXIT_INPUT);
		}
		l->cap = l->cap ? 2 * l->cap : 1024;
		l->c = realloc(l->c, (size_t)l->cap * sizeof(*l->c));
		if (!l->c) {
			fprintf(stderr, "futexsim: out of memory for the explore log\n");
			exit(SIM_EXIT_HOST);
		}
	}
	l->c[l->len++] = (struct sim_choice){ (uint16_t)n, (uint16_t)k, cur };
	l->preemptions += cur && k;
}

void sim_explore_solo(int cpu, unsigned int steps)
{
	solo_cpu = cpu;
	solo_left = steps;
}

bool sim_explore_solo_on(void)
{
	return solo_cpu >= 0;
}

/* @held back in the run heap, if it is not there (sim_explore_pick()) */
static void put_back(struct sim_cpu *held)
{
	if (held)
		sim_runheap_add(held);
}

struct sim_cpu *sim_explore_pick(struct sim_cpu *held)
{
	struct sim_cpu *cand[SIM_MAX_CPUS], *c, *run = sim_cur;
	int n = 0, k;
	bool cur = false;

	if (__builtin_expect(solo_cpu >= 0, 0)) {
		put_back(held);
		c = &sim.cpus[solo_cpu];
		if (!sim_runheap_contains(c) || !solo_left--)
			sim_sb_certify_end();
		sim_runheap_remove(c);
		return c;
	}

	/* the running CPU first, then by CPU number; no spinner */
	if (run && (run == held || sim_runheap_contains(run)) &&
	    !ex.spinning[run->k.cpu]) {
		cand[n++] = run;
		cur = true;
	}
	for (int cpu = 0; cpu < sim.nr_cpus; cpu++) {
		c = &sim.cpus[cpu];
		if (c == run || !sim_runheap_contains(c) || ex.spinning[cpu])
			continue;
		cand[n++] = c;
	}
	/*
	 * No candidate: every CPU that may run is spinning (or none may
	 * run).  Timed mode's rule, the smallest clock, and no choice.
	 * Priorities (pct) or chance would let one spinner run ahead in
	 * time while another, whose spin is bounded by time (a TP waiter's
	 * 50 us window on readers) or whose wait is over with no write to a
	 * line it reads (an owner that left its CPU), never saw its own
	 * clock move.
	 */
	if (!n) {
		put_back(held);
		return sim_runheap_pop_earliest();
	}
	k = 0;
	if (n > 1) {
		ex.steps++;
		k = choose(cand, n, cur);
		log_choice(n, k, cur);
		sim_decision(SIM_DEC_EXPLORE, (uint64_t)n, (uint64_t)k, 0);
	}
	if (cand[k] == held)		/* it runs on, never put back */
		return held;
	put_back(held);
	sim_runheap_remove(cand[k]);
	return cand[k];
}

bool sim_explore_spinning(int cpu)
{
	return cpu >= 0 && cpu < SIM_MAX_CPUS && ex.spinning[cpu];
}

/* dfs: the next schedule after the one in @c[0..*len): the deepest
 * branching point with an untried candidate within the preemption bound
 * takes it, the ones after it are dropped (index 0 from there on).
 * Return: 1, or 0 when the enumeration is exhausted. */
int sim_explore_dfs_next(struct sim_choice *c, int *len, unsigned int bound)
{
	unsigned int pre = 0;
	int best = -1;

	for (int i = 0; i < *len; i++) {
		unsigned int cost = pre + (c[i].cur ? 1 : 0);

		if (c[i].k + 1 < c[i].n && cost <= bound)
			best = i;
		pre += c[i].cur && c[i].k;
	}
	if (best < 0)
		return 0;
	c[best].k++;
	*len = best + 1;
	return 1;
}
