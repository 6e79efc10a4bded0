/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/atomic.c - a user program's atomics: the scheduling
 * point before each, and what each did.
 *
 * Stage: user program -> machine (sim_hook()); beside it, the trace and
 * the futex words' figures (sim/trace/uword.h).  Called by the macros of
 * workloads/libsim/futexsim_atomic.h around every GCC __atomic/__sync
 * builtin of the program.
 *
 * futexsim_atomic() is the scheduling point; once sim_hook() returns, no
 * other task runs until the builtin is done (one host thread runs every
 * task), so the word read then is its value just before the builtin.
 * It is kept on a short stack (an atomic's operand may itself be an
 * atomic: the inner pair nests in the outer) for futexsim_atomic_done(),
 * which reads the value after and hands both to sim_uword_atomic().
 */
#include <string.h>

#include "sim/machine/machine.h"
#include "sim/machine/memmodel.h"
#include "sim/trace/uword.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"

_Static_assert(FUTEXSIM_LOAD == SIM_LOAD && FUTEXSIM_STORE == SIM_STORE &&
	       FUTEXSIM_RMW == SIM_RMW && FUTEXSIM_RELAX == SIM_RELAX &&
	       FUTEXSIM_FENCE == SIM_FENCE, "futexsim_atomic.h kinds");

#define PENDING_MAX	8

static struct {
	const volatile void *p;
	uint64_t before;
	uint64_t start_ps;	/* when it was announced		*/
} pending[PENDING_MAX];
static int nr_pending;

const volatile void *wl_prog_atomic_announced;

/* The @size-byte word at @p as a number (0 for sizes not 1, 2, 4, 8). */
static uint64_t word_at(const volatile void *p, unsigned int size)
{
	switch (size) {
	case 1:
		return *(const volatile uint8_t *)p;
	case 2:
		return *(const volatile uint16_t *)p;
	case 4:
		return *(const volatile uint32_t *)p;
	case 8:
		return *(const volatile uint64_t *)p;
	}
	return 0;
}

void futexsim_atomic(const volatile void *p, unsigned int size, int kind)
{
	uint64_t t0;

	if (!sim_current())
		return;
	/* an instruction boundary: a signal sent meanwhile is delivered,
	 * as on the return from an interrupt */
	if (__builtin_expect(wl_prog.sig_any, 0)) {
		wl_prog_cancel_async();
		wl_prog_signal_check();
	}
	t0 = sim_now_ps();
	/* memory=tso|arm64 (an instrumented program): the builtin's own
	 * call, next, orders the store buffer as its memory order says
	 * (workloads/libsim/instrument.c); tso's locked RMWs drain here */
	if (__builtin_expect(sim__sb_on, 0) &&
	    (kind == FUTEXSIM_FENCE || kind == FUTEXSIM_STORE ||
	     (kind == FUTEXSIM_RMW && sim__sb_arm64)))
		sim__sb_keep = 1;
	sim_hook((enum sim_access)kind, p, size);	/* errno: resume() keeps it */
	sim__sb_keep = 0;
	/* in an instrumented program, the builtin's own call comes next */
	if (kind != FUTEXSIM_RELAX)
		wl_prog_atomic_announced = p ? p : WL_PROG_ATOMIC_FENCE;
	if (!p)
		return;		/* a fence or a PAUSE */
	if (nr_pending == PENDING_MAX) {
		memmove(&pending[0], &pending[1],
			sizeof(pending[0]) * (PENDING_MAX - 1));
		nr_pending--;
	}
	pending[nr_pending].p = p;
	pending[nr_pending].start_ps = t0;
	pending[nr_pending++].before = word_at(p, size);
}

void futexsim_atomic_done(const volatile void *p, unsigned int size, int op,
			  int ok)
{
	uint64_t before = 0, start_ps = sim_now_ps();
	int i;

	if (!sim_current())
		return;
	for (i = nr_pending - 1; i >= 0 && pending[i].p != p; i--)
		;
	if (i >= 0) {
		before = pending[i].before;
		start_ps = pending[i].start_ps;
		nr_pending = i;
	}
	sim_uword_atomic((const void *)p, size, (unsigned int)op, ok, start_ps,
			 before, word_at(p, size));
}
