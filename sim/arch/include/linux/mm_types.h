/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/mm_types.h (shadow) - struct mm_struct and struct page, reduced to
 * what futex keys use.
 *
 * Stage: kernel (mm).  Included by linux/mm.h (ours).  The one mm_struct
 * of the simulated process is allocated by sim/arch/mm.c.
 *
 * Contract: simulated tasks are threads of one process, so they share one
 * mm_struct; a PRIVATE futex key is { that mm, user address }.  One
 * struct page, anonymous, stands for every page of user memory
 * (get_user_pages_fast(), linux/mm.h).
 */
#ifndef _SIM_LINUX_MM_TYPES_H
#define _SIM_LINUX_MM_TYPES_H

#include <linux/types.h>
#include <linux/atomic.h>

struct address_space;

/**
 * struct mm_struct - the simulated process's address space
 * @futex_unique_id:	identity of the mm in shared futex keys
 */
struct mm_struct {
	atomic64_t futex_unique_id;
};

/* struct page - the one anonymous page; see the contract above. */
struct page {
	unsigned long flags;
	struct address_space *mapping;
	pgoff_t index;
};

/*
 * struct folio - the page seen as a folio (6.12's get_futex_key() works
 * on folios).  As on Linux it overlays the page: the one page is a folio
 * of one page, and page_folio() (linux/mm.h) is a cast.
 */
struct folio {
	unsigned long flags;
	struct address_space *mapping;
	pgoff_t index;
};

#endif /* _SIM_LINUX_MM_TYPES_H */
