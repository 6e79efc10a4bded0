/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/uword.c - the futex words of a user program and their
 * figures (the contract is in sim/trace/uword.h).
 *
 * Stage: trace/report, beside the flow.  Called by sim/syscall/syscall.c,
 * workloads/libsim/atomic.c and workloads/libsim/mutex.c as the program
 * runs; read by workloads/program.c, sim/report/report.c and
 * sim/report/waitfor.c.  Calls the trace's atomic emitter
 * (sim/trace/trace.h) and sim/report/stats.c's histograms.
 *
 * The words are an array in the order they became known, with an open
 * hash of their addresses beside it (a host address only picks a slot:
 * what is known, and in which order, depends on the run alone).
 */
#include <errno.h>
#include <linux/futex.h>
#include <stdlib.h>
#include <string.h>

#include "sim/machine/machine.h"
#include "sim/report/stats.h"
#include "sim/trace/lockstat.h"
#include "sim/trace/trace.h"
#include "sim/trace/trace_writer.h"
#include "sim/trace/uword.h"
#define FUTEXSIM_NO_RENAME	/* the op codes only */
#include "workloads/libsim/futexsim_atomic.h"

#define HASH_SLOTS	(4 * SIM_UWORD_MAX)	/* a power of two	*/
#define TASK_MAX	4096			/* tasks with a total	*/

static struct sim_uword words[SIM_UWORD_MAX];
static int nr_words, nr_hists;
static int16_t slot[HASH_SLOTS];		/* index + 1; 0: empty	*/
static uintptr_t preload[SIM_UWORD_MAX];
static int nr_preload;
static uint64_t task_acq[TASK_MAX];		/* raw acquisitions	*/
static int task_acq_hi;				/* entries below are set */

static unsigned int hash(uintptr_t a)
{
	uint64_t h = (uint64_t)a * 0x9e3779b97f4a7c15ULL;

	return (unsigned int)(h >> 40) & (HASH_SLOTS - 1);
}

static struct sim_uword *find(uintptr_t a, int add)
{
	unsigned int i = hash(a);

	if (!a)
		return NULL;
	for (; slot[i]; i = (i + 1) & (HASH_SLOTS - 1))
		if (words[slot[i] - 1].addr == a)
			return &words[slot[i] - 1];
	if (!add || nr_words == SIM_UWORD_MAX)
		return NULL;
	words[nr_words].addr = a;
	slot[i] = (int16_t)++nr_words;
	return &words[nr_words - 1];
}

void sim_uword_reset(void)
{
	for (int i = 0; i < nr_words; i++)
		sim_hist_free(words[i].lat_ns);
	/* the entries past nr_words are zero already: a program's run in a
	 * fresh world (a forked child) touches no more pages than it uses */
	memset(words, 0, (size_t)nr_words * sizeof(words[0]));
	memset(slot, 0, sizeof(slot));
	memset(task_acq, 0, (size_t)task_acq_hi * sizeof(task_acq[0]));
	nr_words = nr_hists = task_acq_hi = 0;
	for (int i = 0; i < nr_preload; i++)
		find(preload[i], 1);
}

void sim_uword_preload(const uintptr_t *addrs, int n)
{
	nr_preload = 0;
	for (int i = 0; i < n && nr_preload < SIM_UWORD_MAX; i++)
		preload[nr_preload++] = addrs[i];
}

void sim_uword_add(const void *p)
{
	find((uintptr_t)p, 1);
}

int sim_uword_is(const void *p)
{
	return find((uintptr_t)p, 0) != NULL;
}

uint64_t sim_uword_woken(const void *p)
{
	const struct sim_uword *w = find((uintptr_t)p, 0);

	return w ? w->woken : 0;
}

static int task_of(int tid)
{
	int i = tid - SIM_TID_BASE;

	return i >= 0 && i < SIM_UWORD_TASKS ? i : -1;
}

/* An acquisition of @w by @tid now; its latency from @start_ps + 1,
 * contended if its attempt began before the acquiring atomic. */
static void acquired(struct sim_uword *w, int tid, uint64_t start_ps,
		     int contended)
{
	int t = task_of(tid);
	int i = tid - SIM_TID_BASE;

	w->acquires++;
	w->owner = tid;
	if (t >= 0)
		w->per_task[t]++;
	if (!w->raw)
		return;
	if (i >= 0 && i < TASK_MAX) {
		task_acq[i]++;
		if (i >= task_acq_hi)
			task_acq_hi = i + 1;
	}
	if (sim_lockstat_on && start_ps)
		sim_lockstat_word_acquired((const void *)w->addr, start_ps - 1,
					   contended);
	if (!w->lat_ns && nr_hists < SIM_UWORD_HISTS) {
		w->lat_ns = sim_hist_new();
		nr_hists += !!w->lat_ns;
	}
	if (w->lat_ns && start_ps)
		sim_hist_add(w->lat_ns, (sim_now_ps() - (start_ps - 1)) / 1000);
}

/* The rule of sim/trace/uword.h for one atomic of the current task. */
static void account(struct sim_uword *w, int tid, uint64_t start_ps,
		    uint64_t before, uint64_t after)
{
	int t = task_of(tid);
	uint64_t start = 0;

	if (t >= 0) {
		if (!w->start_ps[t])
			w->start_ps[t] = start_ps + 1;
		start = w->start_ps[t];
	}
	if (!before && after) {
		acquired(w, tid, start, start != start_ps + 1);
	} else if (before && !after) {
		w->releases++;
		w->owner = 0;
		if (sim_lockstat_on)
			sim_lockstat_user_release((const void *)w->addr);
	} else {
		return;
	}
	if (t >= 0)
		w->start_ps[t] = 0;
}

void sim_uword_atomic(const void *p, unsigned int size, unsigned int op,
		      int ok, uint64_t start_ps, uint64_t before,
		      uint64_t after)
{
	struct sim_uword *w = find((uintptr_t)p, 0);
	const struct sim_task *cur = sim_current();

	sim_trace_uatomic(w != NULL, p, size, op, ok, before, after);
	if (!w || !cur || size > 8)
		return;
	w->raw = 1;
	account(w, cur->tid, start_ps, before, after);
}

void sim_uword_futex(const uint32_t *uaddr, int op, long ret)
{
	struct sim_uword *w = find((uintptr_t)uaddr, 1);

	if (!w)
		return;
	if (sim__trace_futex_waits((unsigned int)op)) {
		w->waits++;
		w->eagain += ret == -EAGAIN;
		return;
	}
	switch (op & FUTEX_CMD_MASK) {
	case FUTEX_WAKE:
	case FUTEX_WAKE_BITSET:
	case FUTEX_WAKE_OP:
		w->wake_calls++;
		w->woken += ret > 0 ? (uint64_t)ret : 0;
		break;
	}
}

void sim_uword_owner(const void *p, int tid)
{
	struct sim_uword *w = find((uintptr_t)p, 1);

	if (!w)
		return;
	w->layer = 1;
	if (tid) {
		acquired(w, tid, 0, 0);
	} else {
		w->releases++;
		w->owner = 0;
	}
}

int sim_uword_holder(const void *p)
{
	const struct sim_uword *w = find((uintptr_t)p, 0);

	return w ? w->owner : 0;
}

int sim_uword_nr(void)
{
	return nr_words;
}

const struct sim_uword *sim_uword_get(int i)
{
	return &words[i];
}

int sim_uword_list(uintptr_t *out, int max)
{
	int n = 0;

	for (; n < nr_words && n < max; n++)
		out[n] = words[n].addr;
	return n;
}

uint64_t sim_uword_task_acquires(int tid)
{
	int i = tid - SIM_TID_BASE;

	return i >= 0 && i < TASK_MAX ? task_acq[i] : 0;
}

const char *sim_uword_op_name(unsigned int op, int ok)
{
	static const char *const names[] = {
		[FUTEXSIM_OP_LOAD] = "load", [FUTEXSIM_OP_STORE] = "store",
		[FUTEXSIM_OP_XCHG] = "xchg", [FUTEXSIM_OP_CMPXCHG] = "cmpxchg",
		[FUTEXSIM_OP_FETCH_ADD] = "fetch_add",
		[FUTEXSIM_OP_FETCH_SUB] = "fetch_sub",
		[FUTEXSIM_OP_FETCH_AND] = "fetch_and",
		[FUTEXSIM_OP_FETCH_OR] = "fetch_or",
		[FUTEXSIM_OP_FETCH_XOR] = "fetch_xor",
		[FUTEXSIM_OP_FETCH_NAND] = "fetch_nand",
		[FUTEXSIM_OP_ADD_FETCH] = "add_fetch",
		[FUTEXSIM_OP_SUB_FETCH] = "sub_fetch",
		[FUTEXSIM_OP_AND_FETCH] = "and_fetch",
		[FUTEXSIM_OP_OR_FETCH] = "or_fetch",
		[FUTEXSIM_OP_XOR_FETCH] = "xor_fetch",
		[FUTEXSIM_OP_NAND_FETCH] = "nand_fetch",
		[FUTEXSIM_OP_TEST_AND_SET] = "test_and_set",
		[FUTEXSIM_OP_CLEAR] = "clear",
	};

	if (op == FUTEXSIM_OP_CMPXCHG)
		return ok ? "cmpxchg-ok" : "cmpxchg-fail";
	return op < sizeof(names) / sizeof(names[0]) && names[op] ?
	       names[op] : "?";
}
