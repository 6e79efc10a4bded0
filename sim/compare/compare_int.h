/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/compare/compare_int.h - what the two files of the command share:
 * the state of one comparison, the metrics, and the functions of
 * sim/compare/compare_out.c (the figures kept, the table and the JSON
 * file) and sim/compare/compare.c (memory, the progress line).
 *
 * Stage: the driver of the whole flow, above `run`.  Private to
 * sim/compare/.
 */
#ifndef SIM_COMPARE_COMPARE_INT_H
#define SIM_COMPARE_COMPARE_INT_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#include "sim/compare/report_read.h"
#include "sim/compare/welch.h"

/* The metrics, in table order: a member of a result (its dotted path),
 * or throughput, computed from two. */
extern const char *const sim__compare_metrics[];
#define NR_METRICS	18

enum { SIDE_A, SIDE_B };

struct compare {
	const char *self;		/* this binary, as started (shown) */
	char exe[PATH_MAX];		/* ... and as run: /proc/self/exe's
					 * target (argv[0] may be a name
					 * found in PATH, or relative)	*/
	const char *scenario;		/* the SCENARIO file, or NULL	*/
	uint64_t seeds;			/* N				*/
	const char *against;		/* OTHER, or NULL		*/
	const char *bset;		/* --b-set's list, or NULL	*/
	const char *json;		/* --json's path, or NULL	*/
	const char *plot;		/* --plot's path, or NULL	*/
	char **keys;			/* both sides' "--key=value"	*/
	int nr_keys;
	char **bkeys;			/* B's, from --b-set		*/
	int nr_bkeys;
	char **held;			/* the arguments of compare's own
					 * options, which the fields above
					 * point into			*/
	int nr_held;
	int progress;			/* show the progress line	*/
	char dir[PATH_MAX];		/* the private directory	*/
	char out[2][PATH_MAX + 16];	/* each side's JSON file	*/
	char err[PATH_MAX + 16];	/* the last child's stderr	*/
	/* the figures: what[side][lock][metric][seed - 1] */
	int nr_locks;
	char locks[2][SIM_MAX_LOCKS][32];
	double *v[2][SIM_MAX_LOCKS][NR_METRICS];
	uint64_t have[2][SIM_MAX_LOCKS][NR_METRICS];	/* seeds with it */
};

/* One row of the table: a metric of a lock that every run has. */
struct compare_row {
	char name[80];		/* "throughput", or "LOCK:throughput"	*/
	struct sim_sample a, b;
	struct sim_welch w;
	int has_change;		/* a's mean is not 0			*/
	double change;		/* (b - a) / a				*/
};

/*
 * sim__compare_plot - the SVG of the @nr rows into c->plot, whole or not
 * at all (sim/compare/compare_plot.c): per row, A's and B's means with
 * their 95% confidence intervals, normalised to A's mean, a star over
 * B where the difference is significant.
 * Return: 0, or -1 with its one error line printed.
 */
int sim__compare_plot(const struct compare *c, const struct compare_row *rows,
		      int nr);

/* sim__compare_side - side @side as the table names it: its binary, and
 * " with KEYS" for B with --b-set. */
void sim__compare_side(FILE *out, const struct compare *c, int side);

/* sim__compare_xcalloc - calloc(), or exit(SIM_EXIT_HOST) with a line. */
void *sim__compare_xcalloc(size_t n, size_t size);
/* sim__compare_die_errno - "futexsim: compare: @what: ERRNO", exit 1. */
void sim__compare_die_errno(const char *what) __attribute__((noreturn));
/* sim__compare_progress_clear - clear the progress line, if shown. */
void sim__compare_progress_clear(const struct compare *c);

/*
 * sim__compare_collect - keep the figures of @side's run of @seed (1 to
 * N), @r.  The first run sets the locks; a run with another number of
 * locks, or none, is bad input: one line, exit 2.
 */
void sim__compare_collect(struct compare *c, int side, uint64_t seed,
			  const struct sim_rr_report *r);
/*
 * sim__compare_output - after the N runs a side: the statistics of
 * every metric that every run has, the table on stdout and the JSON file
 * if c->json.  Return: 0; a write that fails exits 1 (its line printed).
 */
int sim__compare_output(const struct compare *c);

#endif /* SIM_COMPARE_COMPARE_INT_H */
