// SPDX-License-Identifier: GPL-2.0
/*
 * futex/tp_shared.c - shared (reader) locking of TP futexes:
 * FUTEX_LOCK_SHARED and FUTEX_UNLOCK_SHARED of the v4-v6 patches
 * (SPEC.md 9.9), and the wait of an exclusive top waiter on a
 * reader-owned word (the fixed 50 us window of SPEC.md 9.5).
 *
 * Stage: futex(2) -> kernel.  ksim_sys_futex() (futex/tp.c) routes
 * FUTEX_TP_LOCK_SHARED/FUTEX_TP_UNLOCK_SHARED here, and futex/tp.c's spin
 * loop calls futex_tp_wait_readers() when the word it spins on is
 * reader-owned.  Calls the futex_state API of futex/tp_state.c, the real
 * kernel mutex (the serialization mutex, shared by readers and writers)
 * and the scheduler API of sched/kapi.c.
 *
 * The word with shared locking (futex/tp_abi.h):
 *
 *   FUTEX_SHARED | n          n readers own it (n >= 1)
 *   ... | FUTEX_WAITERS       a kernel waiter sleeps or asked for a
 *                             handoff: the last reader's unlock must
 *                             enter the kernel
 *   FUTEX_SHARED | FUTEX_SHARED_UNLOCK | FUTEX_WAITERS, n = 0
 *                             the last reader is on its way into
 *                             FUTEX_UNLOCK_SHARED; nobody may join
 *
 * Transitions done here (W: the top waiter's TID, or 0 without handoff):
 *
 *   0 --reader's one steal, or a reader top waiter--> SHARED|1
 *   SHARED|n --reader top waiter, or a prefer-reader steal when no
 *              handoff is pending--> SHARED|n+1
 *   TID(R) --an exclusive unlock granted a handoff to reader R-->
 *              SHARED|1 (R converts it)
 *   SHARED|n --writer top waiter: no change of n for 50 us--> +WAITERS,
 *              sleep; or 5 ms as top waiter--> +WAITERS, handoff_pid = W
 *   SHARED|SHARED_UNLOCK|WAITERS --FUTEX_UNLOCK_SHARED--> W, wake the top
 *              waiter
 *
 * Reconstructions [R]:
 *  - kernel readers and writers share the serialization mutex, FIFO; a
 *    reader that is not the top waiter has one steal attempt: a free
 *    word always, a reader-owned one only with FLAGS_TP_PREADER;
 *  - user-space readers do not join a word with FUTEX_WAITERS (see
 *    workloads/ulock/rwlock_tp.c): a sleeping writer would otherwise
 *    wait for a reader count that need never reach 0;
 *  - a writer top waiter asks for a handoff after 5 ms on readers
 *    (TP_HANDOFF_TIMEOUT, whatever tp-policy says; tp-handoff=off does
 *    not reach this file), so the last reader hands it the word; a
 *    reader top waiter does the same on a writer-owned word;
 *  - the 50 us window restarts on any change of the reader count, and
 *    after each sleep;
 *  - sleeps on readers are counted in the status word like other sleeps;
 *  - reader grouping through an OSQ (v4) is NOT modelled: R W R W in
 *    the mutex queue is served one after the other.
 */
#include <linux/kernel.h>
#include <linux/futex.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/uaccess.h>
#include <asm/futex.h>
#include <asm/processor.h>

#include "futex.h"
#include "futex/tp.h"
#include "futex/tp_state.h"

#define TP_READER_WINDOW	50000	/* ns: spin on readers	*/
#define TP_SHARED_ONE		(FUTEX_SHARED | 1)

/* The word is owned by readers (or its last reader is unlocking). */
static inline bool tp_reader_owned(u32 uval)
{
	return uval & FUTEX_SHARED;
}

/* A reader may join: reader-owned, not being unlocked, room to count. */
static inline bool tp_reader_joinable(u32 uval)
{
	return (uval & FUTEX_SHARED) && !(uval & FUTEX_SHARED_UNLOCK) &&
	       (uval & FUTEX_SHARED_COUNT) != FUTEX_SHARED_COUNT;
}

/* cmpxchg @old -> @new.  Return: 1 done, 0 the word changed, -EFAULT. */
static int tp_cmpxchg(u32 __user *uaddr, u32 old, u32 new)
{
	u32 curval;

	if (futex_atomic_cmpxchg_inatomic(&curval, uaddr, old, new))
		return -EFAULT;
	return curval == old;
}

/* Set (or keep) FUTEX_WAITERS; the state checker's flag first. */
static int tp_shared_mark_waiters(u32 __user *uaddr,
				  struct futex_state *state, u32 uval,
				  bool *marked)
{
	if (!*marked) {
		WRITE_ONCE(state->waiters_set, true);
		*marked = true;
	}
	if (uval & FUTEX_WAITERS)
		return 1;
	return tp_cmpxchg(uaddr, uval, uval | FUTEX_WAITERS);
}

/* Sleep unless the word is no longer @uval. */
static void tp_shared_sleep(u32 __user *uaddr, u32 uval)
{
	u32 curval;

	set_current_state(TASK_INTERRUPTIBLE);
	if (!get_user(curval, uaddr) && curval == uval) {
		futex_tp_trace(uaddr, SIM_TP_SLEEP, uval, 0);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

/* Ask for a handoff once: handoff_pid, then FUTEX_WAITERS. */
static void tp_shared_request_handoff(u32 __user *uaddr,
				      struct futex_state *state, u32 uval,
				      u32 vpid, ktime_t start, bool *asked)
{
	if (*asked)
		return;
	WRITE_ONCE(state->handoff_pid, vpid);
	*asked = true;
	futex_tp_trace(uaddr, SIM_TP_HANDOFF_REQUEST, uval,
		       ktime_get() - start);
	if (!(uval & FUTEX_WAITERS))
		atomic_fetch_or(FUTEX_WAITERS, (atomic_t __force *)uaddr);
}

/* Undo what a waiter told the state checker and the unlockers. */
static void tp_shared_leave(struct futex_state *state, bool marked,
			    bool asked)
{
	if (marked)
		WRITE_ONCE(state->waiters_set, false);
	if (asked) {
		WRITE_ONCE(state->granted, false);
		WRITE_ONCE(state->handoff_pid, 0);
	}
}

/**
 * futex_tp_wait_readers() - the exclusive top waiter found the word
 * reader-owned: spin while the reader count changes at least every
 * 50 us, else set FUTEX_WAITERS and sleep; ask for a handoff after 5 ms.
 * @uaddr:	the futex word
 * @state:	its futex_state (the caller owns the serialization mutex)
 * @vpid:	the caller's TID
 * @sleeps:	incremented per sleep or yield
 *
 * Return: -EAGAIN once the word is no longer reader-owned (the caller
 * looks at it again: it may hold the caller's TID, a handoff), -EFAULT.
 */
int futex_tp_wait_readers(u32 __user *uaddr, struct futex_state *state,
			  u32 vpid, unsigned int *sleeps)
{
	ktime_t start = ktime_get(), window = start, now;
	bool marked = false, asked = false, spinning = false;
	u32 uval, count = ~0u;
	int ret = -EAGAIN;

	for (;;) {
		if (get_user(uval, uaddr)) {
			ret = -EFAULT;
			break;
		}
		if (!tp_reader_owned(uval))
			break;
		now = ktime_get();
		if ((uval & FUTEX_SHARED_COUNT) != count) {
			count = uval & FUTEX_SHARED_COUNT;
			window = now;		/* reader activity */
		}
		if (now - start > TP_HANDOFF_TIMEOUT)
			tp_shared_request_handoff(uaddr, state, uval, vpid,
						  start, &asked);
		if (now - window < TP_READER_WINDOW && !need_resched()) {
			if (!spinning)
				futex_tp_trace(uaddr, SIM_TP_SPIN_START, uval, 0);
			spinning = true;
			cpu_relax();
			continue;
		}
		if (spinning)
			futex_tp_trace(uaddr, SIM_TP_SPIN_STOP, uval, 0);
		spinning = false;
		if (need_resched()) {
			schedule();		/* a yield */
		} else {
			int set = tp_shared_mark_waiters(uaddr, state, uval,
							 &marked);

			if (set < 0) {
				ret = set;
				break;
			}
			if (!set)
				continue;	/* the word changed: look again */
			tp_shared_sleep(uaddr, uval | FUTEX_WAITERS);
		}
		(*sleeps)++;
		window = ktime_get();
	}
	tp_shared_leave(state, marked, asked);
	return ret;
}

/* The last reader's unlock is under way: FUTEX_SHARED_UNLOCK, count 0. */
static inline bool tp_reader_unlocking(u32 uval)
{
	return (uval & (FUTEX_SHARED | FUTEX_SHARED_UNLOCK)) ==
	       (FUTEX_SHARED | FUTEX_SHARED_UNLOCK) &&
	       !(uval & FUTEX_SHARED_COUNT);
}

/*
 * tp_shared_trylock - the one steal attempt of a reader that is not the
 * top waiter: a free word, or (prefer-reader) a reader-owned one, never
 * while a handoff is pending.
 * Return: 1 taken, 0 not, -EFAULT.
 */
static int tp_shared_trylock(u32 __user *uaddr, struct futex_state *state,
			     u32 preader)
{
	u32 uval;
	int ret;

	if (get_user(uval, uaddr))
		return -EFAULT;
	if (READ_ONCE(state->handoff_pid))
		return 0;
	if (!uval)
		ret = tp_cmpxchg(uaddr, 0, TP_SHARED_ONE);
	else if (preader && tp_reader_joinable(uval))
		ret = tp_cmpxchg(uaddr, uval, uval + 1);
	else
		return 0;
	if (ret > 0)
		futex_tp_trace(uaddr, SIM_TP_STEAL, uval, 0);
	return ret;
}

/* What the reader top waiter keeps between looks. */
struct tp_rspin {
	struct task_struct *owner;	/* the writer, referenced	*/
	u32 owner_tid;
	ktime_t start;
	unsigned int sleeps;
	bool marked;			/* state->waiters_set is ours	*/
	bool asked;			/* state->handoff_pid is ours	*/
	bool spinning;
};

/* Take the word as its first reader.  Return: @code, -EAGAIN, -EFAULT. */
static int tp_shared_take(u32 __user *uaddr, struct futex_state *state,
			  u32 uval, u32 new, int code, struct tp_rspin *s)
{
	int ret = tp_cmpxchg(uaddr, uval, new);

	if (ret < 0)
		return ret;
	if (!ret)
		return -EAGAIN;
	if (s->asked) {
		/* before the next scheduling point: the checker */
		WRITE_ONCE(state->granted, false);
		WRITE_ONCE(state->handoff_pid, 0);
		s->asked = false;
	}
	return code;
}

/* The writer that owns the word is off its CPU: sleep (or yield). */
static int tp_shared_block(u32 __user *uaddr, struct futex_state *state,
			   u32 uval, struct tp_rspin *s)
{
	int set;

	if (s->spinning)
		futex_tp_trace(uaddr, SIM_TP_SPIN_STOP, uval, 0);
	s->spinning = false;
	if (need_resched()) {
		schedule();			/* a yield */
	} else {
		set = tp_shared_mark_waiters(uaddr, state, uval, &s->marked);
		if (set <= 0)
			return set ? set : -EAGAIN;
		tp_shared_sleep(uaddr, uval | FUTEX_WAITERS);
	}
	s->sleeps++;
	return -EAGAIN;
}

/*
 * tp_shared_spin_once - one look at the word by the reader top waiter:
 * join readers, take a free word or a handed-off one, spin on a running
 * writer, sleep while it does not run.
 * Return: the status code once a read lock is ours, -EAGAIN, -EFAULT.
 */
static int tp_shared_spin_once(u32 __user *uaddr, struct futex_state *state,
			       u32 vpid, struct tp_rspin *s)
{
	u32 uval, tid;

	if (get_user(uval, uaddr))
		return -EFAULT;
	if (tp_reader_joinable(uval))
		return tp_shared_take(uaddr, state, uval, uval + 1,
				      TP_STATUS_TOP_WAITER, s);
	if (tp_reader_owned(uval)) {
		/* the last reader is in FUTEX_UNLOCK_SHARED */
		if (need_resched()) {
			schedule();
			s->sleeps++;
		} else {
			cpu_relax();
		}
		return -EAGAIN;
	}
	tid = uval & FUTEX_TP_TID_MASK;
	if (tid == vpid || !tid)	/* handed to us, or free */
		return tp_shared_take(uaddr, state, uval, TP_SHARED_ONE,
				      uval & FUTEX_WAITERS || tid ?
				      TP_STATUS_HANDOFF : TP_STATUS_TOP_WAITER,
				      s);
	if (tid != s->owner_tid) {
		if (s->owner)
			put_task_struct(s->owner);
		s->owner = find_get_task_by_vpid(tid);
		s->owner_tid = tid;
	}
	if (!s->owner)			/* owner death: take it over */
		return tp_shared_take(uaddr, state, uval, TP_SHARED_ONE,
				      TP_STATUS_TOP_WAITER, s);
	if (!(uval & FUTEX_WAITERS) && s->marked) {
		WRITE_ONCE(state->waiters_set, false);
		s->marked = false;
	}
	if (ktime_get() - s->start > TP_HANDOFF_TIMEOUT)
		tp_shared_request_handoff(uaddr, state, uval, vpid, s->start,
					  &s->asked);
	if (owner_on_cpu(s->owner) && !need_resched()) {
		if (!s->spinning)
			futex_tp_trace(uaddr, SIM_TP_SPIN_START, uval, 0);
		s->spinning = true;
		cpu_relax();
		return -EAGAIN;
	}
	return tp_shared_block(uaddr, state, uval, s);
}

/* The reader top waiter's loop.  Return: the status word, -EFAULT. */
static long tp_shared_spin(u32 __user *uaddr, struct futex_state *state,
			   u32 vpid)
{
	struct tp_rspin s = { .start = ktime_get() };
	long ret;

	do {
		ret = tp_shared_spin_once(uaddr, state, vpid, &s);
	} while (ret == -EAGAIN);
	if (s.owner)
		put_task_struct(s.owner);
	tp_shared_leave(state, s.marked, s.asked);
	if (ret < 0)
		return ret;
	return ret | (long)min_t(unsigned int, s.sleeps,
				 TP_STATUS_SLEEPS_MAX) << 16;
}

long futex_tp_lock_shared(u32 __user *uaddr, unsigned int flags, u32 val)
{
	u32 vpid = task_pid_vnr(current), uval;

	if (val & ~FLAGS_TP_PREADER)
		return -EINVAL;
	if (get_user(uval, uaddr))
		return -EFAULT;
	if (!tp_reader_owned(uval) && (uval & FUTEX_TP_TID_MASK) == vpid)
		return -EDEADLK;		/* we hold it for writing */
	return futex_tp_acquire(uaddr, flags, tp_shared_trylock,
				val & FLAGS_TP_PREADER, tp_shared_spin);
}

long futex_tp_unlock_shared(u32 __user *uaddr, unsigned int flags)
{
	struct futex_state *state;
	struct task_struct *top;
	u32 uval, newval;
	long ret;
	int done;

	if (get_user(uval, uaddr))
		return -EFAULT;
	if (!tp_reader_unlocking(uval))
		return -EPERM;
	ret = futex_state_get(uaddr, flags, false, &state);
	if (ret)
		return ret;
	for (;;) {
		newval = state ? READ_ONCE(state->handoff_pid) : 0;
		done = tp_cmpxchg(uaddr, uval, newval);
		ret = -EFAULT;
		if (done < 0 || (!done && get_user(uval, uaddr)))
			goto out;
		if (done)
			break;
		ret = -EPERM;
		if (!tp_reader_unlocking(uval))
			goto out;
	}
	if (newval) {
		/* no hook since the cmpxchg: the checker sees both at once */
		state->granted = true;
		futex_tp_trace(uaddr, SIM_TP_HANDOFF_GRANT, newval, newval);
	}
	ret = 0;
	if (state && (uval & FUTEX_WAITERS)) {
		top = READ_ONCE(state->owner);	/* [R] as futex_tp_unlock() */
		if (top && wake_up_process(top))
			ret = 1;
	}
	futex_tp_trace(uaddr, SIM_TP_UNLOCK, newval, ret);
out:
	if (state)
		futex_state_put(state);
	return ret;
}
