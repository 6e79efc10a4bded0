/* SPDX-License-Identifier: GPL-2.0 */
/*
 * linux/hrtimer.h (shadow) - high-resolution timers on the machine's
 * virtual clock.
 *
 * Stage: kernel -> machine.  Used by the futex code (timeouts of
 * FUTEX_WAIT*, FUTEX_LOCK_PI*, FUTEX_WAIT_REQUEUE_PI) and by
 * ksim_nanosleep().  Implemented in sim/arch/time.c on the
 * sim_timer_*() services of sim/machine/hooks.h: a struct hrtimer embeds the
 * machine's struct sim_event.
 *
 * Contract (the kernel's, for the subset used):
 *  - A timer has a soft expiry and a hard expiry (soft + slack range, see
 *    hrtimer_set_expires_range_ns()).  It fires at a time the machine
 *    draws in [soft, hard] (timer slack), in the machine's event context:
 *    outside any task, with hooks ignored; the callback must not block.
 *  - CLOCK_MONOTONIC and CLOCK_REALTIME are the same clock (the simulated
 *    wall clock starts at 0 with the machine); there is no clock_settime.
 *  - HRTIMER_MODE_REL expiries are relative to ktime_get() when the timer
 *    is started (and are then stored as absolute, as in the kernel);
 *    HRTIMER_MODE_ABS expiries are absolute.  An expiry in the past fires
 *    at once.  An expiry beyond the machine's clock range (about 100 days
 *    of simulated time, e.g. KTIME_MAX) never fires.
 *  - Starting an armed timer re-arms it; hrtimer_cancel() of a timer that
 *    is not armed does nothing.
 */
#ifndef _SIM_LINUX_HRTIMER_H
#define _SIM_LINUX_HRTIMER_H

#include <linux/types.h>
#include <linux/ktime.h>
#include <uapi/linux/time.h>
#include <sim/machine/hooks.h>

struct task_struct;

enum hrtimer_mode {
	HRTIMER_MODE_ABS	= 0x00,
	HRTIMER_MODE_REL	= 0x01,
	HRTIMER_MODE_PINNED	= 0x02,
	HRTIMER_MODE_SOFT	= 0x04,
	HRTIMER_MODE_HARD	= 0x08,
};

enum hrtimer_restart {
	HRTIMER_NORESTART,	/* the timer is done */
	HRTIMER_RESTART,	/* unsupported: reported as a simulator bug */
};

/**
 * struct hrtimer - a timer on the virtual clock
 * @node:		the machine's event (queued while the timer is armed)
 * @_softexpires:	earliest expiry, absolute ns
 * @_expires:		latest expiry (soft + slack range), absolute ns
 * @function:		callback, run in event context
 */
struct hrtimer {
	struct sim_event	node;
	ktime_t			_softexpires;
	ktime_t			_expires;
	enum hrtimer_restart	(*function)(struct hrtimer *);
};

/**
 * struct hrtimer_sleeper - a timer that wakes a task
 * @timer:	the timer
 * @task:	the task to wake; set to NULL when the timer fired, so
 *		"!sl->task" means "timed out"
 */
struct hrtimer_sleeper {
	struct hrtimer		timer;
	struct task_struct	*task;
};

/**
 * hrtimer_init_sleeper_on_stack() - prepare a sleeper for current
 * @sl:		the sleeper (usually on the caller's stack)
 * @clock_id:	CLOCK_MONOTONIC or CLOCK_REALTIME (the same clock here)
 * @mode:	HRTIMER_MODE_ABS or HRTIMER_MODE_REL
 *
 * The timer is not armed; its callback clears @sl->task and wakes the
 * task with wake_up_process().
 */
void hrtimer_init_sleeper_on_stack(struct hrtimer_sleeper *sl,
				   clockid_t clock_id, enum hrtimer_mode mode);

/**
 * hrtimer_sleeper_start_expires() - arm a sleeper at its set expiry
 * @sl:		the sleeper
 * @mode:	HRTIMER_MODE_ABS or HRTIMER_MODE_REL (then relative to now)
 */
void hrtimer_sleeper_start_expires(struct hrtimer_sleeper *sl,
				   enum hrtimer_mode mode);

/**
 * hrtimer_cancel() - disarm a timer
 * @timer:	the timer
 *
 * Callbacks run atomically in event context, so there is never a running
 * callback to wait for.
 *
 * Return: 1 if the timer was armed, 0 if not.
 */
int hrtimer_cancel(struct hrtimer *timer);

static inline void destroy_hrtimer_on_stack(struct hrtimer *timer)
{
}

/* hrtimer_set_expires_range_ns - soft expiry @time, hard @time + @delta */
static inline void hrtimer_set_expires_range_ns(struct hrtimer *timer,
						ktime_t time, u64 delta)
{
	timer->_softexpires = time;
	timer->_expires = ktime_add_safe(time, ns_to_ktime(delta));
}

static inline void hrtimer_set_expires(struct hrtimer *timer, ktime_t time)
{
	hrtimer_set_expires_range_ns(timer, time, 0);
}

static inline ktime_t hrtimer_get_expires(const struct hrtimer *timer)
{
	return timer->_expires;
}

static inline ktime_t hrtimer_get_softexpires(const struct hrtimer *timer)
{
	return timer->_softexpires;
}

/* hrtimer_active - the timer is armed (its event is queued). */
static inline bool hrtimer_active(const struct hrtimer *timer)
{
	return timer->node.heap_idx >= 0;
}

#endif /* _SIM_LINUX_HRTIMER_H */
