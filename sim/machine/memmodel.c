/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/memmodel.c - x86-TSO store buffers for an instrumented
 * program's stores (see sim/machine/memmodel.h).
 *
 * Stage: machine.  Memory holds what every CPU sees, with the executing
 * CPU's buffered stores laid over it; the machine calls sim_tso_switch()
 * whenever another CPU starts executing.  Each entry keeps the bytes it
 * stored (val, read from memory once the store is done: the compiled
 * code performs it after its hook) and the bytes it covered when it was
 * laid on (saved): taking the overlay off writes the saved bytes back,
 * newest first; laying it on saves and writes, oldest first.  A store
 * that drains while its CPU executes is already in memory; one that
 * drains while another CPU executes goes under that CPU's overlay: into
 * the saved bytes of its oldest entry over the same byte, or memory.
 */
#include <string.h>

#include "sim/explore/explore.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/replay/replay.h"

struct sb_entry {
	uintptr_t addr;
	uint64_t visible_ps;		/* timed mode: drains by then	*/
	uint8_t size;
	uint8_t captured;		/* val holds the stored bytes	*/
	uint8_t val[16];
	uint8_t saved[16];
};

static struct sb {
	struct sb_entry e[SIM_SB_ENTRIES];	/* oldest first		*/
	int n;
} sb[SIM_MAX_CPUS];

/* Explore: at each hook a buffered store drains with odds of one to this
 * per CPU with stores. */
#define SB_STAY_ODDS	8

int sim__tso_on;
static int nr_busy;			/* CPUs with a store buffered	*/
static struct sim_cpu *on;		/* whose overlay memory shows	*/

void sim_memory_set(int tso)
{
	sim__tso_on = tso;
}

void sim_tso_reset(void)
{
	for (int i = 0; i < SIM_MAX_CPUS; i++)
		sb[i].n = 0;
	nr_busy = 0;
	on = NULL;
	sim__tso_on = 0;
}

/* The stores of @b done since their entries were made: their bytes. */
static void capture(struct sb *b)
{
	for (int i = b->n - 1; i >= 0 && !b->e[i].captured; i--) {
		memcpy(b->e[i].val, (const void *)b->e[i].addr, b->e[i].size);
		b->e[i].captured = 1;
	}
}

static void pop_oldest(struct sb *b)
{
	memmove(&b->e[0], &b->e[1], (size_t)(b->n - 1) * sizeof(b->e[0]));
	if (!--b->n)
		nr_busy--;
}

/* @e, of a CPU that does not execute, becomes visible to all. */
static void global_write(const struct sb_entry *e)
{
	struct sb *o = on ? &sb[on->k.cpu] : NULL;

	for (unsigned int j = 0; j < e->size; j++) {
		uintptr_t a = e->addr + j;
		int i = 0;

		for (; o && i < o->n; i++)
			if (a >= o->e[i].addr && a < o->e[i].addr + o->e[i].size)
				break;
		if (o && i < o->n)
			o->e[i].saved[a - o->e[i].addr] = e->val[j];
		else
			*(uint8_t *)a = e->val[j];
	}
}

static void drain_oldest(struct sim_cpu *c)
{
	struct sb *b = &sb[c->k.cpu];

	if (c == on)
		capture(b);	/* memory shows it already */
	else
		global_write(&b->e[0]);
	pop_oldest(b);
}

void sim_tso_store(struct sim_cpu *c, const volatile void *p, unsigned int size)
{
	struct sb *b = &sb[c->k.cpu];
	struct sb_entry *e;
	uint64_t lat = sim.preset->access_ps[SIM_STORE];

	capture(b);
	if (b->n == SIM_SB_ENTRIES)
		drain_oldest(c);
	if (size > sizeof(e->val))
		size = sizeof(e->val);
	e = &b->e[b->n];
	if (!b->n++)
		nr_busy++;
	e->addr = (uintptr_t)p;
	e->size = (uint8_t)size;
	e->captured = 0;
	memcpy(e->saved, (const void *)p, size);
	e->visible_ps = c->now_ps + (lat > 1000 ? lat : 1000);
}

void sim_tso_drain(struct sim_cpu *c)
{
	struct sb *b = &sb[c->k.cpu];

	while (b->n)
		drain_oldest(c);
}

void sim_tso_hook(struct sim_cpu *c)
{
	if (!nr_busy)
		return;
	if (sim_explore_on) {
		/* the oldest store of the k-th CPU with one, or none (k past
		 * them: SB_STAY_ODDS to one, so stores stay for some hooks) */
		uint64_t k = sim_draw(SIM_DEC_DRAIN, (uint64_t)nr_busy + SB_STAY_ODDS);

		for (int i = 0; k < (uint64_t)nr_busy && i < sim.nr_cpus; i++)
			if (sb[i].n && !k--)
				drain_oldest(&sim.cpus[i]);
		return;
	}
	for (int i = 0; i < sim.nr_cpus && nr_busy; i++) {
		struct sb *b = &sb[i];

		while (b->n && b->e[0].visible_ps <= c->now_ps)
			drain_oldest(&sim.cpus[i]);
	}
}

void sim_tso_switch(struct sim_cpu *to)
{
	if (to == on)
		return;
	if (on) {
		struct sb *b = &sb[on->k.cpu];

		capture(b);
		for (int i = b->n - 1; i >= 0; i--)
			memcpy((void *)b->e[i].addr, b->e[i].saved, b->e[i].size);
	}
	on = to;
	if (to) {
		struct sb *b = &sb[to->k.cpu];

		for (int i = 0; i < b->n; i++) {
			memcpy(b->e[i].saved, (const void *)b->e[i].addr, b->e[i].size);
			memcpy((void *)b->e[i].addr, b->e[i].val, b->e[i].size);
		}
	}
}

int sim_tso_entry(int cpu, int i, uint64_t *addr, unsigned int *size,
		  uint64_t *val)
{
	struct sb *b;

	if (cpu < 0 || cpu >= SIM_MAX_CPUS)
		return 0;
	b = &sb[cpu];
	if (i < 0 || i >= b->n)
		return 0;
	if (on == &sim.cpus[cpu])
		capture(b);
	*addr = b->e[i].addr;
	*size = b->e[i].size;
	*val = 0;
	if (b->e[i].size <= 8)
		memcpy(val, b->e[i].val, b->e[i].size);
	return 1;
}
