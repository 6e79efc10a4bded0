/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/report_tp.h - private to sim/report/report.c and sim/report/report_tp.c: the part
 * of the report that belongs to the TO/TP-futex study (docs/studies/to-futex-2016.md).
 *
 * Stage: trace/report, last in the flow.  sim/report/report.c prints the main
 * table and calls these for the rows of lock=tp, the published 2016 table
 * beside the simulated one, and the "tp" object of the JSON; they use the
 * number formats of sim/report/report.c.
 */
#ifndef SIM_REPORT_TP_H
#define SIM_REPORT_TP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sim/scenario/scenario.h"
#include "sim/report/stats.h"

/* sim__report_count - "3,090,294" (sim/report/report.c). */
void sim__report_count(uint64_t v, char *buf, size_t len);
/* sim__report_time - "812 us", "3.41 s", "7m22.4s" (sim/report/report.c). */
void sim__report_time(uint64_t ns, char *buf, size_t len);

/* sim__report_is_tp - is @r a run of lock=tp (or tp-timed)? */
int sim__report_is_tp(const struct sim_result *r);

/*
 * sim__report_tp_rows - when a result is lock=tp: its rows (kernel steals,
 * top-waiter acquisitions, handoffs, sleeps), "-" in the other columns;
 * @label_w and @col_w as the main table's.  Nothing without lock=tp.
 */
void sim__report_tp_rows(FILE *out, const struct sim_result *r, int nr,
			 int label_w, int col_w);

/*
 * sim__report_to_published - when @s is the published 2016 run
 * (docs/studies/to-futex-2016.md: haswell-ex-4s, 256 threads, 10,000,000 ops, cs pause:5): the
 * published figures of each of ww, pi and tp in @r beside the simulated
 * ones, in the published layout.  Nothing otherwise.
 */
void sim__report_to_published(FILE *out, const struct sim_scenario *s,
			      const struct sim_result *r, int nr);

/* sim__report_tp_json - ",\"tp\":{...}" for a lock=tp result, else
 * nothing. */
void sim__report_tp_json(FILE *f, const struct sim_result *r);

#endif /* SIM_REPORT_TP_H */
