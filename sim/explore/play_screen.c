/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/play_screen.c - the state screen of `futexsim play` (see
 * sim/explore/play.h): what the player sees before each question.
 *
 * Stage: the driver of the whole flow, beside sim/explore/play.c, which
 * calls it from its chooser, in the middle of a run.  Reads the machine
 * (CPUs, their clocks, tasks, the futex(2) call each is in and its last
 * one), the spin rule's verdict (sim_explore_spinning()), the lock word
 * the oracles watch (sim_oracle_watched()), and the narration's last
 * lines (sim_trace_last_events(): sim/trace/trace_narrate.c through the
 * trace stream).  It only reads: no hook, no charge, no PRNG draw, so
 * what is shown never changes what is simulated.  Every address shown
 * is a fixed one (the arena's), so the screens of a game are a function
 * of its input.
 */
#include <inttypes.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/explore/explore.h"
#include "sim/explore/explore_run.h"
#include "sim/explore/oracle.h"
#include "sim/explore/play.h"
#include "sim/machine/machine.h"
#include "sim/trace/trace.h"
#include "sim/trace/trace_writer.h"	/* futex op and errno names */

#define EVENTS_SHOWN	8	/* narration lines on a screen		*/

_Static_assert(SIM_PLAY_LINE >= SIM_NARRATE_LINE,
	       "a narration line fits in struct sim_play_view");

/* @ps as the narration writes times: milliseconds, 6 decimals. */
static const char *ms(uint64_t ps, char *buf, size_t len)
{
	uint64_t ns = ps / 1000;

	snprintf(buf, len, "%" PRIu64 ".%06" PRIu64 " ms", ns / 1000000,
		 ns % 1000000);
	return buf;
}

static const char *op_name(unsigned int op, char *buf, size_t len)
{
	return sim__trace_futex_op(op & FUTEX_CMD_MASK, buf, len);
}

/* A futex word by its name in a program (its variable), else 0x...:
 * as the narration and the trace name it. */
static const char *word_name(const void *w, char *buf, size_t len)
{
	return sim__trace_addr_name((uint64_t)(uintptr_t)w, buf, len);
}

/* What CPU @c's task is doing now. */
static void cpu_doing(const struct sim_cpu *c, char *buf, size_t len)
{
	const struct sim_task *t = c->curr;
	char op[48], word[120];

	if (!t)
		snprintf(buf, len, "idle");
	else if (c->parked)
		snprintf(buf, len, "%s: spin-waits for a write to a line it watches", t->name);
	else if (sim_explore_spinning(c->k.cpu))
		snprintf(buf, len, "%s: spinning (runs only when nothing else can)", t->name);
	else if (t->futex_uaddr)
		snprintf(buf, len, "%s: in %s on %s", t->name,
			 op_name(t->futex_op, op, sizeof(op)),
			 word_name(t->futex_uaddr, word, sizeof(word)));
	else if (t->in_kernel)
		snprintf(buf, len, "%s: in the kernel", t->name);
	else
		snprintf(buf, len, "%s: in user space", t->name);
}

static const char *state_name(const struct sim_task *t)
{
	switch (t->state) {
	case SIM_TASK_NEW:
		return "not started";
	case SIM_TASK_RUNNING:
		return "running";
	case SIM_TASK_QUEUED:
		return "runnable, queued";
	case SIM_TASK_SLEEPING:
		return "asleep";
	default:
		return "exited";
	}
}

static void show_task(const struct sim_task *t)
{
	char op[48], in[200] = "", last[120] = "", word[120];
	const char *e;

	if (t->futex_uaddr && t->state != SIM_TASK_RUNNING)
		snprintf(in, sizeof(in), " in %s on %s",
			 op_name(t->futex_op, op, sizeof(op)),
			 word_name(t->futex_uaddr, word, sizeof(word)));
	if (t->futex_called) {
		e = t->futex_last_ret < 0 ? sim__trace_errno(t->futex_last_ret) : NULL;
		if (e)
			snprintf(last, sizeof(last), "; last futex call %s -> %s",
				 op_name(t->futex_last_op, op, sizeof(op)), e);
		else
			snprintf(last, sizeof(last), "; last futex call %s -> %ld",
				 op_name(t->futex_last_op, op, sizeof(op)),
				 t->futex_last_ret);
	}
	printf("  %-10s tid %d  cpu %d  %s%s%s\n", t->name, t->tid, t->cpu,
	       state_name(t), in, last);
}

/* The futex words: the lock's, then each other word a task is in. */
static void show_words(void)
{
	const void *seen[SIM_MAX_TASKS + 1];
	const void *w = sim_oracle_watched();
	char word[120];
	int n = 0;

	printf("futex words:");
	if (w) {
		seen[n++] = w;
		printf(" lock %s = %u", word_name(w, word, sizeof(word)),
		       *(const volatile uint32_t *)w);
	}
	for (int i = 0; i < sim.nr_tasks; i++) {
		const void *u = sim.tasks[i]->futex_uaddr;
		int dup = 0;

		for (int j = 0; u && j < n; j++)
			dup |= seen[j] == u;
		if (!u || dup)
			continue;
		seen[n++] = u;
		printf("%s %s = %u", n > 1 ? "," : "",
		       word_name(u, word, sizeof(word)),
		       *(const volatile uint32_t *)u);
	}
	printf("%s\n", n ? "" : " none in use");
}

struct events {
	char line[SIM_NARRATE_LAST][SIM_NARRATE_LINE];
	int n;
};

static void take_event(const char *line, void *arg)
{
	struct events *ev = arg;

	snprintf(ev->line[ev->n++ % SIM_NARRATE_LAST], SIM_NARRATE_LINE, "%s", line);
}

/* The last narration lines; those told since the last screen marked. */
static void show_events(struct sim_play_view *v)
{
	struct events *ev = sim__explore_alloc(sizeof(*ev));
	int from, fresh;

	sim_trace_last_events(take_event, ev);
	from = ev->n > EVENTS_SHOWN ? ev->n - EVENTS_SHOWN : 0;
	fresh = 0;
	for (int i = 0; i < ev->n; i++)
		if (!strcmp(ev->line[i], v->last_shown))
			fresh = i + 1;
	printf("last events (* new):\n");
	if (!ev->n)
		printf("  (none yet)\n");
	for (int i = from; i < ev->n; i++)
		printf("%s %s\n", i >= fresh ? "*" : " ", ev->line[i]);
	if (ev->n)
		snprintf(v->last_shown, sizeof(v->last_shown), "%s",
			 ev->line[ev->n - 1]);
	free(ev);
}

void sim__play_screen(struct sim_play_view *v, struct sim_cpu *const *cand,
		      int n, bool cur)
{
	const struct sim_explore_log *l = sim_explore_log();
	char t[32], what[200];

	if (v->tty)
		printf("\033[H\033[2J");
	/* what is played: a program, or a scenario's threads */
	if (v->program)
		snprintf(what, sizeof(what), "program %s, lock %s", v->program,
			 v->lock);
	else
		snprintf(what, sizeof(what), "%s, lock %s, %d threads",
			 v->scenario, v->lock, v->threads);
	printf("== futexsim play: %s, seed %" PRIu64
	       ", goal %s; decision %d, %d switches so far ==\n",
	       what, v->seed, v->goal, l->len + 1, l->preemptions);
	for (int i = 0; i < sim.nr_cpus; i++) {
		cpu_doing(&sim.cpus[i], what, sizeof(what));
		printf("cpu %d  %s  %s\n", i, ms(sim.cpus[i].now_ps, t, sizeof(t)),
		       what);
	}
	printf("tasks:\n");
	for (int i = 0; i < sim.nr_tasks; i++)
		show_task(sim.tasks[i]);
	show_words();
	show_events(v);
	printf("choices (which CPU runs next):\n");
	for (int i = 0; i < n; i++) {
		cpu_doing(cand[i], what, sizeof(what));
		printf("  %d  cpu %d  %s%s\n", i, cand[i]->k.cpu, what,
		       !cur ? "" : i ? "  (switch)" : "  (goes on)");
	}
}

/* The last lines told, after the run ended. */
void sim__play_end_events(void)
{
	struct events *ev = sim__explore_alloc(sizeof(*ev));
	int from;

	sim_trace_last_events(take_event, ev);
	from = ev->n > EVENTS_SHOWN ? ev->n - EVENTS_SHOWN : 0;
	printf("last events:\n");
	for (int i = from; i < ev->n; i++)
		printf("  %s\n", ev->line[i]);
	free(ev);
}
