/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/host/arena.h - the fixed-address arena: simulated user memory and every
 * kernel allocation.
 *
 * Stage: machine.  Kernel code hashes and orders pointers (futex keys hash
 * the mm and the user address; double_lock_hb() orders buckets by
 * address), so everything the simulation allocates lives at an address
 * that depends only on the sequence of allocations: a region mapped at
 * SIM_ARENA_BASE, handed out by a bump allocator with per-size free lists.
 * Same allocations, same addresses, in every run and every build.
 */
#ifndef SIM_ARENA_H
#define SIM_ARENA_H

#include <stddef.h>
#include <stdint.h>

#define SIM_ARENA_BASE	0x200000000000UL	/* far from text, heap and mmap area */
#define SIM_ARENA_SIZE	(16UL << 30)		/* reserved, not committed  */

/* sim_arena_init - map the arena (once per process; later calls reset it
 * to empty).  Exits with status 2 if the address range is taken. */
void sim_arena_init(void);
/* sim_arena_alloc - @size zeroed bytes aligned to @align (a power of two,
 * at least 16).  Never fails: exhaustion is a fatal error (exit 2). */
void *sim_arena_alloc(size_t size, size_t align);
/* sim_arena_free - return memory from sim_arena_alloc() for reuse by an
 * allocation of the same size class. NULL is ignored. */
void sim_arena_free(const void *p);
/* sim_arena_contains - is @p inside the arena? */
int sim_arena_contains(const void *p);
/* sim_arena_used - bytes handed out so far (high-water mark). */
size_t sim_arena_used(void);

#endif /* SIM_ARENA_H */
