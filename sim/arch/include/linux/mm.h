/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/mm.h (shadow) - the memory-management calls of the futex code.
 *
 * Stage: kernel (mm).  Included by linux/pagemap.h (ours) for
 * kernel/futex/core.c.  The functions are implemented in sim/arch/mm.c.
 *
 * Simulated user memory is ordinary memory of the host process, always
 * mapped and writable, and there is one simulated process.  Hence:
 *  - PRIVATE futexes work: their key needs no page lookup.
 *  - Shared futexes (no FUTEX_PRIVATE_FLAG) work as on private anonymous
 *    memory: get_user_pages_fast() hands out one anonymous page
 *    descriptor (PageAnon(), never compound, no reference counting), so
 *    get_futex_key() makes the { mm, address } key of an anonymous page;
 *    in a SysV shared memory segment (ksim_shm_add()) each page has a
 *    descriptor whose mapping is the segment's, so the key is the
 *    inode key.  Shared file mappings do not exist.
 *  - fixup_user_fault() returns -EFAULT; it is only called after a user
 *    access faulted, which cannot happen (linux/uaccess.h).
 *  - The mmap lock has nothing to protect: no mapping ever changes.
 *  - compound_head() and put_page() of that page are trivial, and so are
 *    their folio forms page_folio(), folio_put() and folio_page_idx()
 *    (6.12); the page helpers of linux/pagemap.h that only a
 *    non-anonymous page reaches report a simulator bug.
 */
#ifndef _SIM_LINUX_MM_H
#define _SIM_LINUX_MM_H

#include <linux/types.h>
#include <linux/mm_types.h>
#include <asm/page.h>
#include <sim/machine/hooks.h>

#define FOLL_WRITE		0x01	/* check that the pages are writable */
#define FAULT_FLAG_WRITE	0x01	/* fault was a write fault */

/**
 * get_user_pages_fast() - pin user pages
 * @start:	user address
 * @nr_pages:	number of pages
 * @gup_flags:	FOLL_* flags
 * @pages:	where to store the pages
 *
 * Return: @nr_pages, each the anonymous page descriptor; -EFAULT if the
 * range fails access_ok().
 */
int get_user_pages_fast(unsigned long start, int nr_pages,
			unsigned int gup_flags, struct page **pages);

/**
 * fixup_user_fault() - resolve a user fault
 * @mm:		the address space
 * @address:	faulting user address
 * @fault_flags: FAULT_FLAG_* flags
 * @unlocked:	set if the mmap lock was dropped (never)
 *
 * Return: -EFAULT, always (no user access can fault in the first place).
 */
int fixup_user_fault(struct mm_struct *mm, unsigned long address,
		     unsigned int fault_flags, bool *unlocked);

static inline void mmap_read_lock(struct mm_struct *mm)
{
}

static inline void mmap_read_unlock(struct mm_struct *mm)
{
}

#define PAGE_MAPPING_ANON	0x1	/* page->mapping of an anonymous page */

static inline struct page *compound_head(struct page *page)
{
	return page;
}

static inline void put_page(struct page *page)
{
}

static inline struct folio *page_folio(struct page *page)
{
	return (struct folio *)page;
}

static inline void folio_put(struct folio *folio)
{
}

static inline unsigned long folio_page_idx(struct folio *folio,
					   struct page *page)
{
	return 0;
}

static inline bool folio_test_anon(struct folio *folio)
{
	return ((unsigned long)folio->mapping & PAGE_MAPPING_ANON) != 0;
}

#endif /* _SIM_LINUX_MM_H */
