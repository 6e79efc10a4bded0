/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/page.h - page geometry of "arch sim".
 *
 * Stage: kernel (mm).  Included by linux/pagemap.h (ours); futex keys
 * split a user address into page and offset with it.
 * Contract: 4 KiB pages.
 */
#ifndef _SIM_ASM_PAGE_H
#define _SIM_ASM_PAGE_H

#include <linux/const.h>

#define PAGE_SHIFT	12
#define PAGE_SIZE	(_AC(1, UL) << PAGE_SHIFT)
#define PAGE_MASK	(~(PAGE_SIZE - 1))

#endif /* _SIM_ASM_PAGE_H */
