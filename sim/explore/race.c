/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/race.c - the race oracle's watchpoints (see
 * sim/explore/race.h).
 *
 * Stage: trace/report.  One watchpoint per waiting task, in the order
 * they were set (a plain array: the first that conflicts is reported,
 * the same one in every run).
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sim/explore/oracle.h"
#include "sim/explore/race.h"
#include "sim/machine/machine.h"
#include "sim/report/symbols.h"

#define WATCH_BYTES	16	/* the bytes compared when a wait ends	*/

static struct watch {
	uintptr_t addr;
	unsigned int size;
	int write;
	const struct sim_task *task;
} watches[SIM_MAX_TASKS];
static int nr_watches;

void sim_race_reset(void)
{
	nr_watches = 0;
}

static const char *access_name(int write, int marked)
{
	return write ? marked ? "marked write" : "plain write" :
		marked ? "marked read" : "plain read";
}

/* The running task's access conflicts with watchpoint @w. */
static void __attribute__((noreturn))
sim__race_report(const struct watch *w, uintptr_t addr, unsigned int size, int write,
     int marked)
{
	const struct sim_task *t = sim_current();
	char what[768], a[256], b[256];

	snprintf(what, sizeof(what),
		 "task %d \"%.16s\" %s of %s (%u bytes) while task %d \"%.16s\" was at its %s of %s (%u bytes)",
		 t->tid, t->name, access_name(write, marked),
		 sim_sym_name(addr, a, sizeof(a)), size, w->task->tid,
		 w->task->name, access_name(w->write, 0),
		 sim_sym_name(w->addr, b, sizeof(b)), w->size);
	sim_fail(SIM_FAIL_RACE, what);
}

/* The bytes a watchpoint set changed during its wait, by no access the
 * instrumentation saw. */
static void __attribute__((noreturn))
sim__race_unseen(uintptr_t addr, unsigned int size, int write)
{
	const struct sim_task *t = sim_current();
	char what[512], a[256];

	snprintf(what, sizeof(what),
		 "task %d \"%.16s\" %s of %s (%u bytes): its bytes changed while it was at the access, written by code that is not instrumented",
		 t->tid, t->name, access_name(write, 0),
		 sim_sym_name(addr, a, sizeof(a)), size);
	sim_fail(SIM_FAIL_RACE, what);
}

void sim_race_access(const volatile void *p, unsigned int size, int write,
		     int marked)
{
	const struct sim_task *t = sim_current();
	uintptr_t a = (uintptr_t)p;
	uint8_t before[WATCH_BYTES];
	unsigned int n = size < WATCH_BYTES ? size : WATCH_BYTES;
	int i;

	if (!t || !size)
		return;
	for (i = 0; i < nr_watches; i++) {
		const struct watch *w = &watches[i];

		if (w->task != t && a < w->addr + w->size && w->addr < a + size &&
		    (write || w->write))
			sim__race_report(w, a, size, write, marked);
	}
	if (marked || nr_watches == SIM_MAX_TASKS)
		return;
	watches[nr_watches++] = (struct watch){ a, size, write, t };
	memcpy(before, (const void *)a, n);
	sim_delay_ps(SIM_RACE_WINDOW_PS);
	for (i = 0; i < nr_watches && watches[i].task != t; i++)
		;
	memmove(&watches[i], &watches[i + 1],
		(size_t)(nr_watches - i - 1) * sizeof(watches[0]));
	nr_watches--;
	if (memcmp(before, (const void *)a, n))
		sim__race_unseen(a, size, write);
}
