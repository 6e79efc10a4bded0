/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/lines.c - code addresses as function and file:line, through
 * addr2line (see sim/report/lines.h).
 *
 * Stage: trace/report.  Called by sim/report/failure_lines.c and
 * sim/trace/trace_where.c.  Calls dl_iterate_phdr() for where the
 * executable is mapped and popen() for addr2line, whose standard input
 * is a temporary file of the addresses (any number of them).
 */
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/report/lines.h"
#include "version.h"

/* The executable's load bias and its mapped range. */
static struct {
	uintptr_t bias, lo, hi;
	int found;
} lines_exe;

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

/* The index of the address addr2line names: its line "0x..." is the
 * address less the bias, and the addresses were written in order. */
struct lines_reader {
	const uintptr_t *pcs;
	int n, at;		/* the address being read; -1: none	*/
	int next;		/* where the search for the next starts	*/
	char last_fn[512];	/* function of its last pair		*/
};

static void lines_read(FILE *p, struct lines_reader *r,
		       void (*fn)(int, const char *, const char *, void *),
		       void *arg)
{
	static char func[512], loc[1024];
	char *d;

	r->at = -1;
	while (fgets(func, sizeof(func), p)) {
		if (!strncmp(func, "0x", 2)) {
			uintptr_t a = (uintptr_t)strtoull(func, NULL, 16) +
				      lines_exe.bias;
			int i = r->next;

			while (i < r->n && r->pcs[i] != a)
				i++;
			r->at = i < r->n ? i : -1;
			if (i < r->n)
				r->next = i + 1;
			r->last_fn[0] = 0;
			continue;
		}
		if (!fgets(loc, sizeof(loc), p))
			break;
		/* "f.constprop.0", "f.isra.0", "f.cold": a part of f, as
		 * libunwind's names are told (sim/report/failure.c) */
		func[strcspn(func, ".\n")] = 0;
		loc[strcspn(loc, "\n")] = 0;
		if (r->at < 0 || !strcmp(func, "??"))
			continue;
		/* a function "inlined" into its own out-of-line copy: once */
		if (!strcmp(func, r->last_fn))
			continue;
		snprintf(r->last_fn, sizeof(r->last_fn), "%s", func);
		d = strstr(loc, " (discriminator");
		if (d)
			*d = 0;
		fn(r->at, func, strncmp(loc, "??", 2) ? lines_path(loc) : "",
		   arg);
	}
}

int sim_lines_resolve(const uintptr_t *pcs, int n,
		      void (*fn)(int i, const char *func, const char *loc,
				 void *arg),
		      void *arg)
{
	struct lines_reader r = { .pcs = pcs, .n = n };
	char cmd[160];
	FILE *in, *p;
	int i, any = 0;

	dl_iterate_phdr(lines_phdr, NULL);
	if (!lines_exe.found || !(in = tmpfile()))
		return -1;
	for (i = 0; i < n; i++)
		if (pcs[i] >= lines_exe.lo && pcs[i] < lines_exe.hi) {
			fprintf(in, "0x%lx\n",
				(unsigned long)(pcs[i] - lines_exe.bias));
			any = 1;
		}
	if (!any || fflush(in) || fseek(in, 0, SEEK_SET)) {
		fclose(in);
		return any ? -1 : 0;
	}
	fflush(NULL);
	snprintf(cmd, sizeof(cmd),
		 "addr2line -a -f -i -e /proc/%d/exe </dev/fd/%d 2>/dev/null",
		 (int)getpid(), fileno(in));
	p = popen(cmd, "r");
	if (!p) {
		fclose(in);
		return -1;
	}
	lines_read(p, &r, fn, arg);
	pclose(p);
	fclose(in);
	return 0;
}

/* Does the @len bytes at @s start with @prefix? */
static bool starts(const char *s, int len, const char *prefix)
{
	size_t n = strlen(prefix);

	return (size_t)len >= n && !memcmp(s, prefix, n);
}

bool sim_lines_machinery(const char *fn, int fn_len, const char *loc,
			 int loc_len)
{
	return starts(loc, loc_len, "sim/trace/") ||
	       starts(loc, loc_len, "sim/machine/") ||
	       starts(loc, loc_len, "sim/host/") ||
	       starts(loc, loc_len, "sched/core.c") ||
	       starts(fn, fn_len, "sim__coro_") ||
	       (fn_len == 2 && !memcmp(fn, "??", 2));
}
