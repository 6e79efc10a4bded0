// SPDX-License-Identifier: GPL-2.0
/*
 * futex/tp_state.c - the futex_state objects of TP futexes: per-bucket
 * lists, reference counts, the one-object cache of each task, and the
 * checker of the TP invariants (docs/studies/to-futex-2016.md).
 *
 * Stage: kernel.  Called by futex/tp.c (futex_state_get/put()) and, for
 * the census and the checker, by the tests and the machine through
 * futex/tp.h.  Calls the real futex internals (get_futex_key(),
 * futex_hash(), futex_match(), the bucket spinlock), mutex_init() and
 * kzalloc()/kfree() of the shim.
 *
 * The patch added a list head, fs_list, to struct futex_hash_bucket.  The
 * real bucket cannot gain a field here, so a side table holds one
 * fs_list per bucket: a fixed open-addressed directory keyed by the
 * bucket's address (an arena address, the same in every run), whose
 * entries are claimed once with a cmpxchg and never released; each list
 * is then protected by its bucket's lock, exactly as hb->fs_list was [R].
 *
 * Life cycle (the v2 patch's futex_state): the object is allocated outside any lock
 * into the calling task's cache (the patch's refill_futex_state_cache()),
 * attached under the bucket lock by the first task that needs one,
 * referenced by every task inside FUTEX_LOCK (and FUTEX_UNLOCK) on the
 * word, and detached when the last reference goes: it then refills the
 * cache of the task that dropped it, or is freed [R].
 */
#include <linux/kernel.h>
#include <linux/futex.h>
#include <linux/hash.h>
#include <linux/list.h>
#include <linux/build_bug.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "futex.h"
#include "futex/tp.h"
#include "futex/tp_state.h"

#define TP_DIR_BITS	10		/* buckets with TP futexes	*/
#define TP_DIR_SIZE	(1 << TP_DIR_BITS)
#define TP_TASK_SLOTS	4096		/* the machine's task limit	*/
#define TP_MUTEX_FLAGS	0x07UL		/* mutex.c's owner flag bits	*/

/* tp-mutex=4.8's mutex takes the 6.1 one's place (futex/tp_state.h) */
static_assert(sizeof(struct mutex48) <= sizeof(struct mutex),
	      "the 4.8-era mutex does not fit in a struct mutex");

/* One bucket's fs_list. */
struct tp_bucket {
	struct futex_hash_bucket	*hb;
	struct list_head		fs_list;
};

/* What the TP futex keeps per task (task_struct cannot gain fields). */
struct tp_task {
	pid_t			pid;
	bool			exited;		/* ksim_futex_tp_exit()	*/
	/* states whose top waiter sleeps on us; set up at first use */
	struct list_head	owned;
	struct futex_state	*cache;		/* allocated, unused	*/
	struct futex_state	*held;		/* referenced now	*/
};

static struct tp_bucket *tp_dir;
static u16 *tp_dir_used;		/* claimed entries, for the checker */
static int tp_dir_nr;
static struct tp_task *tp_tasks;
static int tp_slot_lo, tp_slot_hi;	/* slots in use: [lo, hi)	*/
static struct ksim_futex_tp_census tp_census;

/*
 * The tables are some 190 KiB, of which a run writes a few entries: the
 * slots of its tasks, the directory entries of its TP buckets.  The arena
 * leaves them to this clear function at the next boot (a machine per
 * explore run), which zeroes just those, before the tables are allocated
 * again (at the same addresses, or others: every byte of them is zero).
 * tp_dir first: it reads tp_dir_used.
 */
static void tp_table_clear(void *table)
{
	int i;

	if (table == tp_dir) {
		for (i = 0; i < tp_dir_nr; i++)
			memset(&tp_dir[tp_dir_used[i]], 0, sizeof(*tp_dir));
	} else if (table == tp_tasks) {
		if (tp_slot_lo < tp_slot_hi)
			memset(&tp_tasks[tp_slot_lo], 0,
			       (tp_slot_hi - tp_slot_lo) * sizeof(*tp_tasks));
	} else if (table == tp_dir_used) {
		memset(tp_dir_used, 0, tp_dir_nr * sizeof(*tp_dir_used));
	}
}

/* Each boot (each run) starts with empty tables: all zero; a directory
 * entry's list head is made empty when the entry is claimed. */
static int __init futex_tp_state_init(void)
{
	tp_dir = kcalloc(TP_DIR_SIZE, sizeof(*tp_dir), GFP_KERNEL);
	tp_tasks = kcalloc(TP_TASK_SLOTS, sizeof(*tp_tasks), GFP_KERNEL);
	tp_dir_used = kcalloc(TP_DIR_SIZE, sizeof(*tp_dir_used), GFP_KERNEL);
	tp_dir_nr = 0;
	if (!tp_dir || !tp_tasks || !tp_dir_used)
		return -ENOMEM;
	sim_kzalloc_owner_clears(tp_dir, tp_table_clear);
	sim_kzalloc_owner_clears(tp_tasks, tp_table_clear);
	sim_kzalloc_owner_clears(tp_dir_used, tp_table_clear);
	tp_slot_lo = TP_TASK_SLOTS;
	tp_slot_hi = 0;
	memset(&tp_census, 0, sizeof(tp_census));
	return 0;
}
core_initcall(futex_tp_state_init);

/* The task's slot: TIDs are dense from the first one, so they never
 * collide modulo the task limit. */
static struct tp_task *tp_task_of(struct task_struct *p)
{
	int i = p->pid % TP_TASK_SLOTS;
	struct tp_task *t = &tp_tasks[i];

	if (!t->pid) {
		t->pid = p->pid;
		tp_slot_lo = min(tp_slot_lo, i);
		tp_slot_hi = max(tp_slot_hi, i + 1);
	}
	if (t->pid != p->pid)
		sim_bug("TP futex: two tasks in one slot", __FILE__, __LINE__);
	return t;
}

/* The fs_list of @hb: found, or claimed with a cmpxchg. NULL: full. */
static struct tp_bucket *tp_bucket_of(struct futex_hash_bucket *hb)
{
	u32 i = hash_ptr(hb, TP_DIR_BITS), n;
	struct futex_hash_bucket *cur;

	for (n = 0; n < TP_DIR_SIZE; n++, i = (i + 1) % TP_DIR_SIZE) {
		struct tp_bucket *b = &tp_dir[i];

		cur = READ_ONCE(b->hb);
		if (!cur) {
			cur = cmpxchg(&b->hb, NULL, hb);
			if (!cur) {
				/*
				 * Claimed: its list head made empty, with
				 * plain stores (no hook, so no other task
				 * runs before they are done).  A real kernel
				 * makes every head empty at boot; here the
				 * table is all zero between runs, so that
				 * tp_table_clear() has a few entries to do.
				 */
				b->fs_list.next = &b->fs_list;
				b->fs_list.prev = &b->fs_list;
				tp_dir_used[tp_dir_nr++] = i;
				return b;
			}
		}
		if (cur == hb)
			return b;
	}
	return NULL;
}

/* refill_futex_state_cache() of the patch: outside every lock. */
static int tp_refill_cache(struct tp_task *t)
{
	if (t->cache)
		return 0;
	t->cache = kzalloc(sizeof(*t->cache), GFP_KERNEL);
	if (!t->cache)
		return -ENOMEM;
	tp_census.cached++;
	tp_census.allocated++;
	return 0;
}

/* Attach @t's cached object for @key; under hb->lock. */
static struct futex_state *tp_attach(struct tp_task *t, struct tp_bucket *b,
				     union futex_key *key,
				     struct futex_hash_bucket *hb,
				     u32 __user *uaddr)
{
	struct futex_state *state = t->cache;

	t->cache = NULL;
	tp_census.cached--;
	memset(state, 0, sizeof(*state));
	state->mutex48_kind = futex_tp_mutex() == TP_MUTEX_48;
	if (state->mutex48_kind)
		mutex48_init(&state->mutex48);
	else
		mutex_init(&state->mutex);
	INIT_LIST_HEAD(&state->owner_link);
	state->key = *key;
	state->hb = hb;
	state->uaddr = uaddr;
	/* counted before it can be seen: the checker matches the two */
	state->refcount = 1;
	t->held = state;
	list_add(&state->hb_list, &b->fs_list);
	tp_census.attached++;
	futex_tp_trace(uaddr, SIM_TP_STATE_ALLOC, 0, 0);
	return state;
}

int futex_state_get(u32 __user *uaddr, unsigned int flags, bool create,
		    struct futex_state **statep)
{
	struct tp_task *t = tp_task_of(current);
	struct futex_hash_bucket *hb;
	struct futex_state *state;
	union futex_key key = FUTEX_KEY_INIT;
	struct tp_bucket *b;
	int ret;

	*statep = NULL;
	ret = get_futex_key(uaddr, flags & FLAGS_SHARED, &key, FUTEX_WRITE);
	if (ret)
		return ret;
	if (create && tp_refill_cache(t))
		return -ENOMEM;
	hb = futex_hash(&key);
	b = tp_bucket_of(hb);
	if (!b)
		return -ENOMEM;
	spin_lock(&hb->lock);
	list_for_each_entry(state, &b->fs_list, hb_list) {
		if (futex_match(&state->key, &key)) {
			state->refcount++;
			t->held = state;
			*statep = state;
			goto unlock;
		}
	}
	if (create)
		*statep = tp_attach(t, b, &key, hb, uaddr);
unlock:
	spin_unlock(&hb->lock);
	return 0;
}

void futex_state_put(struct futex_state *state)
{
	struct futex_hash_bucket *hb = state->hb;
	struct tp_task *t = tp_task_of(current);

	spin_lock(&hb->lock);
	t->held = NULL;
	if (--state->refcount) {
		spin_unlock(&hb->lock);
		return;
	}
	list_del(&state->hb_list);
	tp_census.attached--;
	futex_tp_trace(state->uaddr, SIM_TP_STATE_FREE, 0, 0);
	spin_unlock(&hb->lock);
	if (!t->cache) {
		t->cache = state;		/* recycled [R] */
		tp_census.cached++;
		return;
	}
	kfree(state);
	tp_census.allocated--;
}

/* ---- owner death (v3+) ---- */

int futex_state_link_owner(struct futex_state *state,
			   struct task_struct *owner)
{
	int ret = 0;

	if (state->owner_task == owner)
		return 0;
	futex_state_unlink_owner(state);
	raw_spin_lock(&owner->pi_lock);
	if (owner->flags & PF_EXITING) {
		ret = -ESRCH;
	} else {
		struct tp_task *t = tp_task_of(owner);

		if (!t->owned.next)
			INIT_LIST_HEAD(&t->owned);
		list_add(&state->owner_link, &t->owned);
		state->owner_task = owner;
	}
	raw_spin_unlock(&owner->pi_lock);
	return ret;
}

void futex_state_unlink_owner(struct futex_state *state)
{
	struct task_struct *p = state->owner_task;

	if (!p)
		return;
	raw_spin_lock(&p->pi_lock);
	if (state->owner_task == p) {
		list_del(&state->owner_link);
		state->owner_task = NULL;
	}
	raw_spin_unlock(&p->pi_lock);
}

/*
 * ksim_futex_tp_exit - the current task is exiting (sim/machine/hooks.h): what
 * the series added to the exit path, exit_pi_state_list() walking TP
 * states too.  PF_EXITING first, so that no top waiter hangs itself on
 * us after the walk (futex_state_link_owner() looks at it under our
 * pi_lock); then wake every top waiter that sleeps on a word we still
 * own: it takes the word over.  A run in which no TP futex_state was ever
 * attached has no list to walk, and its exits cost nothing (no scheduling
 * point: the exploration counts and hook counts of other locks stay as
 * they were).  The flag and the read of tp_dir_nr are plain accesses
 * with no hook between them, which the machine's sequentially consistent
 * memory orders; a real kernel would put smp_mb() between the two, as a
 * linker takes pi_lock after attaching its state.
 */
void ksim_futex_tp_exit(void)
{
	struct task_struct *p = current, *top;
	struct futex_state *state, *n;
	struct tp_task *t;

	p->flags |= PF_EXITING;
	if (!tp_tasks)
		return;
	t = tp_task_of(p);
	t->exited = true;		/* for the checker: a word may name us */
	if (!tp_dir_nr)
		return;
	raw_spin_lock(&p->pi_lock);
	if (!t->owned.next)		/* nobody ever slept on us */
		goto unlock;
	list_for_each_entry_safe(state, n, &t->owned, owner_link) {
		list_del(&state->owner_link);
		state->owner_task = NULL;
		top = READ_ONCE(state->owner);
		if (top)
			wake_up_process(top);
	}
unlock:
	raw_spin_unlock(&p->pi_lock);
}

/* Did the task with TID @tid exit (a word may name it: owner death)? */
static bool tp_task_exited(u32 tid)
{
	const struct tp_task *t = &tp_tasks[tid % TP_TASK_SLOTS];

	return t->pid == (pid_t)tid && t->exited;
}

void ksim_futex_tp_census(struct ksim_futex_tp_census *c)
{
	*c = tp_census;
}

/* ---- the TP invariants, checked with plain reads ---- */

static void tp_check(bool ok, const char *what)
{
	if (!ok)
		sim_bug(what, __FILE__, __LINE__);
}

static int tp_holders(const struct futex_state *state)
{
	int i, n = 0;

	for (i = tp_slot_lo; i < tp_slot_hi; i++)
		n += tp_tasks[i].held == state;
	return n;
}

static void tp_check_state(const struct futex_state *state)
{
	u32 word = *(const u32 *)state->uaddr;
	/* a reader-owned word names no task (futex/tp_shared.c) */
	u32 tid = word & FUTEX_SHARED ? 0 : word & FUTEX_TP_TID_MASK;
	unsigned long mowner = state->mutex48_kind ?
		(unsigned long)mutex48_owner(&state->mutex48) :
		state->mutex.owner.counter & ~TP_MUTEX_FLAGS;
	const char *m48 = state->mutex48_kind ?
		mutex48_check_state(&state->mutex48) : NULL;

	tp_check(!m48, m48);
	tp_check(state->refcount == tp_holders(state),
		 "TP: futex_state refcount != tasks holding a reference");
	tp_check(!tid || find_task_by_vpid(tid) || tp_task_exited(tid),
		 "TP: the futex word names no live or exited task");
	/* one top waiter per state: the serialization mutex's owner */
	tp_check(!state->owner || mowner == (unsigned long)state->owner,
		 "TP: top waiter is not the serialization mutex owner");
	tp_check(!(word & FUTEX_WAITERS) || state->waiters_set ||
		 state->handoff_pid,
		 "TP: FUTEX_WAITERS set with no sleeping top waiter and no handoff");
	tp_check(!state->granted || tid == state->handoff_pid,
		 "TP: a handed-off word does not name the waiter it was given to");
	/* only the top waiter asks, and it withdraws before it leaves */
	tp_check(!state->handoff_pid ||
		 (state->owner && state->owner->pid == state->handoff_pid),
		 "TP: a handoff request of a task that is not the top waiter");
}

/* Check every futex_state on the bucket lists.  Return: how many. */
static noinline long tp_check_states(void)
{
	const struct futex_state *state;
	long attached = 0;
	int i;

	for (i = 0; i < tp_dir_nr; i++) {
		list_for_each_entry(state, &tp_dir[tp_dir_used[i]].fs_list,
				    hb_list) {
			tp_check_state(state);
			attached++;
		}
	}
	return attached;
}

void ksim_futex_tp_assert_state(void)
{
	/* most runs use no TP bucket: this stays a few instructions */
	long attached = tp_dir_nr ? tp_check_states() : 0;

	/* list_add()/list_del() hook before their last store, and the
	 * census changes with no hook after it: the two always agree */
	tp_check(attached == tp_census.attached,
		 "TP: futex_state census does not match the bucket lists");
}

/* at every dispatch of a checked run, after the scheduler's checks */
SIM_STATE_CHECKER(ksim_futex_tp_assert_state, SIM_CHECK_ORDER_FUTEX);
