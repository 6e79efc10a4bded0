/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/time_namespace.h (shadow) - time namespaces: one.
 *
 * Stage: kernel (time).  Used by kernel/futex/syscalls.c to convert an
 * absolute CLOCK_MONOTONIC timeout into the host's time base.
 * Contract: every task is in the initial time namespace (CONFIG_TIME_NS is
 * not set), so the conversion is the identity.
 */
#ifndef _SIM_LINUX_TIME_NAMESPACE_H
#define _SIM_LINUX_TIME_NAMESPACE_H

#include <linux/ktime.h>

static inline ktime_t timens_ktime_to_host(clockid_t clockid, ktime_t tim)
{
	return tim;
}

#endif /* _SIM_LINUX_TIME_NAMESPACE_H */
