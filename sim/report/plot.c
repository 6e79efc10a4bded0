/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/plot.c - the SVG writer of sim/report/plot.h: a document,
 * and charts of bars or lines inside it.
 *
 * Stage: trace/report, beside the flow.  Called by sim/report/plot_run.c,
 * sim/report/plot_table.c and sim/compare/compare_plot.c; calls stdio
 * and libm only.
 *
 * A chart's box holds, from the top: the title, the plot area with the
 * y axis left of it and the x axis under it, the legend right of it.
 * Ticks are "nice" numbers (1, 2 or 5 times a power of ten) on a linear
 * axis, powers of ten on a log one.  Text widths are estimated at
 * CHAR_W pixels a character, so the layout is the same on every host.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sim/report/plot.h"

#define CHAR_W		6.2	/* an 11px sans-serif character, estimated */
#define FONT		"font-family=\"sans-serif\""
#define AXIS_COLOUR	"#333333"
#define GRID_COLOUR	"#e4e4e4"

/* The geometry of one chart being drawn. */
struct frame {
	double x, y, w, h;		/* the plot area		*/
	double x0, x1, y0, y1;		/* data ranges (x: log10 if log) */
	int xlog;
};

static const char *const colours[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e",
	"#9467bd", "#8c564b", "#e377c2", "#17becf",
};

const char *sim_plot_colour(int i)
{
	return colours[(unsigned int)i % (sizeof(colours) / sizeof(colours[0]))];
}

/* A coordinate or value with @d decimals, never "-0.00". */
static void num(FILE *out, double v, int d)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.*f", d, v);
	if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
		memmove(buf, buf + 1, strlen(buf));
	fputs(buf, out);
}

#define PX(out, v)	num(out, v, 2)

void sim_plot_text(FILE *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default:
			if ((unsigned char)*s >= 0x20 || *s == '\t')
				fputc(*s, out);
		}
}

/* <text> at (@x, @y), anchored @anchor, @size px, rotated @rot degrees. */
static void text(FILE *out, double x, double y, const char *anchor,
		 int size, double rot, const char *extra, const char *s)
{
	fputs("<text x=\"", out);
	PX(out, x);
	fputs("\" y=\"", out);
	PX(out, y);
	fprintf(out, "\" text-anchor=\"%s\" font-size=\"%d\" %s", anchor, size,
		FONT);
	if (rot != 0) {
		fputs(" transform=\"rotate(", out);
		num(out, rot, 0);
		fputc(' ', out);
		PX(out, x);
		fputc(' ', out);
		PX(out, y);
		fputs(")\"", out);
	}
	fprintf(out, "%s%s>", extra ? " " : "", extra ? extra : "");
	sim_plot_text(out, s);
	fputs("</text>\n", out);
}

static void line(FILE *out, double x1, double y1, double x2, double y2,
		 const char *colour, double width, const char *extra)
{
	fputs("<line x1=\"", out);
	PX(out, x1);
	fputs("\" y1=\"", out);
	PX(out, y1);
	fputs("\" x2=\"", out);
	PX(out, x2);
	fputs("\" y2=\"", out);
	PX(out, y2);
	fprintf(out, "\" stroke=\"%s\" stroke-width=\"", colour);
	num(out, width, 1);
	fprintf(out, "\"%s%s/>\n", extra ? " " : "", extra ? extra : "");
}

static void rect(FILE *out, const char *cls, double x, double y, double w,
		 double h, const char *fill, const char *extra)
{
	fprintf(out, "<rect class=\"%s\" x=\"", cls);
	PX(out, x);
	fputs("\" y=\"", out);
	PX(out, y);
	fputs("\" width=\"", out);
	PX(out, w);
	fputs("\" height=\"", out);
	PX(out, h);
	fprintf(out, "\" fill=\"%s\"%s%s/>\n", fill, extra ? " " : "",
		extra ? extra : "");
}

int sim_plot_begin(FILE *out, int width, int height, const char *title)
{
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
		"width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">\n",
		width, height, width, height);
	rect(out, "background", 0, 0, width, height, "#ffffff", NULL);
	if (title)
		text(out, width / 2.0, 20, "middle", 15, 0,
		     "font-weight=\"bold\"", title);
	return ferror(out) ? -1 : 0;
}

int sim_plot_end(FILE *out)
{
	fputs("</svg>\n", out);
	return ferror(out) ? -1 : 0;
}

/* ---- numbers on the axes ------------------------------------------------- */

/* The tick step of a linear axis over [@lo, @hi], about @want ticks. */
static double nice_step(double lo, double hi, int want)
{
	double raw = (hi - lo) / want, p, f;

	if (!(raw > 0))
		return 1;
	p = pow(10, floor(log10(raw)));
	f = raw / p;
	return p * (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10);
}

/* Tick label @v of an axis whose ticks are @step apart: an SI suffix
 * (k, M, G) from 10000 on, decimals as the step needs. */
static void tick_label(char *buf, size_t len, double v, double step)
{
	static const char *const suffix[] = { "", "k", "M", "G", "T" };
	int s = 0, d;

	while (fabs(v) >= 1e4 && s < 4 && step >= 1000) {
		v /= 1000;
		step /= 1000;
		s++;
	}
	d = step >= 1 ? 0 : (int)ceil(-log10(step) - 1e-9);
	if (d > 6)
		d = 6;
	if (fabs(v) < 0.5 * pow(10, -d))
		v = 0;		/* never "-0" */
	snprintf(buf, len, "%.*f%s", d, v, suffix[s]);
}

static double map_x(const struct frame *f, double v)
{
	if (f->xlog)
		v = log10(v);
	return f->x + (v - f->x0) / (f->x1 - f->x0) * f->w;
}

static double map_y(const struct frame *f, double v)
{
	return f->y + f->h - (v - f->y0) / (f->y1 - f->y0) * f->h;
}

/* ---- ranges ---------------------------------------------------------------- */

static void y_range(const struct sim_chart *c, double *lo, double *hi)
{
	*lo = c->kind == SIM_CHART_BARS ? 0 : INFINITY;
	*hi = c->kind == SIM_CHART_BARS ? 0 : -INFINITY;
	for (int s = 0; s < c->nr_series; s++)
		for (int i = 0; i < c->series[s].n; i++) {
			const struct sim_chart_series *se = &c->series[s];
			double v = se->y[i], e = 0;

			if (isnan(v))
				continue;
			if (se->err && !isnan(se->err[i]))
				e = se->err[i];
			*lo = fmin(*lo, v - e);
			*hi = fmax(*hi, v + e);
		}
	if (c->has_ref) {
		*lo = fmin(*lo, c->ref_y);
		*hi = fmax(*hi, c->ref_y);
	}
	if (c->has_ymin)
		*lo = c->ymin;
	if (c->has_ymax)
		*hi = c->ymax;
	if (!isfinite(*lo) || !isfinite(*hi)) {
		*lo = 0;
		*hi = 1;
	}
	if (*hi <= *lo)
		*hi = *lo + 1;
}

/* The y range, widened to whole ticks; the tick step into *@step. */
static void y_frame(const struct sim_chart *c, struct frame *f, double *step)
{
	double lo, hi;

	y_range(c, &lo, &hi);
	if (!c->has_ymax && c->kind == SIM_CHART_BARS)
		hi += (hi - lo) * 0.08;	/* room for the marks */
	*step = nice_step(lo, hi, 5);
	f->y0 = c->has_ymin ? lo : floor(lo / *step + 1e-9) * *step;
	f->y1 = c->has_ymax ? hi : ceil(hi / *step - 1e-9) * *step;
	if (f->y1 <= f->y0)
		f->y1 = f->y0 + *step;
}

static void x_frame(const struct sim_chart *c, struct frame *f)
{
	double lo = INFINITY, hi = -INFINITY;

	f->xlog = c->kind == SIM_CHART_LINES && c->xlog;
	if (c->kind == SIM_CHART_BARS) {
		f->x0 = 0;
		f->x1 = c->nr_cats;
		return;
	}
	for (int s = 0; s < c->nr_series; s++)
		for (int i = 0; i < c->series[s].n; i++) {
			lo = fmin(lo, c->series[s].x[i]);
			hi = fmax(hi, c->series[s].x[i]);
		}
	if (f->xlog) {
		f->x0 = floor(log10(lo) + 1e-9);
		f->x1 = ceil(log10(hi) - 1e-9);
	} else {
		double step = nice_step(lo, hi, 6);

		f->x0 = floor(lo / step + 1e-9) * step;
		f->x1 = ceil(hi / step - 1e-9) * step;
	}
	if (f->x1 <= f->x0)
		f->x1 = f->x0 + 1;
}

/* ---- checks ---------------------------------------------------------------- */

int sim_plot_cdf_check(const double *x, const double *y, int n)
{
	if (n < 1)
		return 0;
	for (int i = 0; i < n; i++) {
		if (isnan(x[i]) || isnan(y[i]) || y[i] < 0 || y[i] > 1)
			return i;
		if (i && (x[i] < x[i - 1] || y[i] < y[i - 1]))
			return i;
	}
	return y[n - 1] == 1 ? 0 : n;
}

static int drawable(const struct sim_chart *c)
{
	if (c->nr_series < 1)
		return 0;
	for (int s = 0; s < c->nr_series; s++) {
		const struct sim_chart_series *se = &c->series[s];

		if (c->kind == SIM_CHART_BARS && se->n != c->nr_cats)
			return 0;
		if (c->kind == SIM_CHART_BARS)
			continue;
		if (se->n < 1 || !se->x)
			return 0;
		if (c->cdf && sim_plot_cdf_check(se->x, se->y, se->n))
			return 0;
		for (int i = 0; c->xlog && i < se->n; i++)
			if (!(se->x[i] > 0))
				return 0;
	}
	return c->kind != SIM_CHART_BARS || c->nr_cats > 0;
}

/* ---- axes -------------------------------------------------------------------- */

static void y_axis(FILE *out, const struct sim_chart *c, const struct frame *f,
		   double step)
{
	char buf[32];

	for (double v = f->y0; v <= f->y1 + step * 1e-6; v += step) {
		double py = map_y(f, v);

		line(out, f->x, py, f->x + f->w, py, GRID_COLOUR, 1, NULL);
		line(out, f->x - 4, py, f->x, py, AXIS_COLOUR, 1, NULL);
		tick_label(buf, sizeof(buf), fabs(v) < step * 1e-6 ? 0 : v, step);
		text(out, f->x - 6, py + 4, "end", 11, 0, NULL, buf);
	}
	if (c->has_ref)
		line(out, f->x, map_y(f, c->ref_y), f->x + f->w,
		     map_y(f, c->ref_y), "#666666", 1,
		     "stroke-dasharray=\"5,4\" class=\"ref\"");
	if (c->ylabel)
		text(out, f->x - 46, f->y + f->h / 2, "middle", 12, -90, NULL,
		     c->ylabel);
}

static void x_axis_lines(FILE *out, const struct sim_chart *c,
			 const struct frame *f)
{
	double step = f->xlog ? 1 : nice_step(f->x0, f->x1, 6);
	char buf[32];

	for (double v = f->x0; v <= f->x1 + step * 1e-6; v += step) {
		double px = f->x + (v - f->x0) / (f->x1 - f->x0) * f->w;

		line(out, px, f->y, px, f->y + f->h, GRID_COLOUR, 1, NULL);
		line(out, px, f->y + f->h, px, f->y + f->h + 4, AXIS_COLOUR, 1,
		     NULL);
		if (f->xlog)
			tick_label(buf, sizeof(buf), pow(10, v), pow(10, v));
		else
			tick_label(buf, sizeof(buf), v, step);
		text(out, px, f->y + f->h + 16, "middle", 11, 0, NULL, buf);
	}
	if (c->xlabel)
		text(out, f->x + f->w / 2, f->y + f->h + 34, "middle", 12, 0,
		     NULL, c->xlabel);
}

static int max_cat_len(const struct sim_chart *c)
{
	int m = 0;

	for (int i = 0; i < c->nr_cats; i++)
		if ((int)strlen(c->cats[i]) > m)
			m = (int)strlen(c->cats[i]);
	return m;
}

/* Bars: are the category labels rotated (they do not fit side by side)? */
static int cats_rotated(const struct sim_chart *c, double w)
{
	return max_cat_len(c) > 5 && max_cat_len(c) * CHAR_W + 4 > w / c->nr_cats;
}

/* The bottom margin a chart needs under its plot area. */
static double bottom_margin(const struct sim_chart *c, double w)
{
	double m = c->xlabel ? 42 : 26;

	if (c->kind == SIM_CHART_BARS && cats_rotated(c, w))
		m = fmin(150, 18 + max_cat_len(c) * CHAR_W * 0.72) +
		    (c->xlabel ? 18 : 0);
	return m + (c->note ? 14 : 0);
}

static void x_axis_bars(FILE *out, const struct sim_chart *c,
			const struct frame *f)
{
	double gw = f->w / c->nr_cats;
	int rot = cats_rotated(c, f->w), every = c->cat_every;
	static const int nice[] = { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 };

	if (every < 1) {
		double need = rot ? 13 : max_cat_len(c) * CHAR_W + 6;

		for (size_t i = 0; i < sizeof(nice) / sizeof(nice[0]); i++) {
			every = nice[i];
			if (gw * every >= need)
				break;
		}
	}
	for (int i = 0; i < c->nr_cats; i += every) {
		double px = f->x + (i + 0.5) * gw;

		line(out, px, f->y + f->h, px, f->y + f->h + 4, AXIS_COLOUR, 1,
		     NULL);
		if (rot)
			text(out, px + 3, f->y + f->h + 12, "end", 11, -45, NULL,
			     c->cats[i]);
		else
			text(out, px, f->y + f->h + 16, "middle", 11, 0, NULL,
			     c->cats[i]);
	}
	if (c->xlabel)
		text(out, f->x + f->w / 2,
		     f->y + f->h + bottom_margin(c, f->w) - (c->note ? 20 : 6),
		     "middle", 12, 0, NULL, c->xlabel);
}

/* ---- series ------------------------------------------------------------------ */

/* y of @v in the plot area, clamped to it (a fixed range clips). */
static double clamp_y(const struct frame *f, double v)
{
	return fmax(f->y, fmin(f->y + f->h, map_y(f, v)));
}

/* A bar taller than the fixed range: its value written at the top. */
static void clipped(FILE *out, double x, const struct frame *f, double v,
		    int s, int i)
{
	char buf[32], cls[48];

	snprintf(buf, sizeof(buf), "%.3g", v);
	snprintf(cls, sizeof(cls), "class=\"clipped s%d c%d\"", s, i);
	text(out, x, f->y + 11, "middle", 10, 0, cls, buf);
}

static const char *colour_of(const struct sim_chart *c, int s)
{
	return sim_plot_colour(c->series[s].colour ? c->series[s].colour - 1 : s);
}

static void bars(FILE *out, const struct sim_chart *c, const struct frame *f)
{
	double gw = f->w / c->nr_cats, bw = gw * 0.8 / c->nr_series;
	double base = map_y(f, fmax(f->y0, 0));
	char cls[48];

	for (int s = 0; s < c->nr_series; s++) {
		const struct sim_chart_series *se = &c->series[s];

		fputs("<g class=\"series\">\n", out);
		for (int i = 0; i < se->n; i++) {
			double v = se->y[i], px, py, e;

			if (isnan(v))
				continue;
			px = f->x + i * gw + gw * 0.1 + s * bw;
			py = clamp_y(f, v);
			snprintf(cls, sizeof(cls), "bar s%d c%d", s, i);
			rect(out, cls, px, fmin(py, base), bw > 1.5 ? bw - 0.5 : bw,
			     fabs(base - py), colour_of(c, s), NULL);
			e = se->err && !isnan(se->err[i]) ? se->err[i] : 0;
			if (e > 0) {
				double cx = px + bw / 2, cap = fmin(bw / 3, 5);

				line(out, cx, clamp_y(f, v - e), cx, clamp_y(f, v + e),
				     "#000000", 1.2, "class=\"err\"");
				line(out, cx - cap, clamp_y(f, v + e), cx + cap,
				     clamp_y(f, v + e), "#000000", 1.2, NULL);
				line(out, cx - cap, clamp_y(f, v - e), cx + cap,
				     clamp_y(f, v - e), "#000000", 1.2, NULL);
			}
			if (v > f->y1)
				clipped(out, px + bw / 2, f, v, s, i);
			if (se->mark && se->mark[i] && se->mark[i][0]) {
				snprintf(cls, sizeof(cls), "class=\"mark s%d c%d\"", s, i);
				text(out, px + bw / 2,
				     v > f->y1 ? f->y + 24 : clamp_y(f, v + e) - 4,
				     "middle", 14, 0, cls, se->mark[i]);
			}
		}
		fputs("</g>\n", out);
	}
}

static void path_point(FILE *out, const struct frame *f, double x, double y,
		       int first)
{
	fputs(first ? "M " : " L ", out);
	PX(out, map_x(f, x));
	fputc(',', out);
	PX(out, map_y(f, y));
}

static void lines(FILE *out, const struct sim_chart *c, const struct frame *f)
{
	for (int s = 0; s < c->nr_series; s++) {
		const struct sim_chart_series *se = &c->series[s];

		fprintf(out, "<path class=\"line s%d\" fill=\"none\" stroke=\"%s\" "
			"stroke-width=\"2\"%s d=\"", s, colour_of(c, s),
			se->dashed ? " stroke-dasharray=\"6,4\"" : "");
		for (int i = 0; i < se->n; i++) {
			if (c->step && i)
				path_point(out, f, se->x[i], se->y[i - 1], 0);
			path_point(out, f, se->x[i], se->y[i], !i);
		}
		fputs("\"/>\n", out);
	}
}

/* The legend's width: its longest name. */
double sim_plot_legend_width(const struct sim_chart *c)
{
	size_t m = 0;

	for (int s = 0; s < c->nr_series; s++)
		if (c->series[s].name && strlen(c->series[s].name) > m)
			m = strlen(c->series[s].name);
	return fmin(260, m * CHAR_W + 34);
}

static void legend(FILE *out, const struct sim_chart *c, double x, double y)
{
	for (int s = 0; s < c->nr_series; s++) {
		double ly = y + 6 + s * 18;

		fputs("<g class=\"legend-entry\">\n", out);
		if (c->kind == SIM_CHART_BARS)
			rect(out, "swatch", x, ly - 9, 12, 12, colour_of(c, s),
			     NULL);
		else
			line(out, x, ly - 3, x + 14, ly - 3, colour_of(c, s), 2.5,
			     c->series[s].dashed ? "stroke-dasharray=\"4,3\"" : NULL);
		text(out, x + 18, ly + 1, "start", 11, 0, NULL,
		     c->series[s].name ? c->series[s].name : "");
		fputs("</g>\n", out);
	}
}

int sim_plot_chart(FILE *out, const struct sim_chart *c, double x, double y,
		   double w, double h)
{
	struct frame f;
	double step, lw;

	if (!drawable(c))
		return -1;
	lw = c->legend_w > 0 ? c->legend_w : sim_plot_legend_width(c);
	f.x = x + 64;
	f.y = y + (c->title ? 26 : 8);
	f.w = w - 64 - lw - 16;
	f.h = h - (f.y - y) - bottom_margin(c, f.w);
	x_frame(c, &f);
	y_frame(c, &f, &step);
	fputs("<g class=\"chart\">\n", out);
	if (c->title)
		text(out, f.x + f.w / 2, y + 16, "middle", 13, 0,
		     "font-weight=\"bold\"", c->title);
	rect(out, "plot-area", f.x, f.y, f.w, f.h, "#fafafa", NULL);
	y_axis(out, c, &f, step);
	if (c->kind == SIM_CHART_BARS) {
		x_axis_bars(out, c, &f);
		bars(out, c, &f);
	} else {
		x_axis_lines(out, c, &f);
		lines(out, c, &f);
	}
	line(out, f.x, f.y + f.h, f.x + f.w, f.y + f.h, AXIS_COLOUR, 1, NULL);
	line(out, f.x, f.y, f.x, f.y + f.h, AXIS_COLOUR, 1, NULL);
	legend(out, c, f.x + f.w + 14, f.y + 4);
	if (c->note)
		text(out, f.x, y + h - 4, "start", 10, 0, "fill=\"#555555\"",
		     c->note);
	fputs("</g>\n", out);
	return ferror(out) ? -1 : 0;
}
