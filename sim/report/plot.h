/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/plot.h - a small SVG 1.1 writer: charts of bars or lines with
 * axes, ticks, labels, a legend and a title, for the plots of a run
 * (sim/report/plot_run.h), of a comparison (sim/compare/compare_plot.c)
 * and of the study tables (sim/report/plot_table.c).
 *
 * Stage: trace/report, beside the flow.  Calls stdio only.
 *
 * Every function is a pure function of its arguments: the same chart
 * gives the same bytes.  Coordinates and values are printed with fixed
 * decimals through snprintf() in the C locale (futexsim never calls
 * setlocale()), "-0.00" is printed "0.00", and nothing depends on the
 * host (no clock, no font metrics: text widths are estimated from the
 * number of characters).  The document is self-contained: generic font
 * families, no script, no external reference.
 *
 * The SVG's structure is part of the contract, for tests and for pages
 * that embed it: each chart is a <g class="chart">; its plot area is
 * <rect class="plot-area" x= y= width= height=>; each bar is <rect
 * class="bar sS cC" ...> (series S, category C, from 0); each line is
 * <path class="line sS" d="M x,y L x,y ..."> (absolute coordinates, one
 * "x,y" pair per point, x to the right, y downwards); a significance
 * mark is <text class="mark sS cC">; legend entries are <g
 * class="legend-entry"> in series order.
 */
#ifndef SIM_REPORT_PLOT_H
#define SIM_REPORT_PLOT_H

#include <stdio.h>

#define SIM_PLOT_WIDTH	800	/* the default document size	*/
#define SIM_PLOT_HEIGHT	500

enum sim_chart_kind {
	SIM_CHART_BARS,		/* categories on x, one bar per series in each */
	SIM_CHART_LINES,	/* numeric x, one polyline per series	*/
};

/* One series: a legend entry and its values. */
struct sim_chart_series {
	const char *name;		/* the legend's text		*/
	int n;				/* points (bars: = nr_cats)	*/
	const double *x;		/* lines: x of each point; bars: NULL */
	const double *y;		/* the values; bars: NaN for none */
	const double *err;		/* bars: half-width of an error bar
					 * (NULL, or NaN: none)		*/
	const char *const *mark;	/* bars: text above a bar (a star
					 * for a significant one), NULL: none */
	int colour;			/* 1 + the sim_plot_colour() index;
					 * 0: the series' own index	*/
	int dashed;			/* lines: a dashed line		*/
};

/* A chart, drawn into a box of the document. */
struct sim_chart {
	enum sim_chart_kind kind;
	const char *title;		/* above the plot area, or NULL	*/
	const char *xlabel, *ylabel;	/* axis titles, or NULL		*/
	int xlog;			/* lines: log10 x axis (x > 0)	*/
	int cdf;			/* lines: each series is a cumulative
					 * distribution: x non-decreasing, y
					 * non-decreasing in [0, 1], ending
					 * at 1 (checked)		*/
	int step;			/* lines: draw as steps	(a CDF)	*/
	int nr_cats;			/* bars: categories		*/
	const char *const *cats;	/* ... and their labels		*/
	int cat_every;			/* bars: label every Nth category
					 * (0: as many as fit)		*/
	int nr_series;
	const struct sim_chart_series *series;
	int has_ymin, has_ymax;		/* fixed y range ends, else automatic */
	double ymin, ymax;		/* (bars: the range includes 0; a bar
					 * above ymax is cut at the top,
					 * its value written there: <text
					 * class="clipped sS cC">)	*/
	int has_ref;			/* a dashed horizontal line at ref_y */
	double ref_y;
	const char *note;		/* small text under the chart, or NULL */
	double legend_w;		/* the legend's width; 0: its text's,
					 * sim_plot_legend_width()	*/
};

/* sim_plot_legend_width - the width the legend of @c takes by default
 * (charts one above the other align their plot areas with the largest). */
double sim_plot_legend_width(const struct sim_chart *c);

/* sim_plot_colour - the colour of series @i (cycles through 8). */
const char *sim_plot_colour(int i);

/*
 * sim_plot_begin - the document's head: <?xml?>, <svg> of @width x
 * @height pixels (viewBox the same), a white background and @title
 * (NULL: none) centred at the top.  sim_plot_end() closes it.
 * Return: 0, or -1 if @out has an error.
 */
int sim_plot_begin(FILE *out, int width, int height, const char *title);
int sim_plot_end(FILE *out);

/*
 * sim_plot_chart - draw @c into the box (@x, @y, @w, @h) of the document:
 * the title, the plot area, the axes with ticks and labels, the series
 * and the legend (right of the plot area).
 * Return: 0; -1 if @c is not drawable: a CDF series that is not one
 * (sim_plot_cdf_check()), a log axis with x <= 0, bars whose n differs
 * from nr_cats, no series; nothing is written then.
 */
int sim_plot_chart(FILE *out, const struct sim_chart *c, double x, double y,
		   double w, double h);

/*
 * sim_plot_cdf_check - are @n points (@x, @y) a cumulative distribution:
 * n >= 1, x non-decreasing, y non-decreasing within [0, 1], last y 1?
 * Return: 0 if so, else the index of the first point that is not (n for
 * a last y that is not 1, 0 for n < 1).
 */
int sim_plot_cdf_check(const double *x, const double *y, int n);

/* sim_plot_text - @s escaped for XML text and attribute values. */
void sim_plot_text(FILE *out, const char *s);

#endif /* SIM_REPORT_PLOT_H */
