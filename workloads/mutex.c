/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/mutex.c - the mutex micro-benchmark (perf bench futex mutex,
 * SPEC.md sections 9.11 and 13): N threads lock one lock, run the
 * critical section, unlock, run the work between operations, repeat.
 *
 * Stage: workload, first in the flow.  Called by the CLI (one process per
 * lock); calls the user lock (workloads/ulock) and the machine.
 *
 * Termination: fixed-ops (ops= total, split evenly; "thread time" is each
 * thread's time to finish its share, as in the TO-futex table) or
 * fixed-time (duration=: every thread stops after the operation in
 * progress at that virtual time).
 *
 * The driver checks mutual exclusion itself: the holder is recorded on
 * entry and verified on exit, with a scheduling point in between, so a
 * broken lock is caught (simulated failure, exit 3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sim/arena.h"
#include "sim/event.h"
#include "sim/failure.h"
#include "sim/lockstat.h"
#include "sim/machine.h"
#include "sim/syscall.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/workload.h"

struct wl_thread {
	int idx;
	uint64_t quota;			/* fixed-ops: operations to do	*/
	uint64_t ops;
	uint64_t start_ps, end_ps;
	struct ulock_stats st;
	struct sim_hist acquire_ns;
	struct sim_task *task;
};

static struct {
	const struct sim_scenario *s;
	const struct ulock_ops *lock;
	void *word;			/* the lock, in simulated memory  */
	uint32_t *data;			/* the protected data (own line)  */
	int holder;			/* the driver's own check	  */
	int stop;			/* fixed-time: set at duration	  */
	struct sim_event stop_ev;
	struct wl_thread *threads;
} wl;

static void do_work(const struct sim_work *w)
{
	switch (w->kind) {
	case SIM_WORK_PAUSE:
		for (uint64_t i = 0; i < w->n; i++)
			uatomic_pause();
		break;
	case SIM_WORK_SLEEP:
		sim_sys_nanosleep(w->sleep_ps / 1000);
		break;
	case SIM_WORK_NONE:
		break;
	}
}

static void critical_section(struct wl_thread *th)
{
	if (wl.holder)
		goto broken;
	wl.holder = th->idx + 1;
	uatomic_fetch_add(wl.data, 1);	/* touch the protected line */
	do_work(&wl.s->cs);
	if (wl.holder != th->idx + 1)
		goto broken;
	wl.holder = 0;
	return;
broken:
	sim_fail(SIM_FAIL_INVARIANT, "mutual exclusion violated: two tasks in the critical section");
}

static int keep_going(const struct wl_thread *th)
{
	if (wl.s->duration_ps)
		return !wl.stop;
	return th->ops < th->quota;
}

static void worker(void *arg)
{
	struct wl_thread *th = arg;
	const struct ulock_ops *lock = wl.lock;

	th->start_ps = sim_now_ps();
	while (keep_going(th)) {
		uint64_t t0 = sim_now_ps(), sys0 = th->st.lock_syscalls;
		/* --lock-stat: not free when called (a plain read) */
		int busy = sim_lockstat_on && *(const uint32_t *)wl.word;

		lock->lock(wl.word, &th->st);
		sim_hist_add(&th->acquire_ns, (sim_now_ps() - t0) / 1000);
		if (sim_lockstat_on)
			sim_lockstat_user_acquired(wl.word, lock->name, t0,
				busy || th->st.lock_syscalls != sys0);
		critical_section(th);
		if (sim_lockstat_on)
			sim_lockstat_user_release(wl.word);
		lock->unlock(wl.word, &th->st);
		th->ops++;
		sim_progress();
		do_work(&wl.s->between);
	}
	th->end_ps = sim_now_ps();
}

static void stop_fire(struct sim_event *ev)
{
	wl.stop = 1;
}

static void collect(struct sim_result *r, int n)
{
	uint64_t *ops = calloc(n, sizeof(*ops));
	struct sim_hist *all = calloc(1, sizeof(*all));
	uint64_t tsum = 0, end = 0;

	r->thread_min_ns = UINT64_MAX;
	r->ops_thread_min = UINT64_MAX;
	for (int i = 0; i < n; i++) {
		const struct wl_thread *th = &wl.threads[i];
		uint64_t t_ns = (th->end_ps - th->start_ps) / 1000;

		ops[i] = th->ops;
		r->ops += th->ops;
		tsum += t_ns;
		if (t_ns < r->thread_min_ns)
			r->thread_min_ns = t_ns;
		if (t_ns > r->thread_max_ns)
			r->thread_max_ns = t_ns;
		if (th->ops < r->ops_thread_min)
			r->ops_thread_min = th->ops;
		if (th->ops > r->ops_thread_max)
			r->ops_thread_max = th->ops;
		if (th->end_ps > end)
			end = th->end_ps;
		r->sys_ns += th->task->stats.sys_ps / 1000;
		r->user_ns += th->task->stats.user_ps / 1000;
		r->lock_syscalls += th->st.lock_syscalls;
		r->unlock_syscalls += th->st.unlock_syscalls;
		r->eagain += th->st.eagain;
		r->timeouts += th->st.timeouts;
		r->wakeups += th->st.wakeups;
		sim_hist_merge(all, &th->acquire_ns);
	}
	r->thread_avg_ns = tsum / n;
	r->elapsed_ns = end / 1000;
	r->acquire_p50_ns = sim_hist_percentile(all, 50);
	r->acquire_p99_ns = sim_hist_percentile(all, 99);
	r->acquire_max_ns = all->max;
	r->jain = sim_jain(ops, n);
	free(ops);
	free(all);
}

static void mutex_run(const struct sim_scenario *s, const struct ulock_ops *lock,
		      struct sim_result *r)
{
	int n = s->threads;
	struct timespec h0, h1;

	memset(&wl, 0, sizeof(wl));
	wl.s = s;
	wl.lock = lock;
	wl.word = sim_arena_alloc(lock->size, 64);
	wl.data = sim_arena_alloc(sizeof(uint32_t), 64);
	wl.threads = calloc(n, sizeof(*wl.threads));
	lock->init(wl.word);
	sim_set_livelock_ps(s->livelock_ps);

	for (int i = 0; i < n; i++) {
		struct wl_thread *th = &wl.threads[i];
		char name[24];

		th->idx = i;
		th->quota = s->ops / n + ((uint64_t)i < s->ops % n);
		snprintf(name, sizeof(name), "worker%d", i);
		th->task = sim_task_create(name, worker, th, i % sim.nr_cpus);
	}
	if (s->duration_ps) {
		sim_event_init(&wl.stop_ev, stop_fire);
		sim_event_start(&wl.stop_ev, s->duration_ps, 0);
	}

	clock_gettime(CLOCK_MONOTONIC, &h0);	/* host effort only */
	sim_run();
	clock_gettime(CLOCK_MONOTONIC, &h1);

	memset(r, 0, sizeof(*r));
	snprintf(r->lock, sizeof(r->lock), "%s", lock->name);
	collect(r, n);
	r->host_hooks = sim.counters.hooks;
	r->host_switches = sim.counters.switches;
	r->host_seconds = (h1.tv_sec - h0.tv_sec) + (h1.tv_nsec - h0.tv_nsec) / 1e9;
	free(wl.threads);
}

const struct wl_workload wl_mutex = {
	.name		= "mutex",
	.description	= "N threads: lock, critical section, unlock, delay (perf bench futex mutex)",
	.run		= mutex_run,
};
