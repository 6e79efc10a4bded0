/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/event.c - the event queue: a binary min-heap ordered by
 * (when_ps, seq).
 *
 * Stage: machine.  Called by sim/machine/machine.c (ticks, idle exits, timers via
 * sim_timer_start_ns()) and the workloads (stop time).  The sequence
 * number is taken when an event is added, so equal deadlines fire in the
 * order they were armed: the ordering never depends on addresses.
 */
#include <stdlib.h>

#include "sim/machine/event.h"
#include "sim/report/failure.h"

#define SIM_MAX_EVENTS	(1 << 16)

/* the heap; its root is read inline by sim_events_peek() (event.h) */
struct sim_event *sim__events_heap[SIM_MAX_EVENTS];
int sim__events_nr;
#define heap		sim__events_heap
#define nr_events	sim__events_nr
static uint64_t next_seq;

static inline int before(const struct sim_event *a, const struct sim_event *b)
{
	if (a->when_ps != b->when_ps)
		return a->when_ps < b->when_ps;
	return a->seq < b->seq;
}

static inline void place(struct sim_event *ev, int i)
{
	heap[i] = ev;
	ev->heap_idx = i;
}

static void sift_up(int i)
{
	struct sim_event *ev = heap[i];

	while (i > 0) {
		int parent = (i - 1) / 2;

		if (!before(ev, heap[parent]))
			break;
		place(heap[parent], i);
		i = parent;
	}
	place(ev, i);
}

static void sift_down(int i)
{
	struct sim_event *ev = heap[i];

	for (;;) {
		int child = 2 * i + 1;

		if (child >= nr_events)
			break;
		if (child + 1 < nr_events && before(heap[child + 1], heap[child]))
			child++;
		if (!before(heap[child], ev))
			break;
		place(heap[child], i);
		i = child;
	}
	place(ev, i);
}

void sim_event_init(struct sim_event *ev, void (*fire)(struct sim_event *))
{
	ev->when_ps = 0;
	ev->seq = 0;
	ev->heap_idx = -1;
	ev->cpu = 0;
	ev->fire = fire;
}

void sim_events_reset(void)
{
	for (int i = 0; i < nr_events; i++)
		heap[i]->heap_idx = -1;
	nr_events = 0;
	next_seq = 0;
}

void sim_events_add(struct sim_event *ev, uint64_t when_ps)
{
	if (ev->heap_idx >= 0)
		sim_fail(SIM_FAIL_INVARIANT, "event armed twice");
	if (nr_events == SIM_MAX_EVENTS)
		sim_fail(SIM_FAIL_INVARIANT, "event queue full");
	ev->when_ps = when_ps;
	ev->seq = next_seq++;
	place(ev, nr_events++);
	sift_up(ev->heap_idx);
}

int sim_events_del(struct sim_event *ev)
{
	int i = ev->heap_idx;

	if (i < 0)
		return 0;
	ev->heap_idx = -1;
	if (--nr_events == i)
		return 1;
	place(heap[nr_events], i);
	sift_up(i);
	sift_down(heap[i]->heap_idx);
	return 1;
}

struct sim_event *sim_events_pop(void)
{
	struct sim_event *ev = sim_events_peek();

	if (ev)
		sim_events_del(ev);
	return ev;
}

int sim_events_count(void)
{
	return nr_events;
}
