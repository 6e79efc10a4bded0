/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sched/core.c - runqueues, blocking, wakeup placement, the tick, idle.
 *
 * Stage: scheduler.  Called by the kernel's schedule() and
 * try_to_wake_up() (sched/kapi.c, through sim/machine/hooks.h), by the machine
 * (ticks, idle exits, preemption at hook points) and by sim_task_create().
 * Calls the machine to switch tasks (sim_switch_to()) and to wake idle
 * CPUs (sim_cpu_kick()).  Policy and task states: sched/sched.h.
 *
 * Costs charged here, from the preset: a context switch to the CPU that
 * switches, the waker's side of a wakeup to the waker, going idle to the
 * CPU that idles; a wakee placed on an idle CPU starts after
 * wakeup_to_run + idle_exit.  Switch and wakeup costs carry the machine's
 * seeded jitter (sim_jitter_ps()).
 *
 * Trace events (sim/trace/trace.h): sched_switch where a CPU changes task (to
 * and from idle included), stamped before the switch's cost; sched_waking
 * and sched_wakeup around a wakeup's cost, in the waker's context;
 * sched_wakeup_new when a task starts.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sched/sched.h"
#include "sim/report/failure.h"
#include "sim/trace/trace.h"

struct rq {
	struct sim_task *head, *tail;	/* QUEUED tasks, in arrival order	*/
	int nr;
	int64_t min_vruntime;		/* never decreases			*/
};

static struct rq runqueues[SIM_MAX_CPUS];
/* the runqueues with a QUEUED task, a bit per CPU: pick_next() pulls
 * from one without looking at every CPU's */
static uint64_t rq_busy[SIM_MAX_CPUS / 64];

/* the CPUs with a current task, a bit per CPU: with rq_busy, which are
 * idle, for select_cpu() */
static uint64_t cpu_running[SIM_MAX_CPUS / 64];

static inline void bit_set(uint64_t *bits, int i, bool on)
{
	if (on)
		bits[i / 64] |= 1ULL << (i % 64);
	else
		bits[i / 64] &= ~(1ULL << (i % 64));
}

static inline void rq_busy_set(const struct rq *rq, bool busy)
{
	bit_set(rq_busy, (int)(rq - runqueues), busy);
}

/* @c's current task becomes @next (sim_switch_to() or here sets it). */
static inline void running_set(const struct sim_cpu *c,
			       const struct sim_task *next)
{
	bit_set(cpu_running, c->k.cpu, next != NULL);
}
/* Linux 6.1 CFS tunables for this machine (kernel/sched/fair.c):
 * base x (1 + ilog2(min(CPUs, 8))), SCHED_TUNABLESCALING_LOG. */
static int64_t sleeper_credit_ps;	/* sysctl_sched_latency / 2	*/
static int64_t wakeup_gran_ps;		/* sysctl_sched_wakeup_granularity */

/*
 * Classes and priorities (sched/sched.h): false until some task leaves
 * SCHED_NORMAL nice 0.  While it is false every path is the CFS one,
 * each guarded by this one branch.
 */
static bool prio_mixed;

static inline bool rt_prio(int prio)
{
	return prio < 100;
}

static inline struct rq *cpu_rq(const struct sim_cpu *c)
{
	return &runqueues[c->k.cpu];
}

/*
 * Has anything sched_assert_state() reads changed since it last passed?
 * What it reads (a task's state, CPU and runqueue links, a CPU's curr,
 * the runqueues, the task counts) is written in this file only, and by
 * sim_task_create() right before it calls sched_task_start(); each of
 * those writers calls state_changed() first.  Unchanged, the check would
 * pass again, so it is skipped; the first dispatch after any change
 * checks everything, as every dispatch did.
 */
static bool sched_changed = true;

static inline void state_changed(void)
{
	sched_changed = true;
}

static void enqueue(struct rq *rq, struct sim_task *t)
{
	state_changed();
	t->ready_ps = sim_now_ps();	/* run_task(): never before this */
	t->rq_next = NULL;
	t->rq_prev = rq->tail;
	if (rq->tail)
		rq->tail->rq_next = t;
	else
		rq->head = t;
	rq->tail = t;
	if (!rq->nr++)
		rq_busy_set(rq, true);
	t->state = SIM_TASK_QUEUED;
}

static void dequeue(struct rq *rq, struct sim_task *t)
{
	state_changed();
	if (t->rq_prev)
		t->rq_prev->rq_next = t->rq_next;
	else
		rq->head = t->rq_next;
	if (t->rq_next)
		t->rq_next->rq_prev = t->rq_prev;
	else
		rq->tail = t->rq_prev;
	t->rq_next = t->rq_prev = NULL;
	if (!--rq->nr)
		rq_busy_set(rq, false);
}

void sched_init(void)
{
	int factor = 1, n = sim.nr_cpus < 8 ? sim.nr_cpus : 8;

	state_changed();		/* a new machine */
	while (n >>= 1)
		factor++;
	sleeper_credit_ps = 6000000000LL * factor / 2;
	wakeup_gran_ps = 1000000000LL * factor;
	for (int i = 0; i < sim.nr_cpus; i++) {
		runqueues[i] = (struct rq){ 0 };
		sim.cpus[i].rq = &runqueues[i];
	}
	memset(rq_busy, 0, sizeof(rq_busy));
	memset(cpu_running, 0, sizeof(cpu_running));
}

int sched_nr_queued(const struct sim_cpu *c)
{
	return cpu_rq(c)->nr;
}

static int cpu_load(const struct sim_cpu *c)
{
	return (c->curr != NULL) + cpu_rq(c)->nr;
}

/* The priority of what @c runs: 140 (below every task) when idle. */
static int cpu_prio(const struct sim_cpu *c)
{
	return c->curr ? c->curr->prio : 140;
}

/*
 * select_cpu_rt - placement of a real-time task (the idea of Linux's
 * find_lowest_rq()): an idle CPU, else the CPU running the lowest
 * priority (the previous CPU on ties), scanning after the previous CPU.
 */
static int select_cpu_rt(const struct sim_task *t)
{
	int n = sim.nr_cpus, best = t->cpu;

	for (int i = 1; i < n; i++) {
		const struct sim_cpu *c = &sim.cpus[(t->cpu + i) % n];

		if (!cpu_load(c))
			return c->k.cpu;
		if (cpu_prio(c) > cpu_prio(&sim.cpus[best]))
			best = c->k.cpu;
	}
	return best;
}

/* The first CPU of @mask (a bit per CPU) in [@lo, @hi), or -1. */
static int first_set(const uint64_t *mask, int lo, int hi)
{
	while (lo < hi) {
		uint64_t b = mask[lo / 64] >> (lo % 64);

		if (b) {
			lo += __builtin_ctzll(b);
			return lo < hi ? lo : -1;
		}
		lo = (lo / 64 + 1) * 64;
	}
	return -1;
}

/*
 * The first CPU of @mask in the order of the placement scans, @from + 1
 * .. n - 1 then 0 .. @from - 1, at or after scan position @cpu (a CPU
 * of that order, or -1 for its start); -1 when none is left.
 */
static int scan_next(const uint64_t *mask, int from, int n, int cpu)
{
	int found;

	if (cpu < 0)
		cpu = from + 1;
	if (cpu > from) {
		found = first_set(mask, cpu, n);
		if (found >= 0)
			return found;
		cpu = 0;
	}
	return first_set(mask, cpu, from);
}

/*
 * select_cpu - wakeup placement: the previous CPU if idle, else an idle
 * CPU on the same socket, else any idle CPU, else the least loaded CPU
 * (the previous one on ties).  Scans start after the previous CPU so that
 * the choice depends on nothing but the machine's state.  The idle CPUs
 * (no current task, nothing queued) and those of load 1 (a current task,
 * nothing queued) come from the bits of cpu_running and rq_busy; loads
 * are compared one by one only when no CPU has a load of 1, or some CPU
 * has tasks queued and none running (a CPU about to wake, whose load
 * the bits do not tell).
 */
static int select_cpu(const struct sim_task *t)
{
	const struct sim_cpu *prev = &sim.cpus[t->cpu];
	int n = sim.nr_cpus, best = t->cpu, any_idle = -1, cpu;
	uint64_t idle[SIM_MAX_CPUS / 64], one[SIM_MAX_CPUS / 64];
	bool waking = false;

	if (!cpu_load(prev))
		return t->cpu;
	if (__builtin_expect(prio_mixed, 0) && rt_prio(t->prio))
		return select_cpu_rt(t);
	for (int w = 0; w < (n + 63) / 64; w++) {
		idle[w] = ~(cpu_running[w] | rq_busy[w]);
		one[w] = cpu_running[w] & ~rq_busy[w];
		waking |= (~cpu_running[w] & rq_busy[w]) != 0;
	}
	for (cpu = scan_next(idle, t->cpu, n, -1); cpu >= 0;
	     cpu = scan_next(idle, t->cpu, n, cpu + 1)) {
		if (sim.cpus[cpu].socket == prev->socket)
			return cpu;
		if (any_idle < 0)
			any_idle = cpu;
	}
	if (any_idle >= 0)
		return any_idle;
	if (cpu_load(prev) == 1)
		return t->cpu;		/* none is idle: none has less */
	if (!waking) {
		/* the first of load 1, if any: none has less */
		cpu = scan_next(one, t->cpu, n, -1);
		if (cpu >= 0)
			return cpu;
	}
	for (int i = 1; i < n; i++) {
		const struct sim_cpu *c = &sim.cpus[(t->cpu + i) % n];

		if (cpu_load(c) < cpu_load(&sim.cpus[best]))
			best = c->k.cpu;
	}
	return best;
}

/* Queue @t on @cpu; an idle CPU is woken after @latency_ps. */
static void place(struct sim_task *t, int cpu, uint64_t latency_ps)
{
	struct sim_cpu *c = &sim.cpus[cpu];

	state_changed();
	t->cpu = cpu;
	enqueue(cpu_rq(c), t);
	if (!c->curr)
		sim_cpu_kick(cpu, sim_now_ps() + latency_ps);
}

void sched_task_start(struct sim_task *t, int cpu)
{
	cpu = cpu >= 0 ? cpu % sim.nr_cpus : select_cpu(t);
	t->vruntime_ps = runqueues[cpu].min_vruntime;
	place(t, cpu, 0);
	sim_trace_wakeup_new(t, t->cpu);
}

/*
 * Give @c to @next (dequeued, or NULL), at the CPU's current time, or at
 * the time @next became runnable if that is later: a task never runs
 * before its wakeup or preemption.  Timed mode never needs the wait (the
 * CPU that picks a task has the smallest clock, or was kicked after the
 * wakeup); explore mode does, where a strategy lets clocks drift apart,
 * and a task woken by a CPU far ahead would otherwise run in its past
 * (waits measured negative).
 */
static void run_task(struct sim_cpu *c, struct sim_task *next)
{
	c->k.need_resched = 0;
	if (!next)
		return;
	state_changed();
	if (c->now_ps < next->ready_ps)
		c->now_ps = next->ready_ps;
	next->state = SIM_TASK_RUNNING;
	if (sched_task_watch && next->cpu != c->k.cpu)
		sched_task_watch(next, SCHED_WATCH_MOVE);
	next->cpu = c->k.cpu;
	next->slice_start_ps = c->now_ps;
	next->mode_start_ps = c->now_ps;
}

/* @t's vruntime, kept relative to @from's min_vruntime, moves to @to. */
static void migrate_vruntime(struct sim_task *t, const struct rq *from,
			     const struct rq *to)
{
	t->vruntime_ps += to->min_vruntime - from->min_vruntime;
}

/*
 * The queued task of @rq that runs next once priorities differ: the best
 * (lowest) real-time prio, the first queued on ties (FIFO order); with no
 * real-time task queued, the least vruntime.
 */
static struct sim_task *best_of(const struct rq *rq)
{
	struct sim_task *best = rq->head;

	for (struct sim_task *t = rq->head; t; t = t->rq_next) {
		if (rt_prio(t->prio) || rt_prio(best->prio)) {
			if (t->prio < best->prio)
				best = t;
		} else if (t->vruntime_ps < best->vruntime_ps) {
			best = t;
		}
	}
	return best;
}

/* The queued task of @rq with the least vruntime (the first on ties). */
static struct sim_task *leftmost(const struct rq *rq)
{
	struct sim_task *best = rq->head;

	if (__builtin_expect(prio_mixed, 0))
		return best_of(rq);
	for (struct sim_task *t = rq->head; t; t = t->rq_next)
		if (t->vruntime_ps < best->vruntime_ps)
			best = t;
	return best;
}

/* The next task for @c: the least vruntime of its own queue, else pull
 * that of the longest other queue (newly-idle balancing). */
static struct sim_task *pick_next(struct sim_cpu *c)
{
	struct rq *rq = cpu_rq(c), *from = rq;
	struct sim_task *t;

	if (!rq->nr) {
		/* the first of the longest, in CPU order */
		for (int w = 0; w < SIM_MAX_CPUS / 64; w++) {
			for (uint64_t b = rq_busy[w]; b; b &= b - 1) {
				struct rq *o = &runqueues[w * 64 +
							  __builtin_ctzll(b)];

				if (from == rq || o->nr > from->nr)
					from = o;
			}
		}
		if (from == rq)
			return NULL;
	}
	t = leftmost(from);
	dequeue(from, t);
	migrate_vruntime(t, from, rq);
	if (t->vruntime_ps > rq->min_vruntime)
		rq->min_vruntime = t->vruntime_ps;
	return t;
}

/*
 * CFS wakeup placement and preemption (6.1 place_entity() with
 * GENTLE_FAIR_SLEEPERS, check_preempt_wakeup()): a woken task gets at
 * most half a scheduling latency of credit below the runqueue's
 * min_vruntime, and preempts the running task if that task's vruntime
 * is more than a wakeup granularity ahead of its own.
 */
static void place_woken(struct sim_task *t, int cpu, uint64_t now_ps)
{
	struct sim_cpu *c = &sim.cpus[cpu];
	struct rq *rq = cpu_rq(c);
	struct sim_task *curr = c->curr;
	int64_t floor = rq->min_vruntime - sleeper_credit_ps;

	migrate_vruntime(t, &runqueues[t->cpu], rq);
	if (t->vruntime_ps < floor)
		t->vruntime_ps = floor;
	if (__builtin_expect(prio_mixed, 0) && curr &&
	    (rt_prio(t->prio) || rt_prio(curr->prio))) {
		/* check_preempt_curr(): a better class or rt prio preempts */
		if (t->prio < curr->prio)
			c->k.need_resched = 1;
		return;
	}
	if (curr && now_ps > curr->slice_start_ps &&
	    curr->vruntime_ps + (int64_t)(now_ps - curr->slice_start_ps) >
	    t->vruntime_ps + wakeup_gran_ps)
		c->k.need_resched = 1;
}

/* CFS's calc_delta_fair(): @ran of CPU time is @ran x 1024 / weight of
 * vruntime; a task running in the real-time class gains none. */
static int64_t fair_delta(const struct sim_task *t, int64_t ran)
{
	if (rt_prio(t->prio))
		return 0;
	return t->weight == 1024 ? ran : ran * 1024 / t->weight;
}

/* The current task stops running (it sleeps, yields or dies). */
static void switch_away(struct sim_task *prev)
{
	struct sim_cpu *c = sim_cur;
	const struct sim_preset *p = sim.preset;
	struct sim_task *next;

	/* charge the slice first: a preempted prev is queued, and competes */
	if (c->now_ps > prev->slice_start_ps) {
		int64_t ran = c->now_ps - prev->slice_start_ps;

		if (__builtin_expect(prio_mixed, 0))
			ran = fair_delta(prev, ran);
		prev->vruntime_ps += ran;
	}
	next = pick_next(c);
	sim_trace_sched_switch(c->k.cpu, c->now_ps, prev, next);
	sim_account(prev, c->now_ps);
	prev->stats.switches++;
	if (next) {
		c->now_ps += sim_jitter_ps(p->ctxsw_ps);
		run_task(c, next);
	} else {
		c->now_ps += p->idle_enter_ps;
		c->k.need_resched = 0;
	}
	state_changed();		/* sim_switch_to() sets c->curr */
	running_set(c, next);
	sim_switch_to(next);
}

void (*sched_task_watch)(const struct sim_task *t, enum sched_watch what);

void sched_block(void)
{
	struct sim_task *t = sim_cur->curr;

	if (sim_cur->k.preempt_count)
		sim_fail(SIM_FAIL_BUG, "scheduling while atomic (preempt_count != 0)");
	state_changed();
	t->state = SIM_TASK_SLEEPING;
	if (sched_task_watch)
		sched_task_watch(t, SCHED_WATCH_SLEEP);
	switch_away(t);
	/* woken, and given a CPU again by run_task() */
}

void sched_exit(void)
{
	struct sim_task *t = sim_cur->curr;

	state_changed();
	t->state = SIM_TASK_DEAD;
	sim.nr_live--;
	switch_away(t);
	sim_fail(SIM_FAIL_INVARIANT, "a dead task was resumed");
}

void sched_preempt(void)
{
	struct sim_cpu *c = sim_cur;
	struct sim_task *t = c->curr;

	c->k.need_resched = 0;
	if (!cpu_rq(c)->nr)
		return;
	/* a real-time task keeps its CPU unless a better one waits, or an
	 * equal one at the end of a SCHED_RR slice (sched_tick()) */
	if (__builtin_expect(prio_mixed, 0) && rt_prio(t->prio) &&
	    best_of(cpu_rq(c))->prio > t->prio)
		return;
	enqueue(cpu_rq(c), t);
	switch_away(t);
}

void sched_cond_resched(void)
{
	if (sim_cur && sim_cur->k.need_resched)
		sched_preempt();
}

int sched_wake(struct sim_task *t)
{
	const struct sim_preset *p = sim.preset;
	int cpu;

	if (t->state != SIM_TASK_SLEEPING)
		return 0;
	if (sched_task_watch)
		sched_task_watch(t, SCHED_WATCH_WAKE);
	/*
	 * The waker spends wake_ps in try_to_wake_up(), but the wakee is on
	 * its runqueue from the start: the trace says so then (other CPUs,
	 * whose clocks may be behind the waker's end, can already pick it);
	 * its CPU's preemption check and kick count from the waker's end.
	 */
	sim_trace_waking(t, t->cpu);
	cpu = select_cpu(t);
	place_woken(t, cpu, sim_now_ps() + p->wake_ps);
	place(t, cpu, p->wake_ps +
	      sim_jitter_ps(p->wakeup_to_run_ps + p->idle_exit_ps));
	sim_trace_wakeup(t, t->cpu);
	sim_charge_ps(p->wake_ps);
	return 1;
}

void sched_cpu_wakeup(struct sim_cpu *c)
{
	struct sim_task *next = pick_next(c);

	if (!next)
		return;
	sim_trace_sched_switch(c->k.cpu, c->now_ps, NULL, next);
	state_changed();
	c->curr = next;
	running_set(c, next);
	run_task(c, next);
}

void sched_tick(struct sim_cpu *c)
{
	struct sim_task *t = c->curr;

	if (!t || !cpu_rq(c)->nr)
		return;
	/* task_tick_rt(): only SCHED_RR has a slice, shared with its equals */
	if (__builtin_expect(prio_mixed, 0) && rt_prio(t->prio) &&
	    (t->policy != SIM_SCHED_RR || best_of(cpu_rq(c))->prio > t->prio))
		return;
	if (c->now_ps - t->slice_start_ps >= sim.preset->timeslice_ps)
		c->k.need_resched = 1;
}

/* CFS's weight of nice -20..19: 1024 / 1.25^nice, the rule of Linux's
 * sched_prio_to_weight[] (which rounds a few entries differently). */
static uint32_t nice_weight(int nice)
{
	return (uint32_t)lround(1024.0 / pow(1.25, nice));
}

static void set_prio(struct sim_task *t, int prio, int policy, int nice,
		     int pi_boost)
{
	struct sim_cpu *c = &sim.cpus[t->cpu];
	struct rq *rq = cpu_rq(c);
	int old = t->prio;

	if (prio != 120 || policy != SIM_SCHED_NORMAL || nice)
		prio_mixed = true;
	t->prio = prio;
	t->policy = policy;
	t->nice = nice;
	t->weight = nice_weight(nice);
	if (pi_boost)
		sim_trace_pi_setprio(t, old, prio);
	if (!prio_mixed || old == prio)
		return;
	/* the kernel's check_class_changed()/prio_changed_*() */
	if (t->state == SIM_TASK_RUNNING && c->curr == t && rq->nr) {
		const struct sim_task *b = best_of(rq);

		if (b->prio < prio && (rt_prio(b->prio) || rt_prio(prio)))
			c->k.need_resched = 1;
	} else if (t->state == SIM_TASK_QUEUED && c->curr &&
		   prio < c->curr->prio &&
		   (rt_prio(prio) || rt_prio(c->curr->prio))) {
		c->k.need_resched = 1;
	}
}

void sched_setprio(struct sim_task *t, int prio, int policy, int nice)
{
	set_prio(t, prio, policy, nice, 0);
}

void sched_pi_setprio(struct sim_task *t, int prio)
{
	set_prio(t, prio, t->policy, t->nice, 1);
}

int sched_task_nice(const struct sim_task *t)
{
	return t->nice;
}

int sched_task_on_cpu(const struct sim_task *t)
{
	return t->state == SIM_TASK_RUNNING;
}

int sched_task_cpu(const struct sim_task *t)
{
	return t->cpu;
}

struct sim_task *sched_find_task(int tid)
{
	int i = tid - SIM_TID_BASE;

	if (i < 0 || i >= sim.nr_tasks || sim.tasks[i]->state == SIM_TASK_DEAD)
		return NULL;
	return sim.tasks[i];
}

static void check(int ok, const char *what)
{
	if (!ok)
		sim_fail(SIM_FAIL_INVARIANT, what);
}

/* The checks of sched_assert_state(), out of line: the call at every
 * dispatch stays a test of sched_changed. */
static void __attribute__((noinline)) check_all(void)
{
	int queued[SIM_MAX_CPUS], live = 0;

	memset(queued, 0, (size_t)sim.nr_cpus * sizeof(queued[0]));

	for (int i = 0; i < sim.nr_tasks; i++) {
		const struct sim_task *t = sim.tasks[i];
		const struct sim_cpu *c = &sim.cpus[t->cpu];

		live += t->state != SIM_TASK_DEAD;
		switch (t->state) {
		case SIM_TASK_RUNNING:
			check(c->curr == t, "RUNNING task is not its CPU's curr");
			break;
		case SIM_TASK_QUEUED:
			queued[t->cpu]++;
			check(c->curr != t, "QUEUED task is a CPU's curr");
			break;
		default:
			check(c->curr != t, "sleeping or dead task is curr");
			check(!t->rq_next && !t->rq_prev, "sleeping task linked");
		}
	}
	check(live == sim.nr_live, "live task count");
	for (int i = 0; i < sim.nr_cpus; i++) {
		const struct rq *rq = &runqueues[i];
		int n = 0;

		for (const struct sim_task *t = rq->head; t; t = t->rq_next) {
			check(t->state == SIM_TASK_QUEUED && t->cpu == i,
			      "runqueue holds a task of another state or CPU");
			n++;
		}
		check(n == rq->nr && n == queued[i], "runqueue length");
		check(!(rq_busy[i / 64] >> (i % 64) & 1) == !n,
		      "runqueue's busy bit");
		check(!(cpu_running[i / 64] >> (i % 64) & 1) ==
		      !sim.cpus[i].curr, "CPU's running bit");
	}
}

void sched_assert_state(void)
{
	if (!sched_changed)	/* it passed, and nothing changed since */
		return;
	check_all();
	sched_changed = false;
}

/* at every dispatch of a checked run (sim/machine/hooks.h) */
SIM_STATE_CHECKER(sched_assert_state, SIM_CHECK_ORDER_SCHED);
