/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/freezer.h (shadow) - the system freezer: absent.
 *
 * Stage: kernel.  Included by kernel/futex/waitwake.c, which only uses
 * the TASK_FREEZABLE state bit (linux/sched.h).  There is no suspend or
 * cgroup freezing in the simulation, so a freezable sleep is an ordinary
 * interruptible sleep.
 * Contract: declares nothing.
 */
#ifndef _SIM_LINUX_FREEZER_H
#define _SIM_LINUX_FREEZER_H

#include <linux/sched.h>

#endif /* _SIM_LINUX_FREEZER_H */
