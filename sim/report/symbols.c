/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/symbols.c - a user program's addresses by name (the contract
 * is in sim/report/symbols.h).
 *
 * Stage: trace/report.  Called by the trace's writers, --lock-stat, the
 * report and the wait-for cycle (sim_sym_name()), and by the program's
 * allocator (sim_sym_heap_block()).  Calls libc, <elf.h>, and binutils'
 * readelf (once) and addr2line (once per name of a heap block) through
 * popen() on /proc/PID/exe.
 *
 * The DWARF is read from readelf's text: each DIE of the program's
 * compile units (until the first one of the simulator: a CU named
 * sim/..., sched/..., futex/... or workloads/libsim/...) becomes a record
 * (tag, depth, offset, name, type, size, member offset, array bound,
 * declaration line, address).  A name walks from the variable holding
 * the address down its type: a struct's member, an array's element,
 * and what is left over as "+N".
 */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/report/symbols.h"

enum { T_OTHER, T_VAR, T_STRUCT, T_MEMBER, T_ARRAY, T_SUBRANGE, T_BASE,
       T_POINTER, T_ALIAS };

struct die {
	uint32_t off, type;
	uint8_t tag, depth;
	int line, file;
	uint64_t size, addr;
	int64_t member, upper;
	char *name;
	const char *cu;		/* a variable's CU file: basename	*/
};

static struct {
	int loaded;
	struct die *d;
	int nr, cap;
	char cu[64];		/* the current CU's file's basename	*/
	Elf64_Sym *syms;
	char *strs;
	size_t nr_syms;
} sy;

#define MAX_HEAP	256
static struct {
	uint64_t addr, size, site;
	char where[96];		/* the site's file:line; "": not yet	*/
} heap[MAX_HEAP];
static int nr_heap;

/* ---- DWARF, from readelf's text -------------------------------------- */

static int tag_of(const char *s)
{
	static const struct { const char *n; int t; } tags[] = {
		{ "DW_TAG_variable)", T_VAR },
		{ "DW_TAG_structure_type)", T_STRUCT },
		{ "DW_TAG_union_type)", T_STRUCT },
		{ "DW_TAG_member)", T_MEMBER },
		{ "DW_TAG_array_type)", T_ARRAY },
		{ "DW_TAG_subrange_type)", T_SUBRANGE },
		{ "DW_TAG_base_type)", T_BASE },
		{ "DW_TAG_enumeration_type)", T_BASE },
		{ "DW_TAG_pointer_type)", T_POINTER },
		{ "DW_TAG_typedef)", T_ALIAS },
		{ "DW_TAG_const_type)", T_ALIAS },
		{ "DW_TAG_volatile_type)", T_ALIAS },
		{ "DW_TAG_atomic_type)", T_ALIAS },
	};

	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++)
		if (strstr(s, tags[i].n))
			return tags[i].t;
	return T_OTHER;
}

/* The value after "DW_AT_x : ", past an "(indirect ...): " prefix. */
static const char *value_of(const char *line)
{
	const char *v = strstr(line, ": ");

	if (!v)
		return "";
	v += 2;
	while (*v == ' ')
		v++;
	if (*v == '(' && strstr(v, "): "))
		v = strstr(v, "): ") + 3;
	return v;
}

static int simulator_cu(const char *name)
{
	return !strncmp(name, "sim/", 4) || !strncmp(name, "sched/", 6) ||
	       !strncmp(name, "futex/", 6) ||
	       !strncmp(name, "workloads/libsim/", 17);
}

/* One attribute line of the current DIE @e. Return: -1 to stop. */
static int attr(struct die *e, const char *l)
{
	const char *v = value_of(l);
	const char *p;

	if (strstr(l, "DW_AT_name")) {
		if (e->depth == 0) {
			if (simulator_cu(v))
				return -1;
			p = strrchr(v, '/');
			snprintf(sy.cu, sizeof(sy.cu), "%s", p ? p + 1 : v);
			sy.cu[strcspn(sy.cu, "\n")] = '\0';
		}
		e->name = strndup(v, strcspn(v, "\n"));
	} else if (strstr(l, "DW_AT_type") && (p = strstr(v, "<0x"))) {
		e->type = (uint32_t)strtoul(p + 3, NULL, 16);
	} else if (strstr(l, "DW_AT_byte_size")) {
		e->size = strtoull(v, NULL, 0);
	} else if (strstr(l, "DW_AT_data_member_location")) {
		e->member = strtoll(v, NULL, 0);
	} else if (strstr(l, "DW_AT_upper_bound")) {
		e->upper = strtoll(v, NULL, 0);
	} else if (strstr(l, "DW_AT_count")) {
		e->upper = strtoll(v, NULL, 0) - 1;
	} else if (strstr(l, "DW_AT_decl_line")) {
		e->line = atoi(v);
	} else if (strstr(l, "DW_AT_decl_file")) {
		e->file = atoi(v);
	} else if (strstr(l, "DW_AT_location") &&
		   (p = strstr(l, "(DW_OP_addr: "))) {
		e->addr = strtoull(p + 13, NULL, 16);
	}
	return 0;
}

static struct die *die_new(void)
{
	if (sy.nr == sy.cap) {
		int cap = sy.cap ? 2 * sy.cap : 4096;
		struct die *d = realloc(sy.d, cap * sizeof(*d));

		if (!d)
			return NULL;
		sy.d = d;
		sy.cap = cap;
	}
	memset(&sy.d[sy.nr], 0, sizeof(sy.d[0]));
	sy.d[sy.nr].upper = -1;
	sy.d[sy.nr].member = -1;
	return &sy.d[sy.nr++];
}

static void load_dwarf(void)
{
	char line[1024];
	FILE *p;
	struct die *e = NULL;
	unsigned int depth, off;
	const char *cu = NULL;	/* the CU's file, for its variables */

	/* /proc/PID/exe: in the shell, /proc/self is the shell */
	snprintf(line, sizeof(line),
		 "readelf --debug-dump=info /proc/%d/exe 2>/dev/null",
		 (int)getpid());
	p = popen(line, "r");
	if (!p)
		return;
	while (fgets(line, sizeof(line), p)) {
		if (sscanf(line, " <%u><%x>: Abbrev Number:", &depth, &off) == 2) {
			e = strstr(line, "DW_TAG") ? die_new() : NULL;
			if (e) {
				e->depth = (uint8_t)depth;
				e->off = off;
				e->tag = (uint8_t)tag_of(line);
				e->cu = cu;
			}
			continue;
		}
		if (e && strstr(line, "DW_AT_") && attr(e, line) < 0) {
			sy.nr--;	/* the simulator's CU: done */
			break;
		}
		if (e && e->depth == 0 && e->name && !cu)
			cu = strdup(sy.cu);
		if (e && e->depth == 0 && e->name && cu && strcmp(cu, sy.cu))
			cu = strdup(sy.cu);
	}
	pclose(p);
}

static const struct die *die_at(uint32_t off)
{
	int lo = 0, hi = sy.nr - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (sy.d[mid].off == off)
			return &sy.d[mid];
		if (sy.d[mid].off < off)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

static const struct die *strip(const struct die *t)
{
	for (int n = 0; t && t->tag == T_ALIAS && n < 16; n++)
		t = t->type ? die_at(t->type) : NULL;
	return t;
}

static uint64_t size_of(const struct die *t)
{
	t = strip(t);
	if (!t)
		return 0;
	if (t->tag == T_ARRAY) {
		const struct die *r = t + 1;
		uint64_t n = 1;

		for (; r < sy.d + sy.nr && r->tag == T_SUBRANGE; r++)
			n *= r->upper >= 0 ? (uint64_t)r->upper + 1 : 0;
		return n * size_of(die_at(t->type));
	}
	return t->tag == T_POINTER && !t->size ? 8 : t->size;
}

/* Append ".member" / "[i]" to @buf for offset @off in type @t. */
static uint64_t walk(const struct die *t, uint64_t off, char *buf, size_t len)
{
	for (int n = 0; n < 8 && (t = strip(t)); n++) {
		size_t k = strlen(buf);

		if (t->tag == T_STRUCT) {
			const struct die *m = t + 1, *hit = NULL;

			for (; m < sy.d + sy.nr && m->depth > t->depth; m++)
				if (m->depth == t->depth + 1 &&
				    m->tag == T_MEMBER && m->member >= 0 &&
				    off >= (uint64_t)m->member &&
				    off < m->member + size_of(die_at(m->type)))
					hit = m;
			if (!hit || !hit->name)
				return off;
			snprintf(buf + k, len - k, ".%s", hit->name);
			off -= (uint64_t)hit->member;
			t = die_at(hit->type);
		} else if (t->tag == T_ARRAY) {
			uint64_t es = size_of(die_at(t->type));

			if (!es)
				return off;
			snprintf(buf + k, len - k, "[%llu]",
				 (unsigned long long)(off / es));
			off %= es;
			t = die_at(t->type);
		} else {
			return off;
		}
	}
	return off;
}

static int dwarf_name(uint64_t a, char *buf, size_t len)
{
	for (int i = 0; i < sy.nr; i++) {
		const struct die *v = &sy.d[i];
		uint64_t sz, rest;
		size_t k;

		if (v->tag != T_VAR || !v->addr || !v->name || a < v->addr)
			continue;
		sz = size_of(die_at(v->type));
		if (a >= v->addr + (sz ? sz : 1))
			continue;
		snprintf(buf, len, "%s", v->name);
		rest = walk(die_at(v->type), a - v->addr, buf, len);
		k = strlen(buf);
		if (rest)
			snprintf(buf + k, len - k, "+%llu",
				 (unsigned long long)rest);
		k = strlen(buf);
		if (v->line && v->file == 1 && v->cu)
			snprintf(buf + k, len - k, " (%s:%d)", v->cu, v->line);
		else if (v->line)
			snprintf(buf + k, len - k, " (declared at line %d)",
				 v->line);
		return 1;
	}
	return 0;
}

/* ---- ELF .symtab ------------------------------------------------------- */

static void load_symtab(void)
{
	FILE *f = fopen("/proc/self/exe", "rb");
	Elf64_Ehdr eh;
	Elf64_Shdr *sh = NULL;

	if (!f)
		return;
	if (fread(&eh, sizeof(eh), 1, f) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(*sh))
		goto out;
	sh = calloc(eh.e_shnum, sizeof(*sh));
	if (!sh || fseek(f, (long)eh.e_shoff, SEEK_SET) ||
	    fread(sh, sizeof(*sh), eh.e_shnum, f) != eh.e_shnum)
		goto out;
	for (int i = 0; i < eh.e_shnum; i++) {
		const Elf64_Shdr *st = &sh[i], *ss;

		if (st->sh_type != SHT_SYMTAB || st->sh_link >= eh.e_shnum)
			continue;
		ss = &sh[st->sh_link];
		sy.syms = malloc(st->sh_size);
		sy.strs = malloc(ss->sh_size + 1);
		if (!sy.syms || !sy.strs ||
		    fseek(f, (long)st->sh_offset, SEEK_SET) ||
		    fread(sy.syms, 1, st->sh_size, f) != st->sh_size ||
		    fseek(f, (long)ss->sh_offset, SEEK_SET) ||
		    fread(sy.strs, 1, ss->sh_size, f) != ss->sh_size) {
			free(sy.syms);
			free(sy.strs);
			sy.syms = NULL;
			sy.strs = NULL;
			break;
		}
		sy.strs[ss->sh_size] = '\0';
		sy.nr_syms = st->sh_size / sizeof(Elf64_Sym);
		break;
	}
out:
	free(sh);
	fclose(f);
}

static int symtab_name(uint64_t a, char *buf, size_t len)
{
	for (size_t i = 0; i < sy.nr_syms; i++) {
		const Elf64_Sym *s = &sy.syms[i];

		if (ELF64_ST_TYPE(s->st_info) != STT_OBJECT || !s->st_size ||
		    a < s->st_value || a >= s->st_value + s->st_size)
			continue;
		if (a == s->st_value)
			snprintf(buf, len, "%s", sy.strs + s->st_name);
		else
			snprintf(buf, len, "%s+%llu", sy.strs + s->st_name,
				 (unsigned long long)(a - s->st_value));
		return 1;
	}
	return 0;
}

/* ---- heap blocks ------------------------------------------------------- */

void sim_sym_heap_block(uint64_t addr, uint64_t size, uint64_t site)
{
	int i;

	for (i = 0; i < nr_heap; i++)
		if (heap[i].addr == addr)
			break;
	if (i == nr_heap) {
		if (nr_heap == MAX_HEAP)
			return;
		nr_heap++;
	}
	if (heap[i].site != site)
		heap[i].where[0] = '\0';
	heap[i].addr = addr;
	heap[i].size = size;
	heap[i].site = site;
}

void sim_sym_reset(void)
{
	nr_heap = 0;
}

/* "file.c:LINE" of PC @pc in the -no-pie executable, by addr2line. */
static int site_name(uint64_t pc, char *buf, size_t len)
{
	char cmd[96], out[512], *slash;
	FILE *p;
	int ok = 0;

	snprintf(cmd, sizeof(cmd), "addr2line -e /proc/%d/exe 0x%llx 2>/dev/null",
		 (int)getpid(), (unsigned long long)(pc - 1));
	p = popen(cmd, "r");
	if (!p)
		return 0;
	if (fgets(out, sizeof(out), p) && out[0] != '?') {
		out[strcspn(out, " \n")] = '\0';
		slash = strrchr(out, '/');
		snprintf(buf, len, "%.80s", slash ? slash + 1 : out);
		ok = 1;
	}
	pclose(p);
	return ok;
}

static int heap_name(uint64_t a, char *buf, size_t len)
{
	for (int i = nr_heap - 1; i >= 0; i--) {
		const char *site = heap[i].where;

		if (a < heap[i].addr || a >= heap[i].addr + heap[i].size)
			continue;
		if (!site[0] && !site_name(heap[i].site, heap[i].where,
					   sizeof(heap[i].where)))
			snprintf(heap[i].where, sizeof(heap[i].where),
				 "an unknown site");
		if (a == heap[i].addr)
			snprintf(buf, len, "malloc'd at %.80s", site);
		else
			snprintf(buf, len, "malloc'd at %.80s +%llu", site,
				 (unsigned long long)(a - heap[i].addr));
		return 1;
	}
	return 0;
}

/* ---- names ---------------------------------------------------------- */

#define CACHE_SLOTS	256
/* the executable's answer per address: named (name), or not (named 0) */
static struct { uint64_t addr; int named; char name[120]; } cache[CACHE_SLOTS];
static int (*resolver)(uint64_t addr, char *buf, size_t len);

void sim_sym_set_resolver(int (*fn)(uint64_t addr, char *buf, size_t len))
{
	resolver = fn;
}

static void load(void)
{
	if (!sy.loaded) {
		sy.loaded = 1;
		load_dwarf();
		load_symtab();
	}
}

/* Only the executable's answers are cached: heap blocks and the
 * resolver's objects come and go. */
const char *sim_sym_name(uint64_t addr, char *buf, size_t len)
{
	unsigned int i = (unsigned int)((addr >> 2) * 2654435761U) % CACHE_SLOTS;

	if (!addr || cache[i].addr != addr) {
		load();
		cache[i].addr = addr;
		cache[i].named = addr &&
			(dwarf_name(addr, cache[i].name, sizeof(cache[i].name)) ||
			 symtab_name(addr, cache[i].name, sizeof(cache[i].name)));
	}
	if (cache[i].named)
		snprintf(buf, len, "%s", cache[i].name);
	else if (!addr || !(heap_name(addr, buf, len) ||
			    (resolver && resolver(addr, buf, len))))
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
	return buf;
}

int sim_sym_known(uint64_t addr)
{
	char buf[120];

	sim_sym_name(addr, buf, sizeof(buf));
	return strncmp(buf, "0x", 2) != 0;
}
