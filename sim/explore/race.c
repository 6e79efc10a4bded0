/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/explore/race.c - the race oracle's watchpoints (see
 * sim/explore/race.h and sim/explore/race_abi.h).
 *
 * Stage: trace/report.  The watchpoints in the order they were set (a
 * plain array: the first that conflicts is reported, the same one in
 * every run): one per task waiting at its plain access or assertion, and
 * the scoped assertions, each until its end.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "sim/explore/oracle.h"
#include "sim/explore/race.h"
#include "sim/machine/machine.h"
#include "sim/report/failure.h"

#define WATCH_BYTES	16	/* the bytes compared when a wait ends	*/
#define MAX_WATCHES	(2 * SIM_MAX_TASKS)

static struct watch {
	struct sim_race_side side;
	const struct sim_task *task;
	int id;			/* a scoped assertion's, or -1		*/
} watches[MAX_WATCHES];
static int nr_watches, next_id;
static struct sim_race_side met[2];
static int have_met;

int sim__race_live;

void sim_race_reset(void)
{
	nr_watches = 0;
	next_id = 0;
	have_met = 0;
	sim__race_live = sim_race_on();
}

const struct sim_race_side *sim_race_met(void)
{
	return have_met ? met : NULL;
}

const char *sim_race_how(unsigned int how)
{
	if (how & SIM_RACE_ASSERT)
		return how & SIM_RACE_WRITE ? "ASSERT_EXCLUSIVE_ACCESS" :
			"ASSERT_EXCLUSIVE_WRITER";
	if (how & SIM_RACE_MARKED)
		return how & SIM_RACE_WRITE ? "marked write" : "marked read";
	return how & SIM_RACE_WRITE ? "plain write" : "plain read";
}

static struct sim_race_side side_of(const struct sim_task *t, uintptr_t addr,
				    unsigned int size, unsigned int how,
				    uintptr_t pc)
{
	/* the instruction of the call, as a frame's address is told */
	struct sim_race_side s = { addr, size, how, pc ? pc - 1 : 0, t->tid, "" };

	snprintf(s.task, sizeof(s.task), "%s", t->name);
	return s;
}

/* The running task's access @now conflicts with watchpoint @w. */
static void __attribute__((noreturn))
sim__race_report(const struct watch *w, const struct sim_race_side *now)
{
	const struct sim_race_side *was = &w->side;
	char what[768], a[256], b[256];

	met[0] = *now;
	met[1] = *was;
	have_met = 1;
	sim_failure_data_name(now->addr, a, sizeof(a));
	sim_failure_data_name(was->addr, b, sizeof(b));
	if (was->how & SIM_RACE_ASSERT)
		snprintf(what, sizeof(what),
			 "task %d \"%.16s\" %s of %s (%u bytes) while task %d \"%.16s\" asserted %s(%s) (%u bytes)",
			 now->tid, now->task, sim_race_how(now->how), a,
			 now->size, was->tid, was->task,
			 sim_race_how(was->how), b, was->size);
	else
		snprintf(what, sizeof(what),
			 "task %d \"%.16s\" %s of %s (%u bytes) while task %d \"%.16s\" was at its %s of %s (%u bytes)",
			 now->tid, now->task, sim_race_how(now->how), a,
			 now->size, was->tid, was->task,
			 sim_race_how(was->how), b, was->size);
	sim_fail(SIM_FAIL_RACE, what);
}

/* The bytes a watchpoint set changed during its wait, by no access the
 * instrumentation saw. */
static void __attribute__((noreturn))
sim__race_unseen(const struct sim_race_side *now)
{
	char what[512], a[256];

	met[0] = *now;
	met[1] = (struct sim_race_side){ 0 };
	have_met = 1;
	snprintf(what, sizeof(what),
		 "task %d \"%.16s\" %s of %s (%u bytes): its bytes changed while it was at the %s, written by code that is not instrumented",
		 now->tid, now->task, sim_race_how(now->how),
		 sim_failure_data_name(now->addr, a, sizeof(a)), now->size,
		 now->how & SIM_RACE_ASSERT ? "assertion" : "access");
	sim_fail(SIM_FAIL_RACE, what);
}

/* Does access @now of task @t conflict with watchpoint @w?  Two
 * assertions make no access between them. */
static int conflicts(const struct watch *w, const struct sim_task *t,
		     const struct sim_race_side *now)
{
	unsigned int h = w->side.how, both = now->how & h, any = now->how | h;

	if (w->task == t || now->addr >= w->side.addr + w->side.size ||
	    w->side.addr >= now->addr + now->size ||
	    (both & SIM_RACE_ASSERT) || !(any & SIM_RACE_WRITE))
		return 0;
	/* an assertion sees marked accesses; two marked ones never race */
	return (any & SIM_RACE_ASSERT) || !(both & SIM_RACE_MARKED);
}

static void look(const struct sim_task *t, const struct sim_race_side *now)
{
	for (int i = 0; i < nr_watches; i++)
		if (conflicts(&watches[i], t, now))
			sim__race_report(&watches[i], now);
}

static int add_watch(const struct sim_task *t, const struct sim_race_side *s,
		     int id)
{
	if (nr_watches == MAX_WATCHES)
		return -1;
	watches[nr_watches++] = (struct watch){ *s, t, id };
	return nr_watches - 1;
}

static void drop_watch(int i)
{
	memmove(&watches[i], &watches[i + 1],
		(size_t)(nr_watches - i - 1) * sizeof(watches[0]));
	nr_watches--;
}

void sim_race_check(const volatile void *p, unsigned int size,
		    unsigned int how, unsigned long pc)
{
	const struct sim_task *t = sim_current();
	struct sim_race_side now;
	uint8_t before[WATCH_BYTES];
	unsigned int n = size < WATCH_BYTES ? size : WATCH_BYTES;
	int i;

	if (!t || !size || !sim__race_live)
		return;
	now = side_of(t, (uintptr_t)p, size, how, pc);
	look(t, &now);
	if ((how & (SIM_RACE_MARKED | SIM_RACE_ASSERT)) == SIM_RACE_MARKED ||
	    (how & SIM_RACE_NOWAIT) || add_watch(t, &now, -1) < 0)
		return;
	memcpy(before, (const void *)p, n);
	sim_delay_ps(SIM_RACE_WINDOW_PS);
	for (i = 0; i < nr_watches && !(watches[i].task == t &&
					 watches[i].id < 0); i++)
		;
	drop_watch(i);
	if (memcmp(before, (const void *)p, n))
		sim__race_unseen(&now);
}

int sim_race_scope_begin(const volatile void *p, unsigned int size,
			 unsigned int how, unsigned long pc)
{
	const struct sim_task *t = sim_current();
	struct sim_race_side s;

	if (!t || !size || !sim__race_live)
		return -1;
	s = side_of(t, (uintptr_t)p, size, how | SIM_RACE_ASSERT, pc);
	look(t, &s);
	return add_watch(t, &s, next_id) < 0 ? -1 : next_id++;
}

void sim_race_scope_end(int id)
{
	for (int i = 0; id >= 0 && i < nr_watches; i++)
		if (watches[i].id == id) {
			drop_watch(i);
			return;
		}
}
