/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/report_tp.c - the TO/TP-futex part of the report: the rows only
 * lock=tp has, the published 2016 table beside the simulated one, and
 * the "tp" object of the JSON.
 *
 * Stage: trace/report, last in the flow.  Called by sim/report/report.c
 * (sim_report_text(), the JSON writer); uses its number formats.
 *
 * The published run (LKML, "[RFC PATCH v2 3/5] futex: Throughput-optimized
 * (TO) futexes", Waiman Long, September 2016): 10,000,000 lock/unlock operations split over 256 threads on a
 * 4-socket, 72-core, 144-thread Haswell-EX, 5 PAUSEs in the critical
 * section.  Its "lock count" is the futex lock syscalls (FUTEX_WAIT calls
 * for wait-wake, EAGAIN returns included), its "unlock
 * count" the unlock syscalls (FUTEX_WAKE for wait-wake).  The simulated
 * rows are the same figures of this run: thread times from each thread's
 * first lock to its last unlock, sys time summed over the threads.
 */
#include <inttypes.h>
#include <string.h>

#include "sim/report/report_tp.h"

#define PUB_COL_W	14

/* The published figures, one column per lock of the table. */
static const struct to_pub {
	const char *lock;		/* the lock= that plays it	*/
	const char *title;		/* the published column		*/
	uint64_t max_ns, min_ns, avg_ns, sys_ns;
	uint64_t lock_calls, unlock_calls;
} to_pub[] = {
	{ "ww", "wait-wake", 3490000000ULL, 3240000000ULL, 3410000000ULL,
	  442400000000ULL, 3090294, 3268896 },
	{ "pi", "PI", 50910000000ULL, 50840000000ULL, 50900000000ULL,
	  55730000000ULL, 9999813, 9999814 },
	{ "tp", "TO", 2650000000ULL, 70000000ULL, 1840000000ULL,
	  152900000000ULL, 698318, 134 },
};

/* lock=tp and its timed variants (tp-timed, tp-timed-busted) */
int sim__report_is_tp(const struct sim_result *r)
{
	return !strncmp(r->lock, "tp", sizeof(r->lock)) ||
	       !strncmp(r->lock, "tp-timed", 8);
}

/* One TP row: @what of each tp result as a count and % of its ops. */
static void tp_row(FILE *out, const char *label, const struct sim_result *r,
		   int nr, size_t off, int pct, int label_w, int col_w)
{
	char cell[64];
	uint64_t v;
	size_t n;

	fprintf(out, "%-*s", label_w, label);
	for (int i = 0; i < nr; i++) {
		if (!sim__report_is_tp(&r[i])) {
			fprintf(out, "%*s", col_w, "-");
			continue;
		}
		memcpy(&v, (const char *)&r[i] + off, sizeof(v));
		sim__report_count(v, cell, sizeof(cell));
		n = strlen(cell);
		if (pct && r[i].ops)
			snprintf(cell + n, sizeof(cell) - n, " (%.1f%%)",
				 100.0 * (double)v / (double)r[i].ops);
		fprintf(out, "%*s", col_w, cell);
	}
	fputc('\n', out);
}

void sim__report_tp_rows(FILE *out, const struct sim_result *r, int nr,
			 int label_w, int col_w)
{
	int any = 0;

	for (int i = 0; i < nr; i++)
		any |= sim__report_is_tp(&r[i]);
	if (!any)
		return;
	tp_row(out, "TP kernel steals (% ops)", r, nr,
	       offsetof(struct sim_result, tp_steals), 1, label_w, col_w);
	tp_row(out, "TP top waiter (% ops)", r, nr,
	       offsetof(struct sim_result, tp_top_waiter), 1, label_w, col_w);
	tp_row(out, "TP handoffs (% ops)", r, nr,
	       offsetof(struct sim_result, tp_handoffs), 1, label_w, col_w);
	tp_row(out, "TP sleeps", r, nr,
	       offsetof(struct sim_result, tp_sleeps), 0, label_w, col_w);
}

/* Is @s the published run? */
static int to_published_run(const struct sim_scenario *s)
{
	return !strcmp(s->workload, "mutex") &&
	       !strcmp(s->machine, "haswell-ex-4s") && s->threads == 256 &&
	       s->ops == 10000000 && !s->duration_ps &&
	       s->cs.kind == SIM_WORK_PAUSE && s->cs.n == 5;
}

static const struct to_pub *pub_of(const struct sim_result *r)
{
	for (size_t i = 0; i < sizeof(to_pub) / sizeof(to_pub[0]); i++)
		if (!strncmp(r->lock, to_pub[i].lock, sizeof(r->lock)))
			return &to_pub[i];
	return NULL;
}

/* One row: for each result with a published column, both figures. */
static void pub_row(FILE *out, const char *label, const struct sim_result *r,
		    int nr, int time, size_t pub_off, size_t sim_off)
{
	char a[40], b[40];
	uint64_t pv, sv;

	fprintf(out, "%-22s", label);
	for (int i = 0; i < nr; i++) {
		const struct to_pub *p = pub_of(&r[i]);

		if (!p)
			continue;
		memcpy(&pv, (const char *)p + pub_off, sizeof(pv));
		memcpy(&sv, (const char *)&r[i] + sim_off, sizeof(sv));
		if (time) {
			sim__report_time(pv, a, sizeof(a));
			sim__report_time(sv, b, sizeof(b));
		} else {
			sim__report_count(pv, a, sizeof(a));
			sim__report_count(sv, b, sizeof(b));
		}
		fprintf(out, "%*s%*s", PUB_COL_W, a, PUB_COL_W, b);
	}
	fputc('\n', out);
}

#define P(x)	offsetof(struct to_pub, x)
#define S(x)	offsetof(struct sim_result, x)

void sim__report_to_published(FILE *out, const struct sim_scenario *s,
			      const struct sim_result *r, int nr)
{
	char head[64];
	int any = 0;

	if (!to_published_run(s))
		return;
	for (int i = 0; i < nr; i++)
		any |= pub_of(&r[i]) != NULL;
	if (!any)
		return;
	fputs("\nThe 2016 TO-futex table (docs/studies/to-futex-2016.md): 10M ops, 256 threads,\n"
	      "4-socket Haswell-EX, 5 PAUSEs; published beside simulated\n", out);
	fprintf(out, "%-22s", "");
	for (int i = 0; i < nr; i++) {
		const struct to_pub *p = pub_of(&r[i]);

		if (!p)
			continue;
		snprintf(head, sizeof(head), "%s pub.", p->title);
		fprintf(out, "%*s", PUB_COL_W, head);
		snprintf(head, sizeof(head), "%s sim.", p->lock);
		fprintf(out, "%*s", PUB_COL_W, head);
	}
	fputc('\n', out);
	pub_row(out, "max time", r, nr, 1, P(max_ns), S(thread_max_ns));
	pub_row(out, "min time", r, nr, 1, P(min_ns), S(thread_min_ns));
	pub_row(out, "average time", r, nr, 1, P(avg_ns), S(thread_avg_ns));
	pub_row(out, "sys time", r, nr, 1, P(sys_ns), S(sys_ns));
	pub_row(out, "lock count", r, nr, 0, P(lock_calls), S(lock_syscalls));
	pub_row(out, "unlock count", r, nr, 0, P(unlock_calls),
		S(unlock_syscalls));
}

#undef P
#undef S

void sim__report_tp_json(FILE *f, const struct sim_result *r)
{
	if (!sim__report_is_tp(r))
		return;
	fprintf(f, ",\"tp\":{\"steals\":%" PRIu64 ",\"top_waiter\":%" PRIu64
		",\"handoffs\":%" PRIu64 ",\"sleeps\":%" PRIu64 "}",
		r->tp_steals, r->tp_top_waiter, r->tp_handoffs, r->tp_sleeps);
}
