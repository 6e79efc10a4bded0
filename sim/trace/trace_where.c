/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/trace_where.c - where each task is, for the page of an HTML
 * trace: the task's stack when a sched_switch takes it off its CPU and
 * when it calls futex(2) or nanosleep(2), as functions and file:line
 * (docs/view.md, "Where a task is").
 *
 * Stage: trace/report.  sim/trace/trace.c calls sim__where_here() on the
 * task's own stack while it builds the record (the scheduler's switch
 * runs on the stack of the task it switches away from; a system call's
 * entry on its caller's), and the HTML writer (sim/trace/trace_html.c)
 * writes the tables at the page's end with sim__where_write().  Calls
 * libunwind for the frames and sim/report/lines.h (one addr2line run)
 * for their names.
 *
 * A stack is kept once: a record carries the index of its stack, the
 * table's order is the order stacks are first seen, and a code address
 * only finds its slot in the hash; so the page depends on the run and
 * the executable only, never on where the host mapped anything.  The
 * names are those of the source (sim/report/lines.h): no address is
 * written.  Taking a stack is an unwind of at most WHERE_FRAMES frames
 * without names; tracing never changes the run (no hook, no charge).
 * Memory is fixed; past WHERE_STACKS stacks or WHERE_PCS addresses a
 * record gets no stack (the page says "not recorded").
 */
#define UNW_LOCAL_ONLY
#include <libunwind.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/report/lines.h"
#include "sim/trace/trace_writer.h"

#define WHERE_FRAMES	24		/* frames kept of a stack	*/
#define WHERE_STACKS	8192		/* distinct stacks, a power of two */
#define WHERE_PCS	8192		/* distinct code addresses, ditto */
#define WHERE_INLINE	6		/* functions told at one address */
#define WHERE_TEXT	(1 << 20)	/* the functions' and files' text */

static struct {
	/* code addresses, in the order first seen */
	int nr_pcs;
	uintptr_t pc[WHERE_PCS];
	int pc_slot[2 * WHERE_PCS];	/* hash: address -> index + 1	*/
	/* stacks: WHERE_FRAMES address indices each, innermost first */
	int nr_stacks;
	uint16_t frame[WHERE_STACKS][WHERE_FRAMES];
	uint8_t len[WHERE_STACKS];
	int st_slot[2 * WHERE_STACKS];	/* hash: stack -> index + 1	*/
} w;

/* What addr2line told of each address: up to WHERE_INLINE functions,
 * innermost first, each an index into the names. */
static struct {
	uint8_t nr[WHERE_PCS];
	uint16_t name[WHERE_PCS][WHERE_INLINE];
	int nr_names;
	uint32_t at[WHERE_PCS];		/* name -> "fn\0loc\0" in text	*/
	char text[WHERE_TEXT];
	size_t used;
} n;

void sim__where_reset(void)
{
	memset(&w, 0, sizeof(w));
}

/* The index of @pc, or -1 if the table is full. */
static int pc_index(uintptr_t pc)
{
	unsigned int s = (unsigned int)((pc * 0x9e3779b97f4a7c15ULL) >> 40) &
			 (2 * WHERE_PCS - 1);

	while (w.pc_slot[s]) {
		int i = w.pc_slot[s] - 1;

		if (w.pc[i] == pc)
			return i;
		s = (s + 1) & (2 * WHERE_PCS - 1);
	}
	if (w.nr_pcs >= WHERE_PCS)
		return -1;
	w.pc[w.nr_pcs] = pc;
	w.pc_slot[s] = w.nr_pcs + 1;
	return w.nr_pcs++;
}

uint32_t sim__where_here(void)
{
	uint16_t f[WHERE_FRAMES];
	unw_context_t ctx;
	unw_cursor_t cur;
	unw_word_t ip;
	unsigned int hash = 2166136261u, s;
	int nr = 0, i;

	if (unw_getcontext(&ctx) < 0 || unw_init_local(&cur, &ctx) < 0)
		return 0;
	/* the first frame is this function's: from its caller on */
	while (nr < WHERE_FRAMES && unw_step(&cur) > 0) {
		if (unw_get_reg(&cur, UNW_REG_IP, &ip) < 0 || !ip)
			break;
		i = pc_index((uintptr_t)ip - 1);	/* inside the call */
		if (i < 0)
			return 0;
		f[nr++] = (uint16_t)i;
		hash = (hash ^ (unsigned int)i) * 16777619u;
	}
	for (s = hash & (2 * WHERE_STACKS - 1); w.st_slot[s];
	     s = (s + 1) & (2 * WHERE_STACKS - 1)) {
		i = w.st_slot[s] - 1;
		if (w.len[i] == nr &&
		    !memcmp(w.frame[i], f, (size_t)nr * sizeof(f[0])))
			return (uint32_t)i + 1;
	}
	if (w.nr_stacks >= WHERE_STACKS)
		return 0;
	i = w.nr_stacks++;
	memcpy(w.frame[i], f, (size_t)nr * sizeof(f[0]));
	w.len[i] = (uint8_t)nr;
	w.st_slot[s] = i + 1;
	return (uint32_t)i + 1;
}

/* ---- the names ---------------------------------------------------------- */

/* The index of the name (@fn, @loc), kept once; -1 when full. */
static int name_index(const char *fn, const char *loc)
{
	size_t a = strlen(fn) + 1, b = strlen(loc) + 1;
	int i;

	/* few distinct names: a linear search is enough at the page's end */
	for (i = 0; i < n.nr_names; i++)
		if (!strcmp(n.text + n.at[i], fn) &&
		    !strcmp(n.text + n.at[i] + a, loc))
			return i;
	if (n.nr_names >= WHERE_PCS || n.used + a + b > WHERE_TEXT)
		return -1;
	n.at[n.nr_names] = (uint32_t)n.used;
	memcpy(n.text + n.used, fn, a);
	memcpy(n.text + n.used + a, loc, b);
	n.used += a + b;
	return n.nr_names++;
}

static void where_pair(int i, const char *fn, const char *loc, void *arg)
{
	int k;

	(void)arg;
	if (n.nr[i] >= WHERE_INLINE || (k = name_index(fn, loc)) < 0)
		return;
	n.name[i][n.nr[i]++] = (uint16_t)k;
}

static const char *name_fn(int k) { return n.text + n.at[k]; }
static const char *name_loc(int k)
{
	return n.text + n.at[k] + strlen(name_fn(k)) + 1;
}

/* The simulator's own frames around a stack (sim_lines_machinery()). */
static int machinery(int k)
{
	const char *fn = name_fn(k), *loc = name_loc(k);

	return sim_lines_machinery(fn, (int)strlen(fn), loc, (int)strlen(loc));
}

/* Stack @i as name indices into @out, the machinery's frames left out at
 * both ends.  Return: how many. */
static int stack_names(int i, int *out, int max)
{
	int all[WHERE_FRAMES * WHERE_INLINE], nr = 0, lo = 0, j, k;

	for (j = 0; j < w.len[i]; j++)
		for (k = 0; k < n.nr[w.frame[i][j]]; k++)
			all[nr++] = n.name[w.frame[i][j]][k];
	while (lo < nr && machinery(all[lo]))
		lo++;
	while (nr > lo && machinery(all[nr - 1]))
		nr--;
	for (j = lo; j < nr && j - lo < max; j++)
		out[j - lo] = all[j];
	return j - lo;
}

/* The page's tables: ,"frames":[[fn,loc],...],"where":[[k,...],...];
 * stack i of the records (where i + 1) is where[i], its frames
 * innermost first. */
void sim__where_write(FILE *f, void (*put_str)(FILE *, const char *))
{
	int out[WHERE_FRAMES * WHERE_INLINE], i, j, k;

	memset(&n, 0, sizeof(n));
	if (w.nr_stacks)
		sim_lines_resolve(w.pc, w.nr_pcs, where_pair, NULL);
	fputs(",\n\"frames\":[", f);
	for (k = 0; k < n.nr_names; k++) {
		fputs(k ? ",[" : "[", f);
		put_str(f, name_fn(k));
		fputc(',', f);
		put_str(f, name_loc(k));
		fputc(']', f);
	}
	fputs("],\n\"where\":[", f);
	for (i = 0; i < w.nr_stacks; i++) {
		int m = stack_names(i, out, WHERE_FRAMES * WHERE_INLINE);

		fputs(i ? ",[" : "[", f);
		for (j = 0; j < m; j++)
			fprintf(f, "%s%d", j ? "," : "", out[j]);
		fputc(']', f);
	}
	fputc(']', f);
}
