/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/compare/report_read.h - read back the JSON file of one `futexsim
 * run` (docs/output.md "The JSON file"): for each lock of "results",
 * its name and every number under it, by dotted path (sim/compare/report_read.c).
 *
 * Stage: beside the flow, after a run.  Called by sim/compare/compare.c;
 * calls libc only.  Not a general JSON library: it checks the syntax of
 * the whole document (RFC 8259) and keeps only what compare needs.
 */
#ifndef SIM_COMPARE_REPORT_READ_H
#define SIM_COMPARE_REPORT_READ_H

#include "sim/scenario/scenario.h"	/* SIM_MAX_LOCKS */

#define SIM_RR_FIELDS	64	/* numbers kept per lock		*/
#define SIM_RR_KEY	48	/* bytes of a dotted path, NUL included	*/

/* One element of "results": a lock's figures. */
struct sim_rr_lock {
	char lock[32];			/* its "lock" member		*/
	int nr;				/* numbers in key[] and v[]	*/
	char key[SIM_RR_FIELDS][SIM_RR_KEY];	/* "elapsed_ns",
					 * "thread_ns.avg", "tp.steals"
					 * (the "host" object left out)	*/
	double v[SIM_RR_FIELDS];	/* their values			*/
};

/* A run's report. */
struct sim_rr_report {
	int nr_locks;			/* elements of "results"	*/
	struct sim_rr_lock lock[SIM_MAX_LOCKS];
};

/*
 * sim_rr_parse - read the report @text (NUL-terminated) into @r.
 * Return: 0; or -1 with @why (@len bytes) saying what is wrong: not
 * JSON, no "results" array, a result without a "lock" string, more than
 * SIM_MAX_LOCKS results.  Numbers beyond SIM_RR_FIELDS per lock, and
 * paths longer than SIM_RR_KEY, are left out.
 */
int sim_rr_parse(const char *text, struct sim_rr_report *r, char *why,
		 int len);

/* sim_rr_get - the number at @key of @l into *@v.  Return: 1, or 0 if
 * @l has none. */
int sim_rr_get(const struct sim_rr_lock *l, const char *key, double *v);

#endif /* SIM_COMPARE_REPORT_READ_H */
