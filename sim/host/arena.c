/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/host/arena.c - the fixed-address arena (see sim/host/arena.h for why).
 *
 * Stage: machine.  Called by the arch shim (sim_kzalloc/sim_kfree: every
 * kernel allocation), the machine (per-CPU copies) and the workloads
 * (simulated user memory such as lock words).
 *
 * Layout: one mapping at SIM_ARENA_BASE, reserved with MAP_NORESERVE so
 * only touched pages cost memory.  Each block is preceded by a 16-byte
 * header holding its size class.  Classes are multiples of 16 bytes up to
 * 4 KiB, then powers of two; a freed block goes on its class's free list
 * and is zeroed when handed out again.  All of it is a function of the
 * sequence of calls only.
 *
 * ASan builds (make asan): ASan does not know this allocator, so it is
 * told here: a block's header, the bytes past its requested size and a
 * freed block are poisoned, and any access to them is reported as ASan
 * reports one to a malloc() block (use after free, overflow).  A freed
 * block is reused by the next allocation of its class (free lists are
 * LIFO and must stay so: addresses are part of the reports), so a use
 * after free is caught only until then.  The arena, as far as it was
 * handed out, is a root region of the leak checker: a malloc() block
 * that only an arena object points to is not a leak.  The addresses are
 * the same as in every other build.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "sim/host/arena.h"
#include "sim/host/coro.h"		/* SIM_CORO_ASAN */
#include "sim/machine/hooks.h"
#include "sim/report/exit.h"

#ifdef SIM_CORO_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/lsan_interface.h>
#define arena_poison(p, n)	__asan_poison_memory_region((p), (n))
#define arena_unpoison(p, n)	__asan_unpoison_memory_region((p), (n))
#else
#define arena_poison(p, n)	((void)(p), (void)(n))
#define arena_unpoison(p, n)	((void)(p), (void)(n))
#endif

#define HDR		16
#define ARENA_MEMSET_MAX	(1024 * 1024)
#define SMALL_MAX	4096
#define NR_SMALL	(SMALL_MAX / 16)
#define NR_CLASSES	(NR_SMALL + 40)

struct block_hdr {
	uint32_t class;
	uint32_t magic;
	struct block_hdr *next_free;	/* valid while on a free list */
};
_Static_assert(sizeof(struct block_hdr) == HDR, "arena header size");

#define MAGIC_USED	0xa110cu
#define MAGIC_FREE	0xf4eeu

static char *base;
static size_t brk_off;
static struct block_hdr *free_list[NR_CLASSES];

/*
 * Zero bytes the reset need not clear: the tails of large blocks past
 * their requested sizes (a 160 KiB table in a 256 KiB class), which no
 * one writes (ASan builds poison them).  Everything from brk_off up is
 * zero too, so such a tail stays zero until its block is freed (the next
 * owner of the block may use the whole class): sim_arena_free() drops
 * it.  In address order, as the bump allocator hands them out.
 */
#define CLEAN_MIN	4096		/* tails worth a range		*/
#define CLEAN_MAX	32
static struct { size_t lo, hi; } clean[CLEAN_MAX];
static int nr_clean;

/*
 * Blocks their owners clear (sim_arena_owner_clears()): big tables of
 * which a run writes a few entries.  The reset calls each owner's clear
 * function, in the order they were given, then skips the blocks (their
 * ranges are in clean[]).  FUTEXSIM_ARENA_CHECK=1: the reset then checks
 * that every byte of them is zero, and a byte that is not is a BUG.
 */
#define OWNED_MAX	8
static struct {
	void *block;
	size_t bytes;			/* its class's			*/
	void (*clear)(void *block);
} owned[OWNED_MAX];
static int nr_owned;
static int check_owned = -1;		/* FUTEXSIM_ARENA_CHECK, read once */

/*
 * The block kept for its owner (sim_arena_keep()): its bytes [lo, lo +
 * size) hold what the owner set up, not zeros.  Held: handed out to the
 * machine now running (the reset restores it, its range is in clean[]);
 * not held: past brk_off, waiting for sim_arena_take_back(), and the
 * first allocation that reaches it any other way zeroes it and forgets
 * it (kept_drop()), so that everything from brk_off up is zero for
 * every other caller.  FUTEXSIM_ARENA_CHECK=1: image is a copy of the
 * bytes given, which the reset compares with the restored block.
 */
static struct {
	char *block;			/* NULL: none			*/
	size_t lo, size;		/* offset, requested bytes	*/
	unsigned int class;
	bool held;
	void (*restore)(void *block);
	unsigned char *image;
} kept;

/* Zero the kept block's bytes and forget it. */
static void kept_drop(void)
{
	arena_unpoison(kept.block, kept.size);
	memset(kept.block, 0, kept.size);
	free(kept.image);
	kept.block = NULL;
	kept.image = NULL;
}

/* The reset: a held block is restored by its owner and waits past
 * brk_off for sim_arena_take_back(); FUTEXSIM_ARENA_CHECK=1: is it as
 * it was given? */
static void kept_restore(void)
{
	if (!kept.block || !kept.held)
		return;
	kept.restore(kept.block);
	kept.held = false;
	if (kept.image && memcmp(kept.image, kept.block, kept.size)) {
		fprintf(stderr, "futexsim: BUG: arena block %p is not as it was kept after its owner restored it\n",
			kept.block);
		abort();
	}
	arena_poison(kept.block, kept.size);
}

/* Zero [0, brk_off) but the clean ranges; forget them. */
static void zero_used(void)
{
	size_t at = 0;

	for (int i = 0; i < nr_clean; i++) {
		memset(base + at, 0, clean[i].lo - at);
		at = clean[i].hi;
	}
	memset(base + at, 0, brk_off - at);
	nr_clean = 0;
}

/* check_owned from FUTEXSIM_ARENA_CHECK (read once). */
static void read_check_env(void)
{
	const char *e = getenv("FUTEXSIM_ARENA_CHECK");

	check_owned = e && !strcmp(e, "1");
}

void sim_arena_check_owners(int on)
{
	check_owned = !!on;
}

/* Owners clear their blocks; FUTEXSIM_ARENA_CHECK=1: did they? */
static void owners_clear(void)
{
	if (check_owned < 0)
		read_check_env();
	for (int i = 0; i < nr_owned; i++)
		owned[i].clear(owned[i].block);
	for (int i = 0; check_owned && i < nr_owned; i++) {
		const unsigned char *b = owned[i].block;

		for (size_t j = 0; j < owned[i].bytes; j++) {
			if (!b[j])
				continue;
			fprintf(stderr, "futexsim: BUG: arena block %p: byte %zu is %#x after its owner cleared it\n",
				owned[i].block, j, b[j]);
			abort();
		}
	}
	nr_owned = 0;
}

static unsigned int size_class(size_t size, size_t *class_size)
{
	if (size <= SMALL_MAX) {
		size_t n = (size + 15) / 16;

		if (!n)
			n = 1;
		*class_size = n * 16;
		return n - 1;
	}
	unsigned int shift = 13;	/* 8 KiB is the first large class */

	while (((size_t)1 << shift) < size)
		shift++;
	*class_size = (size_t)1 << shift;
	return NR_SMALL + (shift - 13);
}

/* The size of the blocks of class @class. */
static size_t class_bytes(unsigned int class)
{
	if (class < NR_SMALL)
		return ((size_t)class + 1) * 16;
	return (size_t)1 << (13 + class - NR_SMALL);
}

/* ASan: the leak checker scans the arena up to brk_off (1 MiB more). */
static void arena_roots(void)
{
#ifdef SIM_CORO_ASAN
	static size_t roots_off;	/* root regions up to here */
	const size_t chunk = 1 << 20;

	for (; roots_off < brk_off && roots_off < SIM_ARENA_SIZE;
	     roots_off += chunk)
		__lsan_register_root_region(base + roots_off, chunk);
#endif
}

void sim_arena_init(void)
{
	if (base) {
		arena_unpoison(base, brk_off);
		memset(free_list, 0, sizeof(free_list));
		owners_clear();
		/* zero again: a small arena (explore mode builds a machine
		 * per run) by memset, which keeps its pages and the kept
		 * block; else madvise, which drops it */
		if (brk_off && brk_off <= ARENA_MEMSET_MAX) {
			kept_restore();
			zero_used();
		} else if (brk_off) {
			if (kept.block)
				kept_drop();
			madvise(base, brk_off, MADV_DONTNEED);
		}
		brk_off = 0;
		nr_clean = 0;
		return;
	}
	void *p = mmap((void *)SIM_ARENA_BASE, SIM_ARENA_SIZE,
		       PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE |
		       MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED || p != (void *)SIM_ARENA_BASE) {
		fprintf(stderr, "futexsim: cannot map the simulation arena at %#lx: %s\n",
			SIM_ARENA_BASE, p == MAP_FAILED ? strerror(errno) :
			"the kernel chose another address");
		exit(SIM_EXIT_INPUT);
	}
	base = p;
}

void *sim_arena_alloc(size_t size, size_t align)
{
	size_t csize;
	unsigned int class = size_class(size, &csize);
	struct block_hdr *h = free_list[class];

	if (align < 16)
		align = 16;
	if (h && align == 16) {
		arena_unpoison(h, HDR + csize);
		free_list[class] = h->next_free;
		h->magic = MAGIC_USED;
		h->next_free = NULL;
		memset(h + 1, 0, csize);
		arena_poison(h, HDR);
		arena_poison((char *)(h + 1) + size, csize - size);
		return h + 1;
	}
	/* the block starts at an aligned address; its header sits below */
	size_t start = (brk_off + HDR + align - 1) & ~(align - 1);

	if (kept.block && !kept.held && start + csize > kept.lo - HDR)
		kept_drop();	/* it reaches the kept block */
	if (start + csize > SIM_ARENA_SIZE) {
		fprintf(stderr, "futexsim: simulation arena exhausted (%zu bytes)\n",
			(size_t)SIM_ARENA_SIZE);
		exit(SIM_EXIT_INPUT);
	}
	h = (struct block_hdr *)(base + start - HDR);
	h->class = class;
	h->magic = MAGIC_USED;
	brk_off = start + csize;
	if (csize - size >= CLEAN_MIN && nr_clean < CLEAN_MAX) {
		clean[nr_clean].lo = start + size;
		clean[nr_clean++].hi = start + csize;
	}
	arena_roots();
	arena_poison(h, HDR);
	arena_poison(base + start + size, csize - size);
	return base + start;
}

/* The reset skips the whole block [lo, hi): its range replaces its
 * tail's in clean[], in address order (the caller checked there is room). */
static void clean_whole_block(size_t lo, size_t hi)
{
	int i, j;

	for (i = j = 0; i < nr_clean; i++)
		if (clean[i].lo < lo || clean[i].hi > hi)
			clean[j++] = clean[i];
	nr_clean = j;
	for (i = nr_clean; i > 0 && clean[i - 1].lo > lo; i--)
		clean[i] = clean[i - 1];
	clean[i].lo = lo;
	clean[i].hi = hi;
	nr_clean++;
}

void sim_arena_owner_clears(void *p, void (*clear)(void *block))
{
	struct block_hdr *h = (struct block_hdr *)p - 1;
	size_t lo = (size_t)((char *)p - base), hi;

	if (!sim_arena_contains(p) || h->magic != MAGIC_USED ||
	    nr_owned == OWNED_MAX || nr_clean == CLEAN_MAX) {
		fprintf(stderr, "futexsim: BUG: arena block %p cannot be left to its owner\n", p);
		abort();
	}
	hi = lo + class_bytes(h->class);
	owned[nr_owned].block = p;
	owned[nr_owned].bytes = hi - lo;
	owned[nr_owned++].clear = clear;
	clean_whole_block(lo, hi);
}

void sim_arena_keep(void *p, size_t size, void (*restore)(void *block))
{
	struct block_hdr *h = (struct block_hdr *)p - 1;
	size_t lo = (size_t)((char *)p - base);

	if (kept.block && !kept.held)
		kept_drop();	/* the last one, not taken back */
	if (!sim_arena_contains(p) || h->magic != MAGIC_USED || kept.block ||
	    size > class_bytes(h->class) || nr_clean == CLEAN_MAX) {
		fprintf(stderr, "futexsim: BUG: arena block %p cannot be kept\n", p);
		abort();
	}
	kept.block = p;
	kept.lo = lo;
	kept.size = size;
	kept.class = h->class;
	kept.held = true;
	kept.restore = restore;
	kept.image = NULL;
	if (check_owned < 0)
		read_check_env();
	if (check_owned) {
		kept.image = malloc(size);
		if (!kept.image) {
			fprintf(stderr, "futexsim: out of memory\n");
			exit(SIM_EXIT_HOST);
		}
		memcpy(kept.image, p, size);
	}
	clean_whole_block(lo, lo + class_bytes(h->class));
}

void *sim_arena_take_back(const void *p, size_t size, size_t align)
{
	size_t csize;
	unsigned int class = size_class(size, &csize);
	struct block_hdr *h;

	if (align < 16)
		align = 16;
	if (!kept.block || kept.block != p || kept.held ||
	    kept.size != size || kept.class != class || nr_clean == CLEAN_MAX ||
	    ((brk_off + HDR + align - 1) & ~(align - 1)) != kept.lo)
		return NULL;
	h = (struct block_hdr *)(base + kept.lo - HDR);
	h->class = class;
	h->magic = MAGIC_USED;
	h->next_free = NULL;
	brk_off = kept.lo + csize;
	kept.held = true;
	clean_whole_block(kept.lo, brk_off);
	arena_roots();
	arena_poison(h, HDR);
	arena_unpoison(kept.block, size);
	arena_poison(kept.block + size, csize - size);
	return kept.block;
}

void sim_arena_free(const void *p)
{
	if (!p)
		return;
	struct block_hdr *h = (struct block_hdr *)p - 1;

	if (sim_arena_contains(p))
		arena_unpoison(h, HDR);
	if (!sim_arena_contains(p) || h->magic != MAGIC_USED) {
		fprintf(stderr, "futexsim: BUG: bad or double free of arena block\n");
		abort();
	}
	for (int i = 0; i < nr_owned; i++) {
		if (owned[i].block == p) {
			fprintf(stderr, "futexsim: BUG: free of arena block %p, left to its owner\n", p);
			abort();
		}
	}
	if (p == kept.block) {
		fprintf(stderr, "futexsim: BUG: free of arena block %p, kept for its owner\n", p);
		abort();
	}
	h->magic = MAGIC_FREE;
	for (int i = 0; i < nr_clean; i++) {
		size_t off = (size_t)((const char *)p - base);

		if (clean[i].lo >= off && clean[i].hi <= off + class_bytes(h->class)) {
			memmove(&clean[i], &clean[i + 1],
				(size_t)(nr_clean - i - 1) * sizeof(clean[0]));
			nr_clean--;
			break;
		}
	}
	h->next_free = free_list[h->class];
	free_list[h->class] = h;
	arena_poison(h, HDR + class_bytes(h->class));
}

int sim_arena_contains(const void *p)
{
	return base && (const char *)p >= base &&
	       (const char *)p < base + SIM_ARENA_SIZE;
}

size_t sim_arena_used(void)
{
	return brk_off;
}

/* sim/machine/hooks.h: every kernel allocation comes from the arena.  Objects of a
 * cache line or more are line-aligned (the kernel aligns its hash tables
 * and ____cacheline_aligned structs). */
void *sim_kzalloc(unsigned long size)
{
	return sim_arena_alloc(size, size >= 64 ? 64 : 16);
}

void sim_kfree(const void *p)
{
	sim_arena_free(p);
}

void sim_kzalloc_owner_clears(void *p, void (*clear)(void *block))
{
	sim_arena_owner_clears(p, clear);
}

void sim_kzalloc_keep(void *p, unsigned long bytes,
		      void (*restore)(void *block))
{
	sim_arena_keep(p, bytes, restore);
}

/* the same offset as sim_kzalloc(@bytes) would give, aligned alike */
void *sim_kzalloc_take_back(const void *p, unsigned long bytes)
{
	return sim_arena_take_back(p, bytes, bytes >= 64 ? 64 : 16);
}
