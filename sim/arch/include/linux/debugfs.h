/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/debugfs.h (shadow) - debugfs: absent.
 *
 * Stage: kernel.  Included by kernel/futex/core.c of 6.12 (6.1 reaches it
 * only through the real fault-inject.h, which the shim shadows), which
 * uses it only under CONFIG_FAULT_INJECTION_DEBUG_FS (not set).  The real
 * header pulls in seq_file.h, nodemask.h and random.h, none of which the
 * simulated kernel has.
 * Contract: declares nothing.
 */
#ifndef _SIM_LINUX_DEBUGFS_H
#define _SIM_LINUX_DEBUGFS_H

#endif /* _SIM_LINUX_DEBUGFS_H */
