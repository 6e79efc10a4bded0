/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/detail.h - the figures behind a run's plot: each thread's
 * operations and the acquire-latency histogram of all threads, kept by
 * the child that ran a lock and sent to the parent after its struct
 * sim_result, as the lock-stat table is.
 *
 * Stage: trace/report.  Kept by the workload drivers (workloads/driver.c
 * wl_collect(), workloads/program.c wl_prog_finish()), sent and received
 * by sim/cli/cli.c, drawn by sim/report/plot_run.c.  Calls
 * sim/host/fdio.h.
 *
 * Nothing is kept unless the run asked for it (sim_detail_want(), the
 * plot= key), so explore's many runs in one process copy nothing.
 */
#ifndef SIM_REPORT_DETAIL_H
#define SIM_REPORT_DETAIL_H

#include <stdint.h>

#include "sim/report/stats.h"

/* One lock's run. */
struct sim_detail {
	int nr_threads;			/* entries of ops[]; 0: none kept */
	uint64_t *ops;			/* operations of thread i (malloc'd) */
	struct sim_hist *acquire_ns;	/* all threads' acquire latency
					 * (malloc'd; NULL: none kept)	*/
};

/* sim_detail_want - keep the figures of the runs from now on (@on 1) or not. */
void sim_detail_want(int on);

/* sim_detail_keep - the run ended: keep a copy of its @n threads' @ops
 * and of its histogram @all, if wanted; the previous run's are freed. */
void sim_detail_keep(const uint64_t *ops, int n, const struct sim_hist *all);

/* sim_detail_kept - the figures kept of the last run (empty: none);
 * valid until the next sim_detail_keep(). */
const struct sim_detail *sim_detail_kept(void);
/* sim_detail_send - the kept figures to @fd (the pipe to the parent);
 * none kept sends an empty record.  Return: 0, or -1 (errno). */
int sim_detail_send(int fd);

/* sim_detail_recv - one record sent by sim_detail_send() from @fd into
 * @d.  Return: 0, or -1 for a short or malformed record (@d empty). */
int sim_detail_recv(int fd, struct sim_detail *d);

/* sim_detail_free - free @d's memory; @d is empty after. */
void sim_detail_free(struct sim_detail *d);

#endif /* SIM_REPORT_DETAIL_H */
