/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/fs.h (shadow) - struct inode and struct address_space, reduced to
 * what shared futex keys use.
 *
 * Stage: kernel (mm).  Included by linux/pagemap.h (ours).
 * Contract: no files; one inode and address_space per SysV shared
 * memory segment (sim/arch/mm.c), for the inode key of a shared futex in
 * it: the fields get_futex_key() reads.
 */
#ifndef _SIM_LINUX_FS_H
#define _SIM_LINUX_FS_H

#include <linux/types.h>
#include <linux/atomic.h>

struct inode {
	atomic64_t i_sequence;
};

struct address_space {
	struct inode *host;
};

#endif /* _SIM_LINUX_FS_H */
