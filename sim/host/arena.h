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
/*
 * sim_arena_owner_clears - block @p (from sim_arena_alloc(), not to be
 * freed) is left to its owner until the next reset: sim_arena_init()
 * calls @clear(@p), which must make every byte of the block that the
 * owner wrote zero again, and then leaves the block alone instead of
 * clearing it.  For a big table of which a run writes a few entries (a
 * machine per explore run).  Owners are called in the order given here;
 * given again at each boot.  FUTEXSIM_ARENA_CHECK=1: the reset checks
 * the block is all zero after @clear (a BUG, abort(), if not).
 */
void sim_arena_owner_clears(void *p, void (*clear)(void *block));
/*
 * sim_arena_keep - block @p (from sim_arena_alloc(), not to be freed),
 * whose first @size bytes its owner set up, keeps them across the next
 * reset for the owner to take back: sim_arena_init() calls @restore(@p),
 * which must bring every one of those bytes back to its value at this
 * call, and leaves the block out of its zeroing.  One block at a time.
 * FUTEXSIM_ARENA_CHECK=1: the reset compares the block with a copy of
 * it made here (a BUG, abort(), if they differ).
 */
void sim_arena_keep(void *p, size_t size, void (*restore)(void *block));
/*
 * sim_arena_take_back - the kept block @p, as restored, if the
 * allocation sim_arena_alloc(@size, @align) would give it now (the same
 * offset and size: the same calls since the reset); else NULL, and the
 * caller allocates as usual.  A taken back block is kept again for the
 * next reset.  An allocation that reaches the kept block first zeroes
 * it and forgets it, as does a reset by madvise(): sim_arena_alloc()
 * always hands out zeros.
 */
void *sim_arena_take_back(const void *p, size_t size, size_t align);
/* sim_arena_check_owners - the check of FUTEXSIM_ARENA_CHECK=1 on (1) or
 * off (0), whatever the environment says. */
void sim_arena_check_owners(int on);
/* sim_arena_contains - is @p inside the arena? */
int sim_arena_contains(const void *p);
/* sim_arena_used - bytes handed out so far (high-water mark). */
size_t sim_arena_used(void);

#endif /* SIM_ARENA_H */
