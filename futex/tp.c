// SPDX-License-Identifier: GPL-2.0
/*
 * futex/tp.c - throughput-optimized (TP) futexes: FUTEX_LOCK and
 * FUTEX_UNLOCK of Waiman Long's 2016-2017 patches (LKML, "[RFC PATCH v2
 * 3/5] futex: Throughput-optimized (TO) futexes", September 2016, to v6,
 * March 2017; docs/studies/to-futex-2016.md),
 * written as a patch on top of the real kernel/futex/ would add them.
 *
 * Stage: futex(2) -> kernel.  ksim_sys_futex() (futex/tp_unlock.c, the
 * router, with FUTEX_UNLOCK) calls futex_tp_lock() for FUTEX_TP_LOCK, and
 * futex/tp_shared.c calls futex_tp_acquire() for FUTEX_TP_LOCK_SHARED.
 * Calls the real futex internals (get_futex_key(),
 * futex_hash(), the bucket spinlock), the real kernel mutex
 * (kernel/locking/mutex.c, the serialization mutex) and the scheduler API
 * of sched/kapi.c.  The futex_state objects and the per-bucket lists are
 * futex/tp_state.c; this file is the locking protocol.
 *
 * The lock, per futex word, in the kernel's tuple notation
 * (word TID, FUTEX_WAITERS, handoff_pid, top waiter):
 *
 *   (0, 0, 0, -)  --user cmpxchg 0->T or kernel steal-->  (T, 0, 0, -)
 *   (T, 0, 0, -)  --a task fails its steal, takes the mutex-->
 *                                                   (T, 0, 0, spinning)
 *   (T, 0, 0, spinning) --T runs (owner on CPU): spin--> (T, 0, 0, spinning)
 *   (T, 0, 0, spinning) --T off CPU: set WAITERS, sleep--> (T, 1, 0, asleep)
 *   (T, 1, 0, asleep) --T unlocks: kernel writes 0, wakes W-->
 *                                                  (0, 0, 0, spinning)
 *   (0, 0, 0, spinning) --W cmpxchg 0->W (code 1)-->  (W, 0, 0, -)
 *   (0, 0, 0, spinning) --a user-space steal by S-->  (S, 0, 0, spinning)
 *   (T, x, 0, spinning) --budget spent (v2) or 5 ms (v6): request-->
 *                                                   (T, 1, W, spinning)
 *   (0, 0, 0, spinning) --the same request on a free word-->
 *                                                   (0, 1, W, spinning)
 *   (T, 1, W, *) --T unlocks: kernel writes W (the grant)-->
 *                                                   (W, 0, W, -)
 *   (0, 1, W, spinning) --W cmpxchg 0|WAITERS->W (code 2)-->
 *                                                   (W, 0, W, -)
 *   (W, 0, W, -) --W sees its TID (code 2), clears handoff_pid-->
 *                                                   (W, 0, 0, -)
 *
 * "-" is no top waiter (or one that has not yet looked), "asleep" one
 * that set FUTEX_WAITERS and may be in schedule().  FUTEX_WAITERS is set
 * only when the top waiter sleeps or asks for a handoff: the owner's
 * unlock stays a user-space cmpxchg otherwise, and any task finding the
 * word 0 takes it, the lock stealing the design relies on.  Once the
 * word holds W's TID after a grant nobody can steal it (it is not 0),
 * and the kernel's steal attempt also refuses while handoff_pid is set;
 * a word 0|FUTEX_WAITERS is not 0 for user space either.
 *
 * Reconstructions [R] (the patches were never merged; these are choices
 * where the series' design statements leave the details open), each
 * marked below too:
 *  - the unlock writes 0 or the handoff TID, never FUTEX_WAITERS; the
 *    one word 0|FUTEX_WAITERS is a handoff request that found the word
 *    free (FUTEX_WAITERS is set with one locked OR, not a cmpxchg: see
 *    futex_tp_set_waiters()), and only its requester may take it (the
 *    kernel steal refuses, user space only cmpxchg()es from 0); taking
 *    it counts as a handoff (code 2);
 *  - the top waiter's acquisition leaves the word its bare TID: waiters
 *    behind it sleep on the serialization mutex, not on the word;
 *  - a v2 spin iteration is one look at the word and the owner (a load,
 *    owner_on_cpu(), cpu_relax()); a sleep or a yield costs 1/32 of the
 *    budget.  A free word the top waiter fails to grab (a stealer's
 *    cmpxchg landed first) is not a separate case: the loop goes on with
 *    the stealer's TID, asks for a handoff if due and spins on it, so a
 *    lost race costs one iteration like any other;
 *  - the v6 5 ms run from the moment the task became the top waiter;
 *  - a top waiter woken without the lock loops: it spins or sleeps again
 *    with what is left of its budget; a yield for need_resched() counts
 *    as a sleep in the status word ("slept or yielded");
 *  - the kernel steal is refused while handoff_pid is set;
 *  - the unlocker wakes the top waiter whenever the word had
 *    FUTEX_WAITERS; it reads state->owner without a lock (task_structs
 *    outlive the run here; a late wakeup is a spurious one, which every
 *    sleeper of the kernel tolerates).
 *
 * Owner death (v3+): the top waiter takes the word over
 * (tp_take_over(), FUTEX_OWNER_DIED added [R]) when no task has its TID
 * or the owner is exiting (PF_EXITING, seen when it is off CPU); before
 * it sleeps it hangs the futex_state on the owner's list
 * (futex/tp_state.c), whose exit wakes it (ksim_futex_tp_exit()).
 *
 * Timeouts [R] (the series names a timed mutex_lock and a signal or
 * timeout exit of the spin loop; the clock and the argument checks:
 * futex/tp_unlock.c): the
 * timer is armed after the steal attempt; a task queued on the
 * serialization mutex leaves it through mutex_lock_interruptible(), the
 * timer standing in for a signal (tp_mutex_lock()); the top waiter looks
 * at the timer after each look at the word and, timed out, withdraws its
 * handoff request and FUTEX_WAITERS (futex_tp_withdraw()) before it gives
 * up the mutex.  Not only the top waiter: a task queued on the mutex
 * leaves at its deadline too.  A top waiter waiting on a
 * reader-owned word (futex/tp_shared.c) notices the timeout once the
 * readers are gone.  FUTEX_LOCK_SHARED takes the same timeout, through
 * the same futex_tp_acquire() (futex/tp_shared.c).
 */
#include <linux/kernel.h>
#include <linux/futex.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/uaccess.h>
#include <uapi/linux/time_types.h>
#include <asm/futex.h>
#include <asm/processor.h>

#include "futex.h"
#include "futex/tp.h"
#include "futex/tp_state.h"

static int tp_policy = TP_POLICY_V2;
static bool tp_handoff = true;
static int tp_mutex = TP_MUTEX_61;

/* futex/tp_state.h */
int futex_tp_mutex(void)
{
	return tp_mutex;
}

void ksim_futex_tp_configure(int policy, int handoff, int mutex)
{
	tp_policy = policy;
	tp_handoff = handoff;
	tp_mutex = mutex;
}

/* The boot resets the policy with everything else of a run. */
static int __init futex_tp_policy_init(void)
{
	tp_policy = TP_POLICY_V2;
	tp_handoff = true;
	tp_mutex = TP_MUTEX_61;
	return 0;
}
core_initcall(futex_tp_policy_init);

static inline u32 tp_tid(u32 uval)
{
	return uval & FUTEX_TP_TID_MASK;
}

/*
 * futex_tp_trylock - the one steal attempt of a task that is not the top
 * waiter: take a free word unless a handoff is pending [R].
 * Return: 1 stolen, 0 not, -EFAULT.
 */
static int futex_tp_trylock(u32 __user *uaddr, struct futex_state *state,
			    u32 vpid)
{
	u32 uval, curval;

	if (get_user(uval, uaddr))
		return -EFAULT;
	if (tp_tid(uval) || READ_ONCE(state->handoff_pid))
		return 0;
	if (futex_atomic_cmpxchg_inatomic(&curval, uaddr, uval,
					  vpid | (uval & FUTEX_WAITERS)))
		return -EFAULT;
	if (curval != uval)
		return 0;
	futex_tp_trace(uaddr, SIM_TP_STEAL, vpid, 0);
	return 1;
}

/* Is it time to ask for a handoff?  Never with tp-handoff=off. */
bool futex_tp_handoff_due(int budget, ktime_t deadline)
{
	if (!tp_handoff)
		return false;
	if (tp_policy == TP_POLICY_V6)
		return ktime_get() > deadline;
	return budget < 0;
}

/* What the spin loop keeps between iterations. */
struct tp_spin {
	struct task_struct *owner;	/* task of owner_tid, referenced */
	u32 owner_tid;
	int budget;			/* v2: spins left		 */
	ktime_t deadline;		/* v6: handoff after this	 */
	ktime_t start;
	unsigned int sleeps;
	bool spinning;
	bool waiters_set;		/* what state->waiters_set says	 */
	bool handoff_pid_set;		/* we wrote our TID there	 */
};

/*
 * futex_tp_set_waiters - set FUTEX_WAITERS in the word whatever else it
 * holds: one locked RMW, the x86 "lock bts" a patch would add as an arch
 * helper next to futex_atomic_cmpxchg_inatomic().  A compare-and-swap
 * needs the value it read to survive until it lands; a waiter polling
 * the word of an owner that unlocks and relocks faster than a cache line
 * crosses a socket never sees that happen (the line arrives after the
 * owner's next flip each time), so the request would never get through.
 * Return: the word before.
 */
static u32 futex_tp_set_waiters(u32 __user *uaddr)
{
	return atomic_fetch_or(FUTEX_WAITERS, (atomic_t __force *)uaddr);
}

/*
 * Ask for a handoff: name ourselves in handoff_pid, then force the
 * owner's unlock into the kernel with FUTEX_WAITERS.  Set on a free word
 * the bit keeps everyone else out: user space cmpxchg()es from 0 and the
 * kernel steal refuses while handoff_pid is set, so the top waiter takes
 * the word (0|FUTEX_WAITERS) at its next look [R].
 */
static void tp_request_handoff(u32 __user *uaddr, struct futex_state *state,
			       u32 uval, u32 vpid, struct tp_spin *s)
{
	/* only the top waiter writes handoff_pid: no need to read it */
	if (!s->handoff_pid_set) {
		WRITE_ONCE(state->handoff_pid, vpid);
		s->handoff_pid_set = true;
		futex_tp_trace(uaddr, SIM_TP_HANDOFF_REQUEST, uval,
			       tp_policy == TP_POLICY_V6 ?
			       ktime_get() - s->start : s->budget);
	}
	if (!(uval & FUTEX_WAITERS))
		futex_tp_set_waiters(uaddr);
}

/*
 * The owner is off its CPU: set FUTEX_WAITERS (so that its unlock enters
 * the kernel and wakes us) and sleep unless the word changed meanwhile.
 * Return: false if the word changed before we could set the bit.
 */
static bool tp_sleep(u32 __user *uaddr, struct futex_state *state, u32 uval,
		     struct tp_spin *s)
{
	u32 curval;

	if (!s->waiters_set) {
		/* before the bit: the state checker's justification */
		WRITE_ONCE(state->waiters_set, true);
		s->waiters_set = true;
	}
	if (!(uval & FUTEX_WAITERS)) {
		if (futex_atomic_cmpxchg_inatomic(&curval, uaddr, uval,
						  uval | FUTEX_WAITERS) ||
		    curval != uval)
			return false;
		uval |= FUTEX_WAITERS;
	}
	set_current_state(TASK_INTERRUPTIBLE);
	/* a timer that fired before the state change woke nobody: look,
	 * as futex_wait_queue() does */
	if (!get_user(curval, uaddr) && curval == uval &&
	    (!state->timeout || state->timeout->task)) {
		futex_tp_trace(uaddr, SIM_TP_SLEEP, uval, 0);
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return true;
}

/* Follow the owner named by the word: a task reference, or NULL. */
static void tp_follow_owner(struct task_struct **owner, u32 *owner_tid,
			    u32 tid)
{
	if (*owner)
		put_task_struct(*owner);
	*owner = find_get_task_by_vpid(tid);
	*owner_tid = tid;
}

/*
 * The owner died holding the word (v3+: no task has its TID,
 * or it is exiting): take the word over directly.  The new word carries
 * FUTEX_OWNER_DIED, as a robust futex's next owner finds it, so that user
 * space can tell [R]; the bit alone, beside a live TID, is no death sign:
 * it is what the taker leaves.  Return: TP_STATUS_TOP_WAITER, -EAGAIN
 * (the word changed), -EFAULT.
 */
static int tp_take_over(u32 __user *uaddr, u32 uval, u32 vpid)
{
	u32 curval;

	if (futex_atomic_cmpxchg_inatomic(&curval, uaddr, uval,
					  vpid | FUTEX_OWNER_DIED))
		return -EFAULT;
	if (curval != uval)
		return -EAGAIN;
	futex_tp_trace(uaddr, SIM_TP_OWNER_DIED, uval, vpid);
	return TP_STATUS_TOP_WAITER;
}

/*
 * One look at the word by the top waiter.
 * Return: the status code once the lock is ours, -EAGAIN to look again,
 * -EFAULT.
 */
static int tp_spin_once(u32 __user *uaddr, struct futex_state *state,
			u32 vpid, struct tp_spin *s)
{
	u32 uval, curval;

	if (get_user(uval, uaddr))
		return -EFAULT;
	if (uval & FUTEX_SHARED)	/* reader-owned: futex/tp_shared.c */
		return futex_tp_wait_readers(uaddr, state, vpid, &s->sleeps,
					     &s->budget, s->deadline);
	if (tp_tid(uval) == vpid)
		return TP_STATUS_HANDOFF;
	if (!tp_tid(uval)) {
		/* free (maybe 0|FUTEX_WAITERS, our handoff request): grab
		 * it first thing; FUTEX_WAITERS goes with the request */
		if (futex_atomic_cmpxchg_inatomic(&curval, uaddr, uval, vpid))
			return -EFAULT;
		if (curval == uval)
			return uval & FUTEX_WAITERS ? TP_STATUS_HANDOFF :
						      TP_STATUS_TOP_WAITER;
		/* lost the race to a stealer: go on with its TID [R] */
		uval = curval;
		if (uval & FUTEX_SHARED)	/* a reader: wait on readers */
			return futex_tp_wait_readers(uaddr, state, vpid,
						     &s->sleeps, &s->budget,
						     s->deadline);
	}
	if (tp_tid(uval) != s->owner_tid) {
		futex_state_unlink_owner(state);	/* a new owner */
		tp_follow_owner(&s->owner, &s->owner_tid, tp_tid(uval));
	}
	if (!s->owner)			/* no task has that TID */
		return tp_take_over(uaddr, uval, vpid);
	if (!(uval & FUTEX_WAITERS) && s->waiters_set) {
		WRITE_ONCE(state->waiters_set, false);
		s->waiters_set = false;
	}
	if (futex_tp_handoff_due(s->budget, s->deadline))
		tp_request_handoff(uaddr, state, uval, vpid, s);
	if (owner_on_cpu(s->owner) && !need_resched()) {
		if (!s->spinning)
			futex_tp_trace(uaddr, SIM_TP_SPIN_START, uval, 0);
		s->spinning = true;
		cpu_relax();
		s->budget--;
		return -EAGAIN;
	}
	if (s->spinning)
		futex_tp_trace(uaddr, SIM_TP_SPIN_STOP, uval, s->budget);
	s->spinning = false;
	if (s->owner->flags & PF_EXITING)	/* off CPU for good */
		return tp_take_over(uaddr, uval, vpid);
	if (need_resched()) {
		schedule();			/* a yield [R] */
	} else if (futex_state_link_owner(state, s->owner) ||
		   !tp_sleep(uaddr, state, uval, s)) {
		return -EAGAIN;	/* exiting, or the word changed */
	}
	s->sleeps++;
	s->budget -= TP_SLEEP_DECREMENT;
	return -EAGAIN;
}

/* futex/tp_state.h */
int futex_tp_withdraw(u32 __user *uaddr, struct futex_state *state, u32 vpid,
		      bool *waiters_set, bool *asked, int granted,
		      unsigned int sleeps)
{
	u32 uval, curval;
	int ret = 0;

	if (!*waiters_set) {
		WRITE_ONCE(state->waiters_set, true);
		*waiters_set = true;
	}
	if (*asked) {
		spin_lock(&state->hb->lock);
		if (futex_get_value_locked(&uval, uaddr))
			ret = -EFAULT;
		else if (!(uval & FUTEX_SHARED) && tp_tid(uval) == vpid)
			ret = granted;		/* the grant landed first */
		else
			WRITE_ONCE(state->handoff_pid, 0);
		spin_unlock(&state->hb->lock);
		if (ret)
			return ret;
		*asked = false;
	}
	if (get_user(uval, uaddr))
		return -EFAULT;
	/* a reader-owned word's FUTEX_WAITERS is not ours (tp_shared.c) */
	while ((uval & FUTEX_WAITERS) && !(uval & FUTEX_SHARED)) {
		if (futex_atomic_cmpxchg_inatomic(&curval, uaddr, uval,
						  uval & ~FUTEX_WAITERS))
			return -EFAULT;
		if (curval == uval)
			break;
		uval = curval;
	}
	futex_tp_trace(uaddr, SIM_TP_TIMEOUT, uval, sleeps);
	return -ETIMEDOUT;
}

/*
 * futex_tp_spin_on_owner - the top waiter (owner of the serialization
 * mutex) spins on the futex owner while it runs, sleeps while it does not,
 * and asks for a handoff when its budget (v2) or time (v6) is spent.  A
 * timeout (state->timeout, expired) is looked at after each look at the
 * word, so a lock it can take wins over the timeout, as in FUTEX_LOCK_PI.
 * Return: the status word (code | sleeps << 16), -ETIMEDOUT, -EFAULT.
 */
static long futex_tp_spin_on_owner(u32 __user *uaddr,
				   struct futex_state *state, u32 vpid)
{
	struct tp_spin s = {
		.budget = TP_SPIN_THRESHOLD,
		.start = ktime_get(),
	};
	int ret;

	s.deadline = s.start + TP_HANDOFF_TIMEOUT;
	do {
		ret = tp_spin_once(uaddr, state, vpid, &s);
		/* a plain read of the sleeper, as futex_wait_queue() does */
		if (ret == -EAGAIN && state->timeout && !state->timeout->task)
			ret = futex_tp_withdraw(uaddr, state, vpid,
						&s.waiters_set,
						&s.handoff_pid_set,
						TP_STATUS_HANDOFF, s.sleeps);
	} while (ret == -EAGAIN);
	futex_state_unlink_owner(state);
	if (s.owner)
		put_task_struct(s.owner);
	if (s.waiters_set)
		WRITE_ONCE(state->waiters_set, false);
	if (s.handoff_pid_set) {
		WRITE_ONCE(state->granted, false);
		WRITE_ONCE(state->handoff_pid, 0);
	}
	if (ret < 0)
		return ret;
	return ret | (long)min_t(unsigned int, s.sleeps,
				 TP_STATUS_SLEEPS_MAX) << 16;
}

/*
 * The timer of a timed FUTEX_LOCK: hrtimer_wakeup()'s "timed out" (the
 * sleeper's task cleared) plus ->sim_sigpending, which ends the task's
 * wait in mutex_lock_interruptible() as a signal would.  Event context.
 */
static enum hrtimer_restart tp_timeout_fire(struct hrtimer *timer)
{
	struct hrtimer_sleeper *to =
		container_of(timer, struct hrtimer_sleeper, timer);
	struct task_struct *task = to->task;

	to->task = NULL;
	if (task) {
		task->sim_sigpending |= 1;
		wake_up_process(task);
	}
	return HRTIMER_NORESTART;
}

/*
 * Queue on the serialization mutex; with a timeout, interruptibly: the
 * real mutex.c takes a waiter whose timer fired off its wait list the
 * way it takes one that got a signal (-EINTR), there being no timed
 * mutex_lock() [R].  A waiter spinning on the mutex owner (the OSQ, or
 * the first waiter's spin) does not look at signals, so its timeout
 * comes when it stops spinning, or as the top waiter.
 * Return: 0 (the mutex is ours), -ETIMEDOUT.
 */
static int tp_mutex_lock(u32 __user *uaddr, struct futex_state *state,
			 struct hrtimer_sleeper *to)
{
	int ret = 0;

	futex_tp_trace(uaddr, SIM_TP_MUTEX_ENQUEUE, 0, 0);
	if (state->mutex48_kind && to)
		ret = mutex48_lock_interruptible(&state->mutex48);
	else if (state->mutex48_kind)
		mutex48_lock(&state->mutex48);
	else if (to)
		ret = mutex_lock_interruptible(&state->mutex);
	else
		mutex_lock(&state->mutex);
	return ret ? -ETIMEDOUT : 0;
}

static void tp_mutex_unlock(struct futex_state *state)
{
	if (state->mutex48_kind)
		mutex48_unlock(&state->mutex48);
	else
		mutex_unlock(&state->mutex);
}

/* futex/tp_state.h.  The timer is armed after the steal attempt: a lock
 * that can be taken at once is taken whatever the time. */
long futex_tp_acquire(u32 __user *uaddr, unsigned int flags,
		      int (*trylock)(u32 __user *, struct futex_state *, u32),
		      u32 try_arg,
		      long (*spin)(u32 __user *, struct futex_state *, u32),
		      ktime_t *time)
{
	u32 vpid = task_pid_vnr(current);
	struct hrtimer_sleeper timeout, *to;
	struct futex_state *state;
	long ret;

	ret = futex_state_get(uaddr, flags, true, &state);
	if (ret)
		return ret;
	ret = trylock(uaddr, state, try_arg);
	if (ret) {
		ret = ret < 0 ? ret : TP_STATUS_STOLEN;
		goto out;
	}
	/* FUTEX_LOCK_PI's clock: CLOCK_REALTIME, absolute [R] */
	to = futex_setup_timer(time, &timeout, flags | FLAGS_CLOCKRT,
			       current->timer_slack_ns);
	if (to) {
		to->timer.function = tp_timeout_fire;
		hrtimer_sleeper_start_expires(to, HRTIMER_MODE_ABS);
	}
	ret = tp_mutex_lock(uaddr, state, to);
	if (ret) {
		futex_tp_trace(uaddr, SIM_TP_TIMEOUT, 0, 0);
		goto out_timer;
	}
	WRITE_ONCE(state->owner, current);
	state->timeout = to;
	futex_tp_trace(uaddr, SIM_TP_TOP_WAITER, 0, 0);
	ret = spin(uaddr, state, vpid);
	state->timeout = NULL;
	WRITE_ONCE(state->owner, NULL);
	tp_mutex_unlock(state);
out_timer:
	if (to) {
		hrtimer_cancel(&to->timer);
		destroy_hrtimer_on_stack(&to->timer);
		current->sim_sigpending &= ~1u;
	}
out:
	if (ret >= 0)
		futex_tp_trace(uaddr, SIM_TP_ACQUIRE, vpid, ret);
	futex_state_put(state);
	return ret;
}

/* FUTEX_LOCK (futex/tp_state.h). */
long futex_tp_lock(u32 __user *uaddr, unsigned int flags, ktime_t *time)
{
	u32 vpid = task_pid_vnr(current), uval;

	if (get_user(uval, uaddr))
		return -EFAULT;
	/* a reader count is no TID, even one that reads like ours */
	if (!(uval & FUTEX_SHARED) && tp_tid(uval) == vpid)
		return -EDEADLK;
	return futex_tp_acquire(uaddr, flags, futex_tp_trylock, vpid,
				futex_tp_spin_on_owner, time);
}
