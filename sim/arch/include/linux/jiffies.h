/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/jiffies.h (shadow) - the tick counter: absent.
 *
 * Stage: kernel (time).  Included by the real linux/ktime.h.  Simulated
 * kernel code measures time with ktime_get() only (linux/timekeeping.h,
 * sim/arch/time.c); there is no jiffies variable.  The real header needs
 * generated/timeconst.h and the arch's get_cycles().
 * Contract: only the HZ-derived constants of vdso/jiffies.h (TICK_NSEC).
 */
#ifndef _SIM_LINUX_JIFFIES_H
#define _SIM_LINUX_JIFFIES_H

#include <vdso/jiffies.h>

#endif /* _SIM_LINUX_JIFFIES_H */
