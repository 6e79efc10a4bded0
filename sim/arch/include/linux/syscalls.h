/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/syscalls.h (shadow) - system call definitions.
 *
 * Stage: futex(2) boundary -> kernel.  Included by
 * kernel/futex/syscalls.c.  sim/syscall/syscall.c (a host TU) calls the resulting
 * functions directly, with plain C types of the same ABI.
 *
 * Contract: SYSCALL_DEFINE<n>(name, type1, arg1, ...) defines an ordinary
 * C function
 *	long sys_<name>(type1 arg1, ...)
 * so SYSCALL_DEFINE6(futex, ...) is
 *	long sys_futex(u32 __user *uaddr, int op, u32 val,
 *		       const struct __kernel_timespec __user *utime,
 *		       u32 __user *uaddr2, u32 val3);
 * with no register-level wrappers, tracing or argument sign extension.
 * Return: the kernel's >= 0 or -errno.
 *
 * The real header also brings in, through its fat includes, what
 * syscalls.c uses without including it; those headers are listed below.
 */
#ifndef _SIM_LINUX_SYSCALLS_H
#define _SIM_LINUX_SYSCALLS_H

#include <linux/types.h>
#include <linux/err.h>
#include <linux/time.h>
#include <linux/uaccess.h>
#include <linux/rcupdate.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <uapi/linux/time_types.h>

/* "t1, a1, t2, a2, ..." -> "t1 a1, t2 a2, ..." */
#define __SIM_SC_ARGS1(t, a)		t a
#define __SIM_SC_ARGS2(t, a, ...)	t a, __SIM_SC_ARGS1(__VA_ARGS__)
#define __SIM_SC_ARGS3(t, a, ...)	t a, __SIM_SC_ARGS2(__VA_ARGS__)
#define __SIM_SC_ARGS4(t, a, ...)	t a, __SIM_SC_ARGS3(__VA_ARGS__)
#define __SIM_SC_ARGS5(t, a, ...)	t a, __SIM_SC_ARGS4(__VA_ARGS__)
#define __SIM_SC_ARGS6(t, a, ...)	t a, __SIM_SC_ARGS5(__VA_ARGS__)

#define SYSCALL_DEFINE0(name)		long sys_##name(void)
#define SYSCALL_DEFINE1(name, ...)	long sys_##name(__SIM_SC_ARGS1(__VA_ARGS__))
#define SYSCALL_DEFINE2(name, ...)	long sys_##name(__SIM_SC_ARGS2(__VA_ARGS__))
#define SYSCALL_DEFINE3(name, ...)	long sys_##name(__SIM_SC_ARGS3(__VA_ARGS__))
#define SYSCALL_DEFINE4(name, ...)	long sys_##name(__SIM_SC_ARGS4(__VA_ARGS__))
#define SYSCALL_DEFINE5(name, ...)	long sys_##name(__SIM_SC_ARGS5(__VA_ARGS__))
#define SYSCALL_DEFINE6(name, ...)	long sys_##name(__SIM_SC_ARGS6(__VA_ARGS__))

#endif /* _SIM_LINUX_SYSCALLS_H */
