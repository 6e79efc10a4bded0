// SPDX-License-Identifier: GPL-2.0
/*
 * futex/hb_view.c - a futex hash bucket's waiters in plist order, read
 * from the real struct futex_hash_bucket (see futex/hb_view.h).
 *
 * Stage: kernel (glue).  Called by the trace (sim/trace/trace.c) at the
 * unlock of a bucket's spinlock.  The chain is walked with plain loads,
 * not with list_empty() or the plist iterators, whose READ_ONCE() is a
 * hooked access in this build: reading it must not change the run.
 */
#include <linux/kernel.h>
#include <linux/futex.h>
#include <linux/plist.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

#include "futex.h"
#include "futex/hb_view.h"

unsigned long ksim_hb_lock_offset(void)
{
	return offsetof(struct futex_hash_bucket, lock);
}

int ksim_hb_waiters(const void *lock, int *tids, int max)
{
	const struct futex_hash_bucket *hb =
		container_of(lock, struct futex_hash_bucket, lock);
	const struct list_head *head = &hb->chain.node_list, *p;
	const struct futex_q *q;
	int n = 0;

	for (p = head->next; p != head; p = p->next) {
		q = container_of(p, struct futex_q, list.node_list);
		if (n < max)
			tids[n] = q->task ? q->task->pid : 0;
		n++;
	}
	return n;
}
