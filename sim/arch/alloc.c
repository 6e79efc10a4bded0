/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/arch/alloc.c - kernel memory allocation of "arch sim".
 *
 * Stage: kernel -> machine.  Called by the futex code (pi_state,
 * futex_waitv arrays), futex_init() (the hash table) and the shim
 * (task_structs, the process's mm).  Calls sim_kzalloc()/sim_kfree() of
 * sim/machine/hooks.h: every kernel object lives in the machine's fixed-address
 * arena, so its address - which kernel code hashes and compares - is the
 * same in every run.
 *
 * Contracts: linux/slab.h, linux/memblock.h, sim/ksim.h.
 */
#include <linux/kernel.h>
#include <linux/cache.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/memblock.h>
#include <sim/machine/hooks.h>
#include <sim/ksim.h>

void *kmalloc(size_t size, gfp_t flags)
{
	return sim_kzalloc(size);
}

void *kzalloc(size_t size, gfp_t flags)
{
	return sim_kzalloc(size);
}

void kfree(const void *objp)
{
	if (objp)
		sim_kfree(objp);
}

void *ksim_alloc_lines(size_t size)
{
	unsigned long p;

	/*
	 * Over-allocate by one line and round up: the arena only promises
	 * 16-byte alignment.  The block is never freed, so the original
	 * pointer need not be kept.
	 */
	p = (unsigned long)sim_kzalloc(size + L1_CACHE_BYTES);
	return (void *)ALIGN(p, L1_CACHE_BYTES);
}

void *alloc_large_system_hash(const char *tablename, unsigned long bucketsize,
			      unsigned long numentries, int scale, int flags,
			      unsigned int *_hash_shift,
			      unsigned int *_hash_mask,
			      unsigned long low_limit,
			      unsigned long high_limit)
{
	unsigned long nr;
	void *table;

	if (!numentries)
		sim_bug("unsupported: alloc_large_system_hash sized by memory",
			__FILE__, __LINE__);

	nr = roundup_pow_of_two(numentries);
	if (nr < low_limit)
		nr = roundup_pow_of_two(low_limit);
	if (high_limit && nr > high_limit)
		nr = rounddown_pow_of_two(high_limit);

	if (_hash_shift)
		*_hash_shift = ilog2(nr);
	if (_hash_mask)
		*_hash_mask = nr - 1;
	table = ksim_alloc_lines(nr * bucketsize);
	sim_lockstat_hash_table(tablename, table, bucketsize, nr);
	return table;
}
