/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/plot_run.h - the SVG of a run (plot=FILE.svg): for every
 * lock, the operations of each thread (fairness, Jain's index in the
 * legend) and the acquire-latency CDF (log x, in ns).
 *
 * Stage: trace/report.  Called by sim/cli/cli.c once every lock's child
 * has sent its result and its figures (sim/report/detail.h), like the
 * JSON file; and by any page that embeds a run's SVG (the HTML view of
 * a trace may).  Calls sim/report/plot.h and sim/host/outfile.h.
 */
#ifndef SIM_REPORT_PLOT_RUN_H
#define SIM_REPORT_PLOT_RUN_H

#include <stdio.h>

#include "sim/report/detail.h"
#include "sim/report/stats.h"
#include "sim/scenario/scenario.h"

/*
 * sim_plot_run_svg - write the SVG document of a run of @s to @out: @n
 * locks, result @r[i] and figures @d[i] for lock i (in the order of
 * @s->locks).  Two panels, one above the other: "operations per thread"
 * (bars, one series per lock, Jain's index of @r[i] in its legend) and
 * "acquire latency, CDF" (one step line per lock, x in ns on a log
 * axis, y from 0 to 1).  A lock without figures (d[i].nr_threads 0 or
 * no histogram, or an empty one) is left out of that panel, and said in
 * a note under it.  A pure function of its arguments: same data, same
 * bytes.  @out is not closed.
 * Return: 0, or -1 if a write failed (ferror(@out)).
 */
int sim_plot_run_svg(FILE *out, const struct sim_scenario *s,
		     const struct sim_result *r, const struct sim_detail *d,
		     int n);

/*
 * sim_plot_run_write - sim_plot_run_svg() into the file @s->plot, whole
 * or not at all (sim/host/outfile.h).
 * Return: 0; or -1 with its one error line printed.
 */
int sim_plot_run_write(const struct sim_scenario *s, const struct sim_result *r,
		       const struct sim_detail *d, int n);

#endif /* SIM_REPORT_PLOT_RUN_H */
