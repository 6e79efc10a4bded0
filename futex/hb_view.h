/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex/hb_view.h - a futex hash bucket's waiters as the kernel keeps
 * them, for the trace (the page of an HTML trace shows each bucket's
 * list: docs/view.md).
 *
 * Stage: kernel -> trace boundary (glue).  Plain C only: included by
 * host code (sim/trace/trace.c) and by the kernel TU that implements it,
 * futex/hb_view.c, which reads the real struct futex_hash_bucket of
 * kernel/futex/futex.h.
 */
#ifndef SIM_FUTEX_HB_VIEW_H
#define SIM_FUTEX_HB_VIEW_H

/*
 * ksim_hb_waiters - the TIDs of the tasks queued on the futex hash
 * bucket whose spinlock is @lock, in the order of the bucket's plist
 * (hb->chain: by priority, FIFO among equals), into @tids, at most @max;
 * a futex_q without a task (not yet queued by its task) gives 0.
 * @lock must be the lock member of a bucket of the kernel's futex hash
 * table, at a moment its chain is consistent (its unlock).  Plain loads
 * only: no hook, no charge, nothing changed.
 * Return: the number of entries of the chain (more than @max if it was
 * cut).
 */
int ksim_hb_waiters(const void *lock, int *tids, int max);

/* ksim_hb_lock_offset - Return: offsetof(struct futex_hash_bucket,
 * lock). */
unsigned long ksim_hb_lock_offset(void);

#endif /* SIM_FUTEX_HB_VIEW_H */
