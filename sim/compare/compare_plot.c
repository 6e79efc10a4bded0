/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/compare/compare_plot.c - `futexsim compare --plot=FILE.svg`: the
 * table as a chart (see sim/compare/compare_int.h sim__compare_plot()).
 *
 * Stage: the driver of the whole flow, above `run`.  Called by
 * sim/compare/compare_out.c after the table; calls sim/report/plot.h and
 * sim/host/outfile.h.
 *
 * One group of two bars per row of the table: A's mean, which is 1.0 by
 * construction, and B's mean over A's; each with its 95% confidence
 * interval over A's mean as an error bar, and a star over B when Welch's
 * test finds the difference significant.  The y axis stops at 3 when a
 * bar goes beyond it; such a bar is cut there and says its value.  A row whose A mean is 0 cannot
 * be normalised: it is left out and named in the note under the chart.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/compare/compare_int.h"
#include "sim/host/outfile.h"
#include "sim/report/plot.h"

#define RATIO_MAX	3.0	/* the top of the y axis, when cut	*/

struct plot_arg {
	const struct compare *c;
	const struct compare_row *rows;
	int nr;
};

/* "A: BINARY; B: BINARY with KEYS", the line under the title, as a
 * malloc'd string (NULL: no memory). */
static char *sides_text(const struct compare *c)
{
	char *s = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&s, &len);

	if (!m)
		return NULL;
	fputs("A: ", m);
	sim__compare_side(m, c, SIDE_A);
	fputs("; B: ", m);
	sim__compare_side(m, c, SIDE_B);
	fclose(m);
	return s;
}

static int fill(FILE *out, void *arg)
{
	const struct plot_arg *p = arg;
	int nr = 0, left_out = 0, width, err = -1;
	const char **cats = calloc((size_t)p->nr + 1, sizeof(*cats));
	const char **mark = calloc((size_t)p->nr + 1, sizeof(*mark));
	double *v = calloc(4 * ((size_t)p->nr + 1), sizeof(*v));
	char note[512], title[200], *sides = sides_text(p->c);
	struct sim_chart_series se[2];
	struct sim_chart ch = {
		.kind = SIM_CHART_BARS, .ylabel = "mean over A's mean",
		.has_ref = 1, .ref_y = 1, .nr_series = 2, .series = se,
	};
	size_t used;

	if (!cats || !mark || !v || !sides)
		goto out;
	for (int i = 0; i < p->nr; i++) {
		const struct compare_row *r = &p->rows[i];
		double a = r->a.mean;

		if (a == 0) {
			left_out++;
			continue;
		}
		cats[nr] = r->name;
		v[nr] = 1;
		v[p->nr + 1 + nr] = r->a.ci95 / fabs(a);
		v[2 * (p->nr + 1) + nr] = r->b.mean / a;
		v[3 * (p->nr + 1) + nr] = r->b.ci95 / fabs(a);
		mark[nr] = r->w.significant ? "*" : NULL;
		nr++;
	}
	se[0] = (struct sim_chart_series){ .name = "A (= 1.0)", .n = nr, .y = v,
					   .err = v + p->nr + 1 };
	se[1] = (struct sim_chart_series){ .name = "B", .n = nr,
					   .y = v + 2 * (p->nr + 1),
					   .err = v + 3 * (p->nr + 1),
					   .mark = mark };
	/* a few ratios far above the rest would flatten every other bar:
	 * the axis stops at RATIO_MAX and those bars say their value */
	for (int i = 0; i < nr; i++)
		if (v[2 * (p->nr + 1) + i] + v[3 * (p->nr + 1) + i] > RATIO_MAX ||
		    v[p->nr + 1 + i] + 1 > RATIO_MAX) {
			ch.has_ymax = 1;
			ch.ymax = RATIO_MAX;
		}
	ch.nr_cats = nr;
	ch.cats = cats;
	used = (size_t)snprintf(note, sizeof(note),
				"error bars: 95%% confidence interval of the mean; * significant (Welch's t-test, p < %.2f); seeds 1 to %" PRIu64,
				SIM_WELCH_ALPHA, p->c->seeds);
	if (left_out && used < sizeof(note))
		snprintf(note + used, sizeof(note) - used,
			 "; %d metric%s with A's mean 0 left out", left_out,
			 left_out == 1 ? "" : "s");
	ch.note = note;
	snprintf(title, sizeof(title),
		 "compare: B against A, %d metric%s, normalised to A's mean",
		 nr, nr == 1 ? "" : "s");
	width = SIM_PLOT_WIDTH;
	if (64 + nr * 30 + 300 > width)
		width = 64 + nr * 30 + 300;
	sim_plot_begin(out, width, SIM_PLOT_HEIGHT, title);
	fprintf(out, "<text class=\"sides\" x=\"%d\" y=\"38\" text-anchor=\"middle\" font-size=\"11\" font-family=\"sans-serif\">",
		width / 2);
	sim_plot_text(out, sides);
	fputs("</text>\n", out);
	if (sim_plot_chart(out, &ch, 0, 44, width, SIM_PLOT_HEIGHT - 44))
		fputs("<text x=\"20\" y=\"80\" font-size=\"13\" font-family=\"sans-serif\">no metric to draw</text>\n",
		      out);
	err = sim_plot_end(out);
out:
	free(cats);
	free(mark);
	free(v);
	free(sides);
	return err;
}

int sim__compare_plot(const struct compare *c, const struct compare_row *rows,
		      int nr)
{
	struct plot_arg a = { c, rows, nr };

	return sim_outfile_write(c->plot, fill, &a);
}
