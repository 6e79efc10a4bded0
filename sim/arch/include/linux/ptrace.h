/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/ptrace.h (shadow) - ptrace access checks.
 *
 * Stage: kernel.  Used by sys_get_robust_list() (kernel/futex/syscalls.c),
 * through linux/syscalls.h (ours).
 * Contract: all simulated tasks are threads of one process with the same
 * credentials, so ptrace_may_access() always allows.
 */
#ifndef _SIM_LINUX_PTRACE_H
#define _SIM_LINUX_PTRACE_H

#include <linux/types.h>

struct task_struct;

#define PTRACE_MODE_READ	0x01
#define PTRACE_MODE_ATTACH	0x02
#define PTRACE_MODE_REALCREDS	0x10
#define PTRACE_MODE_READ_REALCREDS (PTRACE_MODE_READ | PTRACE_MODE_REALCREDS)

static inline bool ptrace_may_access(struct task_struct *task,
				     unsigned int mode)
{
	return true;
}

#endif /* _SIM_LINUX_PTRACE_H */
