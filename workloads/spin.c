/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/spin.c - the kernel spinlock micro-benchmark of the 2014
 * qspinlock thread (SPEC.md 3.7): one kernel-mode task per CPU used, each
 * doing lock / write the data / unlock on ONE kernel spinlock, back to
 * back, for its share of the operations.
 *
 * Stage: workload, first in the flow; but its locks are kernel locks, so
 * it calls the kernel directly through the glue of futex/kspin.h (no
 * ulock, no futex(2)): workload -> kernel -> machine -> report.  Called
 * by the CLI (one process per lock) and by tests/test_spin.c.
 *
 * Keys it reads (sim/scenario.h): threads (= tasks, at most one per CPU:
 * a spinning task never yields its CPU), ops or ops-per-thread, duration,
 * cs and between (pause:N or none), data=standalone|embedded (the data is
 * in a line of its own, or in the lock's line right after the word) and
 * placement=pack|nodes (fill socket after socket in CPU order, or deal
 * the tasks round-robin over the sockets: one per socket first).
 *
 * The critical section reads the data, runs cs, and writes the data + 1
 * (two simulated accesses; the data line is written on every operation).
 * The driver checks mutual exclusion itself, as workloads/mutex.c does:
 * the holder is recorded on entry and checked on exit, and no update of
 * the data may be lost; a broken lock is a simulated failure (exit 3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "futex/kspin.h"
#include "sim/arena.h"
#include "sim/event.h"
#include "sim/failure.h"
#include "sim/machine.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/workload.h"

/* embedded: the data right after the lock word, as in a struct */
#define EMBEDDED_DATA_OFFSET	4

static const struct wl_klock klock_ticket = {
	.name		= "ticket",
	.description	= "ticket spinlock (x86 before qspinlock), futex/ticket.c",
	.lock		= ksim_spin_ticket_lock,
	.unlock		= ksim_spin_ticket_unlock,
};

static const struct wl_klock klock_qgeneric = {
	.name		= "qspinlock-generic",
	.description	= "real qspinlock.c, generic build: 1 pending loop, fetch_or",
	.lock		= ksim_spin_qgeneric_lock,
	.unlock		= ksim_spin_qgeneric_unlock,
	.paths		= true,
};

static const struct wl_klock klock_qx86 = {
	.name		= "qspinlock-x86",
	.description	= "real qspinlock.c, x86 build: 512 pending loops, bts",
	.lock		= ksim_spin_qx86_lock,
	.unlock		= ksim_spin_qx86_unlock,
	.paths		= true,
};

static const struct wl_klock *const spin_klocks[] = {
	&klock_ticket,
	&klock_qgeneric,
	&klock_qx86,
	NULL,
};

struct spin_task {
	int idx;
	uint64_t quota;			/* fixed-ops: operations to do	*/
	uint64_t ops;
	uint64_t start_ps, end_ps;
	struct sim_hist acquire_ns;
	struct sim_task *task;
};

static struct {
	const struct sim_scenario *s;
	const struct wl_klock *lock;
	void *word;			/* the lock, in simulated memory  */
	uint32_t *data;			/* the data the section writes	  */
	int holder;			/* the driver's own check	  */
	int stop;			/* fixed-time: set at duration	  */
	struct sim_event stop_ev;
	struct spin_task *tasks;
} sp;

static void pauses(const struct sim_work *w)
{
	if (w->kind == SIM_WORK_PAUSE)
		for (uint64_t i = 0; i < w->n; i++)
			uatomic_pause();
}

static void critical_section(const struct spin_task *t)
{
	uint32_t v;

	if (sp.holder)
		goto broken;
	sp.holder = t->idx + 1;
	v = uatomic_load(sp.data);
	pauses(&sp.s->cs);
	uatomic_store(sp.data, v + 1);
	if (sp.holder != t->idx + 1)
		goto broken;
	sp.holder = 0;
	return;
broken:
	sim_fail(SIM_FAIL_INVARIANT, "mutual exclusion violated: two tasks in the critical section");
}

static int keep_going(const struct spin_task *t)
{
	if (sp.s->duration_ps)
		return !sp.stop;
	return t->ops < t->quota;
}

static void worker(void *arg)
{
	struct spin_task *t = arg;
	struct sim_task *me = sim_current();

	sim_account(me, sim_now_ps());
	me->in_kernel = true;		/* a kernel thread: all system time */
	t->start_ps = sim_now_ps();
	while (keep_going(t)) {
		uint64_t t0 = sim_now_ps();

		sp.lock->lock(sp.word);
		sim_hist_add(&t->acquire_ns, (sim_now_ps() - t0) / 1000);
		critical_section(t);
		sp.lock->unlock(sp.word);
		t->ops++;
		sim_progress();
		pauses(&sp.s->between);
	}
	t->end_ps = sim_now_ps();
	sim_account(me, t->end_ps);
}

static void stop_fire(struct sim_event *ev)
{
	sp.stop = 1;
}

/*
 * The CPU of every task: pack takes the CPUs socket by socket, each in
 * CPU-number order (first threads, then SMT siblings); nodes takes the
 * first CPU of every socket, then the second of every socket, ...
 */
static void place(enum sim_placement how, int n, int *cpu_of)
{
	static int by_socket[SIM_MAX_CPUS][SIM_MAX_CPUS];
	int count[SIM_MAX_CPUS] = { 0 };
	int sockets = 0, k = 0, i, s, rank;

	for (i = 0; i < sim.nr_cpus; i++) {
		s = sim.cpus[i].socket;
		by_socket[s][count[s]++] = i;
		if (s + 1 > sockets)
			sockets = s + 1;
	}
	if (how == SIM_PLACE_PACK) {
		for (s = 0; s < sockets; s++)
			for (rank = 0; rank < count[s] && k < n; rank++)
				cpu_of[k++] = by_socket[s][rank];
		return;
	}
	for (rank = 0; k < n; rank++)
		for (s = 0; s < sockets && k < n; s++)
			if (rank < count[s])
				cpu_of[k++] = by_socket[s][rank];
}

static void collect(struct sim_result *r, int n)
{
	uint64_t *ops = calloc(n, sizeof(*ops));
	struct sim_hist *all = calloc(1, sizeof(*all));
	uint64_t tsum = 0, start = UINT64_MAX, end = 0;

	r->thread_min_ns = UINT64_MAX;
	r->ops_thread_min = UINT64_MAX;
	for (int i = 0; i < n; i++) {
		const struct spin_task *t = &sp.tasks[i];
		uint64_t t_ns = (t->end_ps - t->start_ps) / 1000;

		ops[i] = t->ops;
		r->ops += t->ops;
		tsum += t_ns;
		if (t_ns < r->thread_min_ns)
			r->thread_min_ns = t_ns;
		if (t_ns > r->thread_max_ns)
			r->thread_max_ns = t_ns;
		if (t->ops < r->ops_thread_min)
			r->ops_thread_min = t->ops;
		if (t->ops > r->ops_thread_max)
			r->ops_thread_max = t->ops;
		if (t->start_ps < start)
			start = t->start_ps;
		if (t->end_ps > end)
			end = t->end_ps;
		r->sys_ns += t->task->stats.sys_ps / 1000;
		r->user_ns += t->task->stats.user_ps / 1000;
		sim_hist_merge(all, &t->acquire_ns);
	}
	r->thread_avg_ns = tsum / n;
	r->elapsed_ns = (end - start) / 1000;
	/* the published figure: the run's time over one task's share */
	if (r->ops)
		r->ns_per_op = (double)(end - start) / 1000.0 * n / (double)r->ops;
	r->acquire_p50_ns = sim_hist_percentile(all, 50);
	r->acquire_p99_ns = sim_hist_percentile(all, 99);
	r->acquire_max_ns = all->max;
	r->jain = sim_jain(ops, n);
	free(ops);
	free(all);
}

/* Fast, pending and queue acquisitions from the real file's counters. */
static void collect_paths(struct sim_result *r)
{
	struct ksim_spin_paths p;

	r->paths_counted = sp.lock->paths;
	if (!sp.lock->paths)
		return;
	ksim_spin_paths_read(&p);
	if (p.pending + p.queue > r->ops)
		sim_fail(SIM_FAIL_INVARIANT, "more slow-path acquisitions counted than acquisitions");
	r->path_pending = p.pending;
	r->path_queue = p.queue;
	r->path_fast = r->ops - p.pending - p.queue;
}

/* Lay out the lock and the data, create one task per CPU of the
 * placement. */
static void setup(const struct sim_scenario *s, const struct wl_klock *k)
{
	int n = s->threads, *cpu_of = calloc(n, sizeof(*cpu_of));
	char *line;

	memset(&sp, 0, sizeof(sp));
	sp.s = s;
	sp.lock = k;
	line = sim_arena_alloc(64, 64);
	sp.word = line;
	if (s->data == SIM_DATA_EMBEDDED)
		sp.data = (uint32_t *)(line + EMBEDDED_DATA_OFFSET);
	else
		sp.data = sim_arena_alloc(64, 64);
	sp.tasks = calloc(n, sizeof(*sp.tasks));
	ksim_spin_paths_reset();
	sim_set_livelock_ps(s->livelock_ps);

	place(s->placement, n, cpu_of);
	for (int i = 0; i < n; i++) {
		struct spin_task *t = &sp.tasks[i];
		char name[24];

		t->idx = i;
		t->quota = s->ops / n + ((uint64_t)i < s->ops % n);
		snprintf(name, sizeof(name), "spin%d", i);
		t->task = sim_task_create(name, worker, t, cpu_of[i]);
	}
	free(cpu_of);
	if (s->duration_ps) {
		sim_event_init(&sp.stop_ev, stop_fire);
		sim_event_start(&sp.stop_ev, s->duration_ps, 0);
	}
}

void wl_spin_run_lock(const struct sim_scenario *s, const struct wl_klock *k,
		      struct sim_result *r)
{
	struct timespec h0, h1;

	setup(s, k);
	clock_gettime(CLOCK_MONOTONIC, &h0);	/* host effort only */
	sim_run();
	clock_gettime(CLOCK_MONOTONIC, &h1);

	memset(r, 0, sizeof(*r));
	snprintf(r->lock, sizeof(r->lock), "%s", k->name);
	collect(r, s->threads);
	if (*sp.data != (uint32_t)r->ops)
		sim_fail(SIM_FAIL_INVARIANT, "mutual exclusion violated: updates of the data were lost");
	collect_paths(r);
	r->host_hooks = sim.counters.hooks;
	r->host_switches = sim.counters.switches;
	r->host_seconds = (h1.tv_sec - h0.tv_sec) + (h1.tv_nsec - h0.tv_nsec) / 1e9;
	free(sp.tasks);
}

static void spin_run(const struct sim_scenario *s, const struct ulock_ops *unused,
		     struct sim_result *r)
{
	const struct wl_klock *k = wl_klock_find(&wl_spin, s->locks[0]);

	if (!k)
		sim_fail(SIM_FAIL_INVARIANT, "workload spin was given a lock it does not run");
	wl_spin_run_lock(s, k, r);
}

const struct wl_workload wl_spin = {
	.name		= "spin",
	.description	= "one kernel task per CPU: spin_lock, write the data, spin_unlock (SPEC 3.7)",
	.run		= spin_run,
	.klocks		= spin_klocks,
};
