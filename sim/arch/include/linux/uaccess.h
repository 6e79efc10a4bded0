/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/uaccess.h (shadow) - user memory access of the simulated kernel.
 *
 * Stage: kernel <-> user memory.  Used by the futex code (futex words,
 * robust lists, syscall arguments) and asm/futex.h.
 *
 * Simulated user memory is memory of the host process that user tasks
 * and the kernel side both address directly; there is no separate
 * address space to copy across.  Contract:
 *  - access_ok(addr, size) fails only for the first page (0 .. PAGE_SIZE)
 *    and for ranges that wrap: a NULL futex pointer gets EFAULT, as on
 *    Linux.  Any other bad pointer is a bug of the workload.
 *  - get_user()/put_user() check access_ok() and then do one hooked
 *    READ_ONCE()/WRITE_ONCE() of the user word: user words are shared
 *    with other tasks, so each access is a scheduling point priced by the
 *    cost model.  Return: 0, or -EFAULT.  __get_user()/__put_user() are
 *    the same accesses without the check (the caller did it).
 *  - copy_from_user()/copy_to_user() are plain memcpy() after the check:
 *    they move a task's own syscall arguments, not shared data. Return:
 *    the number of bytes NOT copied (0, or n on a failed check).
 *  - pagefault_disable()/enable() are compiler barriers: no access ever
 *    faults.
 */
#ifndef _SIM_LINUX_UACCESS_H
#define _SIM_LINUX_UACCESS_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <asm/page.h>

#define access_ok(addr, size)						\
({									\
	unsigned long __ao_a = (unsigned long)(addr);			\
	unsigned long __ao_s = (unsigned long)(size);			\
	likely(__ao_a >= PAGE_SIZE && __ao_a + __ao_s >= __ao_a);	\
})

#define __get_user(x, ptr)						\
({									\
	(x) = READ_ONCE(*(ptr));					\
	0;								\
})

#define get_user(x, ptr)						\
({									\
	__typeof__(ptr) __gu_p = (ptr);					\
	int __gu_err = -EFAULT;						\
	if (access_ok(__gu_p, sizeof(*__gu_p)))				\
		__gu_err = __get_user(x, __gu_p);			\
	else								\
		(x) = 0;						\
	__gu_err;							\
})

#define __put_user(x, ptr)						\
({									\
	WRITE_ONCE(*(ptr), (x));					\
	0;								\
})

#define put_user(x, ptr)						\
({									\
	__typeof__(ptr) __pu_p = (ptr);					\
	int __pu_err = -EFAULT;						\
	if (access_ok(__pu_p, sizeof(*__pu_p)))				\
		__pu_err = __put_user(x, __pu_p);			\
	__pu_err;							\
})

static __always_inline unsigned long __must_check
copy_from_user(void *to, const void __user *from, unsigned long n)
{
	if (!access_ok(from, n))
		return n;
	memcpy(to, (const void __force *)from, n);
	return 0;
}

static __always_inline unsigned long __must_check
copy_to_user(void __user *to, const void *from, unsigned long n)
{
	if (!access_ok(to, n))
		return n;
	memcpy((void __force *)to, from, n);
	return 0;
}

#define pagefault_disable()	barrier()
#define pagefault_enable()	barrier()

#endif /* _SIM_LINUX_UACCESS_H */
