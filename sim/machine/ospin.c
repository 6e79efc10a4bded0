/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/ospin.c - owner-spin rounds run by the dispatcher: the
 * recording of a CPU's rounds, the check of each access made without
 * the code, and the replay that brings its task back to the hook where
 * the dispatcher stopped.  The contract and the state machine are in
 * sim/machine/ospin.h; the run itself is ospin_run() of machine.c, which
 * owns the cost model's charge and the horizon.
 */
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "sim/cache/cache.h"
#include "sim/explore/explore.h"
#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/machine/ospin.h"
#include "sim/replay/replay.h"
#include "sim/report/failure.h"
#include "version.h"

#define unlikely(x)	__builtin_expect(!!(x), 0)

int sim__ospin_on;
int sim__ospin_test;
struct sim_ospin_stats sim_ospin_stats;

/* The one loop whose rounds are known to be a function of A, B and
 * need_resched() (with ww_ctx NULL: the round shape checks that). */
#define OSPIN_FN	"mutex_spin_on_owner"

void sim_ospin_setup(void)
{
	const char *e = getenv("FUTEXSIM_OWNER_SPIN_RUN");

	sim__ospin_on = FUTEXSIM_OSPIN_KERNEL && !(e && strcmp(e, "0") == 0) &&
			!sim_explore_on &&
			!sim__sb_on && !sim_replay_active;
	memset(&sim_ospin_stats, 0, sizeof(sim_ospin_stats));
}

/* @fn (a __func__) is OSPIN_FN: resolved once per string. */
static int ospin_fn(const char *fn)
{
	static const char *yes, *no[4];
	static unsigned int nr_no;

	if (fn == yes)
		return 1;
	for (unsigned int i = 0; i < nr_no; i++)
		if (fn == no[i])
			return 0;
	if (strcmp(fn, OSPIN_FN) == 0) {
		yes = fn;
		return 1;
	}
	if (nr_no < 4)
		no[nr_no++] = fn;
	return 0;
}

static void rec_stop(struct sim_cpu *c)
{
	c->ospin = OSPIN_OFF;
}

int sim_owner_on_cpu(const struct sim_task *t, const char *fn)
{
	struct sim_cpu *c = sim_cur;
	struct sim_ospin *o;

	if (!c)
		return sched_task_on_cpu(t);
	o = &c->os;
	switch (c->ospin) {
	case OSPIN_OFF:
		if (sim__ospin_on && c->curr && ospin_fn(fn)) {
			/* begins after this B: the round's R next */
			c->ospin = OSPIN_REC;
			memset(o->cur, 0, sizeof(o->cur));
			o->n = 2;
			o->have_round = 0;
			o->noted = 1;
			o->task = c->curr;
			o->owner = t;
			o->cur[1].val = (uint64_t)sched_task_on_cpu(t);
			return (int)o->cur[1].val;
		}
		break;
	case OSPIN_REC:
		if (o->n != 2 || o->cur[1].kind != SIM_LOAD || !ospin_fn(fn)) {
			rec_stop(c);
			break;
		}
		o->noted = 1;
		o->owner = t;
		o->cur[1].val = (uint64_t)sched_task_on_cpu(t);
		return (int)o->cur[1].val;
	case OSPIN_REPLAY:
		if (o->onc_given) {
			o->onc_given = 0;
			return (int)o->round[1].val;
		}
		break;
	}
	return sched_task_on_cpu(t);
}

static int hook_same(const struct sim_ospin_hook *a,
		     const struct sim_ospin_hook *b)
{
	return a->kind == b->kind && a->addr == b->addr &&
	       a->size == b->size && a->cost_ps == b->cost_ps &&
	       a->val == b->val;
}

void sim_ospin_charged(struct sim_cpu *c, enum sim_access kind,
		       const volatile void *addr, unsigned int size,
		       uint64_t cost_ps, uint64_t post_ps, int at_horizon)
{
	static const enum sim_access shape[OSPIN_HOOKS] = {
		SIM_LOAD, SIM_LOAD, SIM_RELAX
	};
	struct sim_ospin *o = &c->os;
	struct sim_ospin_hook *h;
	int same;

	if (o->n >= OSPIN_HOOKS || kind != shape[o->n] || post_ps ||
	    c->curr != o->task || size > sizeof(h->val)) {
		rec_stop(c);
		return;
	}
	/*
	 * B's charge: A's bytes are still what A loaded (since A's access
	 * only the spinner's own code ran, no other CPU's)
	 */
	if (o->n == 1) {
		o->cur[0].val = 0;
		memcpy(&o->cur[0].val, (const void *)o->cur[0].addr,
		       o->cur[0].size);
	}
	h = &o->cur[o->n++];
	*h = (struct sim_ospin_hook){
		.addr = addr, .cost_ps = cost_ps, .size = size, .kind = kind,
	};	/* B's value: owner_on_cpu() tells it, after the hook */
	if (kind != SIM_RELAX)
		return;
	/* a whole round: A, B (owner_on_cpu() told its value), R */
	o->n = 0;
	if (!o->noted) {
		rec_stop(c);
		return;
	}
	o->noted = 0;
	if (o->cur[0].size == 0) {
		o->have_round = 0;	/* begun at its B: the next is whole */
		return;
	}
	same = o->have_round;
	for (int i = 0; i < OSPIN_HOOKS; i++)
		same = same && hook_same(&o->cur[i], &o->round[i]);
	memcpy(o->round, o->cur, sizeof(o->round));
	o->have_round = 1;
	memset(o->cur, 0, sizeof(o->cur));
	if (!same || !at_horizon)
		return;
	for (int i = 0; i < OSPIN_HOOKS; i++)
		if (o->round[i].kind == SIM_LOAD)
			o->round[i].line = sim_cache_line(o->round[i].addr);
	c->ospin = OSPIN_RUN;
	o->pos = OSPIN_R;
	sim_ospin_stats.runs++;
}

/* A's bytes in memory now differ from the round's. */
static int a_changed(const struct sim_ospin *o)
{
	uint64_t v = 0;

	memcpy(&v, (const void *)o->round[0].addr, o->round[0].size);
	return v != o->round[0].val;
}

int sim_ospin_access_same(const struct sim_cpu *c, unsigned int pos)
{
	const struct sim_ospin *o = &c->os;

	if (c->k.need_resched &&
	    !(sim__ospin_test & OSPIN_TEST_NO_RESCHED))
		return OSPIN_RESCHED;
	if (pos == 0 && a_changed(o))
		return OSPIN_VALUE;
	if (pos == 1 && ((uint64_t)sched_task_on_cpu(o->owner) !=
			 o->round[1].val ||
			 (sim__ospin_test & OSPIN_TEST_LEAVE_AT_B)))
		return OSPIN_VALUE;
	return -1;
}

void sim_ospin_leave(struct sim_cpu *c, unsigned int pos,
		     enum sim_ospin_cause cause, uint64_t post_ps)
{
	struct sim_ospin *o = &c->os;
	int charged_only = cause == OSPIN_CHARGE;

	sim_ospin_stats.leaves[cause][pos]++;
	if (pos == OSPIN_R && !charged_only) {
		/* the task is in an R hook: its access is this one */
		c->ospin = OSPIN_OFF;
		return;
	}
	c->ospin = OSPIN_REPLAY;
	o->left = pos;
	o->pos = 0;
	o->charged_only = charged_only;
	o->post_ps = post_ps;
	o->swapped = 0;
	o->onc_given = 0;
	/* the R the task is in, and the hooks before @pos, were made with
	 * need_resched clear */
	o->saved_resched = c->k.need_resched;
	c->k.need_resched = 0;
	if (pos) {
		sim_ospin_stats.replays++;
		sim_ospin_stats.stale_a += a_changed(o);
	}
}

/* A's bytes back as memory has them now. */
static void unswap(struct sim_ospin *o)
{
	if (!o->swapped)
		return;
	memcpy((void *)o->round[0].addr, &o->swap_val, o->round[0].size);
	o->swapped = 0;
}

enum sim_ospin_replayed sim_ospin_replay(struct sim_cpu *c,
					 enum sim_access kind,
					 const volatile void *addr,
					 unsigned int size, uint64_t *post_ps)
{
	struct sim_ospin *o = &c->os;
	const struct sim_ospin_hook *h = &o->round[o->pos];

	unswap(o);
	if (unlikely(o->pos >= OSPIN_HOOKS || h->kind != kind ||
		     h->addr != addr || h->size != size)) {
		c->ospin = OSPIN_OFF;
		c->k.need_resched = o->saved_resched;
		sim_fail(SIM_FAIL_INVARIANT,
			 "an owner spin's rounds, made without their code, are not what its code does (sim/machine/ospin.h)");
	}
	if (o->left) {
		o->left--;
		if (o->pos == 0) {	/* the load reads the round's bytes */
			o->swap_val = 0;
			memcpy(&o->swap_val, (const void *)addr, size);
			if (!(sim__ospin_test & OSPIN_TEST_NO_SWAP))
				memcpy((void *)addr, &h->val, size);
			o->swapped = 1;
		} else if (o->pos == 1) {
			o->onc_given = 1;
		}
		o->pos++;
		return OSPIN_PAST;
	}
	c->ospin = OSPIN_OFF;
	c->k.need_resched = o->saved_resched;
	if (!o->charged_only)
		return OSPIN_MADE;
	*post_ps = o->post_ps;
	return OSPIN_CHARGED;
}
