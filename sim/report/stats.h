/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/stats.h - the figures of one run and the statistics behind them.
 *
 * Stage: trace/report.  Filled by the workload driver (workloads/),
 * printed by sim/report/report.c.
 *
 * Latency percentiles come from a log-linear histogram (exact below 1024
 * ns, then 64 sub-buckets per power of two: <= 1.6% relative error), so
 * memory does not grow with the number of operations and the result does
 * not depend on anything but the recorded values.
 */
#ifndef SIM_STATS_H
#define SIM_STATS_H

#include <stdint.h>

#define SIM_HIST_SUB	64
#define SIM_HIST_BUCKETS (1024 + 54 * SIM_HIST_SUB)
#define SIM_HIST_GROUP	64	/* buckets summed in group[]	*/
#define SIM_HIST_GROUPS	(SIM_HIST_BUCKETS / SIM_HIST_GROUP)

/* A zero-filled struct sim_hist is an empty histogram.  group[g] is the
 * sum of buckets g * SIM_HIST_GROUP ..., so that a percentile skips whole
 * groups. */
struct sim_hist {
	uint64_t count;
	uint64_t max;
	uint64_t bucket[SIM_HIST_BUCKETS];
	uint64_t group[SIM_HIST_GROUPS];
};

/* sim_hist_new - a new empty histogram, in a mapping of its own whose
 * pages are given zeroed when first written: a run that records a few
 * values touches two or three of its ten pages, which a forked run's
 * process (sim/explore/explore_fork.c) would otherwise fault in one by
 * one to clear them.  Return: the histogram, NULL when out of memory.
 * sim_hist_free - give back one sim_hist_new() returned (NULL: nothing);
 * it is emptied and kept for a later sim_hist_new() (up to a few hundred of
 * them): a program's runs in one process then map nothing. */
struct sim_hist *sim_hist_new(void);
void sim_hist_free(struct sim_hist *h);
/* sim_hist_add - record value @v (e.g. nanoseconds). */
void sim_hist_add(struct sim_hist *h, uint64_t v);
/* sim_hist_clear - empty @h again, writing only the buckets up to the
 * maximum's (the others are zero): a histogram reused run after run. */
void sim_hist_clear(struct sim_hist *h);
/* sim_hist_merge - add every value of @src to @dst. */
void sim_hist_merge(struct sim_hist *dst, const struct sim_hist *src);
/* sim_hist_percentile - the smallest recorded-bucket value v such that at
 * least @p percent (0 < p <= 100) of the values are <= v; the bucket's
 * upper bound is returned, capped at the maximum.  p > 100 counts as 100,
 * p <= 0 as the smallest value.
 * Return: v (exact below 1024, at most 1.6% above the true value above),
 * h->max for p = 100, 0 if the histogram is empty. */
uint64_t sim_hist_percentile(const struct sim_hist *h, double p);
/* sim_hist_bucket_upper - the largest value bucket @i (< SIM_HIST_BUCKETS)
 * holds: the x of a cumulative distribution drawn from the buckets
 * (sim/report/plot_run.c). */
uint64_t sim_hist_bucket_upper(unsigned int i);

/* sim_jain - Jain's fairness index (sum x)^2 / (n * sum x^2) of @n values;
 * 1.0 is perfectly fair, 1/n maximally unfair. 1.0 for n == 0 or all 0. */
double sim_jain(const uint64_t *x, int n);

/* One futex word of a program's run (workloads/program.c fills them from
 * sim/trace/uword.h; the report's "futex words" section prints them). */
#define SIM_RESULT_UWORDS	16
struct sim_result_uword {
	char name[96];			/* sim/report/symbols.h		*/
	int raw;			/* the program's own atomics on it */
	int tasks;			/* tasks that acquired it	*/
	uint64_t acquires, waits, eagain, wake_calls, woken;
	uint64_t acquire_p50_ns, acquire_p99_ns, acquire_max_ns;
	uint64_t ops_task_min, ops_task_max;
	double jain;
};

/* The figures of one lock's run: one row of the report, one element of
 * the JSON "results" array (README documents the schema). */
struct sim_result {
	char lock[32];
	uint64_t ops;			/* operations completed		*/
	uint64_t elapsed_ns;		/* virtual time of the run	*/
	uint64_t thread_min_ns, thread_max_ns, thread_avg_ns;
	uint64_t sys_ns, user_ns;	/* summed over the workers	*/
	uint64_t lock_syscalls;		/* FUTEX_WAIT (ww) ...		*/
	uint64_t unlock_syscalls;	/* FUTEX_WAKE (ww) ...		*/
	uint64_t eagain;		/* FUTEX_WAIT -> EAGAIN		*/
	uint64_t timeouts;		/* FUTEX_WAIT -> ETIMEDOUT	*/
	uint64_t wakeups;		/* sum of FUTEX_WAKE results	*/
	uint64_t acquire_p50_ns, acquire_p99_ns, acquire_max_ns;
	uint64_t ops_thread_min, ops_thread_max;
	double jain;
	/* workload=spin (zero otherwise) */
	double ns_per_op;		/* elapsed / (ops / tasks): the time
					 * of one task's operation, as published */
	int paths_counted;		/* the lock counts the three below	*/
	uint64_t path_fast;		/* acquisitions on the fast path	*/
	uint64_t path_pending;		/* ... through the pending bit		*/
	uint64_t path_queue;		/* ... through the MCS queue		*/
	/* starvation (sim/explore/oracle.h), every workload */
	uint64_t overtaken_max;		/* most acquisitions that overtook
					 * one waiter during one wait	*/
	/* lock=tp: how its FUTEX_LOCK calls acquired (futex/tp_abi.h
	 * status codes) and the sleeps they reported; zero otherwise */
	uint64_t tp_steals;		/* code 0: stolen in the kernel	*/
	uint64_t tp_top_waiter;		/* code 1: the spinning top waiter */
	uint64_t tp_handoffs;		/* code 2: handed off		*/
	uint64_t tp_sleeps;		/* sum of status >> 16		*/
	/* workload=rwlock (zero otherwise): operations by group, "readers"
	 * being the read-lock operations, "writers" the write-lock ones */
	int groups_counted;
	uint64_t ops_readers, ops_writers;
	uint64_t readers_max;		/* most readers in the section at once */
	/* lock=adaptive: PAUSEs spun, and spins that ended in lll_lock */
	uint64_t spins, spin_giveups;
	/* workload=program (workloads/libsim; zero otherwise) */
	int prog_exited;		/* the program ended (exit, return)	*/
	int prog_status;		/* its exit status			*/
	int prog_threads;		/* threads it ran, main included	*/
	int prog_rt;			/* threads it asked SCHED_FIFO/RR for	*/
	int prog_nr_uwords;		/* futex words listed below	*/
	int prog_uwords_more;		/* ... and how many more there were */
	struct sim_result_uword prog_uwords[SIM_RESULT_UWORDS];
	/* host effort: the only figures that may differ between runs */
	uint64_t host_hooks, host_switches;
	double host_seconds;
};

#endif /* SIM_STATS_H */
