/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/waitfor.c - a deadlock's wait-for graph (the contract is in
 * sim/report/waitfor.h).
 *
 * Stage: trace/report.  Called by sim/report/failure.c; reads the
 * machine's task table, sim/trace/uword.h and sim/report/symbols.h.
 *
 * Each sleeping task with a futex word has one edge: to the word's
 * holder.  Following the edges from each task in creation order, a walk
 * that comes back to a task on it has found a cycle; it is printed from
 * its task created first, so the text does not depend on where the walk
 * began.
 */
#include <inttypes.h>
#include <linux/futex.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sim/machine/machine.h"
#include "sim/report/symbols.h"
#include "sim/report/waitfor.h"
#include "sim/trace/uword.h"

static int (*owner_fn)(const void *word);

void sim_waitfor_set_owner(int (*fn)(const void *word))
{
	owner_fn = fn;
}

static int is_pi(unsigned int op)
{
	switch (op & FUTEX_CMD_MASK) {
	case FUTEX_LOCK_PI:
	case FUTEX_LOCK_PI2:
	case FUTEX_TRYLOCK_PI:
		return 1;
	}
	return 0;
}

/* The task index @t waits for, or -1. */
static int waits_for(int t)
{
	const struct sim_task *k = sim.tasks[t];
	int tid = 0;

	if (!k || k->state != SIM_TASK_SLEEPING || !k->futex_uaddr)
		return -1;
	if (is_pi(k->futex_op))
		tid = (int)(*(const volatile uint32_t *)k->futex_uaddr &
			    FUTEX_TID_MASK);
	if (!tid)
		tid = sim_uword_holder(k->futex_uaddr);
	if (!tid && owner_fn)
		tid = owner_fn(k->futex_uaddr);
	for (int i = 0; tid && i < sim.nr_tasks && i < SIM_MAX_TASKS; i++)
		if (sim.tasks[i] && sim.tasks[i]->tid == tid)
			return i;
	return -1;
}

struct out {
	char *p;
	size_t left;
};

static void put(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->p, o->left, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= o->left)
		n = o->left ? (int)o->left - 1 : 0;
	o->p += n;
	o->left -= (size_t)n;
}

static const char *word_name(int t, char *buf, size_t len)
{
	return sim_sym_name((uintptr_t)sim.tasks[t]->futex_uaddr, buf, len);
}

/* The cycle through @start (on it), from its task created first. */
static void put_cycle(struct out *o, const int *next, int start)
{
	char name[160];
	int first = start, t;

	for (t = next[start]; t != start; t = next[t])
		if (t < first)
			first = t;
	put(o, "wait-for cycle: %s", sim.tasks[first]->name);
	t = first;
	do {
		put(o, " -> %s (held by %s) -> %s", word_name(t, name, sizeof(name)),
		    sim.tasks[next[t]]->name, sim.tasks[next[t]]->name);
		t = next[t];
	} while (t != first);
	put(o, "\n");
}

/*
 * A sleeper in FUTEX_WAIT, and nothing is left to wake it (every task is
 * blocked).  If its word no longer holds the value it slept on and no
 * FUTEX_WAKE on the word woke anyone since its call, the change came
 * with no wakeup: it was lost.  If some woke others, a wakeup went to
 * another waiter (a condition variable signalled once for two kinds of
 * waiters): the report says so rather than call it lost.  If the word
 * is unchanged and nobody holds it (@held 0: a condition variable's or
 * a barrier's word, or a lock left free), the wakeup it waits for came
 * before it slept or never came: the report says which calls woke
 * others since, or that none woke anyone.
 */
static void lost_note(struct out *o, const struct sim_task *t, int held)
{
	unsigned int cmd = t->futex_op & FUTEX_CMD_MASK;
	uint32_t now = *(const volatile uint32_t *)t->futex_uaddr;
	uint64_t others = sim_uword_woken(t->futex_uaddr) - t->futex_woken;

	if (cmd != FUTEX_WAIT && cmd != FUTEX_WAIT_BITSET)
		return;
	if (now == t->futex_val) {
		if (held)
			return;
		if (!others)
			put(o, "; unchanged since it slept, and no FUTEX_WAKE since woke a waiter: its wakeup came before it slept, or never came");
		else
			put(o, "; unchanged since it slept, and the FUTEX_WAKE calls since its wait woke %" PRIu64 " other waiter%s, not it",
			    others, others == 1 ? "" : "s");
		return;
	}
	if (!others)
		put(o, "; it slept on %u and the word reads %u: its wakeup was lost",
		    t->futex_val, now);
	else
		put(o, "; it slept on %u and the word reads %u, but the FUTEX_WAKE calls since its wait woke %" PRIu64 " other waiter%s, not it",
		    t->futex_val, now, others, others == 1 ? "" : "s");
}

const char *sim_waitfor_text(char *buf, size_t len)
{
	int n = sim.nr_tasks < SIM_MAX_TASKS ? sim.nr_tasks : SIM_MAX_TASKS;
	static int next[SIM_MAX_TASKS], mark[SIM_MAX_TASKS];
	struct out o = { buf, len };
	char name[160];
	int any = 0;

	buf[0] = '\0';
	if (!owner_fn)
		return buf;	/* not a program's run: its words have no names */
	for (int t = 0; t < n; t++) {
		next[t] = waits_for(t);
		mark[t] = 0;
		if (!sim.tasks[t] || sim.tasks[t]->state != SIM_TASK_SLEEPING ||
		    !sim.tasks[t]->futex_uaddr)
			continue;
		if (!any++)
			put(&o, "wait-for:\n");
		put(&o, "    %s (TID %d) waits on %s, ", sim.tasks[t]->name,
		    sim.tasks[t]->tid, word_name(t, name, sizeof(name)));
		if (next[t] >= 0)
			put(&o, "held by %s", sim.tasks[next[t]]->name);
		else if (sim_uword_is(sim.tasks[t]->futex_uaddr))
			put(&o, "held by nobody (the word is %u)",
			    *(const volatile uint32_t *)sim.tasks[t]->futex_uaddr);
		else
			put(&o, "holder unknown");
		lost_note(&o, sim.tasks[t], next[t] >= 0);
		put(&o, "\n");
	}
	if (!any)
		return buf;
	for (int s = 0; s < n; s++) {
		int t = s;

		/* mark: s + 1 while on the walk from s */
		while (t >= 0 && !mark[t]) {
			mark[t] = s + 1;
			t = next[t];
		}
		if (t >= 0 && mark[t] == s + 1) {
			put_cycle(&o, next, t);
			return buf;
		}
	}
	put(&o, "wait-for cycle: none found\n");
	return buf;
}
