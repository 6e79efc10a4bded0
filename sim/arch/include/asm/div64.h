/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/div64.h - 64-bit division of "arch sim".
 *
 * Stage: kernel (types).  Included by linux/math64.h.
 * Contract: the generic do_div() (native 64-bit division).
 */
#ifndef _SIM_ASM_DIV64_H
#define _SIM_ASM_DIV64_H

#include <asm-generic/div64.h>

#endif /* _SIM_ASM_DIV64_H */
