/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/driver.c - the parts every benchmark driver shares (see
 * workloads/driver.h).
 *
 * Stage: workload.  Called by workloads/mutex.c, spin.c and rwlock.c,
 * and by workloads/program.c for the figures of a user program's
 * threads (wl_add_thread()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "futex/tp.h"
#include "sim/report/detail.h"
#include "sim/report/failure.h"
#include "sim/explore/oracle.h"
#include "sim/syscall/syscall.h"
#include "workloads/driver.h"
#include "workloads/ulock/uatomic.h"

/* The acquisition latencies of the run: one histogram of some 35 KiB,
 * emptied as far as the last run filled it (explore runs one after the
 * other) rather than allocated per worker and merged. */
static struct sim_hist run_acquire_ns;

void wl_run_begin(struct wl_run *run, const struct sim_scenario *s)
{
	int n = s->threads;

	run->s = s;
	run->n = n;
	run->holder = 0;
	run->data_writes = 0;
	run->stop = 0;
	sim_hist_clear(&run_acquire_ns);
	run->acquire_ns = &run_acquire_ns;
	run->w = calloc(n, sizeof(*run->w));
	if (!run->w) {
		fprintf(stderr, "futexsim: out of memory for %d workers\n", n);
		exit(2);
	}
	for (int i = 0; i < n; i++) {
		run->w[i].idx = i;
		run->w[i].quota = s->ops / n + ((uint64_t)i < s->ops % n);
	}
	sim_set_livelock_ps(s->livelock_ps);
	/* the process-wide glibc tunables of lock=adaptive */
	ulock_tunables.adaptive = (enum ulock_adaptive)s->adaptive;
	ulock_tunables.spin_count = s->spin_count;
	/* lock=tp's policy lives in the kernel (futex/tp.c) */
	ksim_futex_tp_configure(s->tp_policy, s->tp_handoff, s->tp_mutex);
	sim_oracle_run_begin(n);
}

static struct wl_run *stopping;	/* the run the stop event ends */

static void stop_fire(struct sim_event *ev)
{
	stopping->stop = 1;
}

void wl_run_tasks(struct wl_run *run, const char *prefix,
		  void (*fn)(void *), const int *cpu_of)
{
	for (int i = 0; i < run->n; i++) {
		char name[24];

		snprintf(name, sizeof(name), "%s%d", prefix, i);
		run->w[i].task = sim_task_create(name, fn, &run->w[i],
						 cpu_of ? cpu_of[i] : i % sim.nr_cpus);
	}
	if (run->s->duration_ps) {
		stopping = run;
		sim_event_init(&run->stop_ev, stop_fire);
		sim_event_start(&run->stop_ev, run->s->duration_ps, 0);
	}
}

int wl_keep_going(const struct wl_run *run, const struct wl_worker *w)
{
	int go = run->s->duration_ps ? !run->stop : w->ops < w->quota;

	if (go)
		sim_oracle_wait(w->idx);	/* it calls the lock next */
	else
		sim_oracle_done(w->idx);
	return go;
}

static void cs_broken(void)
{
	sim_fail(SIM_FAIL_INVARIANT,
		 "mutual exclusion violated: two tasks in the critical section");
}

void wl_cs_enter(struct wl_run *run, const struct wl_worker *w)
{
	if (run->holder)
		cs_broken();
	run->holder = w->idx + 1;
	sim_oracle_acquired(w->idx);
}

void wl_cs_exit(struct wl_run *run, const struct wl_worker *w)
{
	if (run->holder != w->idx + 1)
		cs_broken();
	run->holder = 0;
}

void wl_data_expect(struct wl_run *run, uint32_t v, uint32_t n)
{
	static char what[160];

	if (v == n)
		return;
	snprintf(what, sizeof(what),
		 "mutual exclusion violated: an update of the data was lost (read %u after %u updates; memory=%s)",
		 v, n, sim_memory_name());
	sim_fail(SIM_FAIL_INVARIANT, what);
}

void wl_data_read(struct wl_run *run, uint32_t *data)
{
	uint32_t v = uatomic_load_relaxed(data);

	wl_data_expect(run, v, run->data_writes);
}

void wl_data_seen(struct wl_run *run, uint32_t v)
{
	wl_data_expect(run, v, run->data_writes);
	run->data_writes++;
}

void wl_name_data(const char *lock, const void *word, unsigned int size,
		  const uint32_t *data)
{
	static char lock_name[80];
	const char *names[2] = { lock_name, "protected data" };
	const void *addr[2] = { word, data };
	const unsigned int sizes[2] = { size, sizeof(*data) };

	snprintf(lock_name, sizeof(lock_name), "lock word (lock=%s)", lock);
	sim_failure_name_data(2, addr, sizes, names);
}

void wl_data_write(struct wl_run *run, uint32_t *data)
{
	uint32_t v;

	if (!sim__sb_on) {
		v = uatomic_fetch_add(data, 1);
	} else {
		v = uatomic_load_relaxed(data);
		uatomic_store_relaxed(data, v + 1);
	}
	wl_data_seen(run, v);
}

void wl_do_work(const struct sim_work *w)
{
	switch (w->kind) {
	case SIM_WORK_PAUSE:
		for (uint64_t i = 0; i < w->n; i++)
			uatomic_pause();
		break;
	case SIM_WORK_LOOP:
		if (w->n)
			sim_delay_ps(w->n * 1000);
		break;
	case SIM_WORK_SLEEP:
		sim_sys_nanosleep(w->sleep_ps / 1000);
		break;
	case SIM_WORK_NONE:
		break;
	}
}

void wl_run_sim(struct sim_result *r)
{
	struct timespec h0, h1;

	clock_gettime(CLOCK_MONOTONIC, &h0);	/* host effort only */
	sim_run();
	clock_gettime(CLOCK_MONOTONIC, &h1);
	r->host_seconds = (h1.tv_sec - h0.tv_sec) + (h1.tv_nsec - h0.tv_nsec) / 1e9;
}

void wl_add_thread(struct sim_result *r, const struct sim_task *task,
		   const struct ulock_stats *st, uint64_t ops, uint64_t ns,
		   int lockers_only, uint64_t *tsum)
{
	r->ops += ops;
	*tsum += ns;
	if (ns < r->thread_min_ns)
		r->thread_min_ns = ns;
	if (ns > r->thread_max_ns)
		r->thread_max_ns = ns;
	if ((ops || !lockers_only) && ops < r->ops_thread_min)
		r->ops_thread_min = ops;
	if (ops > r->ops_thread_max)
		r->ops_thread_max = ops;
	r->sys_ns += task->stats.sys_ps / 1000;
	r->user_ns += task->stats.user_ps / 1000;
	r->lock_syscalls += st->lock_syscalls;
	r->unlock_syscalls += st->unlock_syscalls;
	r->eagain += st->eagain;
	r->timeouts += st->timeouts;
	r->wakeups += st->wakeups;
	/* the rows of lock=adaptive and lock=tp */
	r->spins += st->spins;
	r->spin_giveups += st->spin_giveups;
	r->tp_steals += st->steals;
	r->tp_top_waiter += st->top_waiter;
	r->tp_handoffs += st->handoffs;
	r->tp_sleeps += st->sleeps;
}

void wl_collect(const struct wl_run *run, struct sim_result *r,
		uint64_t *start_ps, uint64_t *end_ps)
{
	uint64_t *ops = calloc(run->n, sizeof(*ops));
	const struct sim_hist *all = run->acquire_ns;
	uint64_t tsum = 0;

	*start_ps = UINT64_MAX;
	*end_ps = 0;
	r->thread_min_ns = UINT64_MAX;
	r->ops_thread_min = UINT64_MAX;
	for (int i = 0; i < run->n; i++) {
		const struct wl_worker *w = &run->w[i];

		ops[i] = w->ops;
		wl_add_thread(r, w->task, &w->st, w->ops,
			      (w->end_ps - w->start_ps) / 1000, 0, &tsum);
		if (w->start_ps < *start_ps)
			*start_ps = w->start_ps;
		if (w->end_ps > *end_ps)
			*end_ps = w->end_ps;
	}
	r->thread_avg_ns = tsum / run->n;
	r->acquire_p50_ns = sim_hist_percentile(all, 50);
	r->acquire_p99_ns = sim_hist_percentile(all, 99);
	r->acquire_max_ns = all->max;
	r->jain = sim_jain(ops, run->n);
	sim_detail_keep(ops, run->n, all);	/* plot= */
	sim_oracle_collect(r);
	r->host_hooks = sim.counters.hooks;
	r->host_switches = sim.counters.switches;
	free(ops);
}

void wl_run_end(struct wl_run *run)
{
	free(run->w);
	run->w = NULL;
}
