/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/param.h - HZ of "arch sim" (uapi arch header).
 *
 * Stage: kernel (types).  Included by linux/param.h (ratelimit_types.h).
 * Contract: HZ is CONFIG_HZ (generic definition).  Nothing in the
 * simulated kernel code counts jiffies: time is ktime_get() (linux/ktime.h).
 */
#ifndef _SIM_ASM_PARAM_H
#define _SIM_ASM_PARAM_H

#include <asm-generic/param.h>

#endif /* _SIM_ASM_PARAM_H */
