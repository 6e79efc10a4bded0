/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/slab.h (shadow) - kernel memory allocation.
 *
 * Stage: kernel -> machine.  Used by the futex code (pi_state) and the
 * shim.  Implemented in sim/arch/alloc.c on sim_kzalloc()/sim_kfree(),
 * which allocate from the machine's fixed-address arena, so that kernel
 * objects have the same addresses in every run (kernel code hashes and
 * orders by address).
 *
 * Contract (the kernel's, with two simplifications): memory is always
 * zeroed, and GFP flags are accepted and ignored (allocation never sleeps,
 * never fails: running out of arena is a simulator failure, exit 3).
 * kfree(NULL) is a no-op.
 */
#ifndef _SIM_LINUX_SLAB_H
#define _SIM_LINUX_SLAB_H

#include <linux/compiler.h>
#include <linux/types.h>
#include <linux/gfp_types.h>
#include <linux/overflow.h>

void *kmalloc(size_t size, gfp_t flags);
void *kzalloc(size_t size, gfp_t flags);
void kfree(const void *objp);

static inline void *kcalloc(size_t n, size_t size, gfp_t flags)
{
	size_t bytes;

	if (unlikely(check_mul_overflow(n, size, &bytes)))
		return NULL;
	return kzalloc(bytes, flags);
}

#endif /* _SIM_LINUX_SLAB_H */
