/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/plot_run.c - the SVG of a run (see sim/report/plot_run.h):
 * operations per thread and the acquire-latency CDF of every lock.
 *
 * Stage: trace/report.  Called by sim/cli/cli.c after the last lock's
 * child; calls sim/report/plot.c, sim/report/stats.c (the buckets' upper
 * bounds) and sim/host/outfile.h.
 *
 * The CDF is drawn from the histogram's buckets: one point per bucket
 * that holds a value, at its upper bound (capped at the maximum, so the
 * last point is the largest latency), the share of values up to it on
 * y; it starts at 0 under the first point and ends at exactly 1, the
 * count over the count.  Values below 1 ns are drawn at 1 ns (log x).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/host/outfile.h"
#include "sim/report/plot.h"
#include "sim/report/plot_run.h"

/* Everything a run's document needs, owned here. */
struct run_plot {
	int n;				/* locks			*/
	int nr_cats;			/* threads, the most of any lock */
	char **cats;			/* "t0", "t1" ...		*/
	char name[2][SIM_MAX_LOCKS][96];	/* legends of the panels */
	double *ops[SIM_MAX_LOCKS];	/* per thread, NaN past its count */
	double *cx[SIM_MAX_LOCKS], *cy[SIM_MAX_LOCKS];	/* the CDFs	*/
	int cn[SIM_MAX_LOCKS];
	struct sim_chart_series bars[SIM_MAX_LOCKS], cdfs[SIM_MAX_LOCKS];
	int nr_bars, nr_cdfs;
	char bars_note[160], cdf_note[160];
};

/* The CDF of histogram @h into newly allocated @x, @y.  Return: points. */
static int cdf_points(const struct sim_hist *h, double **x, double **y)
{
	int n = 0, cap = 1;
	uint64_t seen = 0;

	for (unsigned int i = 0; i < SIM_HIST_BUCKETS; i++)
		cap += h->bucket[i] != 0;
	*x = calloc((size_t)cap, sizeof(**x));
	*y = calloc((size_t)cap, sizeof(**y));
	if (!*x || !*y)
		return 0;
	for (unsigned int i = 0; i < SIM_HIST_BUCKETS && seen < h->count; i++) {
		uint64_t up = sim_hist_bucket_upper(i);

		if (!h->bucket[i])
			continue;
		seen += h->bucket[i];
		if (up > h->max)
			up = h->max;
		if (!n) {	/* the rise from 0 under the first value */
			(*x)[n] = up ? (double)up : 1;
			(*y)[n++] = 0;
		}
		(*x)[n] = up ? (double)up : 1;
		(*y)[n++] = seen >= h->count ? 1.0 : (double)seen / (double)h->count;
	}
	return n;
}

static void note_missing(char *note, size_t len, const char *what,
			 const char *lock)
{
	size_t used = strlen(note);

	snprintf(note + used, len - used, "%s%s", used ? ", " : what, lock);
}

static int prepare(struct run_plot *p, const struct sim_result *r,
		   const struct sim_detail *d, int n)
{
	memset(p, 0, sizeof(*p));
	p->n = n;
	for (int i = 0; i < n; i++)
		if (d[i].nr_threads > p->nr_cats)
			p->nr_cats = d[i].nr_threads;
	p->cats = calloc((size_t)p->nr_cats + 1, sizeof(*p->cats));
	if (!p->cats)
		return -1;
	for (int t = 0; t < p->nr_cats; t++) {
		p->cats[t] = malloc(16);
		if (!p->cats[t])
			return -1;
		snprintf(p->cats[t], 16, "t%d", t);
	}
	for (int i = 0; i < n; i++) {
		if (!d[i].nr_threads) {
			note_missing(p->bars_note, sizeof(p->bars_note),
				     "no threads' figures: ", r[i].lock);
		} else {
			p->ops[i] = calloc((size_t)p->nr_cats, sizeof(double));
			if (!p->ops[i])
				return -1;
			for (int t = 0; t < p->nr_cats; t++)
				p->ops[i][t] = t < d[i].nr_threads ?
					       (double)d[i].ops[t] : NAN;
			snprintf(p->name[0][i], sizeof(p->name[0][i]),
				 "%s (Jain %.3f)", r[i].lock, r[i].jain);
			p->bars[p->nr_bars++] = (struct sim_chart_series){
				.name = p->name[0][i], .n = p->nr_cats,
				.y = p->ops[i] };
		}
		if (!d[i].acquire_ns || !d[i].acquire_ns->count) {
			note_missing(p->cdf_note, sizeof(p->cdf_note),
				     "no latencies recorded: ", r[i].lock);
			continue;
		}
		p->cn[i] = cdf_points(d[i].acquire_ns, &p->cx[i], &p->cy[i]);
		if (!p->cn[i])
			return -1;
		snprintf(p->name[1][i], sizeof(p->name[1][i]),
			 "%s (p50 %" PRIu64 ", p99 %" PRIu64 " ns)", r[i].lock,
			 r[i].acquire_p50_ns, r[i].acquire_p99_ns);
		p->cdfs[p->nr_cdfs++] = (struct sim_chart_series){
			.name = p->name[1][i], .n = p->cn[i], .x = p->cx[i],
			.y = p->cy[i] };
	}
	return 0;
}

static void release(struct run_plot *p)
{
	for (int t = 0; p->cats && t < p->nr_cats; t++)
		free(p->cats[t]);
	free(p->cats);
	for (int i = 0; i < p->n; i++) {
		free(p->ops[i]);
		free(p->cx[i]);
		free(p->cy[i]);
	}
}

/* The document's title: what ran. */
static void title_of(char *buf, size_t len, const struct sim_scenario *s)
{
	size_t used;

	used = (size_t)snprintf(buf, len, "workload=%s lock=", s->workload);
	for (int i = 0; i < s->nr_locks && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 i ? "," : "", s->locks[i]);
	if (used < len)
		snprintf(buf + used, len - used,
			 " threads=%d machine=%s seed=%" PRIu64, s->threads,
			 s->machine, s->seed);
}

/* An empty panel's place: its title and why it is empty. */
static void empty_panel(FILE *out, const char *title, const char *why,
			double y)
{
	fprintf(out, "<g class=\"chart empty\">\n<text x=\"400.00\" y=\"%.2f\" "
		"text-anchor=\"middle\" font-size=\"13\" font-family=\"sans-serif\" "
		"font-weight=\"bold\">", y + 16);
	sim_plot_text(out, title);
	fprintf(out, "</text>\n<text x=\"400.00\" y=\"%.2f\" text-anchor=\"middle\" "
		"font-size=\"11\" font-family=\"sans-serif\">", y + 60);
	sim_plot_text(out, why);
	fputs("</text>\n</g>\n", out);
}

int sim_plot_run_svg(FILE *out, const struct sim_scenario *s,
		     const struct sim_result *r, const struct sim_detail *d,
		     int n)
{
	struct run_plot p;
	char title[512];
	struct sim_chart fair = {
		.kind = SIM_CHART_BARS, .title = "operations per thread (fairness)",
		.xlabel = "thread", .ylabel = "operations",
	};
	struct sim_chart lat = {
		.kind = SIM_CHART_LINES, .title = "acquire latency, cumulative distribution",
		.xlabel = "acquire latency (ns, log scale)",
		.ylabel = "share of acquisitions", .xlog = 1, .cdf = 1,
		.step = 1, .has_ymin = 1, .ymin = 0, .has_ymax = 1, .ymax = 1,
	};
	int err = 0;

	if (prepare(&p, r, d, n)) {
		release(&p);
		return -1;
	}
	title_of(title, sizeof(title), s);
	sim_plot_begin(out, SIM_PLOT_WIDTH, SIM_PLOT_HEIGHT, title);
	fair.nr_cats = p.nr_cats;
	fair.cats = (const char *const *)p.cats;
	fair.nr_series = p.nr_bars;
	fair.series = p.bars;
	fair.note = p.bars_note[0] ? p.bars_note : NULL;
	lat.nr_series = p.nr_cdfs;
	lat.series = p.cdfs;
	fair.legend_w = lat.legend_w = fmax(sim_plot_legend_width(&fair),
					    sim_plot_legend_width(&lat));
	if (sim_plot_chart(out, &fair, 0, 30, SIM_PLOT_WIDTH, 225))
		empty_panel(out, fair.title, "no operations per thread", 30);
	lat.note = p.cdf_note[0] ? p.cdf_note : NULL;
	if (sim_plot_chart(out, &lat, 0, 258, SIM_PLOT_WIDTH, 242))
		empty_panel(out, lat.title, "no acquisition latencies", 258);
	err = sim_plot_end(out);
	release(&p);
	return err || ferror(out) ? -1 : 0;
}

struct run_arg {
	const struct sim_scenario *s;
	const struct sim_result *r;
	const struct sim_detail *d;
	int n;
};

static int fill(FILE *f, void *arg)
{
	const struct run_arg *a = arg;

	return sim_plot_run_svg(f, a->s, a->r, a->d, a->n);
}

int sim_plot_run_write(const struct sim_scenario *s, const struct sim_result *r,
		       const struct sim_detail *d, int n)
{
	struct run_arg a = { s, r, d, n };

	return sim_outfile_write(s->plot, fill, &a);
}
