/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/mutex.c - the mutex micro-benchmark (Waiman Long's perf bench
 * futex mutex, 2016-2017): N threads lock one lock, run the
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
#include <string.h>

#include "sim/host/arena.h"
#include "sim/trace/lockstat.h"
#include "sim/explore/oracle.h"
#include "sim/syscall/syscall.h"
#include "sim/trace/trace.h"
#include "workloads/driver.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/workload.h"

static struct {
	struct wl_run run;
	const struct ulock_ops *lock;
	void *word;			/* the lock, in simulated memory  */
	uint32_t *data;			/* the protected data (own line)  */
} wl;

static void critical_section(struct wl_worker *w)
{
	wl_cs_enter(&wl.run, w);
	wl_data_write(&wl.run, wl.data);	/* touch the protected line */
	wl_do_work(&wl.run.s->cs);
	wl_cs_exit(&wl.run, w);
}

static void worker(void *arg)
{
	struct wl_worker *w = arg;
	const struct ulock_ops *lock = wl.lock;

	w->start_ps = sim_now_ps();
	while (wl_keep_going(&wl.run, w)) {
		uint64_t t0 = sim_now_ps(), sys0 = w->st.lock_syscalls;
		/* --lock-stat: not free when called (a plain read) */
		int busy = sim_lockstat_on && *(const uint32_t *)wl.word;

		lock->lock(wl.word, &w->st);
		wl_note_acquire(&wl.run, t0);
		if (sim_lockstat_on)
			sim_lockstat_user_acquired(wl.word, lock->name, t0,
				busy || w->st.lock_syscalls != sys0);
		critical_section(w);
		if (sim_lockstat_on)
			sim_lockstat_user_release(wl.word);
		lock->unlock(wl.word, &w->st);
		w->ops++;
		sim_progress();
		wl_do_work(&wl.run.s->between);
	}
	w->end_ps = sim_now_ps();
}

static void mutex_run(const struct sim_scenario *s, const struct ulock_ops *lock,
		      struct sim_result *r)
{
	uint64_t start_ps, end_ps;

	memset(&wl, 0, sizeof(wl));
	wl.lock = lock;
	wl.word = sim_arena_alloc(lock->size, 64);
	wl.data = sim_arena_alloc(sizeof(uint32_t), 64);
	lock->init(wl.word);
	sim_trace_lock_words(wl.word, lock->words);	/* an HTML page */
	wl_name_data(lock->name, wl.word, lock->size, wl.data);
	wl_run_begin(&wl.run, s);
	sim_oracle_watch(wl.word);	/* a futex word: 0 is free */
	wl_run_tasks(&wl.run, "worker", worker, NULL);

	memset(r, 0, sizeof(*r));
	wl_run_sim(r);
	snprintf(r->lock, sizeof(r->lock), "%s", lock->name);
	wl_collect(&wl.run, r, &start_ps, &end_ps);
	r->elapsed_ns = end_ps / 1000;	/* from the start of the run */
	wl_run_end(&wl.run);
}

const struct wl_workload wl_mutex = {
	.name		= "mutex",
	.description	= "N threads: lock, critical section, unlock, delay (perf bench futex mutex)",
	.run		= mutex_run,
};
