/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/event.h - the event queue: timers, ticks, idle exits, the workload's
 * stop time and the livelock watchdog, ordered by (time, sequence number).
 *
 * Stage: machine.  A binary min-heap of struct sim_event (sim/machine/hooks.h).
 * Two events with the same deadline fire in the order they were armed;
 * nothing else (addresses, hash order) takes part in the ordering.
 */
#ifndef SIM_EVENT_H
#define SIM_EVENT_H

#include <stdint.h>

#include "sim/machine/hooks.h"

/* sim_events_reset - empty the queue and restart the sequence numbers. */
void sim_events_reset(void);
/* sim_events_add - queue @ev at @when_ps (@ev must not be queued). */
void sim_events_add(struct sim_event *ev, uint64_t when_ps);
/* sim_events_del - unqueue @ev. Return: 1 if it was queued, else 0. */
int sim_events_del(struct sim_event *ev);
/* sim_events_peek - the earliest event, or NULL. */
extern struct sim_event *sim__events_heap[];	/* sim/machine/event.c's */
extern int sim__events_nr;
static inline struct sim_event *sim_events_peek(void)
{
	return sim__events_nr ? sim__events_heap[0] : NULL;
}
/* sim_events_pop - remove and return the earliest event, or NULL. */
struct sim_event *sim_events_pop(void);
/* sim_events_count - number of queued events. */
int sim_events_count(void);
/* sim_event_init - mark @ev as not queued, with callback @fire. */
void sim_event_init(struct sim_event *ev, void (*fire)(struct sim_event *));

#endif /* SIM_EVENT_H */
