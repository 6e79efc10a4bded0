/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/types.h - fixed-size integer types of "arch sim" (uapi arch header).
 *
 * Stage: kernel (types).  Included by linux/types.h.
 * Contract: the kernel's u8..u64/s8..s64 with u64 = unsigned long long,
 * as on every Linux architecture (asm-generic/int-ll64.h).
 */
#ifndef _SIM_ASM_TYPES_H
#define _SIM_ASM_TYPES_H

#include <asm-generic/int-ll64.h>

#endif /* _SIM_ASM_TYPES_H */
