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
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/types.h>
#include <sim/machine/hooks.h>

#include "futex/mutex48.h"

struct futex_hash_bucket;
struct task_struct;

/**
 * struct futex_state - the kernel side of one contended TP futex word
 * @hb_list:	link in the bucket's fs_list (futex/tp_state.c)
 * @mutex:	the serialization mutex: its owner is the top waiter
 * @mutex48:	the same under tp-mutex=4.8 (futex/mutex48.h), in its
 *		place: the 6.1 runs keep their layout, byte for byte
 * @mutex48_kind: which of the two this state uses, fixed when attached
 *		(futex_tp_mutex() then); in what was padding
 * @owner:	the top waiter, set once it holds @mutex, NULL before it
 *		releases it; what FUTEX_UNLOCK wakes
 * @refcount:	tasks inside FUTEX_LOCK/FUTEX_UNLOCK holding it; under the
 *		bucket lock
 * @handoff_pid: 0, or the TID of the top waiter that asked for a handoff
 * @waiters_set: the top waiter set (or is about to set) FUTEX_WAITERS in
 *		the word in order to sleep, or, timed out, is about to take
 *		back the bit it set; for the state checker
 * @granted:	the unlocker wrote @handoff_pid into the word, and the top
 *		waiter has not yet seen it; for the state checker
 * @key:	the futex key of the word
 * @hb:		the word's hash bucket (its lock protects @hb_list and
 *		@refcount)
 * @uaddr:	the word, for the state checker
 * @timeout:	the top waiter's FUTEX_LOCK timeout (NULL: none); only the
 *		top waiter sets, reads and clears it (futex/tp.c)
 * @owner_link:	link in the futex owner's list of the states whose top
 *		waiter sleeps on it (the patch used the owner's
 *		pi_state_list), so that its exit wakes that waiter
 * @owner_task:	the task @owner_link hangs on, or NULL; both under that
 *		task's pi_lock
 *
 * The patch generalised futex_pi_state into futex_state;
 * here the TP object is a type of its own, as the PI one cannot be
 * changed.
 */
struct futex_state {
	struct list_head		hb_list;
	union {
		struct mutex		mutex;
		struct mutex48		mutex48;
	};
	struct task_struct		*owner;
	int				refcount;
	u32				handoff_pid;
	bool				waiters_set;
	bool				granted;
	bool				mutex48_kind;
	union futex_key			key;
	struct futex_hash_bucket	*hb;
	u32 __user			*uaddr;
	struct hrtimer_sleeper		*timeout;
	struct list_head		owner_link;
	struct task_struct		*owner_task;
};

/* futex_tp_mutex() - the run's serialization mutex, TP_MUTEX_61 or
 * TP_MUTEX_48 (futex/tp.c, ksim_futex_tp_configure()); read when a
 * futex_state is attached. */
int futex_tp_mutex(void);

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
 * Owner death (v3+), futex/tp_state.c.  futex_state_link_owner():
 * before the top waiter of @state sleeps on the futex owner @owner, hang
 * @state on @owner's list (a no-op if it hangs there already); Return: 0,
 * or -ESRCH if @owner is exiting (its exit will wake nobody: take the
 * word over instead).  futex_state_unlink_owner(): take @state off its
 * owner's list, if it is on one (the owner changed, or the top waiter
 * leaves).
 */
int futex_state_link_owner(struct futex_state *state,
			   struct task_struct *owner);
void futex_state_unlink_owner(struct futex_state *state);

/*
 * Shared locking, futex/tp_shared.c.  futex_tp_lock_shared(): @val is 0 or
 * FLAGS_TP_PREADER, @time an absolute timeout or NULL, as futex_tp_lock()'s;
 * Return: the status word or -errno (-EDEADLK if the caller holds the word
 * for writing; -ETIMEDOUT: no read lock, and the FUTEX_WAITERS and
 * handoff request it made on a writer's word are withdrawn).  futex_tp_unlock_shared(): Return:
 * 1 woke the top waiter, 0 not, -EPERM if the word is not reader-owned
 * with FUTEX_SHARED_UNLOCK and a count of 0.  futex_tp_wait_readers():
 * the exclusive top waiter's wait on a reader-owned word (below).
 */
long futex_tp_lock_shared(u32 __user *uaddr, unsigned int flags, u32 val,
			  ktime_t *time);

/**
 * futex_tp_acquire() - the kernel side of every TP acquisition, exclusive
 * (futex/tp.c) or shared (futex/tp_shared.c): attach the word's
 * futex_state, one steal attempt @trylock(@uaddr, state, @try_arg) as a
 * non-top waiter, else take the serialization mutex and, as the top
 * waiter (state->owner), run @spin(@uaddr, state, caller's TID) until the
 * word is ours; release the mutex and the state.
 * @trylock returns 1 taken, 0 not, or -errno; @spin the status word or
 * -errno.  With an absolute timeout @time (NULL: none) the caller leaves
 * the mutex queue at it (-ETIMEDOUT), and @spin finds state->timeout
 * expired (its sleeper's task cleared) and withdraws.
 * Return: the status word (TP_STATUS_STOLEN for a steal), or -errno.
 */
long futex_tp_acquire(u32 __user *uaddr, unsigned int flags,
		      int (*trylock)(u32 __user *, struct futex_state *, u32),
		      u32 try_arg,
		      long (*spin)(u32 __user *, struct futex_state *, u32),
		      ktime_t *time);
long futex_tp_unlock_shared(u32 __user *uaddr, unsigned int flags);
/*
 * futex_tp_wait_readers(): @budget and @deadline are the exclusive top
 * waiter's (futex/tp.c); it asks for a handoff 5 ms after becoming the
 * top waiter (@deadline), or under v2 at once if @budget is spent, never
 * with tp-handoff=off.  Return: a status code if it took a free word,
 * -EAGAIN once a writer owns the word, -EFAULT.
 */
int futex_tp_wait_readers(u32 __user *uaddr, struct futex_state *state,
			  u32 vpid, unsigned int *sleeps, const int *budget,
			  ktime_t deadline);

/**
 * futex_tp_withdraw() - a timed-out top waiter (futex/tp.c, or a reader's,
 * futex/tp_shared.c) takes back what it put into the word and the state.
 * Its handoff request (*@asked) goes first, under the bucket lock, which
 * futex_tp_unlock() holds across a grant: either the grant landed before
 * (the word names @vpid: return @granted, the caller keeps or converts
 * it) or no unlocker can write @vpid any more.  Then FUTEX_WAITERS, which
 * it set to sleep or to ask, is cleared from a writer's word: nobody else
 * sets it there while it is the top waiter.  state->waiters_set covers the
 * bit until it is gone (*@waiters_set: the caller's; the state checker).
 * @sleeps goes into the trace.
 * Return: -ETIMEDOUT, @granted, -EFAULT.
 */
int futex_tp_withdraw(u32 __user *uaddr, struct futex_state *state, u32 vpid,
		      bool *waiters_set, bool *asked, int granted,
		      unsigned int sleeps);

/**
 * futex_tp_handoff_due() - the run's handoff trigger (futex/tp.c; scenario
 * keys tp-policy and tp-handoff), for every top waiter, reader or writer
 * @budget:	v2: spin iterations left (a sleep costs TP_SLEEP_DECREMENT)
 * @deadline:	v6: the time as top waiter plus TP_HANDOFF_TIMEOUT
 *
 * Return: true once a handoff is due: v2 @budget < 0, v6 now > @deadline;
 * never with tp-handoff=off.
 */
bool futex_tp_handoff_due(int budget, ktime_t deadline);

/**
 * futex_tp_lock() - FUTEX_LOCK (futex/tp.c): one steal attempt, then the
 * serialization mutex, then spin on the owner as the top waiter.
 * @uaddr:	the futex word
 * @flags:	FLAGS_SHARED or 0
 * @time:	absolute timeout (futex/tp_unlock.c says which clock), or NULL
 *
 * Return: the status word; -EDEADLK if the caller owns the word already;
 * -ETIMEDOUT (@time passed: the caller holds neither the lock nor the
 * serialization mutex, and the FUTEX_WAITERS and handoff request it made
 * are withdrawn); -ENOMEM, -EFAULT.
 */
long futex_tp_lock(u32 __user *uaddr, unsigned int flags, ktime_t *time);

/**
 * futex_tp_wake_top() - the end of FUTEX_UNLOCK and FUTEX_UNLOCK_SHARED
 * (futex/tp_unlock.c): the word @uval was just released as @newval (0, or
 * a handoff TID: traced as the grant); if @uval had FUTEX_WAITERS, wake
 * the top waiter of @state (may be NULL); then trace the unlock.
 *
 * Return: 1 if a sleeping top waiter was woken, else 0.
 */
int futex_tp_wake_top(u32 __user *uaddr, struct futex_state *state,
		      u32 uval, u32 newval);

/* futex_tp_trace() - a TP trace event, if --trace asked for it. */
static inline void futex_tp_trace(const u32 __user *uaddr, enum sim_tp_op op,
				  u32 word, long long arg)
{
	if (unlikely(sim_trace_mask & SIM_TRACE_BIT(SIM_TEV_TP)))
		sim_trace_tp((const void *)uaddr, op, word, arg);
}

#endif /* FUTEX_TP_STATE_H */
