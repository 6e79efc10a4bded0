/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/report_uword.c - the "futex words" section of a program's
 * report: per futex word, its acquisitions (by the rule of
 * sim/trace/uword.h), FUTEX_WAIT calls and EAGAIN results, FUTEX_WAKE
 * calls and the tasks they woke, the tasks that acquired it with their
 * fewest and most acquisitions and Jain's index, and the acquire latency.
 *
 *   futex words (lock ww):
 *     mtx.word (lostwake.c:50): raw
 *       acquisitions 60 by 3 tasks (min 18, max 22, Jain's index 0.9934)
 *       FUTEX_WAIT 14 (EAGAIN 9), FUTEX_WAKE 20 (woke 5)
 *       acquire latency p50 120 ns, p99 5.10 us, max 6.03 us
 *
 * "raw": a word of the program's own atomics (a hand-written lock);
 * "pthread": a pthread mutex of the layer (workloads/libsim/mutex.c);
 * neither: a word only futex(2) saw (a condition variable, a join).
 *
 * Stage: trace/report, last in the flow.  Called by sim/report/report.c;
 * uses its number formats (sim/report/report_tp.h).
 */
#include <inttypes.h>
#include <string.h>

#include "sim/report/report.h"
#include "sim/report/report_tp.h"
#include "sim/report/report_uword.h"

static void one_word(FILE *out, const struct sim_result_uword *u)
{
	char a[32], b[32], c[32];

	fprintf(out, "  %s: %s\n", u->name,
		u->raw ? "raw" : u->acquires ? "pthread" : "futex(2) only");
	if (u->acquires) {
		sim__report_count(u->acquires, a, sizeof(a));
		fprintf(out, "    acquisitions %s by %d task%s (min %" PRIu64
			", max %" PRIu64 ", Jain's index %.4f)\n", a, u->tasks,
			u->tasks == 1 ? "" : "s", u->ops_task_min,
			u->ops_task_max, u->jain);
	}
	fprintf(out, "    FUTEX_WAIT %" PRIu64 " (EAGAIN %" PRIu64 "), FUTEX_WAKE %"
		PRIu64 " (woke %" PRIu64 ")\n", u->waits, u->eagain,
		u->wake_calls, u->woken);
	if (u->raw && u->acquires) {
		sim__report_time(u->acquire_p50_ns, a, sizeof(a));
		sim__report_time(u->acquire_p99_ns, b, sizeof(b));
		sim__report_time(u->acquire_max_ns, c, sizeof(c));
		fprintf(out, "    acquire latency p50 %s, p99 %s, max %s\n",
			a, b, c);
	}
}

void sim__report_uwords_text(FILE *out, const struct sim_result *r, int nr)
{
	for (int i = 0; i < nr; i++) {
		if (!r[i].prog_nr_uwords)
			continue;
		fprintf(out, "\nfutex words (lock %.*s):\n",
			(int)strnlen(r[i].lock, sizeof(r[i].lock)), r[i].lock);
		for (int k = 0; k < r[i].prog_nr_uwords; k++)
			one_word(out, &r[i].prog_uwords[k]);
		if (r[i].prog_uwords_more)
			fprintf(out, "  (%d more not listed)\n",
				r[i].prog_uwords_more);
	}
}

void sim__report_uwords_json(FILE *f, const struct sim_result *r)
{
	if (!r->prog_nr_uwords)
		return;
	fputs(",\"futex_words\":[", f);
	for (int k = 0; k < r->prog_nr_uwords; k++) {
		const struct sim_result_uword *u = &r->prog_uwords[k];

		fputs(k ? ",{\"name\":" : "{\"name\":", f);
		sim_json_string(f, u->name, sizeof(u->name));
		fprintf(f, ",\"kind\":\"%s\",\"acquisitions\":%" PRIu64
			",\"tasks\":%d,\"ops_per_task\":{\"min\":%" PRIu64
			",\"max\":%" PRIu64 "},\"jain\":%.6f,\"waits\":%" PRIu64
			",\"eagain\":%" PRIu64 ",\"wakes\":%" PRIu64
			",\"woken\":%" PRIu64 ",\"acquire_ns\":{\"p50\":%" PRIu64
			",\"p99\":%" PRIu64 ",\"max\":%" PRIu64 "}}",
			u->raw ? "raw" : u->acquires ? "pthread" : "futex",
			u->acquires, u->tasks, u->ops_task_min, u->ops_task_max,
			u->jain, u->waits, u->eagain, u->wake_calls, u->woken,
			u->acquire_p50_ns, u->acquire_p99_ns, u->acquire_max_ns);
	}
	fputs("]", f);
	if (r->prog_uwords_more)
		fprintf(f, ",\"futex_words_more\":%d", r->prog_uwords_more);
}
