/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/linkage.h - calling-convention markers of "arch sim".
 *
 * Stage: kernel (build glue).  Included by the real linux/linkage.h.
 * Contract: nothing arch-specific: asmlinkage and the symbol alignment
 * macros keep linux/linkage.h's defaults (the host C ABI).
 */
#ifndef _SIM_ASM_LINKAGE_H
#define _SIM_ASM_LINKAGE_H

#endif /* _SIM_ASM_LINKAGE_H */
