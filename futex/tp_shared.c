// SPDX-License-Identifier: GPL-2.0
/*
 * futex/tp_shared.c - shared (reader) locking of TP futexes:
 * FUTEX_LOCK_SHARED and FUTEX_UNLOCK_SHARED of the v4-v6 patches
 * (LKML, Waiman Long, December 2016 - March 2017), and the wait of an
 * exclusive top waiter on a reader-owned word (the fixed 50 us window of
 * v4; docs/studies/glibc-2017.md, "TP shared locking and the TP rwlock").
 *
 * Stage: futex(2) -> kernel.  ksim_sys_futex() (futex/tp_unlock.c) routes
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
 *  - a writer top waiter asks for a handoff 5 ms after it became the
 *    top waiter (TP_HANDOFF_TIMEOUT) under both tp-policy values, so the
 *    last reader hands it the word; a reader top waiter does the same
 *    on a writer-owned word; never with tp-handoff=off.  Shared locking
 *    came with v4, whose only trigger is the 5 ms (TP_HANDOFF_TIMEOUT):
 *    the v2 budget counts spins on a running exclusive owner, which
 *    readers are not (counted per look it would also run out inside
 *    one 50 us window on a machine whose PAUSE is 4 ns).  tp-policy=v2
 *    keeps its budget for the writer-on-writer wait of futex/tp.c, and
 *    a writer that spent it there asks at once on readers too;
 *  - a cmpxchg that loses a race goes on with the value it found, as
 *    futex/tp.c does: see tp_shared_spin_once() and
 *    futex_tp_wait_readers();
 *  - the 50 us window restarts on any change of the reader count, and
 *    after each sleep;
 *  - sleeps on readers are counted in the status word like other sleeps;
 *  - reader grouping through an OSQ (v4) is NOT modelled: R W R W in
 *    the mutex queue is served one after the other;
 *  - FUTEX_LOCK_SHARED takes FUTEX_LOCK's absolute timeout (futex/tp.c):
 *    a reader queued on the mutex leaves at it; the reader top waiter
 *    leaves only from a writer's word, withdrawing its handoff request
 *    and FUTEX_WAITERS (tp_shared_timeout()); a reader-owned word it
 *    joins or is handed first.
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

/*
 * The handoff trigger of shared locking (see the head): @deadline (5 ms
 * after becoming the top waiter) passed, or v2's @budget is spent; never
 * with tp-handoff=off.  futex_tp_handoff_due() applies the run's keys:
 * it reads a budget under v2, the deadline under v6.
 */
static bool tp_shared_handoff_due(int budget, ktime_t deadline)
{
	return futex_tp_handoff_due(budget < 0 || ktime_get() > deadline ?
				    -1 : INT_MAX, deadline);
}

/*
 * If due, ask for a handoff once: handoff_pid, then FUTEX_WAITERS.  The
 * trace's argument: the time as top waiter, as futex/tp.c's under v6.
 */
static void tp_shared_handoff_if_due(u32 __user *uaddr,
				     struct futex_state *state, u32 uval,
				     u32 vpid, int budget, ktime_t deadline,
				     bool *asked)
{
	if (*asked || !tp_shared_handoff_due(budget, deadline))
		return;
	WRITE_ONCE(state->handoff_pid, vpid);
	*asked = true;
	futex_tp_trace(uaddr, SIM_TP_HANDOFF_REQUEST, uval,
		       ktime_get() - (deadline - TP_HANDOFF_TIMEOUT));
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

/*
 * tp_shared_take_free - the exclusive top waiter waiting on readers found
 * the word free (0, or 0|FUTEX_WAITERS: its own handoff request that
 * found the word free): take it as futex/tp.c would.
 * Return: the status code, -EAGAIN (lost it: *@uval is the word now),
 * -EFAULT.
 */
static int tp_shared_take_free(u32 __user *uaddr, u32 *uval, u32 vpid)
{
	u32 curval;

	if (futex_atomic_cmpxchg_inatomic(&curval, uaddr, *uval, vpid))
		return -EFAULT;
	if (curval == *uval)
		return *uval & FUTEX_WAITERS ? TP_STATUS_HANDOFF :
					       TP_STATUS_TOP_WAITER;
	*uval = curval;
	return -EAGAIN;
}

/**
 * futex_tp_wait_readers() - the exclusive top waiter found the word
 * reader-owned: spin while the reader count changes at least every
 * 50 us, else set FUTEX_WAITERS and sleep; ask for a handoff when the
 * trigger of the head says so.  A free word between two readers is taken
 * here, and one lost to a reader is one more look at the readers [R]: a
 * reader that unlocks and relocks in user space leaves the word 0 for
 * moments only, and a waiter that went back to futex/tp.c's loop for
 * each (whose lost race to a reader was a bare "look again") could lose
 * every race and never reach a handoff check.
 * @uaddr:	the futex word
 * @state:	its futex_state (the caller owns the serialization mutex)
 * @vpid:	the caller's TID
 * @sleeps:	incremented per sleep or yield
 * @budget:	the caller's v2 budget (what its spinning on writers left)
 * @deadline:	5 ms after the caller became the top waiter
 *
 * Return: the status code if it took a free word; -EAGAIN once a writer
 * owns the word (the caller looks at it again: it may hold the caller's
 * TID, a handoff); -EFAULT.
 */
int futex_tp_wait_readers(u32 __user *uaddr, struct futex_state *state,
			  u32 vpid, unsigned int *sleeps, const int *budget,
			  ktime_t deadline)
{
	ktime_t window = ktime_get(), now;
	bool marked = false, asked = false, spinning = false;
	u32 uval, count = ~0u;
	int ret;

	for (;;) {
		if (get_user(uval, uaddr)) {
			ret = -EFAULT;
			break;
		}
		ret = -EAGAIN;
		if (!tp_reader_owned(uval) && !(uval & FUTEX_TP_TID_MASK)) {
			ret = tp_shared_take_free(uaddr, &uval, vpid);
			if (ret != -EAGAIN)
				break;
		}
		if (!tp_reader_owned(uval))
			break;			/* a writer's, maybe ours */
		now = ktime_get();
		if ((uval & FUTEX_SHARED_COUNT) != count) {
			count = uval & FUTEX_SHARED_COUNT;
			window = now;		/* reader activity */
		}
		tp_shared_handoff_if_due(uaddr, state, uval, vpid, *budget,
					 deadline, &asked);
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
	ktime_t deadline;		/* handoff after this		*/
	unsigned int sleeps;
	bool marked;			/* state->waiters_set is ours	*/
	bool asked;			/* state->handoff_pid is ours	*/
	bool spinning;
};

/*
 * Take the word: @*uval -> @new.  On a lost race @*uval is what the word
 * holds now.  Return: @code, -EAGAIN (lost), -EFAULT.
 */
static int tp_shared_take(u32 __user *uaddr, struct futex_state *state,
			  u32 *uval, u32 new, int code, struct tp_rspin *s)
{
	u32 curval;

	if (futex_atomic_cmpxchg_inatomic(&curval, uaddr, *uval, new))
		return -EFAULT;
	if (curval != *uval) {
		*uval = curval;
		return -EAGAIN;
	}
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
 * tp_shared_on_writer - the reader top waiter found writer @tid owning
 * the word (@uval): ask for a handoff when due, spin while the writer
 * runs, sleep while it does not.
 * Return: the status code (owner death), -EAGAIN, -EFAULT.
 */
static int tp_shared_on_writer(u32 __user *uaddr, struct futex_state *state,
			       u32 uval, u32 tid, u32 vpid, struct tp_rspin *s)
{
	if (tid != s->owner_tid) {
		if (s->owner)
			put_task_struct(s->owner);
		s->owner = find_get_task_by_vpid(tid);
		s->owner_tid = tid;
	}
	if (!s->owner)			/* owner death: take it over */
		return tp_shared_take(uaddr, state, &uval, TP_SHARED_ONE,
				      TP_STATUS_TOP_WAITER, s);
	if (!(uval & FUTEX_WAITERS) && s->marked) {
		WRITE_ONCE(state->waiters_set, false);
		s->marked = false;
	}
	tp_shared_handoff_if_due(uaddr, state, uval, vpid, 0, s->deadline,
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

/*
 * tp_shared_spin_once - one look at the word by the reader top waiter:
 * join readers, take a free word or a handed-off one, else wait on the
 * writer that owns it.  A cmpxchg that lost a race goes on with the value
 * it found [R] (as futex/tp.c does, and as the user-space read lock
 * does): join the readers that came first, take a word a reader just
 * left, or wait on the writer that stole it, which checks the handoff
 * trigger on every look.  Going back to a fresh load instead let a reader
 * that unlocks and relocks in user space, or two writers passing the
 * word, win every race for ever: the waiter never joined and never asked
 * for a handoff, and kept everyone behind it on the mutex.
 * Return: the status code once a read lock is ours, -EAGAIN, -EFAULT.
 */
static int tp_shared_spin_once(u32 __user *uaddr, struct futex_state *state,
			       u32 vpid, struct tp_rspin *s)
{
	u32 uval, tid;
	int ret = -EAGAIN;

	if (get_user(uval, uaddr))
		return -EFAULT;
	while (ret == -EAGAIN) {
		tid = uval & FUTEX_TP_TID_MASK;
		if (tp_reader_joinable(uval)) {
			ret = tp_shared_take(uaddr, state, &uval, uval + 1,
					     TP_STATUS_TOP_WAITER, s);
		} else if (!tp_reader_owned(uval) && (!tid || tid == vpid)) {
			/* free, or handed to us: a grant is seen (the word
			 * stops naming us, for the state checker) */
			if (tid)
				WRITE_ONCE(state->granted, false);
			ret = tp_shared_take(uaddr, state, &uval,
					     TP_SHARED_ONE,
					     uval & FUTEX_WAITERS || tid ?
					     TP_STATUS_HANDOFF :
					     TP_STATUS_TOP_WAITER, s);
		} else {
			break;
		}
	}
	if (ret != -EAGAIN)
		return ret;
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
	return tp_shared_on_writer(uaddr, state, uval, tid, vpid, s);
}

/*
 * tp_shared_timeout - the reader top waiter's FUTEX_LOCK_SHARED timed out
 * (after a look at the word that did not give it a read lock): withdraw
 * (futex_tp_withdraw()) and leave.  Only from a word a writer owns: a
 * reader-owned word (the last reader is unlocking) is joined or handed to
 * it at the next look, and that grant, made by FUTEX_UNLOCK_SHARED outside
 * the bucket lock, could not be withdrawn; a grant that landed first is
 * converted at the next look too.
 * Return: -ETIMEDOUT, -EAGAIN (look again), -EFAULT.
 */
static int tp_shared_timeout(u32 __user *uaddr, struct futex_state *state,
			     u32 vpid, struct tp_rspin *s)
{
	u32 uval;

	if (get_user(uval, uaddr))
		return -EFAULT;
	if (tp_reader_owned(uval) || !(uval & FUTEX_TP_TID_MASK) ||
	    (uval & FUTEX_TP_TID_MASK) == vpid)
		return -EAGAIN;
	return futex_tp_withdraw(uaddr, state, vpid, &s->marked, &s->asked,
				 -EAGAIN, s->sleeps);
}

/*
 * The reader top waiter's loop; a timeout (state->timeout, expired) is
 * looked at after each look at the word, as futex/tp.c's top waiter does.
 * Return: the status word, -ETIMEDOUT, -EFAULT.
 */
static long tp_shared_spin(u32 __user *uaddr, struct futex_state *state,
			   u32 vpid)
{
	struct tp_rspin s = {
		.deadline = ktime_get() + TP_HANDOFF_TIMEOUT,
	};
	long ret;

	do {
		ret = tp_shared_spin_once(uaddr, state, vpid, &s);
		/* a plain read of the sleeper, as futex_wait_queue() does */
		if (ret == -EAGAIN && state->timeout && !state->timeout->task)
			ret = tp_shared_timeout(uaddr, state, vpid, &s);
	} while (ret == -EAGAIN);
	if (s.owner)
		put_task_struct(s.owner);
	tp_shared_leave(state, s.marked, s.asked);
	if (ret < 0)
		return ret;
	return ret | (long)min_t(unsigned int, s.sleeps,
				 TP_STATUS_SLEEPS_MAX) << 16;
}

long futex_tp_lock_shared(u32 __user *uaddr, unsigned int flags, u32 val,
			  ktime_t *time)
{
	u32 vpid = task_pid_vnr(current), uval;

	if (val & ~FLAGS_TP_PREADER)
		return -EINVAL;
	if (get_user(uval, uaddr))
		return -EFAULT;
	if (!tp_reader_owned(uval) && (uval & FUTEX_TP_TID_MASK) == vpid)
		return -EDEADLK;		/* we hold it for writing */
	return futex_tp_acquire(uaddr, flags, tp_shared_trylock,
				val & FLAGS_TP_PREADER, tp_shared_spin, time);
}

long futex_tp_unlock_shared(u32 __user *uaddr, unsigned int flags)
{
	struct futex_state *state;
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
	if (newval)	/* no hook since the cmpxchg: the checker sees both */
		state->granted = true;
	ret = futex_tp_wake_top(uaddr, state, uval, newval);
out:
	if (state)
		futex_state_put(state);
	return ret;
}
