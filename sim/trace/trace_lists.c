/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/trace_lists.c - short lists of numbers kept once, for the
 * page of an HTML trace: the waiters of a futex hash bucket as the kernel
 * keeps them (its plist, read at each unlock of the bucket's lock:
 * futex/hb_view.h), and the values of a built-in lock's words.
 *
 * Stage: trace/report.  sim/trace/trace.c keeps a list while it builds a
 * record and puts the list's index + 1 in the record; the HTML writer
 * (sim/trace/trace_html.c) writes each table at the page's end.
 *
 * Most lists repeat (an empty bucket, one waiter; the same few states of
 * a lock), so each is kept once, in the order first seen: the page is a
 * function of the run alone.  Memory is fixed: past LISTS_NR lists or
 * LISTS_VALUES values in a table a record gets none (0), and the page
 * says so.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sim/trace/trace_writer.h"

#define LISTS_NR	16384		/* distinct lists, a power of two */
#define LISTS_VALUES	(1 << 18)	/* their values, in all		*/

static struct lists {
	int nr;
	uint32_t at[LISTS_NR];		/* list -> its first value	*/
	uint8_t len[LISTS_NR];		/* values kept			*/
	int more[LISTS_NR];		/* entries beyond them		*/
	int slot[2 * LISTS_NR];		/* hash: list -> index + 1	*/
	uint32_t v[LISTS_VALUES];
	uint32_t used;
} lists[SIM_TLIST_NR];

void sim__tlist_reset(void)
{
	memset(lists, 0, sizeof(lists));
}

uint32_t sim__tlist_keep(enum sim_tlist which, const uint32_t *v, int n,
			 int more)
{
	struct lists *t = &lists[which];
	unsigned int hash = 2166136261u, s;
	int i;

	if (n > SIM_TLIST_MAX)
		return 0;
	for (i = 0; i < n; i++)
		hash = (hash ^ v[i]) * 16777619u;
	hash = (hash ^ (unsigned int)more) * 16777619u;
	for (s = hash & (2 * LISTS_NR - 1); t->slot[s];
	     s = (s + 1) & (2 * LISTS_NR - 1)) {
		i = t->slot[s] - 1;
		if (t->len[i] == n && t->more[i] == more &&
		    !memcmp(t->v + t->at[i], v, (size_t)n * sizeof(v[0])))
			return (uint32_t)i + 1;
	}
	if (t->nr >= LISTS_NR || t->used + (uint32_t)n > LISTS_VALUES)
		return 0;
	i = t->nr++;
	t->at[i] = t->used;
	t->len[i] = (uint8_t)n;
	t->more[i] = more;
	memcpy(t->v + t->used, v, (size_t)n * sizeof(v[0]));
	t->used += (uint32_t)n;
	t->slot[s] = i + 1;
	return (uint32_t)i + 1;
}

void sim__tlist_write(FILE *f, enum sim_tlist which, const char *key)
{
	const struct lists *t = &lists[which];

	fprintf(f, ",\n\"%s\":[", key);
	for (int i = 0; i < t->nr; i++) {
		fputs(i ? ",[" : "[", f);
		for (int j = 0; j < t->len[i]; j++)
			fprintf(f, "%s%u", j ? "," : "", t->v[t->at[i] + j]);
		if (t->more[i])
			fprintf(f, "%s%d", t->len[i] ? "," : "", -t->more[i]);
		fputc(']', f);
	}
	fputc(']', f);
}
