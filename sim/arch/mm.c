/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/arch/mm.c - the address space of the simulated process.
 *
 * Stage: kernel (mm).  Called by the futex code (get_futex_key(),
 * fault_in_user_writeable()) and by sched/kapi.c, which gives every new
 * task the process's mm_struct and signal_struct.  Calls the allocator
 * (sim/arch/alloc.c) once, at boot.
 *
 * All simulated tasks are threads of one process: one mm_struct, one
 * signal_struct.  User memory is host memory (linux/uaccess.h).  Most
 * of it is private anonymous memory of that process: a shared
 * (non-PRIVATE) futex finds, through get_user_pages_fast(), the one
 * anonymous page descriptor below, so get_futex_key() makes the key of
 * an anonymous page { mm, address } (FUT_OFF_MMSHARED), as Linux does
 * for a futex in a MAP_PRIVATE|MAP_ANONYMOUS mapping, a stack or .data.
 * A SysV shared memory segment (ksim_shm_add(), the program's shmget())
 * is shmem: an inode of its own, an address_space and a page descriptor
 * per page (mapping, index), so a shared futex in it gets the kernel's
 * inode key { i_sequence, pgoff, offset } (FUT_OFF_INODE).  Shared file
 * mappings do not exist here.
 *
 * Contracts: linux/mm.h, sim/ksim.h.
 */
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/rwsem.h>
#include <linux/uaccess.h>
#include <linux/sched/signal.h>
#include <sim/machine/hooks.h>
#include <sim/ksim.h>

static struct mm_struct *process_mm;
static struct signal_struct *process_signal;
static struct page *anon_page;	/* every page of user memory */

/* A SysV shared memory segment: shmem, with its own inode. */
struct ksim_shm {
	unsigned long start, size;	/* the user memory		*/
	struct inode inode;
	struct address_space mapping;
	struct page *pages;		/* one per PAGE_SIZE		*/
	struct ksim_shm *next;
};
static struct ksim_shm *shm_segments;

/*
 * Runs at every boot (a test may boot several machines in one host
 * process; each boot starts with an empty arena).
 */
static int __init process_init(void)
{
	process_mm = kzalloc(sizeof(*process_mm), GFP_KERNEL);
	process_signal = kzalloc(sizeof(*process_signal), GFP_KERNEL);
	atomic64_set(&process_mm->futex_unique_id, 1);
	anon_page = kzalloc(sizeof(*anon_page), GFP_KERNEL);
	anon_page->mapping = (struct address_space *)PAGE_MAPPING_ANON;
	shm_segments = NULL;		/* the last boot's are in its arena */
	init_rwsem(&process_signal->exec_update_lock);
	return 0;
}
early_initcall(process_init);

struct mm_struct *ksim_process_mm(void)
{
	if (!process_mm)
		sim_bug("ksim_process_mm() before ksim_boot()", __FILE__, __LINE__);
	return process_mm;
}

struct signal_struct *ksim_process_signal(void)
{
	if (!process_signal)
		sim_bug("ksim_process_signal() before ksim_boot()",
			__FILE__, __LINE__);
	return process_signal;
}

int ksim_shm_add(void *start, unsigned long size)
{
	struct ksim_shm *s = kzalloc(sizeof(*s), GFP_KERNEL);
	unsigned long i, n = DIV_ROUND_UP(size, PAGE_SIZE);

	if (!s || !IS_ALIGNED((unsigned long)start, PAGE_SIZE))
		return -EINVAL;
	s->pages = kcalloc(n, sizeof(*s->pages), GFP_KERNEL);
	if (!s->pages)
		return -ENOMEM;
	s->start = (unsigned long)start;
	s->size = n * PAGE_SIZE;
	s->mapping.host = &s->inode;
	for (i = 0; i < n; i++) {
		s->pages[i].mapping = &s->mapping;
		s->pages[i].index = i;
	}
	s->next = shm_segments;
	shm_segments = s;
	return 0;
}

/* The page descriptor of user address @addr. */
static struct page *page_of(unsigned long addr)
{
	const struct ksim_shm *s;

	for (s = shm_segments; s; s = s->next)
		if (addr - s->start < s->size)
			return &s->pages[(addr - s->start) / PAGE_SIZE];
	return anon_page;
}

int get_user_pages_fast(unsigned long start, int nr_pages,
			unsigned int gup_flags, struct page **pages)
{
	int i;

	if (!access_ok((void __user *)start, (unsigned long)nr_pages * PAGE_SIZE))
		return -EFAULT;
	for (i = 0; i < nr_pages; i++)
		pages[i] = page_of(start + (unsigned long)i * PAGE_SIZE);
	return nr_pages;
}

int fixup_user_fault(struct mm_struct *mm, unsigned long address,
		     unsigned int fault_flags, bool *unlocked)
{
	return -EFAULT;
}
