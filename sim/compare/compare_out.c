/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/compare/compare_out.c - the figures of `futexsim compare` (see
 * sim/compare/compare_int.h): each run's metrics kept per side, lock and
 * seed; after the runs, the statistics of each (sim/compare/welch.h),
 * the table and the JSON file.
 *
 * Stage: the driver of the whole flow, above `run`.  Called by
 * sim/compare/compare.c after each run and after the last; calls
 * sim/compare/welch.c, sim/compare/report_read.c (sim_rr_get()) and
 * sim/host/outfile.h for the JSON file.
 *
 * Everything printed is a function of the figures, the options and N:
 * no host time, no path of the private directory, reals with fixed
 * decimals; the same comparison prints the same bytes.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/compare/compare_int.h"
#include "sim/compare/welch.h"
#include "sim/host/outfile.h"
#include "sim/report/exit.h"

/* The metrics, in table order: a member of a result (its dotted path),
 * or throughput, computed from two. */
const char *const sim__compare_metrics[] = {
	"throughput", "elapsed_ns", "thread_ns.avg", "thread_ns.min",
	"thread_ns.max", "sys_ns", "syscalls.lock", "syscalls.unlock",
	"eagain", "acquire_ns.p50", "acquire_ns.p99", "acquire_ns.max",
	"jain", "overtaken_max", "tp.steals", "tp.top_waiter",
	"tp.handoffs", "tp.sleeps",
};
_Static_assert(sizeof(sim__compare_metrics) / sizeof(sim__compare_metrics[0]) ==
	       NR_METRICS, "NR_METRICS counts the metrics");

/* ---- the figures ---------------------------------------------------------- */

static void put_locks(FILE *out, const struct compare *c, int side, int nr)
{
	for (int i = 0; i < nr; i++)
		fprintf(out, "%s%s", i ? ", " : "", c->locks[side][i]);
}

/* The number of @m in @l into *@v.  Return: 1, or 0 if @l has none. */
static int metric_of(const struct sim_rr_lock *l, int m, double *v)
{
	double ops, ns;

	if (m)
		return sim_rr_get(l, sim__compare_metrics[m], v);
	/* throughput: operations per simulated second */
	if (!sim_rr_get(l, "ops", &ops) || !sim_rr_get(l, "elapsed_ns", &ns) ||
	    ns <= 0)
		return 0;
	*v = ops / ns * 1e9;
	return 1;
}

/* Keep the figures of @side's run of @seed, @r. */
void sim__compare_collect(struct compare *c, int side, uint64_t seed,
			  const struct sim_rr_report *r)
{
	double v;

	if (seed == 1) {
		if (side == SIDE_A)
			c->nr_locks = r->nr_locks;
		for (int l = 0; l < r->nr_locks; l++)
			memcpy(c->locks[side][l], r->lock[l].lock,
			       sizeof(c->locks[side][l]));
	}
	if (r->nr_locks != c->nr_locks || !r->nr_locks) {
		sim__compare_progress_clear(c);
		fprintf(stderr, "futexsim: compare: A runs %d lock%s (", c->nr_locks,
			c->nr_locks == 1 ? "" : "s");
		put_locks(stderr, c, SIDE_A, c->nr_locks);
		fprintf(stderr, "), %s %d (", side == SIDE_A ? "then" : "B",
			r->nr_locks);
		for (int l = 0; l < r->nr_locks; l++)
			fprintf(stderr, "%s%s", l ? ", " : "", r->lock[l].lock);
		fputs("): expected as many locks on both sides, at least one\n",
		      stderr);
		exit(SIM_EXIT_INPUT);
	}
	for (int l = 0; l < r->nr_locks; l++)
		for (int m = 0; m < NR_METRICS; m++) {
			if (!metric_of(&r->lock[l], m, &v))
				continue;
			if (!c->v[side][l][m])
				c->v[side][l][m] = sim__compare_xcalloc(c->seeds, sizeof(double));
			c->v[side][l][m][seed - 1] = v;
			c->have[side][l][m]++;
		}
}

static int make_rows(const struct compare *c, struct compare_row *rows)
{
	int nr = 0;

	for (int l = 0; l < c->nr_locks; l++)
		for (int m = 0; m < NR_METRICS; m++) {
			struct compare_row *w = &rows[nr];
			const char *la = c->locks[SIDE_A][l], *lb = c->locks[SIDE_B][l];

			if (c->have[SIDE_A][l][m] != c->seeds ||
			    c->have[SIDE_B][l][m] != c->seeds)
				continue;
			if (c->nr_locks == 1)
				snprintf(w->name, sizeof(w->name), "%s", sim__compare_metrics[m]);
			else if (!strcmp(la, lb))
				snprintf(w->name, sizeof(w->name), "%s:%s", la,
					 sim__compare_metrics[m]);
			else
				snprintf(w->name, sizeof(w->name), "%s/%s:%s", la,
					 lb, sim__compare_metrics[m]);
			sim_sample_of(&w->a, c->v[SIDE_A][l][m], (int)c->seeds);
			sim_sample_of(&w->b, c->v[SIDE_B][l][m], (int)c->seeds);
			sim_welch_test(&w->w, &w->a, &w->b);
			w->has_change = w->a.mean != 0;
			w->change = w->has_change ?
				    (w->b.mean - w->a.mean) / w->a.mean : 0;
			nr++;
		}
	return nr;
}

/* ---- the output ----------------------------------------------------------- */

void sim__compare_side(FILE *out, const struct compare *c, int side)
{
	const char *bin = side == SIDE_B && c->against ? c->against : c->self;

	fputs(bin, out);
	if (side == SIDE_B && c->bset)
		fprintf(out, " with %s", c->bset);
}

/* Decimals for a row whose values are about @mag. */
static int decimals(double mag)
{
	return mag >= 1e4 ? 0 : mag >= 100 ? 1 : mag >= 10 ? 2 : 4;
}

static void put_p(FILE *out, double p)
{
	if (p < 0.0001)
		fputs("p<0.0001", out);
	else
		fprintf(out, "p=%.4f", p);
}

static void put_header(FILE *out, const struct compare *c)
{
	fputs("compare: ", out);
	if (c->scenario)
		fprintf(out, "scenario %s", c->scenario);
	else
		fputs("the default scenario", out);
	for (int i = 0; i < c->nr_keys; i++)
		fprintf(out, " %s", c->keys[i]);
	fprintf(out, ", seeds 1 to %" PRIu64 " (%" PRIu64 " runs a side, A then B per seed)\n",
		c->seeds, c->seeds);
	fputs("A: ", out);
	sim__compare_side(out, c, SIDE_A);
	fputs(" (locks: ", out);
	put_locks(out, c, SIDE_A, c->nr_locks);
	fputs(")\nB: ", out);
	sim__compare_side(out, c, SIDE_B);
	fputs(" (locks: ", out);
	put_locks(out, c, SIDE_B, c->nr_locks);
	fprintf(out, ")\ntest: Welch's t-test (welch-t), two-sided, unequal variances, alpha %.2f;\n"
		"      ±ci95: half-width of the 95%% confidence interval of the mean (Student t, %" PRIu64 " df)\n\n",
		SIM_WELCH_ALPHA, c->seeds - 1);
}

static void put_table(FILE *out, const struct compare *c,
		      const struct compare_row *rows, int nr)
{
	int width = 6;

	for (int i = 0; i < nr; i++)
		if ((int)strlen(rows[i].name) > width)
			width = (int)strlen(rows[i].name);
	put_header(out, c);
	/* "±" is two bytes and one column: one more byte of width */
	fprintf(out, "%-*s  %14s %13s  %14s %13s  %9s  %s\n", width, "metric",
		"A mean", "±ci95", "B mean", "±ci95", "change", "significant");
	for (int i = 0; i < nr; i++) {
		const struct compare_row *r = &rows[i];
		double mag = fmax(fabs(r->a.mean), fabs(r->b.mean));
		int d = decimals(mag);
		char change[32];

		if (r->has_change)
			snprintf(change, sizeof(change), "%+.2f%%",
				 100 * r->change);
		else
			snprintf(change, sizeof(change), "n/a");
		fprintf(out, "%-*s  %14.*f %12.*f  %14.*f %12.*f  %9s  %s (",
			width, r->name, d, r->a.mean, d, r->a.ci95, d,
			r->b.mean, d, r->b.ci95, change,
			r->w.significant ? "yes" : "no");
		put_p(out, r->w.p);
		fputs(")\n", out);
	}
}

static void put_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if (ch == '"' || ch == '\\')
			fprintf(out, "\\%c", ch);
		else if (ch < 0x20)
			fprintf(out, "\\u%04x", ch);
		else
			fputc(ch, out);
	}
	fputc('"', out);
}

/* A real with six decimals, never "-0.000000". */
static void put_real(FILE *out, double v)
{
	fprintf(out, "%.6f", fabs(v) < 5e-7 ? 0.0 : v);
}

static void put_json_side(FILE *out, const struct sim_sample *s)
{
	fputs("{\"mean\":", out);
	put_real(out, s->mean);
	fputs(",\"ci95\":", out);
	put_real(out, s->ci95);
	fputc('}', out);
}

struct json_arg {
	const struct compare *c;
	const struct compare_row *rows;
	int nr;
};

static int fill_json(FILE *out, void *arg)
{
	const struct json_arg *j = arg;
	char *desc = NULL;
	size_t len = 0;

	for (int side = SIDE_A; side <= SIDE_B; side++) {
		FILE *m = open_memstream(&desc, &len);

		if (!m)
			return -1;
		sim__compare_side(m, j->c, side);
		fclose(m);
		fputs(side == SIDE_A ? "{\"a\":" : ",\"b\":", out);
		put_json_string(out, desc);
		free(desc);
	}
	fprintf(out, ",\"seeds\":%" PRIu64 ",\"test\":\"welch-t\",\"metrics\":{",
		j->c->seeds);
	for (int i = 0; i < j->nr; i++) {
		const struct compare_row *r = &j->rows[i];

		fputs(i ? ",\n" : "\n", out);
		put_json_string(out, r->name);
		fputs(":{\"a\":", out);
		put_json_side(out, &r->a);
		fputs(",\"b\":", out);
		put_json_side(out, &r->b);
		fputs(",\"change\":", out);
		if (r->has_change)
			put_real(out, r->change);
		else
			fputs("null", out);
		fprintf(out, ",\"significant\":%s,\"p\":",
			r->w.significant ? "true" : "false");
		put_real(out, r->w.p);
		fputc('}', out);
	}
	fputs("\n}}\n", out);
	return ferror(out) ? -1 : 0;
}

int sim__compare_output(const struct compare *c)
{
	struct compare_row *rows = sim__compare_xcalloc((size_t)c->nr_locks * NR_METRICS,
				   sizeof(*rows));
	int nr = make_rows(c, rows);

	put_table(stdout, c, rows, nr);
	if (fflush(stdout) || ferror(stdout))
		sim__compare_die_errno("writing the table");
	if (c->json && sim_outfile_write(c->json, fill_json,
					 &(struct json_arg){ c, rows, nr }))
		exit(SIM_EXIT_HOST);	/* its line is printed */
	if (c->plot && sim__compare_plot(c, rows, nr))
		exit(SIM_EXIT_HOST);	/* its line is printed */
	free(rows);
	return 0;
}
