/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/cache.h - cache geometry of "arch sim".
 *
 * Stage: kernel (types).  Included by linux/cache.h, which derives
 * ____cacheline_aligned(_in_smp) and SMP_CACHE_BYTES from it.
 * Contract: 64-byte lines, the line size of the machine's cost model.
 */
#ifndef _SIM_ASM_CACHE_H
#define _SIM_ASM_CACHE_H

#define L1_CACHE_SHIFT	6
#define L1_CACHE_BYTES	(1 << L1_CACHE_SHIFT)

#endif /* _SIM_ASM_CACHE_H */
