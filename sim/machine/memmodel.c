/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/memmodel.c - the store buffers of memory=tso and
 * memory=arm64 for an instrumented program's stores (see
 * sim/machine/memmodel.h).
 *
 * Stage: machine.  Memory holds what every CPU sees, with the executing
 * CPU's buffered stores laid over it; the machine calls sim_sb_switch()
 * whenever another CPU starts executing.  Each entry keeps the bytes it
 * stored (val, read from memory once the store is done: the compiled
 * code performs it after its hook) and the bytes it covered when it was
 * laid on (saved): taking the overlay off writes the saved bytes back,
 * newest first; laying it on saves and writes, oldest first.  A store
 * that drains while its CPU executes is already in memory; one that
 * drains while another CPU executes goes under that CPU's overlay: into
 * the saved bytes of its oldest entry over the same byte, or memory.  A
 * byte that no longer holds its newest entry's value when the overlay
 * comes off was written meanwhile by code that does not buffer: that
 * write is visible to all, and the entries over the byte take its value.
 */
#include <stdio.h>
#include <string.h>

#include "sim/explore/explore.h"
#include "sim/host/coro.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/replay/replay.h"
#include "sim/report/failure.h"
#include "sim/explore/promise.h"

struct sb_entry {
	uintptr_t addr;
	uint64_t visible_ps;		/* timed mode: drains by then	*/
	uint8_t size;
	uint8_t captured;		/* val holds the stored bytes	*/
	uint8_t release;		/* arm64 STLR			*/
	uint8_t val[16];
	uint8_t saved[16];
};

static struct sb {
	struct sb_entry e[SIM_SB_ENTRIES];	/* oldest first		*/
	int n;
} sb[SIM_MAX_CPUS];

/*
 * arm64: the bytes of a CPU's view that lag behind memory.  When a
 * buffered store of one CPU becomes visible, every other CPU running a
 * task keeps reading the bytes as they were (old) until its view of
 * them is refreshed: at a hook once the store is SIM_STALE_LAG_PS old
 * (timed) or by a draw (explore), at a barrier or an acquire (all of
 * them), or when the CPU stores to or makes an RMW on the bytes.  While
 * its CPU executes an entry is laid on memory (under the store buffer's
 * overlay, over bytes the buffer does not cover) and saved holds what
 * all CPUs see.
 */
struct stale_entry {
	uintptr_t addr;
	uint64_t fresh_ps;		/* timed mode: refreshed by then */
	uint8_t size;
	uint8_t pinned;			/* a promise's: see promise[]	*/
	int16_t by;			/* the CPU whose store it lags	*/
	uint8_t old[16];
	uint8_t saved[16];
};

static struct stale {
	struct stale_entry e[SIM_SB_ENTRIES];	/* oldest first		*/
	int n;
} stale[SIM_MAX_CPUS];

/* Explore: at each hook a buffered store drains with odds of one to
 * SB_STAY_ODDS per store that may drain, and the executing CPU's view of
 * one store is refreshed with odds of one to SB_LAG_ODDS per store. */
#define SB_STAY_ODDS	8
#define SB_LAG_ODDS	4

int sim__sb_on;
int sim__sb_arm64;
int sim__sb_keep;
uint64_t sim__sb_cost_ps;
static int nr_busy;			/* CPUs with a store buffered	*/
static struct sim_sb_reorder reorders[SIM_SB_REORDERS];	/* oldest first	*/
static unsigned int nr_reorders;

/* The first SHARED_MAX addresses the program stored through a buffer,
 * with the CPUs that did (bit cpu % 64): a load is a reordering worth
 * reporting only at an address another CPU stores to. */
#define SHARED_MAX	64
static struct { uintptr_t addr; uint64_t cpus; } shared[SHARED_MAX];
static int nr_shared;

static void shared_note(uintptr_t a, int cpu)
{
	for (int i = 0; i < nr_shared; i++)
		if (shared[i].addr == a) {
			shared[i].cpus |= 1ULL << (cpu % 64);
			return;
		}
	if (nr_shared < SHARED_MAX) {
		shared[nr_shared].addr = a;
		shared[nr_shared++].cpus = 1ULL << (cpu % 64);
	}
}

static int shared_by_other(uintptr_t a, int cpu)
{
	for (int i = 0; i < nr_shared; i++)
		if (shared[i].addr == a)
			return (shared[i].cpus & ~(1ULL << (cpu % 64))) != 0;
	return 0;
}
static struct sim_cpu *on;		/* whose overlay memory shows	*/

/*
 * arm64 promises (explore): a CPU's store made visible before its older
 * loads, the LB shape.  The CPU's own view keeps the bytes as they were
 * (a pinned entry of its lagging view, whose saved bytes are the
 * promise) until it performs the store; then the store must write the
 * promised bytes (FULFILLING, checked at the CPU's next call here), and
 * a barrier, an acquire, an RMW or another store to the bytes before it
 * makes the run infeasible.
 */
enum { PROMISE_NONE, PROMISE_MADE, PROMISE_FULFILLING };
static struct promise {
	int state;
	uintptr_t addr;
	uint8_t size;
	uint8_t val[16];		/* the promised bytes		*/
	uint8_t global[16];		/* FULFILLING: what all CPUs see */
	/* the last window had no store to promise, and the CPU has made
	 * no store and passed no barrier since: a later point's window
	 * is the rest of it (a spin), no promise point until then */
	int empty;
} promise[SIM_MAX_CPUS];
static int nr_promises;			/* CPUs whose state is not NONE */

static inline void promise_barrier(struct sim_cpu *c);

/* At a promise point, one certification in SB_PROMISE_ODDS. */
#define SB_PROMISE_ODDS	4

/*
 * The certifying child (sim/explore/promise.c): the stores of the
 * promising CPU's window, from its first store after the promise point
 * to the first barrier, acquire, RMW, release store or full buffer, or
 * the explore's end of the window (the CPU blocked, or ran its bound).
 */
static struct {
	int on;
	int cpu;
	int first;			/* its buffer's entries before	*/
	void (*end)(const struct sim_sb_window *w);
} cert;

void sim_memory_set(enum sim_memory m)
{
	sim__sb_on = m != SIM_MEMORY_SC;
	sim__sb_arm64 = m == SIM_MEMORY_ARM64;
}

const char *sim_memory_name(void)
{
	return !sim__sb_on ? "sc" : sim__sb_arm64 ? "arm64" : "tso";
}

void sim_sb_reset(void)
{
	/* only the last machine's CPUs can have entries (explore builds a
	 * machine per run: clearing all SIM_MAX_CPUS would cost much) */
	static int used;

	for (int i = 0; i < used; i++) {
		sb[i].n = stale[i].n = 0;
		promise[i].state = PROMISE_NONE;
		promise[i].empty = 0;
	}
	used = sim.nr_cpus;
	nr_promises = 0;
	cert.on = 0;
	nr_busy = 0;
	on = NULL;
	sim_memory_set(SIM_MEMORY_SC);
	sim__sb_keep = 0;
	nr_reorders = 0;
	nr_shared = 0;
}

/* The stores of @b done since their entries were made: their bytes. */
static void capture(struct sb *b)
{
	for (int i = b->n - 1; i >= 0 && !b->e[i].captured; i--) {
		memcpy(b->e[i].val, (const void *)b->e[i].addr, b->e[i].size);
		b->e[i].captured = 1;
	}
}

static inline int covers(const struct sb_entry *e, uintptr_t a)
{
	return a >= e->addr && a < e->addr + e->size;
}

/* Do the @n bytes at @b meet the @size bytes at @a? */
static inline int meets(uintptr_t b, unsigned int n, uintptr_t a,
			unsigned int size)
{
	return a < b + n && b < a + size;
}

static inline int overlap(const struct sb_entry *e, uintptr_t a,
			  unsigned int size)
{
	return meets(e->addr, e->size, a, size);
}

int sim_sb_busy(int cpu)
{
	return sb[cpu].n | stale[cpu].n;
}

/* The CPU @c's access at @first (a load if @is_load, else a store that
 * drained) went before its older store @passed.  reorders[] keeps the
 * latest SIM_SB_REORDERS distinct pairs, oldest first: a pair seen
 * again moves to the end. */
static void note_reorder(const struct sim_cpu *c, uintptr_t first, int kind,
			 uintptr_t passed, int by, uintptr_t pc)
{
	struct sim_sb_reorder r = {
		.first = first, .passed = passed, .pc = pc,
		.kind = (uint8_t)kind, .cpu = (int16_t)c->k.cpu,
		.by = (int16_t)by,
	};
	unsigned int i = 0;

	while (i < nr_reorders &&
	       (reorders[i].cpu != r.cpu || reorders[i].first != first ||
		reorders[i].passed != r.passed || reorders[i].kind != r.kind))
		i++;
	if (i < nr_reorders)
		r = reorders[i];		/* again: its count goes on */
	else if (nr_reorders == SIM_SB_REORDERS)
		i = 0;				/* new, full: the oldest goes */
	else
		i = nr_reorders++;
	memmove(&reorders[i], &reorders[i + 1],
		(nr_reorders - 1 - i) * sizeof(reorders[0]));
	r.times++;
	r.time_ps = c->now_ps;
	if (r.times == 1 && c->curr)
		memcpy(r.task, c->curr->name, sizeof(r.task) - 1);
	reorders[nr_reorders - 1] = r;
}

const struct sim_sb_reorder *sim_sb_reorder(int i)
{
	if (i < 0 || (unsigned int)i >= nr_reorders)
		return NULL;
	return &reorders[nr_reorders - 1 - (unsigned int)i];
}

static inline int stale_overlap(const struct stale_entry *e, uintptr_t a,
				unsigned int size)
{
	return meets(e->addr, e->size, a, size);
}

void sim_sb_load(struct sim_cpu *c, const volatile void *p, unsigned int size,
		 uintptr_t pc)
{
	const struct sb *b = &sb[c->k.cpu];
	const struct stale *v = &stale[c->k.cpu];
	uintptr_t a = (uintptr_t)p;

	for (int i = 0; i < v->n; i++)
		if (!v->e[i].pinned &&
		    stale_overlap(&v->e[i], a, size ? size : 1)) {
			note_reorder(c, a, SIM_REORDER_STALE, v->e[i].addr,
				     v->e[i].by, pc);
			return;
		}
	/* a program's load of its own data is no news; the kernel's loads
	 * (only its marked ones are hooks) are */
	if (!(c->curr && c->curr->in_kernel) &&
	    !shared_by_other(a, c->k.cpu))
		return;
	for (int i = 0; i < b->n; i++)
		if (!overlap(&b->e[i], a, size ? size : 1)) {
			note_reorder(c, a, SIM_REORDER_LOAD, b->e[i].addr,
				     c->k.cpu, pc);
			return;
		}
}

/* May entry @i of @b drain now? */
static int may_drain(const struct sb *b, int i)
{
	if (!i)
		return 1;
	if (!sim__sb_arm64 || b->e[i].release)
		return 0;
	for (int j = 0; j < i; j++)
		if (overlap(&b->e[j], b->e[i].addr, b->e[i].size))
			return 0;
	return 1;
}

static void pop_at(struct sb *b, int i)
{
	memmove(&b->e[i], &b->e[i + 1], (size_t)(b->n - 1 - i) * sizeof(b->e[0]));
	if (!--b->n)
		nr_busy--;
}

/* Where the byte at @a that all CPUs see is kept while the executing
 * CPU's overlays are on: the saved bytes of its oldest buffered store
 * over it, or of its lagging view, or memory. */
static uint8_t *global_byte(uintptr_t a)
{
	struct sb *o = on ? &sb[on->k.cpu] : NULL;
	struct stale *v = on ? &stale[on->k.cpu] : NULL;

	for (int i = 0; o && i < o->n; i++)
		if (covers(&o->e[i], a))
			return &o->e[i].saved[a - o->e[i].addr];
	for (int i = 0; v && i < v->n; i++)
		if (stale_overlap(&v->e[i], a, 1))
			return &v->e[i].saved[a - v->e[i].addr];
	return (uint8_t *)a;
}

/* @x sees entry @i of its lagging view as memory has it from now on. */
static void stale_drop(struct sim_cpu *x, int i)
{
	struct stale *v = &stale[x->k.cpu];

	if (x == on)
		memcpy((void *)v->e[i].addr, v->e[i].saved, v->e[i].size);
	memmove(&v->e[i], &v->e[i + 1], (size_t)(v->n - 1 - i) * sizeof(v->e[0]));
	v->n--;
}

/* @x's view of the @size bytes at @a is refreshed. */
static void stale_drop_over(struct sim_cpu *x, uintptr_t a, unsigned int size)
{
	struct stale *v = &stale[x->k.cpu];

	for (int i = v->n - 1; i >= 0; i--)
		if (stale_overlap(&v->e[i], a, size))
			stale_drop(x, i);
}

void sim_sb_refresh(struct sim_cpu *c)
{
	promise_barrier(c);
	while (stale[c->k.cpu].n)
		stale_drop(c, stale[c->k.cpu].n - 1);
}

/* Store @e of CPU @by became visible, over bytes that read @old before:
 * every other CPU running a task lags behind it, but where its own
 * buffer covers the bytes (it reads its own store) or its view lags
 * already over all of them (it lags more).  To be called after the
 * bytes are in memory (or in the executing CPU's saved bytes). */
static void stale_add(int by, const struct sb_entry *e, const uint8_t *old,
		      uint64_t when_ps)
{
	for (int cpu = 0; cpu < sim.nr_cpus; cpu++) {
		struct sim_cpu *x = &sim.cpus[cpu];
		struct stale *v = &stale[cpu];
		struct stale_entry *n;
		const struct sb *b = &sb[cpu];
		int i, mine = 0;

		if (cpu == by || !x->curr)
			continue;
		for (i = 0; i < b->n && !mine; i++)
			mine = overlap(&b->e[i], e->addr, e->size);
		for (i = 0; i < v->n && !mine; i++)	/* its promise's view */
			mine = v->e[i].pinned &&
			       stale_overlap(&v->e[i], e->addr, e->size);
		if (mine)
			continue;
		for (i = 0; i < v->n; i++)
			if (v->e[i].addr <= e->addr &&
			    v->e[i].addr + v->e[i].size >= e->addr + e->size)
				break;
		if (i < v->n)
			continue;	/* lags over them all already */
		stale_drop_over(x, e->addr, e->size);	/* a part: refreshed */
		if (v->n == SIM_SB_ENTRIES)
			stale_drop(x, 0);
		n = &v->e[v->n++];
		n->addr = e->addr;
		n->size = e->size;
		n->pinned = 0;
		n->by = (int16_t)by;
		n->fresh_ps = when_ps + SIM_STALE_LAG_PS;
		memcpy(n->old, old, e->size);
		if (x == on) {	/* memory shows the store: lay the entry on */
			memcpy(n->saved, (const void *)e->addr, e->size);
			memcpy((void *)e->addr, old, e->size);
		}
	}
}

/* @e, of a CPU that does not execute, becomes visible to all. */
static void global_write(const struct sb_entry *e)
{
	for (unsigned int j = 0; j < e->size; j++)
		*global_byte(e->addr + j) = e->val[j];
}

/* ---- arm64 promises ---------------------------------------------------- */

static void __attribute__((noreturn))
infeasible(const struct sim_cpu *c, const char *why)
{
	static char what[256];

	snprintf(what, sizeof(what),
		 "memory=arm64: CPU %d made its store to %#lx visible before its older loads, and %s",
		 c->k.cpu, (unsigned long)promise[c->k.cpu].addr, why);
	promise[c->k.cpu].state = PROMISE_NONE;	/* the run ends: no more */
	nr_promises--;
	sim_fail(SIM_FAIL_INFEASIBLE, what);
	__builtin_unreachable();
}

/* FULFILLING: executing CPU @c has made the promised store; its bytes
 * must be the promised ones, and memory shows again what all CPUs see
 * (the promise, or a later store of another CPU). */
static void promise_kept(struct sim_cpu *c)
{
	struct promise *p = &promise[c->k.cpu];

	if (memcmp((const void *)p->addr, p->val, p->size))
		infeasible(c, "its store wrote other bytes");
	memcpy((void *)p->addr, p->global, p->size);
	p->state = PROMISE_NONE;
	nr_promises--;
}

/* The certifying child: @c's window ends here; its stores go to the
 * parent (cert.end does not return). */
static void __attribute__((noreturn)) cert_end(struct sim_cpu *c)
{
	struct sb *b = &sb[c->k.cpu];
	static struct sim_sb_window w;

	capture(b);
	w.n = 0;
	for (int i = cert.first; i < b->n && w.n < SIM_SB_WINDOW; i++) {
		w.st[w.n].addr = b->e[i].addr;
		w.st[w.n].size = b->e[i].size;
		memcpy(w.st[w.n].val, b->e[i].val, b->e[i].size);
		w.n++;
	}
	cert.end(&w);
	__builtin_unreachable();
}

/* Executing CPU @c passes a barrier, an acquire or an RMW (the callers
 * below): a window ends there, a promise must have been kept before. */
static void promise_barrier_slow(struct sim_cpu *c)
{
	if (cert.on && c->k.cpu == cert.cpu)
		cert_end(c);
	if (promise[c->k.cpu].state == PROMISE_FULFILLING)
		promise_kept(c);
	else if (promise[c->k.cpu].state == PROMISE_MADE)
		infeasible(c, "a barrier, an acquire or an RMW came before the store");
}

static inline void promise_barrier(struct sim_cpu *c)
{
	promise[c->k.cpu].empty = 0;	/* a window starts after it */
	if (__builtin_expect(nr_promises || cert.on, 0))
		promise_barrier_slow(c);
}

/* A store of executing CPU @c to the @size bytes at @a, a release one
 * if @release: the end of a certified window, or the promised store.
 * Return: 1 if it is the promised store (visible already: not
 * buffered), else 0. */
static int promise_store(struct sim_cpu *c, uintptr_t a, unsigned int size,
			 int release)
{
	struct promise *p = &promise[c->k.cpu];
	struct stale *v = &stale[c->k.cpu];

	if (cert.on && c->k.cpu == cert.cpu &&
	    (release || sb[c->k.cpu].n == SIM_SB_ENTRIES ||
	     sb[c->k.cpu].n - cert.first == SIM_SB_WINDOW))
		cert_end(c);
	if (p->state == PROMISE_FULFILLING)
		promise_kept(c);
	if (p->state != PROMISE_MADE || !meets(p->addr, p->size, a, size))
		return 0;
	if (release || a != p->addr || size != p->size)
		infeasible(c, "another store to the bytes came first");
	/* memory shows what all CPUs see, the store goes over it */
	for (int i = v->n - 1; i >= 0; i--)
		if (v->e[i].pinned)
			stale_drop(c, i);
	memcpy(p->global, (const void *)a, size);
	p->state = PROMISE_FULFILLING;
	return 1;
}

/* Executing CPU @c makes store @k of window @w visible to all now, its
 * own view keeping the bytes until it stores them: at its load of
 * @load (code @pc), which the store passes. */
static void promise_make(struct sim_cpu *c, const struct sim_sb_window *w,
			 int k, uintptr_t load, uintptr_t pc)
{
	struct stale *v = &stale[c->k.cpu];
	struct stale_entry *e = &v->e[v->n++];
	struct sb_entry s = { .addr = (uintptr_t)w->st[k].addr,
			      .size = w->st[k].size };
	struct promise *p = &promise[c->k.cpu];

	e->addr = s.addr;
	e->size = s.size;
	e->pinned = 1;
	e->by = (int16_t)c->k.cpu;
	e->fresh_ps = UINT64_MAX;
	memcpy(e->old, (const void *)s.addr, s.size);	/* its view now */
	memcpy(e->saved, w->st[k].val, s.size);		/* all CPUs' */
	stale_add(c->k.cpu, &s, e->old, c->now_ps);	/* they may lag */
	p->state = PROMISE_MADE;
	p->addr = s.addr;
	p->size = s.size;
	memcpy(p->val, w->st[k].val, s.size);
	nr_promises++;
	shared_note(s.addr, c->k.cpu);
	note_reorder(c, s.addr, SIM_REORDER_PROMISE, load, c->k.cpu, pc);
}

/* May @c promise store @k of @w: no older store of the window, of its
 * buffer or of its lagging view over its bytes (coherence)? */
static int promise_may(const struct sim_cpu *c, const struct sim_sb_window *w,
		       int k)
{
	const struct sb *b = &sb[c->k.cpu];
	const struct stale *v = &stale[c->k.cpu];
	uintptr_t a = (uintptr_t)w->st[k].addr;
	unsigned int size = w->st[k].size;

	for (int j = 0; j < k; j++)
		if (meets((uintptr_t)w->st[j].addr, w->st[j].size, a, size))
			return 0;
	for (int i = 0; i < b->n; i++)
		if (overlap(&b->e[i], a, size))
			return 0;
	for (int i = 0; i < v->n; i++)
		if (stale_overlap(&v->e[i], a, size))
			return 0;
	return v->n < SIM_SB_ENTRIES;
}

void sim_sb_promise_point(struct sim_cpu *c, const volatile void *load,
			  uintptr_t pc)
{
	struct sim_sb_window w;
	int ok[SIM_SB_WINDOW], n = 0;
	uint64_t k;

	struct promise *p = &promise[c->k.cpu];

	if (!sim__sb_arm64 || !sim_explore_on || cert.on ||
	    p->state != PROMISE_NONE || p->empty)
		return;
	if (sim_draw(SIM_DEC_DRAIN, SB_PROMISE_ODDS))
		return;
	if (sim_promise_certify(c, &w) <= 0)
		return;		/* the child, solo; or no window */
	for (int i = 0; i < w.n; i++)
		if (promise_may(c, &w, i))
			ok[n++] = i;
	if (!n) {
		p->empty = 1;
		return;
	}
	k = sim_draw(SIM_DEC_DRAIN, (uint64_t)n + 1);	/* n: none */
	if (k < (uint64_t)n)
		promise_make(c, &w, ok[k], (uintptr_t)load, pc);
}

void sim_sb_certify(struct sim_cpu *c,
		    void (*end)(const struct sim_sb_window *w))
{
	cert.on = 1;
	cert.cpu = c->k.cpu;
	cert.first = sb[c->k.cpu].n;
	cert.end = end;
}

void sim_sb_certify_end(void)
{
	cert_end(&sim.cpus[cert.cpu]);
}

/* When store @e of CPU @c, draining now in timed mode, is visible: at
 * its completion, or at the executing CPU's clock if that is earlier. */
static uint64_t visible_at(const struct sim_cpu *c, const struct sb_entry *e)
{
	uint64_t now = sim_cur ? sim_cur->now_ps : c->now_ps;

	return e->visible_ps < now ? e->visible_ps : now;
}

/* Entry @i of CPU @c's buffer, which may drain, becomes visible. */
static void drain_at(struct sim_cpu *c, int i)
{
	struct sb *b = &sb[c->k.cpu];
	struct sb_entry *e = &b->e[i];
	uint8_t old[16];

	if (i)
		note_reorder(c, e->addr, SIM_REORDER_STORE, b->e[0].addr,
			     c->k.cpu, 0);
	if (c == on) {
		capture(b);	/* memory shows it already */
		memcpy(old, e->saved, e->size);	/* no older entry over it */
	} else {
		for (unsigned int j = 0; j < e->size; j++)
			old[j] = *global_byte(e->addr + j);
		global_write(e);
	}
	if (sim__sb_arm64)
		stale_add(c->k.cpu, e, old,
			  sim_explore_on ? c->now_ps : e->visible_ps);
	/* timed: the spinners parked on its line wake; explore's spin rule
	 * needs nothing (a spinner runs again once every CPU spins) */
	if (!sim_explore_on)
		sim__spin_store_visible((const void *)e->addr, visible_at(c, e));
	pop_at(b, i);
}

/* Drain @c's entries oldest first up to and including entry @last. */
static void drain_through(struct sim_cpu *c, int last)
{
	while (last-- >= 0)
		drain_at(c, 0);
}

void sim_sb_store(struct sim_cpu *c, const volatile void *p, unsigned int size,
		  int release)
{
	struct sb *b = &sb[c->k.cpu];
	struct sb_entry *e;
	uint64_t lat = sim__sb_arm64 ? sim__sb_cost_ps :
		sim.preset->access_ps[SIM_STORE];

	/*
	 * A task's stack is not buffered: its bytes are seen by all at
	 * once.  The simulator's own frames reuse a task's dead frames, on
	 * which an entry laid on or taken off (sim_sb_switch()) would
	 * write over live frames of the simulator.
	 */
	if (sim_coro_on_a_stack((uintptr_t)p))
		return;
	capture(b);
	if (size > sizeof(e->val))
		size = sizeof(e->val);
	promise[c->k.cpu].empty = 0;	/* a store: windows change */
	if (__builtin_expect(nr_promises || cert.on, 0) &&
	    promise_store(c, (uintptr_t)p, size, release))
		return;
	if (b->n == SIM_SB_ENTRIES)
		drain_at(c, 0);
	stale_drop_over(c, (uintptr_t)p, size);	/* it reads its own store */
	e = &b->e[b->n];
	if (!b->n++)
		nr_busy++;
	e->addr = (uintptr_t)p;
	shared_note(e->addr, c->k.cpu);
	e->size = (uint8_t)size;
	e->captured = 0;
	e->release = sim__sb_arm64 && release;
	memcpy(e->saved, (const void *)p, size);
	e->visible_ps = c->now_ps + (lat > 1000 ? lat : 1000);
}

void sim_sb_store_hooked(const volatile void *p, unsigned int size,
			 int release)
{
	sim__sb_keep = 1;
	sim__hook(SIM_STORE, p, size);
	sim_sb_store(sim_cur, p, size, release);
}

void sim_sb_drain_stores(struct sim_cpu *c)
{
	promise_barrier(c);
	drain_through(c, sb[c->k.cpu].n - 1);
}

void sim_sb_drain(struct sim_cpu *c)
{
	sim_sb_drain_stores(c);
	sim_sb_refresh(c);
}

void sim_sb_acquire(void)
{
	if (!sim_cur || !sim__hooks_live)
		return;
	sim_sb_drain_release(sim_cur);
	sim_sb_refresh(sim_cur);
}

void sim_sb_rmw(struct sim_cpu *c, const volatile void *p, unsigned int size)
{
	promise_barrier(c);
	stale_drop_over(c, (uintptr_t)p, size ? size : 1);
}

void sim_sb_drain_release(struct sim_cpu *c)
{
	struct sb *b = &sb[c->k.cpu];
	int last = -1;

	promise_barrier(c);
	for (int i = 0; i < b->n; i++)
		if (b->e[i].release)
			last = i;
	drain_through(c, last);
}

void sim_sb_drain_over(struct sim_cpu *c, const volatile void *p,
		       unsigned int size)
{
	struct sb *b = &sb[c->k.cpu];
	int last = -1;

	promise_barrier(c);
	for (int i = 0; i < b->n; i++)
		if (overlap(&b->e[i], (uintptr_t)p, size))
			last = i;
	drain_through(c, last);
}

/* Explore: the @k-th store that may drain, of all CPUs', drains. */
static void drain_kth(uint64_t k)
{
	for (int cpu = 0; cpu < sim.nr_cpus; cpu++) {
		struct sb *b = &sb[cpu];

		for (int i = 0; i < b->n; i++)
			if (may_drain(b, i) && !k--) {
				drain_at(&sim.cpus[cpu], i);
				return;
			}
	}
}

static uint64_t nr_may_drain(void)
{
	uint64_t n = 0;

	for (int cpu = 0; cpu < sim.nr_cpus; cpu++) {
		const struct sb *b = &sb[cpu];

		if (!sim__sb_arm64) {
			n += b->n > 0;
			continue;
		}
		for (int i = 0; i < b->n; i++)
			n += may_drain(b, i);
	}
	return n;
}

void sim_sb_settle(struct sim_cpu *c)
{
	struct stale *v = &stale[c->k.cpu];

	if (!v->n)
		return;
	if (sim_explore_on) {
		/* one entry refreshed, or none: SB_LAG_ODDS to one */
		uint64_t k = sim_draw(SIM_DEC_DRAIN, (uint64_t)v->n + SB_LAG_ODDS);

		if (k < (uint64_t)v->n && !v->e[k].pinned)
			stale_drop(c, (int)k);
		return;
	}
	for (int i = v->n - 1; i >= 0; i--)
		if (v->e[i].fresh_ps <= c->now_ps)
			stale_drop(c, i);
}

void sim_sb_hook(struct sim_cpu *c)
{
	if (__builtin_expect(nr_promises || cert.on, 0)) {
		if (promise[c->k.cpu].state == PROMISE_FULFILLING)
			promise_kept(c);
		if (cert.on)	/* the window's stores stay in the buffer */
			return;
	}
	if (!nr_busy)
		return;
	if (sim_explore_on) {
		/* one store that may drain, or none (k past them:
		 * SB_STAY_ODDS to one, so stores stay for some hooks) */
		uint64_t n = nr_may_drain();
		uint64_t k = sim_draw(SIM_DEC_DRAIN, n + SB_STAY_ODDS);

		if (k < n)
			drain_kth(k);
		return;
	}
	for (int cpu = 0; cpu < sim.nr_cpus && nr_busy; cpu++) {
		struct sb *b = &sb[cpu];

		for (int i = 0; i < b->n;) {
			if (b->e[i].visible_ps <= c->now_ps && may_drain(b, i))
				drain_at(&sim.cpus[cpu], i);
			else if (!sim__sb_arm64)
				break;
			else
				i++;
		}
	}
}

/* The bytes of @b's entries that code which does not buffer wrote while
 * the overlay was on: every entry over such a byte takes the value. */
static void superseded(struct sb *b)
{
	for (int i = b->n - 1; i >= 0; i--) {
		const struct sb_entry *e = &b->e[i];

		for (unsigned int j = 0; j < e->size; j++) {
			uintptr_t a = e->addr + j;
			uint8_t now = *(const uint8_t *)a;
			int k = i + 1;

			while (k < b->n && !covers(&b->e[k], a))
				k++;
			if (k < b->n || now == e->val[j])
				continue;	/* not the newest, or unchanged */
			for (k = 0; k <= i; k++)
				if (covers(&b->e[k], a)) {
					b->e[k].val[a - b->e[k].addr] = now;
					b->e[k].saved[a - b->e[k].addr] = now;
				}
		}
	}
}

void sim_sb_switch(struct sim_cpu *to)
{
	if (to == on)
		return;
	if (on && promise[on->k.cpu].state == PROMISE_FULFILLING)
		promise_kept(on);
	if (on) {
		struct sb *b = &sb[on->k.cpu];

		struct stale *v = &stale[on->k.cpu];

		capture(b);
		superseded(b);
		for (int i = b->n - 1; i >= 0; i--)
			memcpy((void *)b->e[i].addr, b->e[i].saved, b->e[i].size);
		/* a lagging byte written meanwhile by code that does not
		 * buffer: that write is the newest, seen by all */
		for (int i = v->n - 1; i >= 0; i--) {
			struct stale_entry *e = &v->e[i];
			int written = 0;

			for (unsigned int j = 0; j < e->size; j++) {
				uint8_t now = ((const uint8_t *)e->addr)[j];

				if (now != e->old[j]) {
					e->saved[j] = now;
					written = 1;
				}
			}
			memcpy((void *)e->addr, e->saved, e->size);
			if (written)
				stale_drop(on, i);	/* on: rewrites the same */
		}
	}
	on = to;
	if (to) {
		struct sb *b = &sb[to->k.cpu];
		struct stale *v = &stale[to->k.cpu];

		for (int i = 0; i < v->n; i++) {
			memcpy(v->e[i].saved, (const void *)v->e[i].addr, v->e[i].size);
			memcpy((void *)v->e[i].addr, v->e[i].old, v->e[i].size);
		}
		for (int i = 0; i < b->n; i++) {
			memcpy(b->e[i].saved, (const void *)b->e[i].addr, b->e[i].size);
			memcpy((void *)b->e[i].addr, b->e[i].val, b->e[i].size);
		}
	}
}

int sim_sb_entry(int cpu, int i, uint64_t *addr, unsigned int *size,
		 uint64_t *val, int *release)
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
	*release = b->e[i].release;
	*val = 0;
	if (b->e[i].size <= 8)
		memcpy(val, b->e[i].val, b->e[i].size);
	return 1;
}
