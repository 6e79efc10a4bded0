/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/failure_lines.c - file:line of the frames of a failure report.
 *
 * Stage: report.  Called by sim/report/failure.c only: it hands over every code
 * address of the report's stacks (sim__failure_lines_add()), has them
 * resolved at once (sim__failure_lines_resolve(): one addr2line run,
 * sim/report/lines.h) and reads each back (sim__failure_lines_of()).
 *
 * If addr2line is missing, fails or the binary has no line tables, no
 * address resolves and the report keeps function names only.  Nothing
 * here reaches the report but function names and source paths
 * (sim/report/lines.h says which paths).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sim/report/failure.h"
#include "sim/report/lines.h"

#define LINES_MAX_PCS	1024		/* distinct addresses resolved	*/
#define LINES_TEXT	512		/* resolved text per address	*/

static struct lines_pc {
	uintptr_t pc;			/* 0: free slot			*/
	char text[LINES_TEXT];		/* "fn\tloc\n" ...; "" none	*/
	int resolved;
} lines_tab[LINES_MAX_PCS];
static int lines_nr;

static struct lines_pc *lines_slot(uintptr_t pc)
{
	unsigned int h = (unsigned int)((pc * 0x9e3779b97f4a7c15ULL) >> 54);
	unsigned int i;

	for (i = 0; i < LINES_MAX_PCS; i++) {
		struct lines_pc *e = &lines_tab[(h + i) % LINES_MAX_PCS];

		if (!e->pc || e->pc == pc)
			return e;
	}
	return NULL;
}

void sim__failure_lines_add(uintptr_t pc)
{
	struct lines_pc *e;

	if (!pc || lines_nr >= LINES_MAX_PCS * 3 / 4)
		return;
	e = lines_slot(pc);
	if (e && !e->pc) {
		e->pc = pc;
		lines_nr++;
	}
}

/* One (function, location) pair of address @i of the batch. */
static void lines_pair(int i, const char *fn, const char *loc, void *arg)
{
	struct lines_pc *e = lines_slot(((const uintptr_t *)arg)[i]);
	size_t used;

	if (!e)
		return;
	used = strlen(e->text);
	if (loc[0])
		e->resolved = 1;
	snprintf(e->text + used, sizeof(e->text) - used, "%s\t%s\n", fn, loc);
}

void sim__failure_lines_resolve(void)
{
	static uintptr_t pcs[LINES_MAX_PCS];
	int i, n = 0;

	for (i = 0; i < LINES_MAX_PCS; i++)
		if (lines_tab[i].pc && !lines_tab[i].text[0])
			pcs[n++] = lines_tab[i].pc;
	sim_lines_resolve(pcs, n, lines_pair, pcs);
}

const char *sim__failure_lines_of(uintptr_t pc)
{
	struct lines_pc *e = pc ? lines_slot(pc) : NULL;

	return e && e->pc == pc && e->resolved ? e->text : NULL;
}
