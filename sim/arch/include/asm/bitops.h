/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/bitops.h - bit operations of "arch sim".
 *
 * Stage: kernel (library).  Included by the real linux/bitops.h (jhash.h
 * and log2.h need it).
 * Contract: the generic C bitops.  The atomic ones (set_bit() ...) are
 * built on atomic_long_*() and so hooked through asm/atomic.h; the
 * non-atomic ones (__set_bit() ...) are plain accesses, as in the kernel.
 */
#ifndef _SIM_ASM_BITOPS_H
#define _SIM_ASM_BITOPS_H

#ifndef _LINUX_BITOPS_H
#error only <linux/bitops.h> can be included directly
#endif

#include <asm-generic/bitops.h>

#endif /* _SIM_ASM_BITOPS_H */
