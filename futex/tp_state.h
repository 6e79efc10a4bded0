/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex/tp_state.h - the futex_state object of TP futexes and its life
 * cycle; private to futex/tp.c and futex/tp_state.c (kernel TUs).
 *
 * Stage: kernel.  futex/tp.c takes a reference for the length of each
 * FUTEX_LOCK (and of a FUTEX_UNLOCK that finds one) and drops it on the
 * way out; futex/tp_state.c attaches the object to the word's hash bucket
 * on first use and detaches it when the last reference goes.
 */
#ifndef FUTEX_TP_STATE_H
#define FUTEX_TP_STATE_H

#include <linux/futex.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <sim/hooks.h>

struct futex_hash_bucket;
struct task_struct;

/**
 * struct futex_state - the kernel side of one contended TP futex word
 * @hb_list:	link in the bucket's fs_list (futex/tp_state.c)
 * @mutex:	the serialization mutex: its owner is the top waiter
 * @owner:	the top waiter, set once it holds @mutex, NULL before it
 *		releases it; what FUTEX_UNLOCK wakes
 * @refcount:	tasks inside FUTEX_LOCK/FUTEX_UNLOCK holding it; under the
 *		bucket lock
 * @handoff_pid: 0, or the TID of the top waiter that asked for a handoff
 * @waiters_set: the top waiter set (or is about to set) FUTEX_WAITERS in
 *		the word in order to sleep; for the state checker
 * @granted:	the unlocker wrote @handoff_pid into the word, and the top
 *		waiter has not yet seen it; for the state checker
 * @key:	the futex key of the word
 * @hb:		the word's hash bucket (its lock protects @hb_list and
 *		@refcount)
 * @uaddr:	the word, for the state checker
 *
 * The patch generalised futex_pi_state into futex_state (SPEC.md 9.4);
 * here the TP object is a type of its own, as the PI one cannot be
 * changed.
 */
struct futex_state {
	struct list_head		hb_list;
	struct mutex			mutex;
	struct task_struct		*owner;
	int				refcount;
	u32				handoff_pid;
	bool				waiters_set;
	bool				granted;
	union futex_key			key;
	struct futex_hash_bucket	*hb;
	u32 __user			*uaddr;
};

/**
 * futex_state_get() - find the futex_state of @uaddr and take a reference
 * @uaddr:	the futex word
 * @flags:	FLAGS_SHARED or 0
 * @create:	attach the caller's cached object if there is none
 * @statep:	the state, or NULL when there is none and !@create
 *
 * Return: 0, -ENOMEM (no object could be allocated), or the error of
 * get_futex_key().
 */
int futex_state_get(u32 __user *uaddr, unsigned int flags, bool create,
		    struct futex_state **statep);

/* futex_state_put() - drop a reference; the last one detaches @state. */
void futex_state_put(struct futex_state *state);

/*
 * Shared locking, futex/tp_shared.c.  futex_tp_lock_shared(): @val is 0 or
 * FLAGS_TP_PREADER; Return: the status word or -errno (-EDEADLK if the
 * caller holds the word for writing).  futex_tp_unlock_shared(): Return:
 * 1 woke the top waiter, 0 not, -EPERM if the word is not reader-owned
 * with FUTEX_SHARED_UNLOCK and a count of 0.  futex_tp_wait_readers():
 * the exclusive top waiter's wait on a reader-owned word; Return: -EAGAIN
 * once it is not reader-owned, or -EFAULT.
 */
long futex_tp_lock_shared(u32 __user *uaddr, unsigned int flags, u32 val);

/**
 * futex_tp_acquire() - the kernel side of every TP acquisition, exclusive
 * (futex/tp.c) or shared (futex/tp_shared.c): attach the word's
 * futex_state, one steal attempt @trylock(@uaddr, state, @try_arg) as a
 * non-top waiter, else take the serialization mutex and, as the top
 * waiter (state->owner), run @spin(@uaddr, state, caller's TID) until the
 * word is ours; release the mutex and the state.
 * @trylock returns 1 taken, 0 not, or -errno; @spin the status word or
 * -errno.
 * Return: the status word (TP_STATUS_STOLEN for a steal), or -errno.
 */
long futex_tp_acquire(u32 __user *uaddr, unsigned int flags,
		      int (*trylock)(u32 __user *, struct futex_state *, u32),
		      u32 try_arg,
		      long (*spin)(u32 __user *, struct futex_state *, u32));
long futex_tp_unlock_shared(u32 __user *uaddr, unsigned int flags);
int futex_tp_wait_readers(u32 __user *uaddr, struct futex_state *state,
			  u32 vpid, unsigned int *sleeps);

/* futex_tp_trace() - a TP trace event, if --trace asked for it. */
static inline void futex_tp_trace(const u32 __user *uaddr, enum sim_tp_op op,
				  u32 word, long long arg)
{
	if (unlikely(sim_trace_mask & SIM_TRACE_BIT(SIM_TEV_TP)))
		sim_trace_tp((const void *)uaddr, op, word, arg);
}

#endif /* FUTEX_TP_STATE_H */
