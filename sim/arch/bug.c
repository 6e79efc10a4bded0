/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/arch/bug.c - kernel diagnostics of "arch sim": the text of WARN(),
 * panic() and refcount saturation.
 *
 * Stage: kernel -> machine.  Called by asm-generic/bug.h (__warn_printk()
 * before a WARN), by linux/refcount.h and by panic() callers.  (printk()
 * and pr_*() need nothing: without CONFIG_PRINTK the real linux/printk.h
 * makes them empty inlines.)  Calls sim_bug()/sim_warn() of sim/machine/hooks.h, which
 * report a simulated failure (exit status 3).
 *
 * Contract: kernel log output is discarded: the simulator's trace and
 * failure report say what happened.  Everything that would make the real
 * kernel oops, panic or warn ends the run as a failure.
 */
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/panic.h>
#include <linux/refcount.h>
#include <sim/machine/hooks.h>

void __warn_printk(const char *fmt, ...)
{
}

void panic(const char *fmt, ...)
{
	sim_bug("panic()", __FILE__, __LINE__);
}

void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t)
{
	static const char *const what[] = {
		[REFCOUNT_ADD_NOT_ZERO_OVF]	= "refcount_t: saturated",
		[REFCOUNT_ADD_OVF]		= "refcount_t: saturated",
		[REFCOUNT_ADD_UAF]		= "refcount_t: addition on 0",
		[REFCOUNT_SUB_UAF]		= "refcount_t: underflow",
		[REFCOUNT_DEC_LEAK]		= "refcount_t: decrement hit 0",
	};

	sim_warn((unsigned int)t < ARRAY_SIZE(what) ? what[t] :
		 "refcount_t: saturation", __FILE__, __LINE__);
}
