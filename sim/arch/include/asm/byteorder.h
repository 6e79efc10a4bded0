/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/byteorder.h - byte order of "arch sim" (uapi arch header).
 *
 * Stage: kernel (types).  Included by linux/byteorder/generic.h users and
 * by qspinlock (its byte and halfword fields depend on it).
 * Contract: little endian, like x86 and arm64 Linux.
 */
#ifndef _SIM_ASM_BYTEORDER_H
#define _SIM_ASM_BYTEORDER_H

#include <linux/byteorder/little_endian.h>

#endif /* _SIM_ASM_BYTEORDER_H */
