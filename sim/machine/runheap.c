/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/runheap.c - the CPUs that may run, in a binary min-heap ordered by
 * (now_ps, CPU number).  See sim/machine/runheap.h.
 *
 * Stage: machine.  Called by sim/machine/machine.c at every dispatch, so it is on
 * the simulator's hot path: O(log n) per insertion and removal, and
 * O(ties) to find the CPUs that share the smallest clock; while it holds
 * a few CPUs, a sorted array instead (below).  A tie-break
 * is a decision of replay files (sim_draw(), sim/replay/replay.h).
 */
#include <stdbool.h>

#include "sim/machine/machine.h"
#include "sim/replay/replay.h"
#include "sim/machine/runheap.h"

struct sim_cpu *sim__runheap[SIM_MAX_CPUS];
int sim__runheap_nr;
/* short names inside this file for the two the header reads inline */
#define heap	sim__runheap
#define nr	sim__runheap_nr
/*
 * A few CPUs are kept sorted instead ("flat"), from the largest (now_ps,
 * CPU number) to the smallest: the next CPU is the last, its equals are
 * just before it, and an insertion moves a few pointers.  CPUs enter and
 * leave at every dispatch; a few moves cost less than the heap's
 * sifting.  The array becomes a heap when it grows past FLAT_MAX and
 * sorted again when it shrinks to FLAT_MIN.  The CPUs returned are the
 * same either way: the smallest clock, and among equal clocks the PRNG's
 * pick by CPU number.
 */
#define FLAT_MAX	16
#define FLAT_MIN	8
static bool flat = true;

/*
 * key[i] is heap[i]'s clock, kept beside it: most comparisons then read
 * no CPU.  A CPU's clock does not change while it is in the heap (the
 * tick takes it out and puts it back).  sim__runheap_min_ps is the
 * smallest, for the inline sim_runheap_min_ps().
 */
static uint64_t key[SIM_MAX_CPUS];
uint64_t sim__runheap_min_ps = UINT64_MAX;

static inline void set_min(void)
{
	sim__runheap_min_ps = !nr ? UINT64_MAX : key[flat ? nr - 1 : 0];
}

/* Is the CPU at @i before @c (clock, then CPU number)? */
static inline int before_at(int i, const struct sim_cpu *c)
{
	if (key[i] != c->now_ps)
		return key[i] < c->now_ps;
	return heap[i]->k.cpu < c->k.cpu;
}

/* Is @c before the CPU at @i? */
static inline int at_after(const struct sim_cpu *c, int i)
{
	if (key[i] != c->now_ps)
		return c->now_ps < key[i];
	return c->k.cpu < heap[i]->k.cpu;
}

static inline void place(struct sim_cpu *c, int i)
{
	heap[i] = c;
	key[i] = c->now_ps;
	c->run_idx = i;
}

static void sift_up(int i)
{
	struct sim_cpu *c = heap[i];

	while (i > 0 && at_after(c, (i - 1) / 2)) {
		place(heap[(i - 1) / 2], i);
		i = (i - 1) / 2;
	}
	place(c, i);
}

static void sift_down(int i)
{
	struct sim_cpu *c = heap[i];

	for (;;) {
		int child = 2 * i + 1;

		if (child >= nr)
			break;
		if (child + 1 < nr && before_at(child + 1, heap[child]))
			child++;
		if (!before_at(child, c))
			break;
		place(heap[child], i);
		i = child;
	}
	place(c, i);
}

/* Sorted descending -> heap: reversed, the array is sorted ascending,
 * which is a min-heap. */
static void to_heap(void)
{
	for (int i = 0, j = nr - 1; i < j; i++, j--) {
		struct sim_cpu *t = heap[i];

		place(heap[j], i);
		place(t, j);
	}
	flat = false;
}

/* heap -> sorted descending (an insertion sort of FLAT_MIN CPUs). */
static void to_flat(void)
{
	for (int i = 1; i < nr; i++) {
		struct sim_cpu *c = heap[i];
		int j = i;

		for (; j > 0 && before_at(j - 1, c); j--)
			place(heap[j - 1], j);
		place(c, j);
	}
	flat = true;
}

static void remove_at(int i)
{
	struct sim_cpu *c = heap[i];

	c->run_idx = -1;
	if (flat) {
		for (nr--; i < nr; i++)
			place(heap[i + 1], i);
		set_min();
		return;
	}
	if (--nr != i) {
		place(heap[nr], i);
		sift_up(i);
		sift_down(heap[i]->run_idx);
	}
	if (nr <= FLAT_MIN)
		to_flat();
	set_min();
}

void sim_runheap_reset(void)
{
	for (int i = 0; i < nr; i++)
		heap[i]->run_idx = -1;
	nr = 0;
	flat = true;
	set_min();
}

void sim_runheap_add(struct sim_cpu *c)
{
	int i;

	if (flat && nr == FLAT_MAX)
		to_heap();
	i = nr++;
	if (!flat) {
		place(c, i);
		sift_up(i);
	} else {
		for (; i > 0 && before_at(i - 1, c); i--)
			place(heap[i - 1], i);
		place(c, i);
	}
	set_min();
}

/* Collect the heap positions whose clock equals the minimum; they form a
 * subtree at the root. */
static int collect_ties(int i, uint64_t t, int *out, int n)
{
	if (i >= nr || key[i] != t)
		return n;
	out[n++] = i;
	n = collect_ties(2 * i + 1, t, out, n);
	return collect_ties(2 * i + 2, t, out, n);
}

/* The flat array's CPUs at the smallest clock: the last and its equals
 * before it, in ascending CPU number from the last.  Return: how many. */
static inline int flat_ties(void)
{
	int n = 1;

	while (n < nr && key[nr - 1 - n] == key[nr - 1])
		n++;
	return n;
}

struct sim_cpu *sim_runheap_pop_earliest(void)
{
	int ties[SIM_MAX_CPUS], n, pick = 0;

	if (!nr)
		return NULL;
	if (flat) {
		struct sim_cpu *c;

		n = flat_ties();
		pick = nr - 1;
		if (n > 1)	/* the k-th smallest CPU number among them */
			pick -= (int)sim_draw(SIM_DEC_TIE, n);
		c = heap[pick];
		remove_at(pick);
		return c;
	}
	if (nr > 1 && key[1] != key[0] && (nr < 3 || key[2] != key[0])) {
		struct sim_cpu *c = heap[0];

		remove_at(0);
		return c;
	}
	n = collect_ties(0, key[0], ties, 0);
	if (n > 1) {
		/* the k-th smallest CPU number among the tied ones */
		uint64_t k = sim_draw(SIM_DEC_TIE, n);

		for (int i = 0; i < n; i++) {
			int rank = 0;

			for (int j = 0; j < n; j++)
				rank += heap[ties[j]]->k.cpu < heap[ties[i]]->k.cpu;
			if ((uint64_t)rank == k)
				pick = ties[i];
		}
	}
	struct sim_cpu *c = heap[pick];

	remove_at(pick);
	return c;
}

/* The CPU at @pick of the flat array leaves, and @c (not before it)
 * goes in at its place in the order.  Return: the CPU that left. */
static inline struct sim_cpu *flat_replace(struct sim_cpu *c, int pick)
{
	struct sim_cpu *min = heap[pick];
	int i;

	min->run_idx = -1;
	for (i = pick; i < nr - 1; i++)
		place(heap[i + 1], i);
	for (i = nr - 1; i > 0 && before_at(i - 1, c); i--)
		place(heap[i - 1], i);
	place(c, i);
	set_min();
	return min;
}

/*
 * push_pop's case of a tie at the smallest clock, out of line (its
 * frame is the common cases' cost otherwise): the CPUs at that clock,
 * @c among them if it has it, are counted in place and the same draw
 * as add + pop picks one by its rank in CPU number; @c, if another is
 * picked, goes in at its place.  Ties are common: spinners that park
 * and reload on one cost grid meet at the same clocks.
 */
static struct sim_cpu * __attribute__((noinline))
push_pop_tie(struct sim_cpu *c)
{
	int n = flat_ties(), pick = nr - 1;

	if (c->now_ps == key[nr - 1]) {
		/* @c is one of n + 1, after the @below with smaller numbers */
		int below = 0, k;

		while (below < n && heap[nr - 1 - below]->k.cpu < c->k.cpu)
			below++;
		k = (int)sim_draw(SIM_DEC_TIE, n + 1);
		if (k == below)
			return c;
		pick -= k < below ? k : k - 1;
	} else if (n > 1) {
		pick -= (int)sim_draw(SIM_DEC_TIE, n);
	}
	return flat_replace(c, pick);
}

/*
 * In the flat array, sim_runheap_add(@c) and then
 * sim_runheap_pop_earliest() in one pass, @c never moved twice: @c alone
 * before every CPU of the array stays out; the last CPU alone before @c
 * and every other leaves, and @c goes in (neither draws: the PRNG tells
 * apart only equal clocks); a tie is push_pop_tie()'s.
 */
struct sim_cpu *sim_runheap_push_pop(struct sim_cpu *c)
{
	uint64_t t;

	if (!flat || nr == FLAT_MAX) {
		sim_runheap_add(c);
		return sim_runheap_pop_earliest();
	}
	if (!nr || c->now_ps < key[nr - 1])
		return c;
	t = key[nr - 1];
	if (c->now_ps == t || (nr > 1 && key[nr - 2] == t))
		return push_pop_tie(c);
	return flat_replace(c, nr - 1);
}

void sim_runheap_remove(struct sim_cpu *c)
{
	remove_at(c->run_idx);
}
