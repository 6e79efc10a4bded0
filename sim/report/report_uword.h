/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/report_uword.h - private to sim/report/report.c and
 * sim/report/report_uword.c: the "futex words" section of a program's
 * report (workload=program), text and JSON.
 *
 * Stage: trace/report, last in the flow.  sim/report/report.c calls these
 * after the main table and inside a result's "program" JSON object; the
 * figures are those workloads/program.c put in struct sim_result.
 */
#ifndef SIM_REPORT_UWORD_H
#define SIM_REPORT_UWORD_H

#include <stdio.h>

#include "sim/report/stats.h"

/* sim__report_uwords_text - "futex words (lock L):" and each word's
 * figures, for each result with words; nothing if none has any. */
void sim__report_uwords_text(FILE *out, const struct sim_result *r, int nr);
/* sim__report_uwords_json - ,"futex_words":[...] of @r (nothing if it
 * has none). */
void sim__report_uwords_json(FILE *f, const struct sim_result *r);

#endif /* SIM_REPORT_UWORD_H */
