/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/program.c - workload "program": a user's C program, built
 * with `futexsim build` against workloads/libsim/futexsim.h, runs on the
 * simulated machine; its main() is the first task.
 *
 * Stage: workload, first in the flow (the program -> libsim -> ulock ->
 * futex(2) -> kernel -> sched -> machine -> report).  Called by the CLI
 * (one process per lock: the lock is what the program's pthread mutexes
 * are made of) and by the tests (wl_program_run()); calls
 * workloads/libsim/thread.c to start and finish the program, and
 * wl_add_thread() (workloads/driver.c) for each thread's figures.
 *
 * The program's main() is the symbol futexsim_user_main, which `futexsim
 * build` makes of the program's main() (-Dmain=futexsim_user_main): weak
 * here, so the plain futexsim binary, which has no program linked in,
 * says so instead of running.
 *
 * The figures: ops are the pthread mutex acquisitions plus the
 * acquisitions of the program's hand-written locks (its raw futex words,
 * by the rule of sim/trace/uword.h), with their latency, the slow paths'
 * syscalls (a raw word's FUTEX_WAIT and FUTEX_WAKE calls count as lock
 * and unlock syscalls), thread times (each thread's first to last
 * moment), and the per-thread minimum and Jain's index over the threads
 * that took a lock at all, as for workload=mutex; then the program's
 * exit status and thread count, and the "futex words": each word's
 * figures (acquisitions, waits, wakes, per-task fairness, latency).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/explore/race.h"
#include "sim/report/detail.h"
#include "sim/report/symbols.h"
#include "sim/report/waitfor.h"
#include "sim/trace/uword.h"
#include "workloads/driver.h"
#include "workloads/libsim/libsim.h"
#include "workloads/workload.h"

int futexsim_user_main(int argc, char **argv, char **envp)
	__attribute__((weak));

/* Each thread's TID word and its thread's name, kept when a run ends:
 * a trace's writers name the run's last events after it (the reorder
 * buffer, an HTML page's table), when the threads are gone. */
static struct tid_word {
	uintptr_t addr;
	char name[sizeof(((struct sim_task *)0)->name)];
} *tid_words;
static int nr_tid_words;

static void keep_tid_words(void)
{
	/* + 1: never realloc() to 0 bytes, which may free */
	struct tid_word *w = realloc(tid_words, (size_t)(wl_prog.nr_threads + 1) *
				     sizeof(*w));

	nr_tid_words = 0;
	if (!w)
		return;		/* unnamed then: 0x... */
	tid_words = w;
	for (int i = 0; i < wl_prog.nr_threads; i++) {
		const struct wl_prog_thread *t = wl_prog.threads[i];

		w[i].addr = (uintptr_t)&t->tid_word;
		snprintf(w[i].name, sizeof(w[i].name), "%s",
			 t->task ? t->task->name : "a thread");
	}
	nr_tid_words = wl_prog.nr_threads;
}

/* The name of the thread whose TID word is at @addr: from the running
 * threads, or after the run as kept; NULL for another address. */
static const char *tid_word_thread(uint64_t addr)
{
	for (int i = 0; i < wl_prog.nr_threads; i++) {
		const struct wl_prog_thread *t = wl_prog.threads[i];

		if (addr == (uintptr_t)&t->tid_word)
			return t->task ? t->task->name : "a thread";
	}
	for (int i = 0; !wl_prog.nr_threads && i < nr_tid_words; i++)
		if (addr == tid_words[i].addr)
			return tid_words[i].name;
	return NULL;
}

/* Names of the layer's own words (sim/report/symbols.h): a thread's TID
 * word, which pthread_join() waits on. */
static int layer_name(uint64_t addr, char *buf, size_t len)
{
	const char *thread = tid_word_thread(addr);

	if (thread)
		snprintf(buf, len, "%s's TID word (pthread_join)", thread);
	return thread != NULL;
}

/* The owner of a layer word for a deadlock's wait-for cycle
 * (sim/report/waitfor.h): the thread whose TID word pthread_join()
 * waits on. */
static int layer_owner(const void *word)
{
	for (int i = 0; i < wl_prog.nr_threads; i++) {
		const struct wl_prog_thread *t = wl_prog.threads[i];

		if (word == &t->tid_word && t->task)
			return t->task->tid;
	}
	return 0;
}

/* One futex word's figures for the report. */
static void uword_result(struct sim_result_uword *u, const struct sim_uword *w)
{
	uint64_t x[SIM_UWORD_TASKS];
	int n = 0;

	if (wl_prog_mute)	/* a search's run: nobody reads the names */
		snprintf(u->name, sizeof(u->name), "0x%llx",
			 (unsigned long long)w->addr);
	else
		sim_sym_name(w->addr, u->name, sizeof(u->name));
	u->raw = w->raw && !w->layer;
	u->acquires = w->acquires;
	u->waits = w->waits;
	u->eagain = w->eagain;
	u->wake_calls = w->wake_calls;
	u->woken = w->woken;
	if (w->lat_ns) {
		u->acquire_p50_ns = sim_hist_percentile(w->lat_ns, 50);
		u->acquire_p99_ns = sim_hist_percentile(w->lat_ns, 99);
		u->acquire_max_ns = w->lat_ns->max;
	}
	u->ops_task_min = UINT64_MAX;
	for (int i = 0; i < SIM_UWORD_TASKS; i++) {
		if (!w->per_task[i])
			continue;
		x[n++] = w->per_task[i];
		if (w->per_task[i] < u->ops_task_min)
			u->ops_task_min = w->per_task[i];
		if (w->per_task[i] > u->ops_task_max)
			u->ops_task_max = w->per_task[i];
	}
	if (!n)
		u->ops_task_min = 0;
	u->tasks = n;
	u->jain = sim_jain(x, n);
}

/*
 * The program's futex words (sim/trace/uword.h) into @r: each word with
 * anything counted, the first SIM_RESULT_UWORDS of them listed; the raw
 * words' (hand-written locks') futex calls add to the syscall figures
 * and their latencies to @all.
 */
static void uwords_finish(struct sim_result *r, struct sim_hist *all)
{
	for (int i = 0; i < sim_uword_nr(); i++) {
		const struct sim_uword *w = sim_uword_get(i);

		if (!w->acquires && !w->waits && !w->wake_calls)
			continue;
		if (w->raw && !w->layer) {
			r->lock_syscalls += w->waits;
			r->unlock_syscalls += w->wake_calls;
			r->eagain += w->eagain;
			r->wakeups += w->woken;
			if (w->lat_ns)
				sim_hist_merge(all, w->lat_ns);
		}
		if (r->prog_nr_uwords == SIM_RESULT_UWORDS)
			r->prog_uwords_more++;
		else
			uword_result(&r->prog_uwords[r->prog_nr_uwords++], w);
	}
}

void wl_prog_finish(struct sim_result *r)
{
	int n = wl_prog.nr_threads, nops = 0;
	uint64_t *ops = calloc(n, sizeof(*ops)), tsum = 0, end_ps = 0;
	struct sim_hist *all = sim_hist_new();

	if (!ops || !all) {
		fprintf(stderr, "futexsim: out of memory for the program's figures\n");
		exit(2);
	}
	for (int i = 0; i < n; i++) {
		const struct wl_prog_thread *t = wl_prog.threads[i];

		wl_prog_out_flush(wl_prog.threads[i]);
		if (t->end_ps > end_ps)
			end_ps = t->end_ps;
	}
	r->thread_min_ns = UINT64_MAX;
	r->ops_thread_min = UINT64_MAX;
	for (int i = 0; i < n; i++) {
		const struct wl_prog_thread *t = wl_prog.threads[i];
		uint64_t end = t->end_ps ? t->end_ps : end_ps, acq;

		if (!t->task)	/* a run abandoned in its pthread_create() */
			continue;
		acq = t->acquires + sim_uword_task_acquires(t->task->tid);
		if (acq)	/* lockers only */
			ops[nops++] = acq;
		wl_add_thread(r, t->task, &t->st, acq,
			      end > t->start_ps ? (end - t->start_ps) / 1000 : 0,
			      1, &tsum);
		sim_hist_merge(all, t->acquire_ns);
	}
	if (!nops)
		r->ops_thread_min = 0;
	uwords_finish(r, all);
	r->elapsed_ns = end_ps / 1000;
	r->thread_avg_ns = n ? tsum / n : 0;
	r->acquire_p50_ns = sim_hist_percentile(all, 50);
	r->acquire_p99_ns = sim_hist_percentile(all, 99);
	r->acquire_max_ns = all->max;
	r->jain = sim_jain(ops, nops);
	sim_detail_keep(ops, nops, all);	/* plot=: the lockers */
	r->host_hooks = sim.counters.hooks;
	r->host_switches = sim.counters.switches;
	r->prog_exited = wl_prog.exited;
	r->prog_status = wl_prog.status;
	r->prog_threads = n;
	r->prog_rt = wl_prog.rt_requested;
	for (int i = 0; i < n; i++) {
		sim_hist_free(wl_prog.threads[i]->acquire_ns);
		free(wl_prog.threads[i]->line[1]);
		free(wl_prog.threads[i]->line[2]);
		free(wl_prog.threads[i]->all);
	}
	free(wl_prog.threads);
	wl_prog.threads = NULL;
	wl_prog.nr_threads = 0;
	free(ops);
	sim_hist_free(all);
}

void wl_program_mute(int on)
{
	wl_prog_mute = on;
}

int wl_program_muted(void)
{
	return wl_prog_mute;
}

void wl_program_run(const struct sim_scenario *s, const struct ulock_ops *lock,
		    int (*main)(int, char **, char **), struct sim_result *r)
{
	memset(r, 0, sizeof(*r));
	sim_uword_reset();
	sim_sym_reset();
	sim_race_reset();
	nr_tid_words = 0;
	sim_sym_set_resolver(layer_name);
	sim_waitfor_set_owner(layer_owner);
	wl_prog_start(s, lock, main);
	wl_run_sim(r);
	keep_tid_words();
	wl_prog_finish(r);
	/* the threads are gone; the resolver names their TID words as kept
	 * until the next run */
	sim_waitfor_set_owner(NULL);
	snprintf(r->lock, sizeof(r->lock), "%s", lock->name);
}

static void program_run(const struct sim_scenario *s,
			const struct ulock_ops *lock, struct sim_result *r)
{
	if (!futexsim_user_main) {
		fprintf(stderr, "futexsim: workload program: no program is linked into this binary; build one with 'futexsim build PROGRAM.c -o OUT' and run it with --program=OUT\n");
		exit(2);
	}
	wl_program_run(s, lock, futexsim_user_main, r);
}

const struct wl_workload wl_program = {
	.name		= "program",
	.description	= "a C program built with 'futexsim build' (--program=OUT): its main() is the first task",
	.run		= program_run,
};
