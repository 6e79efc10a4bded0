/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/report.c - the human report and the --json results file.
 *
 * Stage: trace/report, last in the flow.  Called by the CLI (sim/cli/cli.c)
 * once every lock of the scenario has run, with one struct sim_result per
 * lock.  Calls sim_scenario_print() and sim_scenario_json()
 * (sim/scenario/scenario.c) for the scenario echo, and libc stdio.
 *
 * The text report is a table in the shape of the published TO-futex table
 * (docs/studies/to-futex-2016.md): one column per lock, one row per figure.  It prints
 * nothing host dependent, so a scenario and seed give the same bytes on
 * every run.  Counts get thousands separators ("3,090,294"), times human
 * units ("812 us", "3.41 s"), and from a minute on the form of time(1)
 * used by the seed ("7m22.4s").
 *
 * workload=spin gets rows of its own: ns per operation of one task (the
 * published figure) and where the acquisitions went (fast path, pending
 * bit, MCS queue; n/a for the ticket lock); when the scenario is a cell
 * of the 2014 micro-benchmark (docs/studies/qspinlock-2014.md) the
 * published figures follow,
 * in the published layout (ticket, queue, change), beside the simulated
 * ones.
 *
 * workload=rwlock adds, after "ops", the read and the write operations
 * and the most readers inside at once; lock=adaptive its PAUSEs and the
 * spins that ended asleep (JSON: "ops_by_group", "readers_max",
 * "adaptive").
 *
 * The JSON document is {"scenario":{...},"seed":N,"results":[{...}]}, one
 * result per lock in scenario order; the host effort figures sit in each
 * result's "host" object, and nothing else may differ between runs.
 * Results of workload=spin also carry "ns_per_op" and "paths".
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "sim/host/outfile.h"
#include "sim/report/report.h"
#include "sim/report/report_tp.h"
#include "sim/report/report_uword.h"
#include "workloads/workload.h"

#define LABEL_W		27	/* width of the row-label column	*/
#define MIN_COL_W	12	/* narrowest lock column		*/
#define CELL_LEN	64

enum cell_kind {
	CELL_COUNT,		/* 3,090,294				*/
	CELL_TIME,		/* 812 us, 3.41 s, 7m22.4s		*/
	CELL_SHARE,		/* 3,090,294 (30.9%) of another field	*/
	CELL_JAIN,		/* 0.9871				*/
	CELL_NS,		/* 89.3 ns: ns_per_op			*/
	CELL_PATH,		/* 19,611 (98.1%) of ops, or n/a	*/
};

struct row {
	const char *label;
	enum cell_kind kind;
	size_t field;		/* offsetof() a uint64_t of sim_result	*/
	size_t of;		/* CELL_SHARE: the field it is a share of */
};

#define F(x)	offsetof(struct sim_result, x)

static const struct row rows[] = {
	{ "ops",			CELL_COUNT, F(ops), 0 },
	{ "elapsed",			CELL_TIME,  F(elapsed_ns), 0 },
	{ "max thread time",		CELL_TIME,  F(thread_max_ns), 0 },
	{ "min thread time",		CELL_TIME,  F(thread_min_ns), 0 },
	{ "avg thread time",		CELL_TIME,  F(thread_avg_ns), 0 },
	{ "sys time",			CELL_TIME,  F(sys_ns), 0 },
	{ "user time",			CELL_TIME,  F(user_ns), 0 },
	{ "lock syscalls (% ops)",	CELL_SHARE, F(lock_syscalls), F(ops) },
	{ "unlock syscalls (% ops)",	CELL_SHARE, F(unlock_syscalls), F(ops) },
	{ "FUTEX_WAIT EAGAIN (% lock)",	CELL_SHARE, F(eagain), F(lock_syscalls) },
	{ "timeouts",			CELL_COUNT, F(timeouts), 0 },
	{ "wakeups",			CELL_COUNT, F(wakeups), 0 },
	{ "acquire latency p50",	CELL_TIME,  F(acquire_p50_ns), 0 },
	{ "acquire latency p99",	CELL_TIME,  F(acquire_p99_ns), 0 },
	{ "acquire latency max",	CELL_TIME,  F(acquire_max_ns), 0 },
	{ "most overtaken (one wait)",	CELL_COUNT, F(overtaken_max), 0 },
	{ "ops per thread min",		CELL_COUNT, F(ops_thread_min), 0 },
	{ "ops per thread max",		CELL_COUNT, F(ops_thread_max), 0 },
	{ "Jain's fairness index",	CELL_JAIN,  F(jain), 0 },
};

/* workload=spin */
static const struct row spin_rows[] = {
	{ "ops",			CELL_COUNT, F(ops), 0 },
	{ "elapsed",			CELL_TIME,  F(elapsed_ns), 0 },
	{ "ns per op (one task)",	CELL_NS,    0, 0 },
	{ "fast path (% ops)",		CELL_PATH,  F(path_fast), 0 },
	{ "pending bit (% ops)",	CELL_PATH,  F(path_pending), 0 },
	{ "MCS queue (% ops)",		CELL_PATH,  F(path_queue), 0 },
	{ "max thread time",		CELL_TIME,  F(thread_max_ns), 0 },
	{ "min thread time",		CELL_TIME,  F(thread_min_ns), 0 },
	{ "sys time",			CELL_TIME,  F(sys_ns), 0 },
	{ "acquire latency p50",	CELL_TIME,  F(acquire_p50_ns), 0 },
	{ "acquire latency p99",	CELL_TIME,  F(acquire_p99_ns), 0 },
	{ "acquire latency max",	CELL_TIME,  F(acquire_max_ns), 0 },
	{ "most overtaken (one wait)",	CELL_COUNT, F(overtaken_max), 0 },
	{ "ops per thread min",		CELL_COUNT, F(ops_thread_min), 0 },
	{ "ops per thread max",		CELL_COUNT, F(ops_thread_max), 0 },
	{ "Jain's fairness index",	CELL_JAIN,  F(jain), 0 },
};

#undef F

struct table {
	const struct row *rows;
	size_t nr;
};

static const struct table mutex_table = { rows, sizeof(rows) / sizeof(rows[0]) };
static const struct table spin_table = {
	spin_rows, sizeof(spin_rows) / sizeof(spin_rows[0])
};

static int is_spin(const struct sim_scenario *s)
{
	return s->wl == &wl_spin;
}

static uint64_t field(const struct sim_result *r, size_t off)
{
	uint64_t v;

	memcpy(&v, (const char *)r + off, sizeof(v));
	return v;
}

/* a / b rounded half up, without the overflow of (a + b / 2) / b. */
static uint64_t div_round(uint64_t a, uint64_t b)
{
	return a / b + (a % b >= b - b / 2);
}

static void fmt_count(uint64_t v, char *buf, size_t len)
{
	char digits[24];
	int n = snprintf(digits, sizeof(digits), "%" PRIu64, v);
	size_t o = 0;
	int i;

	for (i = 0; i < n && o + 2 < len; i++) {
		if (i > 0 && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

/* Three significant digits in ns, us or ms ("812 us", "1.50 us"); two
 * decimals in seconds as in the seed ("50.91 s"); from 59.995 s on, the
 * "7m22.4s" form of time(1).  Rounded half up in integers. */
static void fmt_time(uint64_t ns, char *buf, size_t len)
{
	static const struct { uint64_t div; const char *unit; } u[] = {
		{ 1000, "us" }, { 1000000, "ms" },
	};
	uint64_t h, t;
	size_t i;

	if (ns < 1000) {
		snprintf(buf, len, "%" PRIu64 " ns", ns);
		return;
	}
	for (i = 0; ns < 1000000000 && i < sizeof(u) / sizeof(u[0]); i++) {
		h = div_round(ns * 100, u[i].div);
		if (h < 1000) {
			snprintf(buf, len, "%" PRIu64 ".%02" PRIu64 " %s",
				 h / 100, h % 100, u[i].unit);
			return;
		}
		t = div_round(ns * 10, u[i].div);
		if (t < 1000) {
			snprintf(buf, len, "%" PRIu64 ".%" PRIu64 " %s",
				 t / 10, t % 10, u[i].unit);
			return;
		}
		if (div_round(ns, u[i].div) < 1000) {
			snprintf(buf, len, "%" PRIu64 " %s",
				 div_round(ns, u[i].div), u[i].unit);
			return;
		}
	}
	h = div_round(ns, 10000000);		/* hundredths of a second */
	if (h < 6000) {
		snprintf(buf, len, "%" PRIu64 ".%02" PRIu64 " s",
			 h / 100, h % 100);
		return;
	}
	t = div_round(ns, 100000000);		/* tenths of a second */
	snprintf(buf, len, "%" PRIu64 "m%02" PRIu64 ".%" PRIu64 "s",
		 t / 600, t % 600 / 10, t % 10);
}

/* The two formats, for sim/report/report_tp.c. */
void sim__report_count(uint64_t v, char *buf, size_t len)
{
	fmt_count(v, buf, len);
}

void sim__report_time(uint64_t ns, char *buf, size_t len)
{
	fmt_time(ns, buf, len);
}

static void fmt_cell(const struct row *row, const struct sim_result *r,
		     char *buf, size_t len)
{
	uint64_t v, of;
	size_t n;

	switch (row->kind) {
	case CELL_COUNT:
		fmt_count(field(r, row->field), buf, len);
		break;
	case CELL_TIME:
		fmt_time(field(r, row->field), buf, len);
		break;
	case CELL_SHARE:
		v = field(r, row->field);
		of = field(r, row->of);
		fmt_count(v, buf, len);
		n = strlen(buf);
		if (of)
			snprintf(buf + n, len - n, " (%.1f%%)",
				 100.0 * (double)v / (double)of);
		break;
	case CELL_JAIN:
		snprintf(buf, len, "%.4f", isfinite(r->jain) ? r->jain : 0.0);
		break;
	case CELL_NS:
		snprintf(buf, len, "%.1f ns",
			 isfinite(r->ns_per_op) ? r->ns_per_op : 0.0);
		break;
	case CELL_PATH:
		if (!r->paths_counted) {
			snprintf(buf, len, "n/a");
			break;
		}
		v = field(r, row->field);
		fmt_count(v, buf, len);
		n = strlen(buf);
		if (r->ops)
			snprintf(buf + n, len - n, " (%.1f%%)",
				 100.0 * (double)v / (double)r->ops);
		break;
	}
}

static int lock_len(const struct sim_result *r)
{
	return (int)strnlen(r->lock, sizeof(r->lock));
}

static int column_width(const struct table *t, const struct sim_result *r,
			int nr)
{
	char cell[CELL_LEN];
	int w = MIN_COL_W, i;
	size_t k;

	for (i = 0; i < nr; i++) {
		if (lock_len(&r[i]) > w)
			w = lock_len(&r[i]);
		for (k = 0; k < t->nr; k++) {
			fmt_cell(&t->rows[k], &r[i], cell, sizeof(cell));
			if ((int)strlen(cell) > w)
				w = (int)strlen(cell);
		}
	}
	return w + 2;
}

/* ---- the 2014 micro-benchmark (docs/studies/qspinlock-2014.md) --------- */

#define PUB_OPS_PER_TASK	5000000	/* lock/unlock pairs of each task */

/* Execution time in ms of the published runs, by tasks (index 0: 1). */
static const struct {
	int ticket[8], queue[8];	/* queue: the pre-patch (v10) code */
} pub_same[2] = {
	[SIM_DATA_STANDALONE] = {
		{ 135, 890, 1932, 2829, 3834, 4963, 6299, 7691 },
		{ 135, 1885, 2333, 2900, 3655, 4336, 5057, 5786 },
	},
	[SIM_DATA_EMBEDDED] = {
		{ 111, 779, 1859, 2726, 3761, 4976, 6269, 7569 },
		{ 101, 1990, 2341, 2923, 3648, 4326, 5064, 5798 },
	},
};
static const int pub_nodes_ticket[4] = { 135, 4604, 10940, 21555 };
static const int pub_nodes_queue[4] = { 135, 5087, 12224, 10555 };
/* With the v11 06/16 patch, 2 tasks: same node standalone/embedded, and
 * 2 nodes. */
static const int pub_v11_same[2] = { 984, 871 };
static const int pub_v11_nodes = 1364;

struct pub_cell {
	const char *where;	/* "same node, standalone" ...		*/
	int ticket, queue;	/* ms; 0: not published			*/
	int v11;		/* ms with the v11 patch; 0: not published */
};

/* The published cell this scenario replays. Return: 0 if none. */
static int pub_lookup(const struct sim_scenario *s, struct pub_cell *c)
{
	int n = s->threads;

	memset(c, 0, sizeof(*c));
	if (s->placement == SIM_PLACE_PACK && n >= 1 && n <= 8) {
		c->where = s->data == SIM_DATA_EMBEDDED ?
			   "same node, embedded" : "same node, standalone";
		c->ticket = pub_same[s->data].ticket[n - 1];
		c->queue = pub_same[s->data].queue[n - 1];
		c->v11 = n == 2 ? pub_v11_same[s->data] : 0;
		return 1;
	}
	if (s->placement == SIM_PLACE_NODES && s->data == SIM_DATA_STANDALONE &&
	    n >= 1 && n <= 4) {
		c->where = "different nodes (1 task each), standalone";
		c->ticket = pub_nodes_ticket[n - 1];
		c->queue = pub_nodes_queue[n - 1];
		c->v11 = n == 2 ? pub_v11_nodes : 0;
		return 1;
	}
	return 0;
}

/* One line of the comparison: ticket and queue in ms, the change. */
static void pub_line(FILE *out, const char *label, double ticket, double queue)
{
	char t[24] = "-", q[24] = "-", c[24] = "-";

	if (ticket > 0)
		snprintf(t, sizeof(t), "%.0f ms", ticket);
	if (queue > 0)
		snprintf(q, sizeof(q), "%.0f ms", queue);
	if (ticket > 0 && queue > 0)
		snprintf(c, sizeof(c), "%+.0f%%", 100.0 * (queue / ticket - 1.0));
	fprintf(out, "%-*s%12s%12s%10s\n", LABEL_W + 3, label, t, q, c);
}

/*
 * After the table of a spin scenario that is a published cell: the
 * published ms (5,000,000 pairs per task) and the simulated ones, ns per
 * op x 5,000,000, in the layout of the published table.  "queue" is the
 * qspinlock; the simulated ticket column is this run's ticket lock.
 */
static void spin_published(FILE *out, const struct sim_scenario *s,
			   const struct sim_result *r, int nr)
{
	double scale = PUB_OPS_PER_TASK / 1e6, ticket = 0;
	char label[64];
	struct pub_cell c;
	int i;

	if (!pub_lookup(s, &c))
		return;
	for (i = 0; i < nr; i++)
		if (!strcmp(r[i].lock, "ticket"))
			ticket = r[i].ns_per_op * scale;
	fprintf(out, "\n2014 micro-benchmark (docs/studies/qspinlock-2014.md): 10-core Westmere-EX,\n"
		"%d tasks, %s; ms for 5,000,000 lock/unlock per task\n"
		"(simulated: ns per op x 5,000,000)%s%s\n",
		s->threads, c.where,
		strncmp(s->machine, "westmere-ex", 11) ? "; this run's machine: " : "",
		strncmp(s->machine, "westmere-ex", 11) ? s->machine : "");
	fprintf(out, "%-*s%12s%12s%10s\n", LABEL_W + 3, "", "ticket", "queue",
		"change");
	pub_line(out, "published, 2014 code (v10)", c.ticket, c.queue);
	if (c.v11)
		pub_line(out, "published, v11 06/16 patch", c.ticket, c.v11);
	for (i = 0; i < nr; i++) {
		if (!r[i].paths_counted)
			continue;	/* the ticket lock is the left column */
		snprintf(label, sizeof(label), "simulated %.*s", lock_len(&r[i]),
			 r[i].lock);
		pub_line(out, label, ticket, r[i].ns_per_op * scale);
	}
	if (ticket > 0 && nr == 1)
		pub_line(out, "simulated ticket", ticket, 0);
}

/* One row of counts @f (offsetof a uint64_t of sim_result) for each lock. */
static void count_row(FILE *out, const char *label, size_t f,
		      const struct sim_result *r, int nr, int w)
{
	char cell[CELL_LEN];

	fprintf(out, "%-*s", LABEL_W, label);
	for (int i = 0; i < nr; i++) {
		fmt_count(field(&r[i], f), cell, sizeof(cell));
		fprintf(out, "%*s", w, cell);
	}
	fputc('\n', out);
}

/* After "ops": workload=rwlock's groups, lock=adaptive's spinning. */
static void glibc_rows(FILE *out, const struct sim_result *r, int nr, int w)
{
	int groups = 0, adaptive = 0;

	for (int i = 0; i < nr; i++) {
		groups |= r[i].groups_counted;
		adaptive |= !strcmp(r[i].lock, "adaptive");
	}
	if (groups) {
		count_row(out, "  read ops", offsetof(struct sim_result, ops_readers), r, nr, w);
		count_row(out, "  write ops", offsetof(struct sim_result, ops_writers), r, nr, w);
		count_row(out, "  readers at once (max)",
			  offsetof(struct sim_result, readers_max), r, nr, w);
	}
	if (adaptive) {
		count_row(out, "  adaptive: PAUSEs spun",
			  offsetof(struct sim_result, spins), r, nr, w);
		count_row(out, "  adaptive: spun, then slept",
			  offsetof(struct sim_result, spin_giveups), r, nr, w);
	}
}

/**
 * sim_report_text() - print the scenario, the seed and the results table.
 * @out: where to print.
 * @s:   the resolved scenario.
 * @r:   one result per lock, in column order.
 * @nr:  number of results.
 *
 * Only simulated figures are printed: the host fields of @r are ignored.
 */
void sim_report_text(FILE *out, const struct sim_scenario *s,
		     const struct sim_result *r, int nr)
{
	const struct table *t = is_spin(s) ? &spin_table : &mutex_table;
	char cell[CELL_LEN];
	int w = column_width(t, r, nr), i;
	size_t k;

	fprintf(out, "# resolved scenario, seed %" PRIu64 "\n", s->seed);
	sim_scenario_print(s, out);
	fputc('\n', out);
	if (nr <= 0) {
		fputs("no results\n", out);
		return;
	}

	fprintf(out, "%-*s", LABEL_W, "");
	for (i = 0; i < nr; i++)
		fprintf(out, "%*.*s", w, lock_len(&r[i]), r[i].lock);
	fputc('\n', out);
	for (i = 0; i < LABEL_W + w * nr; i++)
		fputc('-', out);
	fputc('\n', out);

	for (k = 0; k < t->nr; k++) {
		fprintf(out, "%-*s", LABEL_W, t->rows[k].label);
		for (i = 0; i < nr; i++) {
			fmt_cell(&t->rows[k], &r[i], cell, sizeof(cell));
			fprintf(out, "%*s", w, cell);
		}
		fputc('\n', out);
		if (k == 0)
			glibc_rows(out, r, nr, w);
	}
	if (is_spin(s))
		spin_published(out, s, r, nr);
	else
		sim__report_tp_rows(out, r, nr, LABEL_W, w);
	sim__report_to_published(out, s, r, nr);
	sim__report_uwords_text(out, r, nr);	/* workload=program only */
}

/* A JSON string: quote, backslash and control characters escaped; other
 * bytes (UTF-8 included) pass through. At most @max bytes of @str. */
void sim_json_string(FILE *f, const char *str, size_t max)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < max && str[i]; i++) {
		unsigned char c = (unsigned char)str[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c == '\t')
			fputs("\\t", f);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* Fixed six decimals, so equal doubles give equal bytes; JSON has no
 * NaN or infinity, so those become 0. */
static void json_real(FILE *f, double x)
{
	fprintf(f, "%.6f", isfinite(x) ? x : 0.0);
}

/* workload=spin: "ns_per_op" and "paths" (null when not counted). */
static void json_spin(FILE *f, const struct sim_result *r)
{
	fputs(",\"ns_per_op\":", f);
	json_real(f, r->ns_per_op);
	if (!r->paths_counted) {
		fputs(",\"paths\":null", f);
		return;
	}
	fprintf(f, ",\"paths\":{\"fast\":%" PRIu64 ",\"pending\":%" PRIu64
		",\"queue\":%" PRIu64 "}",
		r->path_fast, r->path_pending, r->path_queue);
}

static void json_result(FILE *f, const struct sim_result *r, int spin)
{
	fputs("{\"lock\":", f);
	sim_json_string(f, r->lock, sizeof(r->lock));
	fprintf(f, ",\"ops\":%" PRIu64 ",\"elapsed_ns\":%" PRIu64
		",\"thread_ns\":{\"min\":%" PRIu64 ",\"max\":%" PRIu64
		",\"avg\":%" PRIu64 "},\"sys_ns\":%" PRIu64
		",\"user_ns\":%" PRIu64,
		r->ops, r->elapsed_ns, r->thread_min_ns, r->thread_max_ns,
		r->thread_avg_ns, r->sys_ns, r->user_ns);
	fprintf(f, ",\"syscalls\":{\"lock\":%" PRIu64 ",\"unlock\":%" PRIu64
		"},\"eagain\":%" PRIu64 ",\"timeouts\":%" PRIu64
		",\"wakeups\":%" PRIu64,
		r->lock_syscalls, r->unlock_syscalls, r->eagain, r->timeouts,
		r->wakeups);
	fprintf(f, ",\"acquire_ns\":{\"p50\":%" PRIu64 ",\"p99\":%" PRIu64
		",\"max\":%" PRIu64 "},\"ops_per_thread\":{\"min\":%" PRIu64
		",\"max\":%" PRIu64 "},\"jain\":",
		r->acquire_p50_ns, r->acquire_p99_ns, r->acquire_max_ns,
		r->ops_thread_min, r->ops_thread_max);
	json_real(f, r->jain);
	fprintf(f, ",\"overtaken_max\":%" PRIu64, r->overtaken_max);
	if (spin)
		json_spin(f, r);
	sim__report_tp_json(f, r);
	if (r->groups_counted)
		fprintf(f, ",\"ops_by_group\":{\"readers\":%" PRIu64
			",\"writers\":%" PRIu64 "},\"readers_max\":%" PRIu64,
			r->ops_readers, r->ops_writers, r->readers_max);
	if (!strcmp(r->lock, "adaptive"))
		fprintf(f, ",\"adaptive\":{\"spins\":%" PRIu64
			",\"giveups\":%" PRIu64 "}", r->spins, r->spin_giveups);
	if (r->prog_threads) {	/* workload=program (sim/program/program.h) */
		fprintf(f, ",\"program\":{\"exited\":%s,\"exit_status\":%d"
			",\"threads\":%d,\"rt_requested\":%d",
			r->prog_exited ? "true" : "false", r->prog_status,
			r->prog_threads, r->prog_rt);
		sim__report_uwords_json(f, r);
		fputs("}", f);
	}
	fprintf(f, ",\"host\":{\"hooks\":%" PRIu64 ",\"switches\":%" PRIu64
		",\"seconds\":", r->host_hooks, r->host_switches);
	json_real(f, r->host_seconds);
	fputs("}}", f);
}

struct json_doc {
	const struct sim_scenario *s;
	const struct sim_result *r;
	int nr;
};

static int json_fill(FILE *f, void *arg)
{
	const struct json_doc *d = arg;

	fputs("{\"scenario\":", f);
	sim_scenario_json(d->s, f);
	fprintf(f, ",\n\"seed\":%" PRIu64 ",\n\"results\":[", d->s->seed);
	for (int i = 0; i < d->nr; i++) {
		fputs(i ? ",\n" : "\n", f);
		json_result(f, &d->r[i], is_spin(d->s));
	}
	fputs("\n]}\n", f);
	return ferror(f) ? -1 : 0;
}

/**
 * sim_report_json() - write the JSON results document to @path.
 * @path: the file to write (sim/host/outfile.h: whole, or not at all).
 * @s:    the resolved scenario.
 * @r:    one result per lock.
 * @nr:   number of results.
 *
 * Return: 0; -1 with errno set and one line on stderr if @path could not
 * be created, written or renamed into place (it is left as it was).
 */
int sim_report_json(const char *path, const struct sim_scenario *s,
		    const struct sim_result *r, int nr)
{
	struct json_doc d = { .s = s, .r = r, .nr = nr };

	return sim_outfile_write(path, json_fill, &d);
}
