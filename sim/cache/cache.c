/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/cache/cache.c - the cache-line cost model: line table, the miss paths of
 * the transition table in sim/cache/cache.h, and line identities.
 *
 * Stage: machine.  Called by sim/machine/machine.c (sim_hook() through the inline
 * sim_cache_access(), spin-wait parking through sim_cache_line_id()) and
 * by tests/test_cache.c.  Calls uthash for the line table, the arena
 * (sim_arena_contains()) to tell simulated memory from host memory, the
 * trace for each miss (sim_trace_cache(), when trace-events names cache),
 * and reads the machine's CPUs (topology) and tasks (coroutine stacks).
 *
 * The table maps a host line number (address >> 6) to the state of its
 * line; a direct-mapped memo in front of it makes the L1 hit a few
 * instructions.  Lines live until the next sim_cache_init(): their number
 * is bounded by the distinct lines a run touches (lock words, hash
 * buckets, per-CPU nodes, task structs, user mutexes), and memo entries
 * point into them.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/host/arena.h"
#include "sim/cache/cache.h"
#include "sim/machine/machine.h"
#include "sim/replay/replay.h"
#include "sim/trace/trace.h"

static void cache_oom(void)
{
	fprintf(stderr, "futexsim: out of memory for the cache-line table\n");
	exit(SIM_EXIT_INPUT);
}
#define uthash_fatal(msg)	cache_oom()
#include <uthash.h>

/* short names of enum sim_cache_tier (sim/cache/cache.h), in the order of cost */
#define T_SELF		SIM_TIER_SELF
#define T_SMT		SIM_TIER_SMT
#define T_SOCKET	SIM_TIER_SOCKET
#define T_REMOTE	SIM_TIER_REMOTE
#define T_2HOP		SIM_TIER_2HOP
#define T_NR		SIM_TIER_NR

/* A host line number and the state it maps to: its own, or its stack's. */
struct line_ref {
	uintptr_t raw;			/* address >> 6: the key		*/
	struct sim_cache_line *line;	/* &own, or the task's stack line	*/
	struct sim_cache_line own;
	struct line_ref *next_alloc;	/* every ref, for sim_cache_init()	*/
	UT_hash_handle hh;
};

struct sim__cache_memo sim__cache_memo[SIM_CACHE_MEMO];
uint64_t sim__cache_cost_ps[SIM_NR_ACCESS];
uint64_t sim__cache_sb_done_ps[SIM_MAX_CPUS];
uint64_t sim__cache_post_ps;

static struct line_ref *refs;			/* the table		*/
static struct line_ref *all_refs;		/* the same, listed	*/
static struct line_ref *spare_refs;		/* a last machine's, for reuse */
static struct sim_cache_line *stack_lines[SIM_MAX_TASKS]; /* by task index */
static int stack_lines_hi;			/* [0, hi) may be set	*/
static bool memo_ready;				/* memo_clear() ran once */
static uint64_t next_id;
static struct sim_cache_stats stats;

static uint64_t xfer_ps[T_NR];	/* from an owner; invalidation round trip */
static uint64_t read_ps[T_NR];	/* a shared line, from its nearest holder */
static uint64_t uncached_ps;	/* a line nobody holds: from L3		*/
static uint64_t sharer_penalty_ps;
static bool two_hop;
static bool store_buffer;
static unsigned int jitter_pct;		/* sim_cache_set_jitter()	*/
static bool spin_exit_overlap;		/* the preset's key		*/
static bool arrival;			/* line-handover = arrival...	*/
static bool overlap;			/* ... = arrival-overlap	*/
/* arrival mode: the line of each CPU's miss in flight with a grace */
static struct sim_cache_line *graced[SIM_MAX_CPUS];
/* spin-exit overlap, per CPU: its last spin-wait reload, and whether the
 * next miss of the task whose wait that was starts with it */
static struct {
	uint64_t reload_ps;		/* the reload's issue		*/
	const struct sim_task *task;	/* whose wait			*/
	bool exited;			/* at the first change		*/
} spin_exit[SIM_MAX_CPUS];

void sim_cache_set_jitter(unsigned int pct)
{
	jitter_pct = pct;
}

/* @ps varied by jitter_pct, centred (see sim_cache_set_jitter()). */
static uint64_t jitter(uint64_t ps)
{
	uint64_t span = ps * jitter_pct / 100;

	if (!span)
		return ps;
	return ps - span / 2 + sim_draw(SIM_DEC_JITTER, span + 1);
}

static void memo_clear(void)
{
	for (int i = 0; i < SIM_CACHE_MEMO; i++) {
		sim__cache_memo[i].raw = ~(uintptr_t)0;
		sim__cache_memo[i].line = NULL;
	}
}

void sim_cache_prepare(void)
{
	if (!memo_ready) {
		memo_clear();
		memo_ready = true;
	}
}

/*
 * A new machine forgets every line.  Only what the last one used is
 * cleared (explore builds a machine per run): the memo slots of its
 * lines (the memo holds no other), its stack lines; its refs are kept
 * for the next machine's lines.
 */
unsigned long sim_cache_epoch;

void sim_cache_each_line(unsigned long lo, unsigned long hi,
			 void (*fn)(unsigned long line, void *arg), void *arg)
{
	for (const struct line_ref *r = all_refs; r; r = r->next_alloc) {
		unsigned long line = r->raw << SIM_CACHE_LINE_SHIFT;

		if (line < hi && line + (1UL << SIM_CACHE_LINE_SHIFT) > lo)
			fn(line, arg);
	}
}

static void tier_bits_make(void);

void sim_cache_init(const struct sim_preset *p)
{
	sim_cache_epoch++;
	HASH_CLEAR(hh, refs);
	sim_cache_prepare();
	while (all_refs) {
		struct line_ref *r = all_refs;
		struct sim__cache_memo *m = &sim__cache_memo[sim__cache_slot(r->raw)];

		m->raw = ~(uintptr_t)0;
		m->line = NULL;
		all_refs = r->next_alloc;
		r->next_alloc = spare_refs;
		spare_refs = r;
	}
	for (int i = 0; i < stack_lines_hi; i++) {
		free(stack_lines[i]);
		stack_lines[i] = NULL;
	}
	stack_lines_hi = 0;
	jitter_pct = 0;
	memset(sim__cache_sb_done_ps, 0, sizeof(sim__cache_sb_done_ps));
	memset(graced, 0, sizeof(graced));
	memset(spin_exit, 0, sizeof(spin_exit));
	sim__cache_post_ps = 0;
	next_id = 0;
	memset(&stats, 0, sizeof(stats));

	memcpy(sim__cache_cost_ps, p->access_ps, sizeof(sim__cache_cost_ps));
	two_hop = p->xfer_2hop_ps != 0;
	xfer_ps[T_SELF] = 0;
	xfer_ps[T_SMT] = p->xfer_smt_ps;
	xfer_ps[T_SOCKET] = p->xfer_socket_ps;
	xfer_ps[T_REMOTE] = p->xfer_remote_ps;
	xfer_ps[T_2HOP] = two_hop ? p->xfer_2hop_ps : p->xfer_remote_ps;
	memcpy(read_ps, xfer_ps, sizeof(read_ps));
	read_ps[T_SOCKET] = p->shared_read_ps;
	if (read_ps[T_SMT] > p->shared_read_ps)
		read_ps[T_SMT] = p->shared_read_ps;
	uncached_ps = p->shared_read_ps;
	sharer_penalty_ps = p->sharer_penalty_ps;
	store_buffer = p->store_buffer;
	spin_exit_overlap = p->spin_exit_overlap;
	arrival = p->line_handover != SIM_HANDOVER_ISSUE;
	overlap = p->line_handover == SIM_HANDOVER_OVERLAP;
	tier_bits_make();
}

const struct sim_cache_stats *sim_cache_stats(void)
{
	return &stats;
}

/* ---- line table -------------------------------------------------------- */

static void line_init(struct sim_cache_line *l)
{
	memset(l, 0, sizeof(*l));
	l->owner = -1;
	l->id = ++next_id;
	stats.lines++;
}

static bool on_stack(const struct sim_task *t, uintptr_t a)
{
	uintptr_t lo = (uintptr_t)t->coro.stack;

	return lo && a >= lo && a - lo < t->coro.stack_size;
}

/* The index of the task whose coroutine stack holds @a, or -1. */
static int stack_task(uintptr_t a)
{
	const struct sim_task *cur = sim_current();

	if (cur && on_stack(cur, a))
		return cur->tid - SIM_TID_BASE;
	for (int i = 0; i < sim.nr_tasks; i++)
		if (on_stack(sim.tasks[i], a))
			return i;
	return -1;
}

static struct line_ref *ref_new(uintptr_t raw, const volatile void *addr)
{
	struct line_ref *r = spare_refs;
	int task = -1;

	if (r) {
		spare_refs = r->next_alloc;
		memset(r, 0, sizeof(*r));
	} else if (!(r = calloc(1, sizeof(*r)))) {
		cache_oom();
	}
	r->raw = raw;
	if (!sim_arena_contains((const void *)addr))
		task = stack_task((uintptr_t)addr);
	if (task < 0) {
		line_init(&r->own);
		r->line = &r->own;
	} else {
		/* a frame's layout is the build's: one line per stack */
		if (!stack_lines[task]) {
			stack_lines[task] = malloc(sizeof(*stack_lines[task]));
			if (!stack_lines[task])
				cache_oom();
			line_init(stack_lines[task]);
			if (task >= stack_lines_hi)
				stack_lines_hi = task + 1;
		}
		r->line = stack_lines[task];
	}
	HASH_ADD(hh, refs, raw, sizeof(r->raw), r);
	r->next_alloc = all_refs;
	all_refs = r;
	return r;
}

/* The memo missed: the table, and the memo slot takes the line. */
struct sim_cache_line *sim__cache_line_find(const volatile void *addr)
{
	uintptr_t raw = (uintptr_t)addr >> SIM_CACHE_LINE_SHIFT;
	struct sim__cache_memo *m = &sim__cache_memo[sim__cache_slot(raw)];
	struct line_ref *r;

	HASH_FIND(hh, refs, &raw, sizeof(raw), r);
	if (!r)
		r = ref_new(raw, addr);
	m->raw = raw;
	m->line = r->line;
	return r->line;
}

const char *sim_cache_check(const struct sim_cache_line *l)
{
	int n = 0;

	for (int i = 0; i < SIM_MAX_CPUS / 64; i++)
		n += __builtin_popcountll(l->holders[i]);
	if (n != l->nr_holders)
		return "nr_holders is not the number of holders";
	for (int cpu = sim.nr_cpus; cpu < SIM_MAX_CPUS; cpu++)
		if (sim_cache_holds(l, cpu))
			return "a holder is not a CPU of the machine";
	if (l->owner >= sim.nr_cpus)
		return "the owner is not a CPU of the machine";
	if (l->owner >= 0 && (n != 1 || !sim_cache_holds(l, l->owner)))
		return "an owned line has other holders";
	return NULL;
}

/* ---- miss paths ---------------------------------------------------------- */

static enum sim_cache_tier tier(const struct sim_cpu *a, const struct sim_cpu *b)
{
	if (a == b)
		return T_SELF;
	if (a->socket == b->socket)
		return a->core == b->core ? T_SMT : T_SOCKET;
	if (two_hop && __builtin_popcount((unsigned int)(a->socket ^ b->socket)) > 1)
		return T_2HOP;
	return T_REMOTE;
}

/*
 * tier_bits[a][t]: the CPUs b != a of the machine with tier(a, b) == t, so
 * that the nearest or farthest holder of a line is a few ANDs of its
 * holders, not a look at each holder's CPU.  Made again by
 * sim_cache_init() only when a CPU's socket or core changed (explore
 * makes a machine per run, the same one).
 */
#define TIER_WORDS	(SIM_MAX_CPUS / 64)
static uint64_t tier_bits[SIM_MAX_CPUS][T_NR][TIER_WORDS];
static int tier_words;			/* words of the machine's CPUs	*/
static int tier_nr_cpus = -1;
static int tier_socket[SIM_MAX_CPUS], tier_core[SIM_MAX_CPUS];
static bool tier_two_hop;

static void tier_bits_make(void)
{
	int n = sim.nr_cpus;
	bool same = n == tier_nr_cpus && two_hop == tier_two_hop;

	for (int i = 0; same && i < n; i++)
		same = tier_socket[i] == sim.cpus[i].socket &&
		       tier_core[i] == sim.cpus[i].core;
	if (same)
		return;
	memset(tier_bits, 0, sizeof(tier_bits));
	for (int a = 0; a < n; a++) {
		tier_socket[a] = sim.cpus[a].socket;
		tier_core[a] = sim.cpus[a].core;
		for (int b = 0; b < n; b++)
			if (b != a)
				tier_bits[a][tier(&sim.cpus[a], &sim.cpus[b])]
					 [b / 64] |= 1ULL << (b % 64);
	}
	tier_nr_cpus = n;
	tier_two_hop = two_hop;
	tier_words = (n + 63) / 64;
}

/* Does @l have a holder in @bits? */
static inline bool holds_any(const struct sim_cache_line *l,
			     const uint64_t *bits)
{
	uint64_t any = 0;

	for (int w = 0; w < tier_words; w++)
		any |= l->holders[w] & bits[w];
	return any != 0;
}

/* The nearest (@far false) or farthest (@far true) holder of @l other
 * than @c.  @l has one. */
static enum sim_cache_tier holder_tier(const struct sim_cache_line *l,
			     const struct sim_cpu *c, bool far)
{
	const uint64_t (*bits)[TIER_WORDS] = tier_bits[c->k.cpu];

	if (far) {
		for (int t = T_2HOP; t > T_SELF; t--)
			if (holds_any(l, bits[t]))
				return t;
		return T_SELF;
	}
	for (int t = T_SMT; t < T_NR; t++)
		if (holds_any(l, bits[t]))
			return t;
	return T_NR;
}

static void holders_set_only(struct sim_cache_line *l, int cpu)
{
	memset(l->holders, 0, sizeof(l->holders));
	l->holders[cpu >> 6] = 1ULL << (cpu & 63);
	l->nr_holders = 1;
}

/* A load by @c of a line it does not hold; *@from is where it was served
 * from (T_SOCKET for L3). Return: its cost. */
static uint64_t load_miss(struct sim_cache_line *l, const struct sim_cpu *c,
			  enum sim_cache_tier *from)
{
	int cpu = c->k.cpu;
	uint64_t cost;

	*from = T_SOCKET;
	if (l->owner >= 0) {			/* M/E elsewhere -> S, S */
		*from = tier(c, &sim.cpus[l->owner]);
		cost = xfer_ps[*from];
		stats.transfers++;
		l->owner = -1;
	} else if (l->nr_holders) {		/* S -> S */
		*from = holder_tier(l, c, false);
		cost = read_ps[*from];
	} else {				/* I -> E */
		l->owner = cpu;
		cost = uncached_ps;
	}
	l->holders[cpu >> 6] |= 1ULL << (cpu & 63);
	l->nr_holders++;
	return cost;
}

/*
 * load_fill - a load miss of @l costing *@cost, done at @done_ps.  Served
 * by the line's owner (@had_owner), it brings the data the other holders
 * serve from: they have it only at @done_ps (fill_ps).  Served from a
 * shared line, it completes no earlier than such a transfer in flight:
 * *@cost grows by the wait.
 */
static void load_fill(struct sim_cache_line *l, bool had_owner,
		      uint64_t done_ps, uint64_t *cost)
{
	if (had_owner)
		l->fill_ps = done_ps;
	else if (l->fill_ps > done_ps)
		*cost += l->fill_ps - done_ps;
}

/* A store or RMW by @c of a line it does not own: the transfer and the
 * invalidations, without the operation itself. Return: their cost. */
static uint64_t write_miss(struct sim_cache_line *l, const struct sim_cpu *c)
{
	int cpu = c->k.cpu;
	int others = l->nr_holders - sim_cache_holds(l, cpu);
	uint64_t cost;

	if (l->owner >= 0) {			/* M/E elsewhere -> M here */
		cost = xfer_ps[tier(c, &sim.cpus[l->owner])];
		stats.transfers++;
		stats.invalidations++;
	} else if (others > 0) {		/* S -> M: invalidate all */
		cost = xfer_ps[holder_tier(l, c, true)] +
		       (uint64_t)(others - 1) * sharer_penalty_ps;
		stats.invalidations += others;
	} else {				/* I -> M, or only ours */
		cost = l->nr_holders ? 0 : uncached_ps;
	}
	holders_set_only(l, cpu);
	l->owner = cpu;
	return cost;
}

/*
 * A store of @c that retires into its store buffer at @now_ps and
 * completes at @done_ps (the miss), after the earlier ones.  Return: the
 * CPU's cost, the L1 store.
 */
static uint64_t buffer_store(struct sim_cache_line *l, int cpu,
			     uint64_t done_ps)
{
	uint64_t *sb = &sim__cache_sb_done_ps[cpu];

	if (done_ps < *sb)
		done_ps = *sb;			/* TSO: in program order */
	*sb = done_ps;
	if (l->busy_until_ps < done_ps)
		l->busy_until_ps = done_ps;	/* seen by others then */
	return sim__cache_cost_ps[SIM_STORE];
}

/* ---- line-handover = arrival ------------------------------------------- */

/* Is @kind by @cpu, completing at @done_ps, an L1 hit under a grace of @l? */
static bool grace_hit(const struct sim_cache_line *l, int cpu,
		      enum sim_access kind, uint64_t done_ps)
{
	for (int i = 0; i < SIM_CACHE_GRACES; i++) {
		const struct sim_cache_grace *g = &l->grace[i];

		if (done_ps >= g->until_ps)
			continue;		/* unused (0), or too late */
		if (kind == SIM_LOAD ? (g->holders[cpu >> 6] >> (cpu & 63)) & 1 :
		    g->owner == cpu)
			return true;
	}
	return false;
}

/*
 * @c's miss on @l, whose holders and owner before it were @holders and
 * @owner, arrives at @until_ps: until then they keep what it takes from
 * them.  Replaces the grace that ends first (an unused one ends at 0).
 */
static void grace_open(struct sim_cache_line *l, const struct sim_cpu *c,
		       const uint64_t *holders, int owner, uint64_t until_ps)
{
	struct sim_cache_grace *g = &l->grace[0];

	for (int i = 1; i < SIM_CACHE_GRACES; i++)
		if (l->grace[i].until_ps < g->until_ps)
			g = &l->grace[i];
	memcpy(g->holders, holders, sizeof(g->holders));
	g->owner = owner;
	g->until_ps = until_ps;
	g->by = c->k.cpu;
	graced[c->k.cpu] = l;
}

void sim_cache_arrive(const struct sim_cpu *c)
{
	struct sim_cache_line *l = graced[c->k.cpu];

	if (!l)
		return;
	graced[c->k.cpu] = NULL;
	for (int i = 0; i < SIM_CACHE_GRACES; i++)
		if (l->grace[i].by == c->k.cpu)
			l->grace[i].until_ps = 0;
}

/* ---- spin-exit overlap --------------------------------------------------- */

void sim_cache_spin_reload(const struct sim_cpu *c, uint64_t now_ps)
{
	if (!spin_exit_overlap)
		return;
	spin_exit[c->k.cpu].reload_ps = now_ps;
	spin_exit[c->k.cpu].exited = false;
}

void sim_cache_spin_done(const struct sim_cpu *c, int first_change)
{
	if (!spin_exit_overlap)
		return;
	spin_exit[c->k.cpu].exited = first_change;
	spin_exit[c->k.cpu].task = c->curr;
}

/*
 * The miss of @kind by @c at @now_ps ends any spin-exit overlap of @c.
 * Return: what comes off its cost: for a load, the first miss of the
 * task since its spin-wait ended at the first change, the time since the
 * wait's last reload was issued (the load started with it); else 0.
 */
static uint64_t spin_exit_take(const struct sim_cpu *c, enum sim_access kind,
			       uint64_t now_ps)
{
	typeof(spin_exit[0]) *e = &spin_exit[c->k.cpu];
	bool mine = e->exited && e->task == c->curr;

	e->exited = false;
	return mine && kind == SIM_LOAD ? now_ps - e->reload_ps : 0;
}

/* Take @cut_ps off *@rest_ps first, then what is left off *@head_ps. */
static void cut_from(uint64_t cut_ps, uint64_t *head_ps, uint64_t *rest_ps)
{
	uint64_t from_rest = cut_ps < *rest_ps ? cut_ps : *rest_ps;

	*rest_ps -= from_rest;
	cut_ps -= from_rest;
	*head_ps -= cut_ps < *head_ps ? cut_ps : *head_ps;
}

/*
 * line-handover = arrival: the miss of @kind (a load, an RMW or an
 * unbuffered store) by @c on @l, issued at @now_ps, behind a miss in
 * flight for @wait_ps.  Its request leaves when that miss has completed
 * (the line's home forwards one request at a time) and arrives X/2
 * later; with arrival-overlap it travels while it waits, arriving at
 * now + max(X/2, wait).  The line comes back X/2 after the arrival.  The state changes now; a load takes
 * only the owner's right to write, a write every other holder's copy,
 * which they keep until the arrival.  A load that a spin-exit overlap
 * started @cut_ps earlier (0: none) comes back that much sooner, its
 * request arriving sooner once the way back is used up.  Return: the
 * time to the arrival; the rest is left in sim__cache_post_ps.
 */
static uint64_t arrival_miss(struct sim_cache_line *l, const struct sim_cpu *c,
			     enum sim_access kind, uint64_t now_ps,
			     uint64_t wait_ps, uint64_t cut_ps)
{
	uint64_t holders[SIM_MAX_CPUS / 64], x, lead, back, op = 0;
	int cpu = c->k.cpu, owner = l->owner;
	int others = l->nr_holders - sim_cache_holds(l, cpu);
	enum sim_cache_tier from = T_REMOTE;

	memcpy(holders, l->holders, sizeof(holders));
	if (kind == SIM_LOAD) {
		x = jitter(load_miss(l, c, &from));
		others = 0;		/* sharers keep their copies */
	} else {
		x = jitter(write_miss(l, c));
		op = sim__cache_cost_ps[kind];
	}
	lead = !overlap ? wait_ps + x / 2 : wait_ps > x / 2 ? wait_ps : x / 2;
	back = x - x / 2;		/* the line's way back */
	cut_from(cut_ps, &lead, &back);	/* a spin-exit overlap's load */
	if (kind == SIM_LOAD)		/* ... with data that exists by then */
		load_fill(l, owner >= 0, now_ps + lead + back, &back);
	if (from >= T_REMOTE)		/* as in issue mode (sim__cache_miss) */
		l->busy_until_ps = now_ps + lead + back + op;
	if (others > 0 || (owner >= 0 && owner != cpu)) {
		if (!others)
			memset(holders, 0, sizeof(holders));
		grace_open(l, c, holders, owner == cpu ? -1 : owner,
			   now_ps + lead);
	}
	sim__cache_post_ps = back + op;
	return lead;
}

/* What a miss found, for the trace (sim_trace_cache()): taken before
 * the miss changes the line. */
struct miss_seen {
	int owner;			/* the owner, or -1		*/
	unsigned int tier;		/* where it is served from	*/
	unsigned int invalidated;	/* other copies a write takes	*/
};

static void miss_look(const struct sim_cache_line *l, const struct sim_cpu *c,
		      enum sim_access kind, struct miss_seen *m)
{
	int others = l->nr_holders - sim_cache_holds(l, c->k.cpu);

	m->owner = l->owner != c->k.cpu ? l->owner : -1;
	m->invalidated = kind == SIM_LOAD ? 0 : (unsigned int)others;
	if (m->owner >= 0)
		m->tier = tier(c, &sim.cpus[m->owner]);
	else if (others > 0)
		m->tier = holder_tier(l, c, kind != SIM_LOAD);
	else
		m->tier = SIM_TIER_NR;		/* L3: nobody holds it */
}

/* The miss of @kind by @c at @now_ps: @wait_ps behind a miss in flight,
 * then @cost_ps; what it found is @m (miss_look(), when tracing). */
static inline void miss_trace(const struct sim_cpu *c, enum sim_access kind,
		       const volatile void *addr, uint64_t now_ps,
		       const struct miss_seen *m, uint64_t wait_ps,
		       uint64_t cost_ps)
{
	sim_trace_cache(c->k.cpu, now_ps, addr, kind, m->owner, m->tier,
			m->invalidated, wait_ps, cost_ps);
}

uint64_t sim__cache_miss(struct sim_cpu *c, enum sim_access kind,
			 const volatile void *addr, uint64_t now_ps)
{
	int cpu = c->k.cpu;
	uint64_t drain = 0, wait = 0, cost;
	struct miss_seen seen = { 0 };
	uint64_t cut;
	struct sim_cache_line *l;

	if ((kind == SIM_RMW || kind == SIM_FENCE) &&
	    sim__cache_sb_done_ps[cpu] > now_ps) {
		/* locked instruction, fence: the store buffer drains first */
		drain = sim__cache_sb_done_ps[cpu] - now_ps;
		now_ps += drain;
	}
	if (kind >= SIM_RELAX)
		return drain + sim__cache_cost_ps[kind];
	l = sim_cache_line(addr);
	if ((kind == SIM_LOAD ? sim_cache_holds(l, cpu) : l->owner == cpu) ||
	    (arrival && grace_hit(l, cpu, kind,
				  now_ps + sim__cache_cost_ps[kind]))) {
		/* a hit; a store still goes behind the pending ones */
		if (kind == SIM_STORE && sim__cache_sb_done_ps[cpu] > now_ps)
			return buffer_store(l, cpu, now_ps + sim__cache_cost_ps[kind]);
		return drain + sim__cache_cost_ps[kind];
	}
	stats.misses++;
	cut = spin_exit_take(c, kind, now_ps);
	if (sim_tracing(SIM_TEV_CACHE))
		miss_look(l, c, kind, &seen);
	/* a write in flight on the line: this miss is served after it */
	if (l->busy_until_ps > now_ps) {
		wait = l->busy_until_ps - now_ps;
		stats.waits++;
	}
	if (arrival && !(kind == SIM_STORE && store_buffer)) {
		cost = arrival_miss(l, c, kind, now_ps, wait, cut);
		miss_trace(c, kind, addr, now_ps, &seen, wait,
			   cost + sim__cache_post_ps > wait ?
			   cost + sim__cache_post_ps - wait : 0);
		return drain + cost;
	}
	if (kind == SIM_LOAD) {
		bool had_owner = l->owner >= 0;
		enum sim_cache_tier from;

		cost = jitter(load_miss(l, c, &from));
		cut_from(cut, &wait, &cost);	/* a spin-exit overlap's load */
		load_fill(l, had_owner, now_ps + wait + cost, &cost);
		/*
		 * A miss served from another socket occupies the line until
		 * it is done: the line's home snoops for one request at a
		 * time, so remote readers after an invalidation (a ticket
		 * lock's spinners on other sockets) are served one after the
		 * other.  Misses inside a socket are served from L3 side by
		 * side.
		 */
		if (from >= T_REMOTE)
			l->busy_until_ps = now_ps + wait + cost;
		miss_trace(c, kind, addr, now_ps, &seen, wait, cost);
		return wait + cost;
	}
	cost = jitter(write_miss(l, c)) + sim__cache_cost_ps[kind];
	miss_trace(c, kind, addr, now_ps, &seen, wait, cost);
	cost += wait;
	if (kind == SIM_STORE && store_buffer)
		return buffer_store(l, cpu, now_ps + cost);
	l->busy_until_ps = now_ps + cost;
	return drain + cost;
}
