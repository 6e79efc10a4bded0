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
#include <linux/cpumask.h>
#include <linux/log2.h>
#include <linux/slab.h>
#include <linux/memblock.h>
#include <linux/string.h>
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

/* ksim_alloc_lines(), and the block sim_kzalloc() gave in *@block. */
static void *alloc_lines(size_t size, void **block)
{
	/*
	 * Over-allocate by one line and round up: the arena only promises
	 * 16-byte alignment.  The block is never freed, so the original
	 * pointer need not be kept.
	 */
	*block = sim_kzalloc(size + L1_CACHE_BYTES);
	return (void *)ALIGN((unsigned long)*block, L1_CACHE_BYTES);
}

void *ksim_alloc_lines(size_t size)
{
	void *block;

	return alloc_lines(size, &block);
}

/*
 * The futex hash table across boots (a machine per explore run).
 * futex_init() sizes it by num_possible_cpus() alone, takes it from
 * alloc_large_system_hash() and sets every bucket up; its buckets are
 * then copies of bucket 0 but for words that point into their own
 * bucket (the empty plist's self-links).  ksim_futex_hash_keep(), after
 * that futex_init(), checks that it is so and keeps the table in the
 * arena; at the reset, restore_hash() puts back every bucket a run
 * changed; at the next boot with as many CPUs, ksim_futex_hash_take_back()
 * gets the table back where futex_init() would allocate it, with the
 * bytes it would write, and futex_init() is not called: the kernel's
 * futex_queues and futex_hashsize still hold what it set at the boot
 * that kept the table, which is what it would set again.
 *
 * Which buckets a run changed: the futex code writes a bucket only with
 * an atomic on its waiters or under its spinlock, hooked accesses to the
 * bucket's line (a bucket is one line), so those are among the lines
 * the run's hooks met (sim_lines_touched()); without a cache-line model
 * every bucket is set again.  FUTEXSIM_ARENA_CHECK=1 (the unit tests)
 * compares the whole table with the kept copy at every reset.
 */
#define HASH_WORDS_MAX	16	/* words of a bucket (128 bytes)	*/

static struct {
	void *block;			/* from sim_kzalloc(): NULL, none */
	unsigned long bytes;		/* asked of sim_kzalloc()	*/
	unsigned long *table;
	unsigned long words, nr;	/* per bucket; buckets		*/
	unsigned int cpus;		/* num_possible_cpus() of its boot */
	unsigned long img[HASH_WORDS_MAX];	/* bucket 0, set up	*/
	unsigned long self[HASH_WORDS_MAX];	/* 1: a link into itself */
} hash, last;				/* kept; this boot's alloc	*/

/* Word @j of bucket @i as futex_init() leaves it. */
static inline unsigned long hash_word(unsigned long i, unsigned long j)
{
	return hash.img[j] + hash.self[j] * i * hash.words * sizeof(long);
}

/* Bucket @i as futex_init() leaves it. */
static void restore_bucket(unsigned long i)
{
	unsigned long *w = hash.table + i * hash.words;

	for (unsigned long j = 0; j < hash.words; j++)
		w[j] = hash_word(i, j);
}

/* The buckets of the table's line @line, and the zeros past them. */
static void restore_line(unsigned long line, void *arg)
{
	unsigned long lo = (unsigned long)hash.table, end;
	unsigned long bytes = hash.words * sizeof(long);
	unsigned long from = line > lo ? (line - lo) / bytes : 0;
	unsigned long to = (line + L1_CACHE_BYTES - lo + bytes - 1) / bytes;

	for (unsigned long i = from; i < to && i < hash.nr; i++)
		restore_bucket(i);
	end = (unsigned long)hash.block + hash.bytes;
	lo += hash.nr * bytes;		/* past the buckets */
	if (line + L1_CACHE_BYTES > lo && line < end)
		memset((void *)max(line, lo), 0,
		       min(line + L1_CACHE_BYTES, end) - max(line, lo));
}

/* The reset (sim_arena_keep()): the table as futex_init() left it.  Only
 * the lines the run's tasks met can differ (sim_lines_touched()); else
 * every bucket is set again. */
static void restore_hash(void *block)
{
	unsigned long lo = (unsigned long)block;

	if (sim_lines_touched(lo, lo + hash.bytes, restore_line, NULL))
		return;
	for (unsigned long i = 0; i < hash.nr; i++)
		restore_bucket(i);
	restore_line(lo + hash.nr * hash.words * sizeof(long), NULL);
}

bool ksim_futex_hash_keep(void)
{
	unsigned long bucket, *w;

	hash = last;
	memset(&last, 0, sizeof(last));
	if (!hash.block || !hash.words || hash.words > HASH_WORDS_MAX ||
	    (unsigned long)hash.table != (unsigned long)hash.block)
		goto none;
	bucket = (unsigned long)hash.table;
	for (unsigned long j = 0; j < hash.words; j++) {
		hash.img[j] = hash.table[j];
		hash.self[j] = hash.img[j] >= bucket &&
			       hash.img[j] < bucket + hash.words * sizeof(long);
	}
	w = hash.table;
	for (unsigned long i = 0; i < hash.nr; i++, w += hash.words)
		for (unsigned long j = 0; j < hash.words; j++)
			if (w[j] != hash_word(i, j))
				goto none;
	for (; (char *)w < (char *)hash.block + hash.bytes; w++)
		if (*w)
			goto none;
	hash.cpus = num_possible_cpus();
	sim_kzalloc_keep(hash.block, hash.bytes, restore_hash);
	return true;
none:
	memset(&hash, 0, sizeof(hash));
	return false;
}

bool ksim_futex_hash_take_back(void)
{
	memset(&last, 0, sizeof(last));
	if (!hash.block || hash.cpus != num_possible_cpus() ||
	    !sim_kzalloc_take_back(hash.block, hash.bytes))
		return false;
	sim_lockstat_hash_table("futex", hash.table, hash.words * sizeof(long),
				hash.nr);
	return true;
}

void *alloc_large_system_hash(const char *tablename, unsigned long bucketsize,
			      unsigned long numentries, int scale, int flags,
			      unsigned int *_hash_shift,
			      unsigned int *_hash_mask,
			      unsigned long low_limit,
			      unsigned long high_limit)
{
	unsigned long nr;
	void *table, *block;

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
	table = alloc_lines(nr * bucketsize, &block);
	sim_lockstat_hash_table(tablename, table, bucketsize, nr);
	if (!strcmp(tablename, "futex") && bucketsize % sizeof(long) == 0) {
		last.block = block;
		last.bytes = nr * bucketsize + L1_CACHE_BYTES;
		last.table = table;
		last.words = bucketsize / sizeof(long);
		last.nr = nr;
	}
	return table;
}
