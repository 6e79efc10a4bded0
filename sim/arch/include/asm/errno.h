/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/errno.h - error numbers of "arch sim" (uapi arch header).
 *
 * Stage: kernel (types).  Included by linux/errno.h.
 * Contract: the generic Linux numbering, which x86 and arm64 share, so
 * -errno values returned by kernel code mean the same to user space.
 */
#ifndef _SIM_ASM_ERRNO_H
#define _SIM_ASM_ERRNO_H

#include <asm-generic/errno.h>

#endif /* _SIM_ASM_ERRNO_H */
