/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex/tp_abi.h - the user ABI of the throughput-optimized (TP) futex:
 * private op numbers, the bits of the futex word, the status word that
 * FUTEX_LOCK returns, and the policy numbers of the simulator.
 *
 * Stage: futex(2) boundary.  Only #defines, so that both the kernel side
 * (futex/tp.c, compiled against the kernel headers) and user space
 * (workloads/ulock/tp.c, compiled against libc) include it.
 *
 * Op numbers: the 2016 patch used 13/14, which mainline
 * later gave to FUTEX_LOCK_PI2; the simulator uses a private range that
 * no Linux op will reach soon.  The op is OR-ed with FUTEX_PRIVATE_FLAG
 * (128) as usual; FUTEX_CMD_MASK keeps bit 6, so 64..67 pass through the
 * real command decoding unchanged.
 */
#ifndef FUTEX_TP_ABI_H
#define FUTEX_TP_ABI_H

#define FUTEX_TP_LOCK		64	/* FUTEX_LOCK of the patch	*/
#define FUTEX_TP_UNLOCK		65	/* FUTEX_UNLOCK			*/
/* 66, 67: FUTEX_TP_LOCK_SHARED, FUTEX_TP_UNLOCK_SHARED (v4+, futex/tp_shared.c) */
#define FUTEX_TP_LOCK_SHARED	66	/* FUTEX_LOCK_SHARED of v4+	*/
#define FUTEX_TP_UNLOCK_SHARED	67	/* FUTEX_UNLOCK_SHARED		*/
#define FUTEX_TP_LOCK_SHARED_PRIVATE	(FUTEX_TP_LOCK_SHARED | 128)
#define FUTEX_TP_UNLOCK_SHARED_PRIVATE	(FUTEX_TP_UNLOCK_SHARED | 128)
#define FLAGS_TP_PREADER	1	/* val of FUTEX_TP_LOCK_SHARED (v6):
					 * prefer readers			*/
#define FUTEX_TP_LOCK_PRIVATE	(FUTEX_TP_LOCK | 128)
#define FUTEX_TP_UNLOCK_PRIVATE	(FUTEX_TP_UNLOCK | 128)

/*
 * The futex word (the v2-v6 patches).  Exclusive lock: 0 unlocked, TID locked,
 * TID | FUTEX_WAITERS locked and the unlock must enter the kernel (the
 * top waiter sleeps, or it asked for a handoff).  FUTEX_WAITERS and
 * FUTEX_OWNER_DIED are the usual bits 31 and 30 of linux/futex.h.  The
 * shared-lock bits of v4+ are reserved already, so the TID is bits 0-28.
 */
#define FUTEX_SHARED		0x20000000	/* reader-owned word	*/
#define FUTEX_SHARED_UNLOCK	0x10000000	/* last-reader unlock	*/
#define FUTEX_SHARED_RESERVED	0x0f000000	/* free for user space	*/
#define FUTEX_SHARED_COUNT	0x00ffffff	/* reader count		*/
#define FUTEX_TP_TID_MASK	0x1fffffff	/* owner TID, exclusive	*/

/*
 * FUTEX_LOCK returns a status word (v4+ layout, used for v2 too):
 * bits 0-7 how the lock was acquired, bits 16-30 how often the task slept
 * or yielded in the top waiter's spin loop.  Negative: -errno.
 */
#define TP_STATUS_STOLEN	0	/* one steal attempt as a non-top waiter */
#define TP_STATUS_TOP_WAITER	1	/* taken by the spinning top waiter	 */
#define TP_STATUS_HANDOFF	2	/* handed off by the unlocker		 */
#define TP_STATUS_CODE(r)	((r) & 0xff)
#define TP_STATUS_SLEEPS(r)	(((r) >> 16) & 0x7fff)
#define TP_STATUS_SLEEPS_MAX	0x7fff

/* Handoff policies (scenario key tp-policy) and the switch tp-handoff. */
#define TP_POLICY_V2		0	/* 2016: 1<<13 spins, -1/32 per sleep */
#define TP_POLICY_V6		1	/* 2017: 5 ms as the top waiter	      */
/* The serialization mutex (scenario key tp-mutex; docs/studies/to-futex-2016.md). */
#define TP_MUTEX_61		0	/* the real 6.1 mutex.c: handoff, spinning waiters */
#define TP_MUTEX_48		1	/* futex/mutex48.c: neither		      */
#define TP_SPIN_THRESHOLD	(1 << 13)
#define TP_SLEEP_DECREMENT	(TP_SPIN_THRESHOLD / 32)
#define TP_HANDOFF_TIMEOUT	5000000	/* ns: 5 ms			*/

#endif /* FUTEX_TP_ABI_H */
