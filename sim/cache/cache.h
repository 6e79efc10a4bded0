/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/cache/cache.h - the cache-line cost model (docs/model.md): what each
 * shared-memory access of a hook costs, from the coherence state of its
 * 64-byte line.
 *
 * Stage: machine.  Called by sim/machine/machine.c at every sim_hook() when the
 * preset's cache-model key is on (sim_cache_access()), and for the line
 * identity of spin-wait parking (sim_cache_line_id()).  Reads the costs
 * and the topology of the machine's preset (sim/scenario/preset.h) and CPUs.
 *
 * Every line has a set of holders, the CPUs with a copy, and at most one
 * owner, the holder with the line Modified or Exclusive (then the only
 * holder).  A line nobody holds is in L3 or memory.
 *
 *   access		line state		cost (ps)		after
 *   load		held by this CPU	load (L1 hit)		same
 *   load		owned by o		xfer(this, o)		holders {o, this}
 *   load		shared by S		nearest(S)		S + this
 *   load		held by nobody		shared-read		owned by this
 *   store/rmw		owned by this CPU	store / rmw		same
 *   store/rmw		owned by o		xfer(this, o) + op	owned by this
 *   store/rmw		shared by S		farthest(S - this)	owned by this
 *						+ (|S - this| - 1) x
 *						  sharer-penalty + op
 *   store/rmw		held by nobody		shared-read + op	owned by this
 *   relax, fence	-			relax, fence		-
 *
 * xfer(a, b) is xfer-smt (same core), xfer-socket (same socket),
 * xfer-remote (other socket) or xfer-2hop (sockets whose numbers differ in
 * more than one bit, when the preset sets xfer-2hop).  nearest(S) prices a
 * load served by the closest holder: xfer-smt for the SMT sibling,
 * shared-read (an L3 hit) in this socket, else the socket transfer.
 * farthest() is the invalidation round trip to the farthest other holder.
 * A load of a shared line completes no earlier than a load's transfer
 * from the line's last owner still in flight (fill_ps): the copies the
 * others would serve it from do not have the data before that (the
 * spinners of a ticket lock reloading after an unlock: the next holder
 * may be the second to ask, and waits for the first one's transfer).
 *
 * A store or RMW that misses keeps its line busy until it completes: any
 * miss on that line by another CPU (load, store or RMW) starts only then.
 * That serialises contended RMWs, and it keeps the line state, which
 * changes when the hook runs, in step with the access, which the machine
 * performs when the hook returns at the access's completion time.  A load
 * miss served from another socket keeps the line busy too (the line's
 * home snoops for one request at a time), so remote readers after an
 * invalidation are served one after the other; load misses served inside
 * a socket (L3, the SMT sibling, another core) overlap.
 *
 * With the preset's line-handover key = arrival (every shipped preset's
 * and the built-in default; the paragraph above is the timing of
 * line-handover = issue), a miss takes the line from its holders when its
 * request arrives, not when it is issued: see sim_cache_access() and
 * struct sim_cache_grace.
 *
 * Spin-exit overlap (the preset's spin-exit-overlap key): a spin-wait
 * (smp_cond_load_*()) that ends at the first change of the word it
 * watches lets its CPU's next miss, if a load, start with the wait's
 * last reload: its cost is cut by the time since that reload was issued.
 * A CPU that predicts the loop's exit runs the code after it
 * speculatively, so the first load of what the lock protects is already
 * on its way when the lock's line arrives; a wait the word changed under
 * first (a ticket lock's later waiters, the head moving past other
 * tickets) does not.  A hypothesis with no free parameter, checked
 * against the 2014 qspinlock table (docs/model.md, "Spin-exit overlap");
 * any other miss, a new wait, or another task on the CPU drops it.
 *
 * With the preset's store-buffer key on (x86-TSO), a store costs its CPU
 * only `store`: its miss runs in the background and completes no earlier
 * than the CPU's earlier stores (sb_done_ps, in program order), and its
 * line is busy until then, so other CPUs see the store only then.  An
 * RMW or a fence first waits for the CPU's stores to complete (x86 locked
 * instructions and MFENCE drain the store buffer); loads do not wait (TSO
 * lets them pass stores; a load of a line with a pending store of this
 * CPU is a hit, forwarded).  With the key off, sb_done_ps stays 0.
 *
 * Which addresses share a line: simulated memory (the arena) in 64-byte
 * lines of its fixed addresses.  Coroutine stacks are at host addresses,
 * and a stack frame's layout differs between builds (-O0, -O2, clang): so
 * every address inside a task's stack is one line of that task (the
 * kernel's on-stack struct futex_q is the one hooked stack object).  Any
 * other address (static data of a test or benchmark) is taken in its own
 * 64-byte lines, which may then differ between builds: simulated objects
 * belong in the arena.  Host addresses serve only as lookup keys; nothing
 * is ordered or iterated by them.
 */
#ifndef SIM_CACHE_H
#define SIM_CACHE_H

#include <stdint.h>

#include "sim/machine/hooks.h"
#include "sim/machine/machine.h"

/* Distance between two CPUs, in the order of cost (xfer-smt ...). */
enum sim_cache_tier {
	SIM_TIER_SELF,
	SIM_TIER_SMT,			/* the same core			*/
	SIM_TIER_SOCKET,		/* the same socket (for a load of a
					 * shared line: an L3 hit)		*/
	SIM_TIER_REMOTE,		/* another socket, one hop		*/
	SIM_TIER_2HOP,			/* another socket, two hops		*/
	SIM_TIER_NR
};

/* line-handover: when a miss takes its line (docs/model.md). */
enum sim_handover {
	SIM_HANDOVER_ISSUE,		/* at its issue				*/
	SIM_HANDOVER_ARRIVAL,		/* at its request's arrival (default)	*/
	SIM_HANDOVER_OVERLAP,		/* same, queued requests travel		*/
};

#define SIM_CACHE_LINE_SHIFT	6		/* 64-byte lines	*/
/* the direct-mapped memo of line lookups: 16,384 slots (256 KiB), room
 * for the lines of the 2016 TO-futex runs' 256 tasks on 144 CPUs */
#define SIM_CACHE_MEMO_BITS	14
#define SIM_CACHE_MEMO		(1 << SIM_CACHE_MEMO_BITS)

/*
 * struct sim_cache_line - the coherence state of one line.  Invariants
 * (sim_cache_check()): nr_holders is the number of bits in holders; an
 * owner is the only holder; a line with no owner and holders is shared.
 */
/*
 * struct sim_cache_grace - line-handover = arrival: what the CPUs that a
 * miss in flight takes the line from may still do until its request
 * arrives.  Holders may load, the owner may also store and RMW, as L1
 * hits, if the access completes before @until_ps.  @until_ps 0: unused.
 */
struct sim_cache_grace {
	uint64_t holders[SIM_MAX_CPUS / 64];	/* the holders before the miss	*/
	uint64_t until_ps;		/* the request's arrival		*/
	int owner;			/* the owner before the miss, or -1	*/
	int by;				/* the CPU of the miss			*/
};

#define SIM_CACHE_GRACES	2	/* misses in flight with a grace	*/

struct sim_cache_line {
	uint64_t holders[SIM_MAX_CPUS / 64];	/* CPUs with a copy		*/
	int owner;			/* CPU with it M or E, or -1		*/
	int nr_holders;
	uint64_t busy_until_ps;		/* a miss in flight completes then	*/
	uint64_t fill_ps;		/* a load's transfer from the owner
					 * completes then: no other reader
					 * has the data before		*/
	uint64_t id;			/* creation order, from 1: identity	*/
	struct sim_cache_grace grace[SIM_CACHE_GRACES];	/* arrival mode	*/
};

/* Counters of the model, for tests and curiosity. */
struct sim_cache_stats {
	uint64_t lines;			/* lines created			*/
	uint64_t misses;		/* accesses that were not L1 hits	*/
	uint64_t transfers;		/* misses served by another CPU		*/
	uint64_t invalidations;		/* copies invalidated by writes		*/
	uint64_t waits;			/* misses that waited for a busy line	*/
};

/* Internal to sim/cache/cache.c, shared with the inline fast path below. */
struct sim__cache_memo {
	uintptr_t raw;			/* host address >> 6, ~0: empty		*/
	struct sim_cache_line *line;
};
extern struct sim__cache_memo sim__cache_memo[SIM_CACHE_MEMO];
extern uint64_t sim__cache_cost_ps[SIM_NR_ACCESS];
extern uint64_t sim__cache_sb_done_ps[SIM_MAX_CPUS];	/* per CPU */
extern uint64_t sim__cache_post_ps;	/* see sim_cache_access()	*/
uint64_t sim__cache_miss(struct sim_cpu *c, enum sim_access kind,
			 const volatile void *addr, uint64_t now_ps);

static inline unsigned int sim__cache_slot(uintptr_t raw)
{
	/* Fibonacci hashing: stacks 260 KiB apart must not collide */
	return (unsigned int)((raw * 0x9e3779b97f4a7c15ULL) >>
			      (64 - SIM_CACHE_MEMO_BITS));
}

/*
 * sim_cache_init - forget every line and take the costs of @p.  Called by
 * sim_machine_init() (after the CPUs' topology is set), whatever the
 * preset's cache-model key: parking uses the line identities in both
 * modes.
 */
void sim_cache_init(const struct sim_preset *p);

/*
 * sim_cache_prepare - empty the lookup memo now rather than at the first
 * sim_cache_init().  Called by a process that forks the runs
 * (sim/explore/explore_fork.c): each run's process then only reads the
 * memo's 64 pages, which it shares with the parent, instead of writing
 * them all.
 */
void sim_cache_prepare(void);

/*
 * sim_cache_each_line - call @fn(@line, @arg) for every line the model
 * met since sim_cache_init() (an access, or a line identity asked for)
 * that overlaps [@lo, @hi), @line its address; in no meaningful order.
 * sim_cache_epoch - how many times sim_cache_init() ran: the lines met
 * are those since the epoch the caller saw, if it is still the same.
 */
void sim_cache_each_line(unsigned long lo, unsigned long hi,
			 void (*fn)(unsigned long line, void *arg), void *arg);
extern unsigned long sim_cache_epoch;

#define SIM_CACHE_JITTER_MAX	50	/* percent				*/

/*
 * sim_cache_set_jitter - from now on, the cost of every miss (the line's
 * transfer, the L3 read, the invalidations; not the wait behind a busy
 * line, not hits) is drawn uniformly from c +- c * @pct / 200 through
 * sim_draw(SIM_DEC_JITTER), a decision of replay files.  Identical spin
 * loops on identical costs can run in lockstep forever; real lines do
 * not arrive on the same picosecond.  @pct 0, what sim_cache_init()
 * sets: exact costs, no draw.  Only the cache-line model is jittered.
 */
void sim_cache_set_jitter(unsigned int pct);

/* sim_cache_holds - does CPU @cpu hold a copy of @l? */
static inline int sim_cache_holds(const struct sim_cache_line *l, int cpu)
{
	return (l->holders[cpu >> 6] >> (cpu & 63)) & 1;
}

#define SIM_CACHE_NOT_HIT	UINT64_MAX

/*
 * sim_cache_hit_line_ps - the price of the access sim_cache_access()
 * would make, if it is an L1 hit (or a relax, or a fence with nothing to
 * drain), which changes no line; SIM_CACHE_NOT_HIT if it is not.  @l is
 * the line of the load, store or RMW (NULL: not known, no hit), unused
 * for a relax or a fence.  It changes nothing: a caller may ask, then
 * make the access as it is.  sim_cache_hit_ps - the same, the line
 * looked up in the memo (a line the memo does not hold: no hit).
 */
static inline uint64_t sim_cache_hit_line_ps(const struct sim_cpu *c,
					     enum sim_access kind,
					     const struct sim_cache_line *l,
					     uint64_t now_ps)
{
	int cpu = c->k.cpu;

	if (kind == SIM_LOAD) {
		if (l && sim_cache_holds(l, cpu))
			return sim__cache_cost_ps[SIM_LOAD];
	} else if (sim__cache_sb_done_ps[cpu] <= now_ps) {
		/* no store of this CPU pending (always so without a buffer) */
		if (kind >= SIM_RELAX)
			return sim__cache_cost_ps[kind];
		if (l && l->owner == cpu)
			return sim__cache_cost_ps[kind];
	} else if (kind == SIM_RELAX) {
		return sim__cache_cost_ps[SIM_RELAX];
	}
	return SIM_CACHE_NOT_HIT;
}

static inline uint64_t sim_cache_hit_ps(const struct sim_cpu *c,
					enum sim_access kind,
					const volatile void *addr, uint64_t now_ps)
{
	uintptr_t raw = (uintptr_t)addr >> SIM_CACHE_LINE_SHIFT;
	const struct sim__cache_memo *m;

	if (kind >= SIM_RELAX)		/* no line: no memo read */
		return sim_cache_hit_line_ps(c, kind, NULL, now_ps);
	m = &sim__cache_memo[sim__cache_slot(raw)];
	return sim_cache_hit_line_ps(c, kind, m->raw == raw ? m->line : NULL,
				     now_ps);
}

/*
 * sim_cache_access - price one access by CPU @c at @now_ps and update the
 * line's state (the table above).  @addr is NULL for SIM_RELAX and
 * SIM_FENCE; @size is not used (an access is priced by its first byte's
 * line).  The L1 hit is inline; everything else is sim__cache_miss().
 * Return: the picoseconds to add to @c's clock, waiting for a busy line
 * (and, for an RMW or a fence, for the CPU's store buffer) included.
 *
 * With the preset's line-handover = arrival, a miss (not a buffered
 * store) returns only the time until its request arrives, wait + X/2
 * for a transfer of X behind a miss in flight for wait (arrival-overlap:
 * max(X/2, wait), the queued request travels while it waits), and
 * leaves the rest, X - X/2 plus the
 * operation, in sim__cache_post_ps, which the caller takes (and zeroes) at once.
 * The caller lets every CPU with an earlier clock run, performs the
 * access at the arrival, then calls sim_cache_arrive() and adds the rest
 * to the clock (sim_hook()).  The line's state changes when the miss is
 * priced, as in issue mode, but until the arrival its former holders
 * (owner) may still load (store, RMW) as L1 hits completing before it:
 * struct sim_cache_grace.  sim__cache_post_ps stays 0 in issue mode.
 */
static inline uint64_t sim_cache_access(struct sim_cpu *c,
					enum sim_access kind,
					const volatile void *addr,
					unsigned int size, uint64_t now_ps)
{
	uint64_t hit_ps = sim_cache_hit_ps(c, kind, addr, now_ps);

	if (hit_ps != SIM_CACHE_NOT_HIT)
		return hit_ps;
	return sim__cache_miss(c, kind, addr, now_ps);
}

/*
 * sim_cache_spin_reload - CPU @c, in a spin-wait, reloads the word it
 * watches at @now_ps.  sim_cache_spin_done - that reload ended the wait;
 * @first_change: at the first change of the word (spin-exit overlap,
 * above; nothing when the preset's key is off).  Called by sim/machine/machine.c
 * (sim_spin_reload(), sim_spin_done()).
 */
void sim_cache_spin_reload(const struct sim_cpu *c, uint64_t now_ps);
void sim_cache_spin_done(const struct sim_cpu *c, int first_change);

/*
 * sim_cache_arrive - the access of CPU @c whose miss left a rest in
 * sim__cache_post_ps is performed now, at its arrival: its line's former
 * holders lose their grace.  Called by sim_hook().
 */
void sim_cache_arrive(const struct sim_cpu *c);

/*
 * sim_cache_line - the line of @addr, created (held by nobody) at its
 * first use.  Return: never NULL.  Inline: the memo's hit; the table
 * behind it is sim__cache_line_find().
 */
struct sim_cache_line *sim__cache_line_find(const volatile void *addr);
static inline struct sim_cache_line *sim_cache_line(const volatile void *addr)
{
	uintptr_t raw = (uintptr_t)addr >> SIM_CACHE_LINE_SHIFT;
	const struct sim__cache_memo *m = &sim__cache_memo[sim__cache_slot(raw)];

	if (__builtin_expect(m->raw == raw, 1))
		return m->line;
	return sim__cache_line_find(addr);
}

/* sim_cache_line_id - the identity of @addr's line: two addresses are in
 * one line iff their ids are equal.  Return: the id, >= 1. */
static inline uint64_t sim_cache_line_id(const volatile void *addr)
{
	return sim_cache_line(addr)->id;
}

/* sim_cache_check - the invariants of @l. Return: NULL, or what is wrong. */
const char *sim_cache_check(const struct sim_cache_line *l);

/* sim_cache_stats - the counters since sim_cache_init(). */
const struct sim_cache_stats *sim_cache_stats(void);

#endif /* SIM_CACHE_H */
