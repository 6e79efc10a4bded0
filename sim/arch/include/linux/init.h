/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/init.h (shadow) - boot-time markers and initcalls.
 *
 * Stage: kernel (build glue).  Included by real headers such as
 * linux/printk.h.  The definitions (__init, core_initcall() ...) live in
 * sim/prelude.h, which every kernel TU already has; this file only makes
 * sure the real linux/init.h, with its discarded .init sections and
 * initcall levels the machine does not walk, is never used.
 *
 * Contract: see sim/prelude.h.
 */
#ifndef _SIM_LINUX_INIT_H
#define _SIM_LINUX_INIT_H

#include <sim/prelude.h>

typedef int (*initcall_t)(void);

#endif /* _SIM_LINUX_INIT_H */
