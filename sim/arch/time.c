/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/arch/time.c - kernel time of "arch sim": the clock, hrtimers and
 * nanosleep on the machine's virtual clock.
 *
 * Stage: kernel -> machine.  Called by the futex code (timeouts:
 * futex_setup_timer(), futex_wait_queue(), sys_futex()), and by the
 * machine's syscall boundary (sim/syscall/syscall.c) for nanosleep(2).  Calls
 * sim_now_ns() and sim_timer_start_ns()/sim_timer_cancel() of
 * sim/machine/hooks.h, and wake_up_process() (sched/kapi.c) when a sleeper's
 * timer fires.
 *
 * Contracts: linux/hrtimer.h, linux/time.h, linux/timekeeping.h (real
 * declarations), sim/machine/hooks.h (ksim_nanosleep()).
 */
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/ktime.h>
#include <linux/time.h>
#include <linux/hrtimer.h>
#include <linux/uaccess.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <sim/machine/hooks.h>

/*
 * The machine keeps time in u64 picoseconds: expiries from here on are
 * beyond its range (about 106 days of simulated time) and never fire.
 */
#define HRTIMER_NEVER_NS	(U64_MAX / 1000 / 2)

ktime_t ktime_get(void)
{
	return (ktime_t)sim_now_ns();
}

/* Sum of two times; on overflow the kernel's "infinity", KTIME_SEC_MAX s. */
ktime_t ktime_add_safe(const ktime_t lhs, const ktime_t rhs)
{
	ktime_t sum = (ktime_t)((u64)lhs + (u64)rhs);

	if (sum < 0 || sum < lhs || sum < rhs)
		return ktime_set(KTIME_SEC_MAX, 0);
	return sum;
}

int get_timespec64(struct timespec64 *ts,
		   const struct __kernel_timespec __user *uts)
{
	struct __kernel_timespec kts;

	if (copy_from_user(&kts, uts, sizeof(kts)))
		return -EFAULT;
	ts->tv_sec = kts.tv_sec;
	ts->tv_nsec = kts.tv_nsec;	/* 64-bit task: no compat masking */
	return 0;
}

/* ---- hrtimers ---- */

/* Event context: a timer's deadline came. */
static void hrtimer_event_fire(struct sim_event *ev)
{
	struct hrtimer *timer = container_of(ev, struct hrtimer, node);

	if (timer->function(timer) != HRTIMER_NORESTART)
		sim_bug("unsupported: HRTIMER_RESTART", __FILE__, __LINE__);
}

/* The sleeper's callback: "timed out" is sl->task == NULL. */
static enum hrtimer_restart hrtimer_wakeup(struct hrtimer *timer)
{
	struct hrtimer_sleeper *sl =
		container_of(timer, struct hrtimer_sleeper, timer);
	struct task_struct *task = sl->task;

	sl->task = NULL;
	if (task)
		wake_up_process(task);
	return HRTIMER_NORESTART;
}

static void __hrtimer_init(struct hrtimer *timer)
{
	memset(timer, 0, sizeof(*timer));
	timer->node.heap_idx = -1;
	timer->node.fire = hrtimer_event_fire;
}

/* Arm @timer at its [soft, hard] expiry; REL: relative to now. */
static void hrtimer_start_expires(struct hrtimer *timer,
				  enum hrtimer_mode mode)
{
	ktime_t soft, hard;

	if (mode & HRTIMER_MODE_REL) {
		ktime_t now = ktime_get();

		timer->_softexpires = ktime_add_safe(timer->_softexpires, now);
		timer->_expires = ktime_add_safe(timer->_expires, now);
	}
	if (hrtimer_active(timer))
		sim_timer_cancel(&timer->node);

	soft = max_t(ktime_t, timer->_softexpires, 0);
	hard = max_t(ktime_t, timer->_expires, soft);
	if ((u64)soft >= HRTIMER_NEVER_NS)
		return;
	hard = min_t(ktime_t, hard, HRTIMER_NEVER_NS);
	sim_timer_start_ns(&timer->node, soft, hard - soft);
}

void hrtimer_init_sleeper_on_stack(struct hrtimer_sleeper *sl,
				   clockid_t clock_id, enum hrtimer_mode mode)
{
	__hrtimer_init(&sl->timer);
	sl->timer.function = hrtimer_wakeup;
	sl->task = current;
}

void hrtimer_sleeper_start_expires(struct hrtimer_sleeper *sl,
				   enum hrtimer_mode mode)
{
	hrtimer_start_expires(&sl->timer, mode);
}

int hrtimer_cancel(struct hrtimer *timer)
{
	return sim_timer_cancel(&timer->node);
}

/* ---- nanosleep(2) ---- */

/*
 * ksim_nanosleep - sleep @ns on the virtual clock, with current's timer
 * slack, the way the kernel's hrtimer_nanosleep() does: a relative
 * sleeper, armed once; each spurious wakeup (a late wake_q wakeup from an
 * earlier futex wait, say) sleeps again until the same absolute expiry.
 * No signals exist, so only the timer ends the sleep.
 *
 * Return: 0.
 */
long ksim_nanosleep(unsigned long long ns)
{
	enum hrtimer_mode mode = HRTIMER_MODE_REL;
	struct hrtimer_sleeper sl;

	hrtimer_init_sleeper_on_stack(&sl, CLOCK_MONOTONIC, mode);
	hrtimer_set_expires_range_ns(&sl.timer,
				     min_t(u64, ns, KTIME_MAX),
				     current->timer_slack_ns);
	do {
		set_current_state(TASK_INTERRUPTIBLE);
		hrtimer_sleeper_start_expires(&sl, mode);
		if (likely(sl.task))
			schedule();
		hrtimer_cancel(&sl.timer);
		mode = HRTIMER_MODE_ABS;
	} while (sl.task && !signal_pending(current));
	__set_current_state(TASK_RUNNING);
	destroy_hrtimer_on_stack(&sl.timer);

	return sl.task ? -EINTR : 0;
}
