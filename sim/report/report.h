/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/report.h - the human report and the --json file.
 *
 * Stage: trace/report, last in the flow.  Called by the CLI after every
 * lock of the scenario has run.
 *
 * The human report prints the resolved scenario and seed, then a table in
 * the shape of the published TO-futex table (max/min/avg thread time,
 * system time, lock and unlock syscall counts) with the EAGAIN count,
 * wakeups, acquisition latency p50/p99/max and Jain's index.  Nothing host
 * dependent is printed in it, so two runs give the same bytes.
 *
 * The JSON file: {"scenario":{...},"seed":N,"results":[{...}]}; only the
 * "host" object of a result may differ between runs of one scenario+seed.
 */
#ifndef SIM_REPORT_H
#define SIM_REPORT_H

#include <stdio.h>

#include "sim/scenario/scenario.h"
#include "sim/report/stats.h"

void sim_report_text(FILE *out, const struct sim_scenario *s,
		     const struct sim_result *r, int nr);
/* sim_report_json - write the JSON document to @path, whole or not at all
 * (sim/host/outfile.h).  Return: 0, or -1 with errno set and one line on
 * stderr if the file could not be written (it is left as it was). */
int sim_report_json(const char *path, const struct sim_scenario *s,
		    const struct sim_result *r, int nr);

/* sim_json_string - write @str (at most @max bytes) as a JSON string:
 * quotes, backslashes and control characters escaped, other bytes (UTF-8
 * included) as they are.  Every JSON writer of futexsim uses it. */
void sim_json_string(FILE *f, const char *str, size_t max);

#endif /* SIM_REPORT_H */
