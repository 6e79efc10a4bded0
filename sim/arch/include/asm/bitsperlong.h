/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/bitsperlong.h - word size of "arch sim" (uapi arch header).
 *
 * Stage: kernel (types).  Included by linux/bits.h and friends.
 * Contract: a 64-bit machine; BITS_PER_LONG comes from CONFIG_64BIT.
 */
#ifndef _SIM_ASM_BITSPERLONG_H
#define _SIM_ASM_BITSPERLONG_H

#define __BITS_PER_LONG 64
#include <asm-generic/bitsperlong.h>

#endif /* _SIM_ASM_BITSPERLONG_H */
