/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/swab.h - byte swapping of "arch sim" (uapi arch header).
 *
 * Stage: kernel (types).  Included by linux/swab.h.
 * Contract: no arch-specific swappers; the generic C ones are used.
 */
#ifndef _SIM_ASM_SWAB_H
#define _SIM_ASM_SWAB_H

#endif /* _SIM_ASM_SWAB_H */
