/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/pagemap.h (shadow) - page-cache helpers of shared futex keys.
 *
 * Stage: kernel (mm).  Included by kernel/futex/core.c, for get_futex_key()
 * and fault_in_user_writeable(); brings in linux/mm.h (ours), whose
 * contract applies: a page is anonymous (PageAnon()) or one of a SysV
 * shared memory segment, which always has its mapping, so the helpers
 * of truncated and swap-cache pages are never reached and report a
 * simulator bug.
 */
#ifndef _SIM_LINUX_PAGEMAP_H
#define _SIM_LINUX_PAGEMAP_H

#include <linux/types.h>
#include <linux/mm.h>
#include <linux/fs.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <sim/machine/hooks.h>

#define __SIM_NO_PAGE(fn)	sim_bug("unsupported: " fn " (shared futex)", \
					__FILE__, __LINE__)

static inline void lock_page(struct page *page)
{
	__SIM_NO_PAGE("lock_page");
}

static inline void unlock_page(struct page *page)
{
	__SIM_NO_PAGE("unlock_page");
}

static inline int PageSwapCache(struct page *page)
{
	__SIM_NO_PAGE("PageSwapCache");
}

static inline void folio_lock(struct folio *folio)
{
	__SIM_NO_PAGE("folio_lock");
}

static inline void folio_unlock(struct folio *folio)
{
	__SIM_NO_PAGE("folio_unlock");
}

static inline bool folio_test_swapcache(struct folio *folio)
{
	__SIM_NO_PAGE("folio_test_swapcache");
}

static inline int PageAnon(struct page *page)
{
	return ((unsigned long)page->mapping & PAGE_MAPPING_ANON) != 0;
}

/* A shmem page's offset in its segment (never a huge page here). */
static inline pgoff_t page_to_pgoff(struct page *page)
{
	return page->index;
}

#endif /* _SIM_LINUX_PAGEMAP_H */
