/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/posix_types.h - __kernel_* POSIX types of "arch sim" (uapi arch
 * header).
 *
 * Stage: kernel (types).  Included by linux/posix_types.h.
 * Contract: the generic 64-bit definitions (pid_t is int, time64 is
 * long long).
 */
#ifndef _SIM_ASM_POSIX_TYPES_H
#define _SIM_ASM_POSIX_TYPES_H

#include <asm-generic/posix_types.h>

#endif /* _SIM_ASM_POSIX_TYPES_H */
