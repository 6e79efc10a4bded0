/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/stats.c - the log-linear latency histogram and Jain's fairness index.
 *
 * Stage: trace/report.  The workload driver (workloads/) records one
 * acquisition latency per operation with sim_hist_add(), merges the
 * per-thread histograms with sim_hist_merge() and turns them into the
 * p50/p99 figures of a struct sim_result with sim_hist_percentile(); it
 * computes the fairness figure with sim_jain().  Calls nothing but libc.
 *
 * Bucket layout (SIM_HIST_BUCKETS = 1024 + 54 * SIM_HIST_SUB):
 *
 *   index 0..1023     the value itself (exact)
 *   index 1024 + (e - 10) * 64 + s, for 2^e <= v < 2^(e+1), 10 <= e <= 63:
 *                     s = the 6 bits of v below its leading bit, so the
 *                     bucket holds [(64 + s) << (e - 6), (65 + s) << (e - 6))
 *
 * A bucket is 2^(e-6) wide and its values are >= 2^e, so reporting its
 * upper bound overstates a value by less than 1/64 (1.5625%).  Everything
 * is integer arithmetic on the recorded values: the result depends on
 * nothing else.
 */
#include <string.h>
#include <sys/mman.h>

#include "sim/report/stats.h"

#define SUB_BITS	6		/* log2(SIM_HIST_SUB)		*/
#define EXACT_BITS	10		/* values below 2^10 are exact	*/
#define EXACT		(1u << EXACT_BITS)

_Static_assert(SIM_HIST_SUB == 1 << SUB_BITS, "SUB_BITS must match SIM_HIST_SUB");
_Static_assert(SIM_HIST_BUCKETS == EXACT + (64 - EXACT_BITS) * SIM_HIST_SUB,
	       "one group of SIM_HIST_SUB buckets per power of two 2^10..2^63");

static unsigned int hist_index(uint64_t v)
{
	unsigned int e;
	uint64_t sub;

	if (v < EXACT)
		return (unsigned int)v;
	e = 63 - (unsigned int)__builtin_clzll(v);
	sub = (v >> (e - SUB_BITS)) & (SIM_HIST_SUB - 1);
	return EXACT + (e - EXACT_BITS) * SIM_HIST_SUB + (unsigned int)sub;
}

/* The largest value that falls into bucket @i (no overflow at the top:
 * the last bucket ends exactly at UINT64_MAX). */
static uint64_t hist_upper(unsigned int i)
{
	unsigned int e, sub;
	uint64_t lower;

	if (i < EXACT)
		return i;
	e = EXACT_BITS + (i - EXACT) / SIM_HIST_SUB;
	sub = (i - EXACT) % SIM_HIST_SUB;
	lower = (uint64_t)(SIM_HIST_SUB + sub) << (e - SUB_BITS);
	return lower + ((1ull << (e - SUB_BITS)) - 1);
}

uint64_t sim_hist_bucket_upper(unsigned int i)
{
	return hist_upper(i);
}

_Static_assert(SIM_HIST_BUCKETS % SIM_HIST_GROUP == 0, "whole groups");

void sim_hist_add(struct sim_hist *h, uint64_t v)
{
	unsigned int i = hist_index(v);

	h->bucket[i]++;
	h->group[i / SIM_HIST_GROUP]++;
	h->count++;
	if (v > h->max)
		h->max = v;
}

/* The groups that may hold values: none past the maximum's. */
static unsigned int hist_groups(const struct sim_hist *h)
{
	return h->count ? hist_index(h->max) / SIM_HIST_GROUP + 1 : 0;
}

/* Clearing and merging go by group: a group summing to 0 has only empty
 * buckets, and a run's few values lie in a few of the groups. */
void sim_hist_clear(struct sim_hist *h)
{
	unsigned int g, n = hist_groups(h);

	for (g = 0; g < n; g++)
		if (h->group[g]) {
			memset(&h->bucket[g * SIM_HIST_GROUP], 0,
			       SIM_HIST_GROUP * sizeof(h->bucket[0]));
			h->group[g] = 0;
		}
	h->count = 0;
	h->max = 0;
}

/*
 * Histograms given back, emptied, for the next sim_hist_new(): explore
 * runs a program again and again in one process, and a mapping made and
 * unmapped per thread and run would cost two system calls and a page
 * fault or three each time.  A forked run's process takes them from the
 * list too; what it writes there it faults in, as it would a new one.
 */
#define HIST_SPARE	256

static struct sim_hist *spare[HIST_SPARE];
static int nr_spare;

struct sim_hist *sim_hist_new(void)
{
	void *h;

	if (nr_spare)
		return spare[--nr_spare];
	h = mmap(NULL, sizeof(struct sim_hist), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return h == MAP_FAILED ? NULL : h;
}

void sim_hist_free(struct sim_hist *h)
{
	if (!h)
		return;
	if (nr_spare < HIST_SPARE) {
		sim_hist_clear(h);
		spare[nr_spare++] = h;
		return;
	}
	munmap(h, sizeof(*h));
}

void sim_hist_merge(struct sim_hist *dst, const struct sim_hist *src)
{
	unsigned int g, i, n = hist_groups(src);

	for (g = 0; g < n; g++) {
		if (!src->group[g])
			continue;
		for (i = g * SIM_HIST_GROUP; i < (g + 1) * SIM_HIST_GROUP; i++)
			dst->bucket[i] += src->bucket[i];
		dst->group[g] += src->group[g];
	}
	dst->count += src->count;
	if (src->max > dst->max)
		dst->max = src->max;
}

/*
 * The rank wanted is ceil(p * count / 100), at least 1.  p * count and the
 * division are exact for integral products below 2^53, so p = 50 or 99 of
 * a round count gives the textbook rank, not one more.
 */
uint64_t sim_hist_percentile(const struct sim_hist *h, double p)
{
	uint64_t rank, seen = 0;
	double want;
	unsigned int i;

	if (h->count == 0)
		return 0;
	if (p > 100.0)
		p = 100.0;
	want = p * (double)h->count / 100.0;
	rank = want > 0.0 ? (uint64_t)want : 0;
	if ((double)rank < want)
		rank++;
	if (rank == 0)
		rank = 1;

	/* the group that holds the rank, then its bucket */
	for (i = 0; i < SIM_HIST_GROUPS - 1 &&
		    seen + h->group[i] < rank; i++)
		seen += h->group[i];
	for (i *= SIM_HIST_GROUP; i < SIM_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			uint64_t up = hist_upper(i);

			return up < h->max ? up : h->max;
		}
	}
	return h->max;		/* not reached while count matches buckets */
}

/* Sums in double: exact enough for an index in [1/n, 1], and the same
 * order of additions every time, so the same bits every time. */
double sim_jain(const uint64_t *x, int n)
{
	double sum = 0.0, sq = 0.0;
	int i;

	for (i = 0; i < n; i++) {
		double v = (double)x[i];

		sum += v;
		sq += v * v;
	}
	if (n <= 0 || sq == 0.0)
		return 1.0;
	return sum * sum / ((double)n * sq);
}
