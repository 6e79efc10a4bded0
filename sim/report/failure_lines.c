/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/failure_lines.c - file:line of the frames of a failure report.
 *
 * Stage: report.  Called by sim/report/failure.c only: it hands over every code
 * address of the report's stacks (sim__failure_lines_add()), has them
 * resolved at once (sim__failure_lines_resolve()) and reads each back
 * (sim__failure_lines_of()).  Calls dl_iterate_phdr() for where the
 * executable is mapped, and runs binutils' addr2line ONCE per report
 * through popen() on the executable's DWARF line tables (the build
 * compiles everything with -g); no library beyond libc is needed.
 *
 * If addr2line is missing, fails or the binary has no line tables, no
 * address resolves and the report keeps function names only.  Nothing
 * here reaches the report but function names and source paths, and paths
 * are made relative to the source tree (FUTEXSIM_SOURCE_DIR) and, for
 * the kernel tree extracted into the build directory, to the kernel's
 * top directory (kernel/futex/core.c), so a report does not depend on
 * host addresses nor on the build directory's name.  Addresses outside
 * the executable (libc, libunwind) are not resolved.
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/report/failure.h"
#include "version.h"

#define LINES_MAX_PCS	1024		/* distinct addresses resolved	*/
#define LINES_TEXT	512		/* resolved text per address	*/

static struct lines_pc {
	uintptr_t pc;			/* 0: free slot			*/
	char text[LINES_TEXT];		/* "fn\tloc\n" ...; "" none	*/
	char last_fn[128];		/* function of the last pair	*/
	int resolved;
} lines_tab[LINES_MAX_PCS];
static int lines_nr;

/* The executable's load bias and its mapped range. */
static struct {
	uintptr_t bias, lo, hi;
	int found;
} lines_exe;

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

/* The first object dl_iterate_phdr() reports is the executable. */
static int lines_phdr(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t lo = UINTPTR_MAX, hi = 0, a;
	int i;

	for (i = 0; i < info->dlpi_phnum; i++) {
		if (info->dlpi_phdr[i].p_type != PT_LOAD ||
		    !(info->dlpi_phdr[i].p_flags & PF_X))
			continue;
		a = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
		if (a < lo)
			lo = a;
		if (a + info->dlpi_phdr[i].p_memsz > hi)
			hi = a + info->dlpi_phdr[i].p_memsz;
	}
	lines_exe.bias = info->dlpi_addr;
	lines_exe.lo = lo;
	lines_exe.hi = hi;
	lines_exe.found = lo < hi;
	return 1;
}

/* @path relative to the source tree or to the extracted kernel tree. */
static const char *lines_path(const char *path)
{
	static const char *const ktops[] = {
		"kernel/", "lib/", "include/", "arch/", "mm/",
	};
	size_t n = strlen(FUTEXSIM_SOURCE_DIR);
	const char *k;
	size_t i;

	if (!strncmp(path, FUTEXSIM_SOURCE_DIR, n) && path[n] == '/')
		path += n + 1;
	while (!strncmp(path, "./", 2))
		path += 2;
	k = strstr(path, "/linux/");
	for (i = 0; k && i < sizeof(ktops) / sizeof(ktops[0]); i++)
		if (!strncmp(k + 7, ktops[i], strlen(ktops[i])))
			return k + 7;
	return path;
}

/* One (function, location) pair of addr2line's output into @e. */
static void lines_pair(struct lines_pc *e, char *fn, char *loc)
{
	size_t used = strlen(e->text);
	char *p;

	fn[strcspn(fn, "\n")] = 0;
	loc[strcspn(loc, "\n")] = 0;
	/* a function "inlined" into its own out-of-line copy: one frame */
	if (used && !strcmp(fn, e->last_fn))
		return;
	snprintf(e->last_fn, sizeof(e->last_fn), "%.127s", fn);
	p = strstr(loc, " (discriminator");
	if (p)
		*p = 0;
	if (!strncmp(loc, "??", 2) || !strcmp(fn, "??")) {
		loc[0] = 0;	/* no line table entry: name only */
	} else {
		memmove(loc, lines_path(loc), strlen(lines_path(loc)) + 1);
		e->resolved = 1;
	}
	snprintf(e->text + used, sizeof(e->text) - used, "%s\t%s\n", fn, loc);
}

/* Read addr2line -a -f -i: "0xADDR", then pairs of lines (function,
 * file:line), innermost inlined function first. */
static void lines_read(FILE *p)
{
	static char fn[512], loc[1024];
	struct lines_pc *e = NULL;

	while (fgets(fn, sizeof(fn), p)) {
		if (!strncmp(fn, "0x", 2)) {
			uintptr_t a = (uintptr_t)strtoull(fn, NULL, 16);

			e = lines_slot(a + lines_exe.bias);
			if (e && e->pc != a + lines_exe.bias)
				e = NULL;
			continue;
		}
		if (!fgets(loc, sizeof(loc), p))
			break;
		if (e)
			lines_pair(e, fn, loc);
	}
}

void sim__failure_lines_resolve(void)
{
	static char cmd[LINES_MAX_PCS * 20 + 128];
	size_t used;
	FILE *p;
	int i, n = 0;

	dl_iterate_phdr(lines_phdr, NULL);
	if (!lines_exe.found)
		return;
	used = (size_t)snprintf(cmd, sizeof(cmd),
				"addr2line -a -f -i -e /proc/%d/exe",
				(int)getpid());
	for (i = 0; i < LINES_MAX_PCS; i++) {
		uintptr_t pc = lines_tab[i].pc;

		if (!pc || pc < lines_exe.lo || pc >= lines_exe.hi)
			continue;
		used += (size_t)snprintf(cmd + used, sizeof(cmd) - used,
					 " 0x%lx",
					 (unsigned long)(pc - lines_exe.bias));
		n++;
	}
	if (!n)
		return;
	snprintf(cmd + used, sizeof(cmd) - used, " 2>/dev/null");
	p = popen(cmd, "r");
	if (!p)
		return;
	lines_read(p);
	pclose(p);
}

const char *sim__failure_lines_of(uintptr_t pc)
{
	struct lines_pc *e = pc ? lines_slot(pc) : NULL;

	return e && e->pc == pc && e->resolved ? e->text : NULL;
}
