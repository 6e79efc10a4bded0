/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/fault-inject.h (shadow) - fault injection: absent.
 *
 * Stage: kernel.  Included by kernel/futex/core.c, which uses it only
 * under CONFIG_FAIL_FUTEX (not set; futex.h then makes
 * should_fail_futex() return false).  The real header needs debugfs.
 * Contract: declares nothing.
 */
#ifndef _SIM_LINUX_FAULT_INJECT_H
#define _SIM_LINUX_FAULT_INJECT_H

#endif /* _SIM_LINUX_FAULT_INJECT_H */
