/* SPDX-License-Identifier: GPL-2.0 */
/*
 * asm/percpu.h - per-CPU primitives of "arch sim".
 *
 * Stage: kernel.  Included by real headers (linux/lockdep.h) that expect
 * the arch's half of the per-CPU API.  The whole API of "arch sim" is in
 * linux/percpu.h (ours), which this file includes.
 * Contract: see linux/percpu.h.
 */
#ifndef _SIM_ASM_PERCPU_H
#define _SIM_ASM_PERCPU_H

#include <linux/percpu.h>

#endif /* _SIM_ASM_PERCPU_H */
