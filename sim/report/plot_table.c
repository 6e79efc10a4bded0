/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/plot_table.c - `futexsim plot-table TABLE -o FILE.svg`: a
 * small table file drawn as grouped bars or lines with the SVG writer
 * (sim/report/plot.h); docs/studies/charts.sh turns the study scripts'
 * outputs into such files.
 *
 * Stage: beside the flow: it runs no simulation.  Called by main()
 * (sim/cli/cli.c); calls sim/report/plot.c, sim/scenario/config.c for
 * the bad-input line (exit 2) and sim/host/outfile.h.
 *
 * The table file, one directive a line, TAB between the fields of
 * `columns` and `row`; '#' starts a comment line, blank lines are
 * skipped:
 *
 *	title	TEXT			the document's title
 *	kind	bars|lines		default bars
 *	xlabel	TEXT			the x axis' title
 *	ylabel	TEXT			the y axis' title
 *	xlog	yes|no			lines: log10 x axis; default no
 *	note	TEXT			a line under the chart
 *	columns	NAME	NAME ...	the series, in legend order
 *	style	NAME	solid|dashed	COLOUR
 *					after columns: column NAME's line,
 *					and its colour (0 to 7: the
 *					writer's palette)
 *	row	LABEL	V	V ...	one category (bars) or one x (lines,
 *					LABEL a number), a value per series;
 *					"-" for none
 *
 * Every error is one line naming the file, the line and what was
 * expected, exit 2.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/host/outfile.h"
#include "sim/report/exit.h"
#include "sim/report/plot.h"
#include "sim/report/plot_table.h"
#include "sim/scenario/config.h"

#define TABLE_COLS	12
#define TABLE_ROWS	256
#define FIELD_MAX	160

struct table {
	char title[FIELD_MAX], xlabel[FIELD_MAX], ylabel[FIELD_MAX];
	char note[FIELD_MAX];
	int lines, xlog;
	int nr_cols, nr_rows;
	char col[TABLE_COLS][FIELD_MAX];
	int colour[TABLE_COLS], dashed[TABLE_COLS];	/* style lines */
	char label[TABLE_ROWS][FIELD_MAX];
	const char *cats[TABLE_ROWS];
	double x[TABLE_ROWS];
	double v[TABLE_COLS][TABLE_ROWS];
};

static const struct sim_origin cmdline = { .file = "command line" };

/* Split @line at tabs into @f (at most @max fields).  Return: fields. */
static int split(char *line, char **f, int max)
{
	int n = 0;

	for (char *p = line; n < max; ) {
		f[n++] = p;
		p = strchr(p, '\t');
		if (!p)
			break;
		*p++ = '\0';
	}
	return n;
}

static void copy(char *dst, const char *src, const struct sim_origin *at,
		 const char *key)
{
	if (strlen(src) >= FIELD_MAX)
		sim_config_fail(at, key, "a text of at most 159 characters", src);
	strcpy(dst, src);
}

static double value(const char *s, const struct sim_origin *at)
{
	char *end;
	double v;

	if (!strcmp(s, "-"))
		return NAN;
	v = strtod(s, &end);
	if (end == s || *end || !isfinite(v))
		sim_config_fail(at, "row", "a number or '-'", s);
	return v;
}

static void add_row(struct table *t, char **f, int n,
		    const struct sim_origin *at)
{
	char *end;
	int r = t->nr_rows;

	if (!t->nr_cols)
		sim_config_fail(at, "row", "a columns line before the rows", f[0]);
	if (n != t->nr_cols + 2)
		sim_config_fail(at, "row", "LABEL and one value per column, TAB-separated",
				f[1]);
	if (r == TABLE_ROWS)
		sim_config_fail(at, "row", "at most 256 rows", f[1]);
	copy(t->label[r], f[1], at, "row");
	t->cats[r] = t->label[r];
	t->x[r] = strtod(f[1], &end);
	if (t->lines && (end == f[1] || *end || (t->xlog && !(t->x[r] > 0))))
		sim_config_fail(at, "row", t->xlog ? "an x label that is a number above 0 (xlog)" :
				"an x label that is a number (kind lines)", f[1]);
	for (int c = 0; c < t->nr_cols; c++)
		t->v[c][r] = value(f[c + 2], at);
	t->nr_rows++;
}

/* style	NAME	solid|dashed	COLOUR */
static void set_style(struct table *t, char **f, int n,
		      const struct sim_origin *at)
{
	int c;

	for (c = 0; n == 4 && c < t->nr_cols; c++)
		if (!strcmp(t->col[c], f[1]))
			break;
	if (n != 4 || c == t->nr_cols)
		sim_config_fail(at, "style", "a column's NAME, solid or dashed, and a colour 0 to 7",
				n > 1 ? f[1] : NULL);
	if (strcmp(f[2], "solid") && strcmp(f[2], "dashed"))
		sim_config_fail(at, "style", "solid or dashed", f[2]);
	if (strlen(f[3]) != 1 || f[3][0] < '0' || f[3][0] > '7')
		sim_config_fail(at, "style", "a colour 0 to 7", f[3]);
	t->dashed[c] = !strcmp(f[2], "dashed");
	t->colour[c] = 1 + f[3][0] - '0';
}

static void directive(struct table *t, char *line, const struct sim_origin *at)
{
	char *f[TABLE_COLS + 3];
	int n = split(line, f, TABLE_COLS + 3);
	const char *k = f[0], *v = n > 1 ? f[1] : "";

	if (!strcmp(k, "row"))
		return add_row(t, f, n, at);
	if (!strcmp(k, "columns")) {
		if (n < 2 || n > TABLE_COLS + 1)
			sim_config_fail(at, k, "1 to 12 TAB-separated column names", v);
		for (int c = 1; c < n; c++)
			copy(t->col[c - 1], f[c], at, k);
		t->nr_cols = n - 1;
		return;
	}
	if (!strcmp(k, "style"))
		return set_style(t, f, n, at);
	if (n != 2)
		sim_config_fail(at, k, "one TAB, then the value", line);
	if (!strcmp(k, "title"))
		copy(t->title, v, at, k);
	else if (!strcmp(k, "xlabel"))
		copy(t->xlabel, v, at, k);
	else if (!strcmp(k, "ylabel"))
		copy(t->ylabel, v, at, k);
	else if (!strcmp(k, "note"))
		copy(t->note, v, at, k);
	else if (!strcmp(k, "kind") && (!strcmp(v, "bars") || !strcmp(v, "lines")))
		t->lines = !strcmp(v, "lines");
	else if (!strcmp(k, "xlog") && (!strcmp(v, "yes") || !strcmp(v, "no")))
		t->xlog = !strcmp(v, "yes");
	else if (!strcmp(k, "kind") || !strcmp(k, "xlog"))
		sim_config_fail(at, k, !strcmp(k, "kind") ? "bars or lines" : "yes or no", v);
	else
		sim_config_fail(at, NULL,
				"title, kind, xlabel, ylabel, xlog, note, columns or row",
				k);
}

static void load(struct table *t, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[4096];
	struct sim_origin at = { .file = path };

	if (!f)
		sim_config_fail(&cmdline, NULL, "a readable table file", path);
	while (fgets(line, sizeof(line), f)) {
		at.line++;
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		directive(t, line, &at);
	}
	fclose(f);
	at.line = 0;
	if (!t->nr_rows)
		sim_config_fail(&at, NULL, "at least one row", NULL);
}

static int fill(FILE *out, void *arg)
{
	const struct table *t = arg;
	struct sim_chart_series se[TABLE_COLS];
	struct sim_chart c = {
		.kind = t->lines ? SIM_CHART_LINES : SIM_CHART_BARS,
		.xlabel = t->xlabel[0] ? t->xlabel : NULL,
		.ylabel = t->ylabel[0] ? t->ylabel : NULL,
		.note = t->note[0] ? t->note : NULL,
		.xlog = t->xlog, .nr_cats = t->nr_rows, .cats = t->cats,
		.nr_series = 0, .series = se,
	};
	static double xs[TABLE_COLS][TABLE_ROWS], ys[TABLE_COLS][TABLE_ROWS];

	for (int s = 0; s < t->nr_cols; s++) {
		int n = 0;

		/* lines: a series is drawn through its values only */
		for (int r = 0; t->lines && r < t->nr_rows; r++)
			if (!isnan(t->v[s][r])) {
				xs[s][n] = t->x[r];
				ys[s][n++] = t->v[s][r];
			}
		if (t->lines && !n)
			continue;
		se[c.nr_series++] = (struct sim_chart_series){
			.name = t->col[s], .n = t->lines ? n : t->nr_rows,
			.x = t->lines ? xs[s] : NULL,
			.y = t->lines ? ys[s] : t->v[s],
			.colour = t->colour[s], .dashed = t->dashed[s] };
	}
	sim_plot_begin(out, SIM_PLOT_WIDTH, SIM_PLOT_HEIGHT,
		       t->title[0] ? t->title : NULL);
	if (sim_plot_chart(out, &c, 0, 30, SIM_PLOT_WIDTH, SIM_PLOT_HEIGHT - 30))
		return -1;
	return sim_plot_end(out);
}

int sim_cmd_plot_table(int argc, char **argv)
{
	static struct table t;
	const char *in = NULL, *out = NULL;
	size_t n;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (argv[i][0] != '-' && !in)
			in = argv[i];
		else
			sim_config_fail(&cmdline, NULL,
					"futexsim plot-table TABLE -o FILE.svg", argv[i]);
	}
	if (!in || !out)
		sim_config_fail(&cmdline, NULL, "futexsim plot-table TABLE -o FILE.svg",
				NULL);
	n = strlen(out);
	if (n <= 4 || strcmp(out + n - 4, ".svg"))
		sim_config_fail(&cmdline, NULL, "-o FILE.svg: a file name ending in .svg",
				out);
	if (sim_outfile_check(out))
		sim_config_fail(&cmdline, NULL, "-o FILE.svg: a writable file", out);
	load(&t, in);
	if (sim_outfile_write(out, fill, &t))
		return SIM_EXIT_HOST;	/* its line is printed */
	return 0;
}
