/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/spin.c - the kernel spinlock micro-benchmark of the 2014
 * qspinlock thread (docs/studies/qspinlock-2014.md): one kernel-mode task per CPU used, each
 * doing lock / write the data / unlock on ONE kernel spinlock, back to
 * back, for its share of the operations.
 *
 * Stage: workload, first in the flow; but its locks are kernel locks, so
 * it calls the kernel directly through the glue of futex/kspin.h (no
 * ulock, no futex(2)): workload -> kernel -> machine -> report.  Called
 * by the CLI (one process per lock) and by tests/test_spin.c.
 *
 * Keys it reads (sim/scenario/scenario.h): threads (= tasks, at most one per CPU:
 * a spinning task never yields its CPU), ops or ops-per-thread, duration,
 * cs and between (pause:N or none), data=standalone|embedded (the data is
 * in a line of its own, or in the lock's line right after the word) and
 * placement=pack|nodes (fill socket after socket in CPU order, or deal
 * the tasks round-robin over the sockets: one per socket first) and
 * data-access=read-write|write.
 *
 * The critical section reads the data, runs cs, and writes the data + 1
 * (two simulated accesses; the data line is written on every operation).
 * With data-access=write it runs cs and stores the count of sections so
 * far + 1, kept by the driver (a value in a register): one store, which
 * retires into the store buffer, so no data miss is waited for inside
 * the section (docs/studies/qspinlock-2014.md, "What does not match, and
 * why").  Each lock and unlock call first costs the machine's lock-call
 * (the call's own instructions, docs/model.md).
 * The driver checks mutual exclusion itself, as workloads/mutex.c does:
 * the holder is recorded on entry and checked on exit, and no update of
 * the data may be lost; a broken lock is a simulated failure (exit 3).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "futex/kspin.h"
#include "futex/qspin_2014.h"
#include "futex/qspin_noundo.h"
#include "sim/host/arena.h"
#include "sim/report/failure.h"
#include "workloads/driver.h"
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

/* The 2014 series' pending-bit policies, written afresh in
 * futex/qspin_2014.c: the 2014 thread's argument, replayable.  Listed,
 * but run only when named (workloads/scenarios/spin-2014.sh does). */
static const struct wl_klock klock_qv10 = {
	.name		= "qspinlock-v10",
	.description	= "2014 v10: (0,1,0) -> queue at once (futex/qspin_2014.c)",
	.lock		= ksim_spin_qv10_lock,
	.unlock		= ksim_spin_q2014_unlock,
	.paths		= true,
	.opt_in		= true,
};

static const struct wl_klock klock_qv11 = {
	.name		= "qspinlock-v11",
	.description	= "2014 v11 06/16 (Waiman): wait out (0,1,0) in the cmpxchg loop",
	.lock		= ksim_spin_qv11_lock,
	.unlock		= ksim_spin_q2014_unlock,
	.paths		= true,
	.opt_in		= true,
};

static const struct wl_klock klock_qv12 = {
	.name		= "qspinlock-v12",
	.description	= "2014 tree: v11 + one retry on (0,1,1) after 2 cpu_relax",
	.lock		= ksim_spin_qv12_lock,
	.unlock		= ksim_spin_q2014_unlock,
	.paths		= true,
	.opt_in		= true,
};

static const struct wl_klock klock_qpeterz = {
	.name		= "qspinlock-peterz",
	.description	= "PeterZ, 4.2-4.17: unbounded (0,1,0) wait, then the v10 loop",
	.lock		= ksim_spin_qpeterz_lock,
	.unlock		= ksim_spin_q2014_unlock,
	.paths		= true,
	.opt_in		= true,
};

/* The explore bug catalogue's queued spinlock (futex/qspin_noundo.c),
 * without and with the undo of a stray pending bit: both hidden. */
static const struct wl_klock klock_qnoundo = {
	.name		= "qspinlock-noundo",
	.description	= "BROKEN: queued spinlock that leaves a stray pending bit set",
	.lock		= ksim_spin_qnoundo_lock,
	.unlock		= ksim_spin_qnoundo_unlock,
	.broken		= true,
};

static const struct wl_klock klock_qundo = {
	.name		= "qspinlock-undo",
	.description	= "qspinlock-noundo with the undo: its correct counterpart (hidden)",
	.lock		= ksim_spin_qundo_lock,
	.unlock		= ksim_spin_qnoundo_unlock,
	.broken		= true,
};

static const struct wl_klock *const spin_klocks[] = {
	&klock_ticket,
	&klock_qgeneric,
	&klock_qx86,
	&klock_qv10,
	&klock_qv11,
	&klock_qv12,
	&klock_qpeterz,
	&klock_qnoundo,
	&klock_qundo,
	NULL,
};

static struct {
	struct wl_run run;
	const struct wl_klock *lock;
	void *word;			/* the lock, in simulated memory  */
	uint32_t *data;			/* the data the section writes	  */
	uint32_t sections;		/* data-access=write: what it stores */
	int finished;			/* workers done			  */
} sp;

static void pauses(const struct sim_work *w)
{
	if (w->kind == SIM_WORK_PAUSE || w->kind == SIM_WORK_LOOP)
		wl_do_work(w);		/* never a sleep (sim_scenario_resolve()) */
}

static void critical_section(struct wl_worker *w)
{
	uint32_t v;

	wl_cs_enter(&sp.run, w);
	if (sp.run.s->access == SIM_ACCESS_WRITE) {
		v = sp.sections++;	/* inside: the lock guards it too */
		pauses(&sp.run.s->cs);
	} else {
		v = uatomic_load_relaxed(sp.data);
		wl_data_seen(&sp.run, v);
		pauses(&sp.run.s->cs);
	}
	uatomic_store_relaxed(sp.data, v + 1);
	wl_cs_exit(&sp.run, w);
}

/*
 * The instructions of a spin_lock() or spin_unlock() call that are not
 * memory accesses of the lock (call and return, preempt_count, the loop):
 * the machine's lock-call, charged as the call starts.  Inside the
 * critical section for the unlock, before the lock's RMW for the lock.
 */
static void lock_call(void)
{
	if (sim.preset->lock_call_ps)
		sim_delay_ps(sim.preset->lock_call_ps);
}

static void worker(void *arg)
{
	struct wl_worker *w = arg;
	struct sim_task *me = sim_current();

	sim_account(me, sim_now_ps());
	me->in_kernel = true;		/* a kernel thread: all system time */
	w->start_ps = sim_now_ps();
	while (wl_keep_going(&sp.run, w)) {
		uint64_t t0 = sim_now_ps();

		lock_call();
		sp.lock->lock(sp.word);
		wl_note_acquire(&sp.run, t0);
		critical_section(w);
		lock_call();
		sp.lock->unlock(sp.word);
		w->ops++;
		sim_progress();
		pauses(&sp.run.s->between);
	}
	w->end_ps = sim_now_ps();
	sim_account(me, w->end_ps);
	/* the last one out: the data holds every section's store (read as
	 * its CPU sees it, with no access of the simulation) */
	if (sp.finished + 1 == sp.run.n)
		wl_data_expect(&sp.run, *(volatile uint32_t *)sp.data,
			       sp.run.s->access == SIM_ACCESS_WRITE ?
			       sp.sections : sp.run.data_writes);
	sp.finished++;
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

/* Fast, pending and queue acquisitions from the real file's counters. */
static void collect_paths(struct sim_result *r)
{
	struct ksim_spin_paths p;

	r->paths_counted = sp.lock->paths;
	if (!sp.lock->paths)
		return;
	ksim_spin_paths_read(&p);
	/* (a run that ended in a failure, which explore follows with the
	 * next, has workers that did not finish: no check then) */
	if (sp.finished == sp.run.n && p.pending + p.queue > r->ops)
		sim_fail(SIM_FAIL_INVARIANT, "more slow-path acquisitions counted than acquisitions");
	r->path_pending = p.pending;
	r->path_queue = p.queue;
	r->path_fast = r->ops - p.pending - p.queue;
}

/* Lay out the lock and the data, create one task per CPU of the
 * placement. */
static void setup(const struct sim_scenario *s, const struct wl_klock *k)
{
	int *cpu_of = calloc(s->threads, sizeof(*cpu_of));
	char *line;

	memset(&sp, 0, sizeof(sp));
	sp.lock = k;
	line = sim_arena_alloc(64, 64);
	sp.word = line;
	if (s->data == SIM_DATA_EMBEDDED)
		sp.data = (uint32_t *)(line + EMBEDDED_DATA_OFFSET);
	else
		sp.data = sim_arena_alloc(64, 64);
	wl_name_data(k->name, sp.word, 4, sp.data);
	ksim_spin_paths_reset();
	wl_run_begin(&sp.run, s);
	place(s->placement, s->threads, cpu_of);
	wl_run_tasks(&sp.run, "spin", worker, cpu_of);
	free(cpu_of);
}

void wl_spin_run_lock(const struct sim_scenario *s, const struct wl_klock *k,
		      struct sim_result *r)
{
	uint64_t start_ps, end_ps;

	setup(s, k);
	memset(r, 0, sizeof(*r));
	wl_run_sim(r);
	snprintf(r->lock, sizeof(r->lock), "%s", k->name);
	wl_collect(&sp.run, r, &start_ps, &end_ps);
	r->elapsed_ns = (end_ps - start_ps) / 1000;
	/* the published figure: the run's time over one task's share */
	if (r->ops)
		r->ns_per_op = (double)(end_ps - start_ps) / 1000.0 *
			       s->threads / (double)r->ops;
	collect_paths(r);
	wl_run_end(&sp.run);
}

static void spin_run(const struct sim_scenario *s, const struct ulock_ops *unused,
		     struct sim_result *r)
{
	const struct wl_klock *k = s->klock[0];

	if (!k)
		sim_fail(SIM_FAIL_INVARIANT, "workload spin was given a lock it does not run");
	wl_spin_run_lock(s, k, r);
}

const struct wl_workload wl_spin = {
	.name		= "spin",
	.description	= "one kernel task per CPU: spin_lock, write the data, spin_unlock (2014 qspinlock benchmark)",
	.run		= spin_run,
	.klocks		= spin_klocks,
};
