/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/memblock.h (shadow) - boot-time allocation of the large hash
 * tables.
 *
 * Stage: kernel (boot).  Used by futex_init() (kernel/futex/core.c) for
 * futex_queues.  Implemented in sim/arch/alloc.c.
 */
#ifndef _SIM_LINUX_MEMBLOCK_H
#define _SIM_LINUX_MEMBLOCK_H

#include <linux/types.h>

#define HASH_EARLY	0x00000001	/* allocating during early boot	*/
#define HASH_ZERO	0x00000002	/* zero the table		*/
#define HASH_SMALL	0x00000004	/* numentries is a minimum	*/

/**
 * alloc_large_system_hash() - allocate a power-of-two hash table
 * @tablename:	name, for the kernel's boot log (unused)
 * @bucketsize:	size of one bucket
 * @numentries:	number of buckets wanted (0: size from memory, which the
 *		simulation does not model - a simulator bug)
 * @scale:	memory scale (unused)
 * @flags:	HASH_* flags (the table is always zeroed)
 * @_hash_shift: if not NULL, receives log2 of the bucket count
 * @_hash_mask:	if not NULL, receives bucket count - 1
 * @low_limit:	minimum bucket count
 * @high_limit:	maximum bucket count (0: none)
 *
 * The bucket count is @numentries rounded up to a power of two, then
 * clamped to [@low_limit, @high_limit].
 *
 * Return: the zeroed table, from the machine's arena.
 */
void *alloc_large_system_hash(const char *tablename, unsigned long bucketsize,
			      unsigned long numentries, int scale, int flags,
			      unsigned int *_hash_shift,
			      unsigned int *_hash_mask,
			      unsigned long low_limit,
			      unsigned long high_limit);

#endif /* _SIM_LINUX_MEMBLOCK_H */
