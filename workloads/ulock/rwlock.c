/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/rwlock.c - glibc's reader-writer lock of 2.25 and later
 * (nptl/pthread_rwlock_common.c, Torvald Riegel, with the 2.26 hand-over
 * fix and the 2.29 PREFER_WRITER_NONRECURSIVE fix), in its three kinds:
 * lock=rw-prefer-reader, rw-prefer-writer, rw-prefer-writer-nr.
 *
 * Stage: user-space lock.  Called by workloads/rwlock.c (read and write
 * side) and by workloads/mutex.c (write side) through the ops tables at
 * the end; calls futex(2) through workloads/ulock/futex.h.  Written from
 * the published algorithm (glibc 2.25's "New pthread rwlock that is more
 * scalable" and its fixes for bugs 21298 and 23861); timed waits (timedlock)
 * and trylock are not modelled.
 *
 * STATE.  Tuples (WP, WL, R, RW) of the __readers word (rwlock.h):
 *
 *   #1 (0,0,0,0)  idle, read phase        #5 (1,0,0,0)  idle, write phase
 *   #2 (0,0,n,0)  readers hold it         #6 (1,0,n,0)  readers starting a
 *   #3 (0,1,0,0)  a writer about to start              read phase
 *                 a write phase           #7 (1,1,0,0)  a writer holds it
 *   #4 (0,1,n,0)  readers hold it, a      #8 (1,1,n,0)  a writer holds it,
 *                 writer waits for the                  readers wait for
 *                 last one's hand-over                  its hand-over
 *   #4a (0,1,n,1) #4, and readers wait without registering (nonrecursive)
 *
 *        rd(fast)            wr(fetch_or WL)         rdunlock(last, WL)
 *   #1 ----------> #2 ---------------------> #4 ----------------------> #7
 *    |  <----------                           | rd(nr: set RW)           ^
 *    |  rdunlock(last)                        v                          |
 *    | wr: fetch_or WL, CAS WP              #4a --rdunlock(last)---------+
 *    +----------------------------------------------------------------> #7
 *   #7 --rd: register--> #8 --wrunlock: WL off, WP off, wake--> #2
 *   #7 --wrunlock, nobody--> #5 --rd: register, CAS WP off--> #2
 *   #7 --wrunlock, writers registered (not prefer-reader): WRHANDOVER-->
 *        #7 (the next writer takes WL from __writers; readers in #8 wait)
 *   #5 --wr: fetch_or WL--> #7 (already a write phase)
 *
 * TRANSITIONS (-> function).  "register" = fetch_add R; "wake" = the
 * futex word's FUTEX_USED bit was set, so FUTEX_WAKE it.
 *   #1,#2,#4 -> #2,#4     rw_rdlock(): register in a read phase, the fast
 *                         path, taken even though a writer waits in #4
 *   #5,#7 -> #6,#8        rw_rdlock(): register in a write phase
 *   #4 -> #4a             rd_wait_nonrecursive(): CAS RW on, sleep on
 *                         __readers while RW stays set
 *   #5,#6 -> #2           rd_start_read_phase(): CAS WP off, then
 *                         wrphase_futex 0 and wake
 *   #8 -> #2              rd_wait_handover(): sleep on wrphase_futex
 *                         until the writer's wrunlock turns it to 0
 *   #2 -> #1, #4/#4a -> #7  rw_rdunlock(): CAS R - 1; the last reader
 *                         sets WP if WL (hand-over to the writer: wrphase
 *                         futex 1 and wake) and clears RW (wake __readers)
 *   #1,#2 -> #3,#4; #5 -> #7   rw_wrlock(): fetch_or WL
 *   WL taken -> WL        wr_become_primary(): CAS WL when it reads free,
 *                         or claim WRHANDOVER (prefer-writer kinds, which
 *                         registered in __writers), else sleep on
 *                         writers_futex
 *   #3 -> #7              wr_start_write_phase(): CAS WP on (R = 0)
 *   #4 -> #7              wr_wait_handover(): sleep on wrphase_futex
 *                         until the last reader sets it to 1
 *   #7 -> #7              rw_wrunlock(), not prefer-reader, __writers != 0:
 *                         CAS WRHANDOVER on; WL stays set
 *   #7 -> #5, #8 -> #2    rw_wrunlock() otherwise: CAS WL off (and WP off
 *                         if R > 0: hand-over to readers, wrphase_futex 0
 *                         and wake); then wake one writer if writers_futex
 *                         was used
 *
 * INVARIANTS (ulock_rwlock_check(); with FUTEXSIM_CHECK_STATE=1 or the
 * oracle "state", sim_check_state(), it runs after every step that
 * changes __readers or __writers, as sched_assert_state() runs at every
 * dispatch).  The futex words lag the phase, so only
 * what holds at every instant is checked:
 *   a write hold      only in #7/#8: WP and WL, no read hold
 *   read holds        only in a read phase (#2, #4, #4a): WP clear, and
 *                     R counts at least the holds (waiting readers too)
 *   RW set            only in #4a: WP clear, WL set, R > 0
 *   WRHANDOVER set    WL set and at least one writer registered
 *   WL clear          writers_futex is 0 (only a primary writer sets it)
 *   prefer-reader     no writer ever registers: __writers is 0
 *   both futex words  0 or 1, with or without FUTEX_USED
 *
 * Why the kinds starve (docs/studies/glibc-2017.md): prefer-reader readers register in
 * #4 with one fetch_add, so a steady stream of readers never lets R reach
 * 0 and the writer waits; the prefer-writer kinds hand WL from writer to
 * writer (WRHANDOVER), so readers in #8 wait while writers keep coming;
 * only the nonrecursive kind also stops new readers in #4 (RW), which is
 * why a reader that already holds the lock deadlocks there.
 */
#include <limits.h>
#include <stdio.h>

#include "sim/report/failure.h"
#include "sim/machine/machine.h"
#include "workloads/ulock/futex.h"
#include "workloads/ulock/rwlock.h"
#include "workloads/ulock/uatomic.h"

#define WP		ULOCK_RW_WRPHASE
#define WL		ULOCK_RW_WRLOCKED
#define RW		ULOCK_RW_RWAITING
#define SHIFT		ULOCK_RW_READER_SHIFT
#define ONE_READER	(1u << ULOCK_RW_READER_SHIFT)
#define HANDOVER	ULOCK_RW_WRHANDOVER
#define USED		ULOCK_RW_FUTEX_USED

const char *ulock_rwlock_check(const struct ulock_rwlock *rw)
{
	uint32_t r = rw->readers, w = rw->writers;
	uint32_t nr = r >> SHIFT, wpf = rw->wrphase_futex;

	if (rw->held_writer && (!(r & WP) || !(r & WL) || rw->held_readers))
		return "a write hold outside #7/#8, or with read holds";
	if (rw->held_readers < 0 || rw->held_writer < 0 || rw->held_writer > 1)
		return "hold counts out of range";
	if (rw->held_readers && ((r & WP) || nr < (uint32_t)rw->held_readers))
		return "read holds in a write phase, or more holds than R";
	if ((r & RW) && ((r & WP) || !(r & WL) || !nr))
		return "RWAITING outside #4a";
	if ((w & HANDOVER) && (!(r & WL) || !(w & ~HANDOVER)))
		return "WRHANDOVER without WRLOCKED or without a registered writer";
	if (!(r & WL) && rw->writers_futex)
		return "writers_futex set without a primary writer";
	if (rw->flags == ULOCK_RW_PREFER_READER && w)
		return "a writer registered in a prefer-reader lock";
	if ((wpf & ~USED) > 1 || (rw->writers_futex & ~USED) > 1)
		return "a futex word out of range";
	if (nr >= SIM_MAX_TASKS)
		return "reader count out of range (underflow)";
	return NULL;
}

static void assert_state(const struct ulock_rwlock *rw)
{
	static char what[160];
	const char *bad;

	if (!sim_check_state() || !(bad = ulock_rwlock_check(rw)))
		return;
	snprintf(what, sizeof(what), "rwlock state: %s (readers %#x writers %#x)",
		 bad, rw->readers, rw->writers);
	sim_fail(SIM_FAIL_INVARIANT, what);
}

/* The holds, updated with no hook between them and the atomic step. */
static void held(struct ulock_rwlock *rw, int readers, int writer)
{
	rw->held_readers += readers;
	rw->held_writer += writer;
	assert_state(rw);
}

static uint32_t my_tid(void)
{
	return (uint32_t)sim_current()->tid;	/* from the thread descriptor */
}

static void rw_init(struct ulock_rwlock *rw, enum ulock_rw_kind kind)
{
	uatomic_store(&rw->flags, kind);
}

static void init_reader(void *l) { rw_init(l, ULOCK_RW_PREFER_READER); }
static void init_writer(void *l) { rw_init(l, ULOCK_RW_PREFER_WRITER); }
static void init_writer_nr(void *l)
{
	rw_init(l, ULOCK_RW_PREFER_WRITER_NONRECURSIVE);
}

/* ---- read side ---------------------------------------------------------- */

/* #4 -> #4a: nonrecursive kind, a writer waits for the readers: do not
 * extend the read phase; sleep until the last reader clears RW. */
static void rd_wait_nonrecursive(struct ulock_rwlock *rw, struct ulock_stats *st)
{
	uint32_t r = uatomic_load(&rw->readers), old;

	while (!(r & WP) && (r & WL) && (r >> SHIFT)) {
		old = uatomic_cmpxchg(&rw->readers, r, r | RW);
		if (old != r) {
			r = old;
			continue;
		}
		assert_state(rw);
		while ((r = uatomic_load(&rw->readers)) & RW)
			ulock_futex_wait(&rw->readers, r, NULL, st);
	}
}

/* #5/#6 -> #2: no primary writer in a write phase: start a read phase.
 * Return: 1 if we did (and hold the lock), 0 if a writer holds WL. */
static int rd_start_read_phase(struct ulock_rwlock *rw, uint32_t r,
			       struct ulock_stats *st)
{
	uint32_t old;

	while ((r & WP) && !(r & WL)) {
		old = uatomic_cmpxchg(&rw->readers, r, r ^ WP);
		if (old == r) {
			held(rw, 1, 0);
			/* readers that registered in the write phase wait for
			 * this, as for a writer's hand-over (bug 23861) */
			if (uatomic_xchg(&rw->wrphase_futex, 0) & USED)
				ulock_futex_wake(&rw->wrphase_futex, INT_MAX, st);
			return 1;
		}
		r = old;
	}
	return 0;
}

/* #8 -> #2: wait for the writer's explicit hand-over of a read phase.
 * wrphase_futex may still read 0 from the previous read phase: a 0 only
 * counts once __readers shows the read phase too. */
static void rd_wait_handover(struct ulock_rwlock *rw, struct ulock_stats *st)
{
	uint32_t wpf;
	int ready = 0;

	for (;;) {
		while (((wpf = uatomic_load(&rw->wrphase_futex)) | USED) ==
		       (1 | USED)) {
			if (!(wpf & USED) &&
			    uatomic_cmpxchg(&rw->wrphase_futex, wpf, wpf | USED) != wpf)
				continue;
			ulock_futex_wait(&rw->wrphase_futex, 1 | USED, NULL, st);
		}
		if (ready)
			break;
		if (!(uatomic_load(&rw->readers) & WP))
			ready = 1;
	}
	held(rw, 1, 0);
}

static int rw_rdlock(void *l, struct ulock_stats *st)
{
	struct ulock_rwlock *rw = l;
	uint32_t r;

	if (uatomic_load(&rw->cur_writer) == my_tid())
		return EDEADLK;
	if (uatomic_load(&rw->flags) == ULOCK_RW_PREFER_WRITER_NONRECURSIVE)
		rd_wait_nonrecursive(rw, st);
	r = uatomic_fetch_add(&rw->readers, ONE_READER) + ONE_READER;
	if (!(r & WP)) {
		held(rw, 1, 0);		/* the fast path: a read phase */
		return 0;
	}
	assert_state(rw);
	if (!rd_start_read_phase(rw, r, st))
		rd_wait_handover(rw, st);
	return 0;
}

static int rw_rdunlock(void *l, struct ulock_stats *st)
{
	struct ulock_rwlock *rw = l;
	uint32_t r = uatomic_load(&rw->readers), rnew, old;

	for (;;) {
		rnew = r - ONE_READER;
		if (!(rnew >> SHIFT)) {		/* the last reader */
			if (rnew & WL)
				rnew |= WP;	/* hand over to the writer */
			rnew &= ~RW;
		}
		old = uatomic_cmpxchg(&rw->readers, r, rnew);
		if (old == r)
			break;
		r = old;
	}
	held(rw, -1, 0);
	if ((rnew & WP) && (uatomic_xchg(&rw->wrphase_futex, 1) & USED))
		ulock_futex_wake(&rw->wrphase_futex, INT_MAX, st);
	if ((r & RW) != (rnew & RW))
		ulock_futex_wake(&rw->readers, INT_MAX, st);
	return 0;
}

/* ---- write side --------------------------------------------------------- */

/* fetch_or as x86 compiles it when the old value is used: a CAS loop. */
static uint32_t fetch_or(uint32_t *p, uint32_t bits)
{
	uint32_t r = uatomic_load(p), old;

	while ((old = uatomic_cmpxchg(p, r, r | bits)) != r)
		r = old;
	return r;
}

/* WL was taken: become the primary writer by CAS when WL reads free, or
 * by the WRHANDOVER token (prefer-writer kinds), else sleep on
 * writers_futex.  *@shared_used: we may share its FUTEX_USED bit with
 * other sleepers, so we must keep it set.  Return: __readers, WL set. */
static uint32_t wr_become_primary(struct ulock_rwlock *rw, uint32_t r,
				  int *shared_used, struct ulock_stats *st)
{
	int prefer_writer = uatomic_load(&rw->flags) != ULOCK_RW_PREFER_READER;
	uint32_t old, w, wf;

	if (prefer_writer)
		uatomic_fetch_add(&rw->writers, 1);	/* register */
	for (;;) {
		if (!(r & WL)) {
			old = uatomic_cmpxchg(&rw->readers, r, r | WL);
			if (old != r) {
				r = old;
				continue;
			}
			if (prefer_writer)
				uatomic_fetch_sub(&rw->writers, 1);
			break;
		}
		w = prefer_writer ? uatomic_load(&rw->writers) : 0;
		if (w & HANDOVER) {
			if (uatomic_cmpxchg(&rw->writers, w, w - HANDOVER - 1) == w) {
				r = uatomic_load(&rw->readers);
				break;
			}
			continue;
		}
		wf = uatomic_load(&rw->writers_futex);
		if ((wf & ~USED) != 1 || (wf != (1 | USED) &&
		    uatomic_cmpxchg(&rw->writers_futex, wf, 1 | USED) != wf)) {
			r = uatomic_load(&rw->readers);
			continue;
		}
		*shared_used = 1;
		ulock_futex_wait(&rw->writers_futex, 1 | USED, NULL, st);
		r = uatomic_load(&rw->readers);
	}
	assert_state(rw);
	return r | WL;
}

/* #3 -> #7.  Return: 1 if we started the write phase, 0 if readers hold
 * the read phase (#4): wait for the last one's hand-over. */
static int wr_start_write_phase(struct ulock_rwlock *rw, uint32_t r)
{
	uint32_t old;

	while (!(r & WP) && !(r >> SHIFT)) {
		old = uatomic_cmpxchg(&rw->readers, r, r | WP);
		if (old == r) {
			held(rw, 0, 1);
			uatomic_store(&rw->wrphase_futex, 1);
			return 1;
		}
		r = old;
	}
	return 0;
}

/* #4 -> #7: sleep until the last reader sets wrphase_futex to 1. */
static void wr_wait_handover(struct ulock_rwlock *rw, struct ulock_stats *st)
{
	uint32_t wpf;
	int ready = 0;

	for (;;) {
		while (((wpf = uatomic_load(&rw->wrphase_futex)) | USED) == USED) {
			if (!(wpf & USED) &&
			    uatomic_cmpxchg(&rw->wrphase_futex, wpf, USED) != wpf)
				continue;
			ulock_futex_wait(&rw->wrphase_futex, USED, NULL, st);
		}
		if (ready)
			break;
		if (uatomic_load(&rw->readers) & WP)
			ready = 1;
	}
	held(rw, 0, 1);
}

static int rw_wrlock(void *l, struct ulock_stats *st)
{
	struct ulock_rwlock *rw = l;
	uint32_t tid = my_tid(), r;
	int shared_used = 0;

	if (uatomic_load(&rw->cur_writer) == tid)
		return EDEADLK;
	r = fetch_or(&rw->readers, WL);
	assert_state(rw);
	if (r & WL)
		r = wr_become_primary(rw, r, &shared_used, st);
	uatomic_store(&rw->writers_futex, 1 | (shared_used ? USED : 0));
	if (r & WP)
		held(rw, 0, 1);		/* #5 -> #7, or WL handed over */
	else if (!wr_start_write_phase(rw, r))
		wr_wait_handover(rw, st);
	uatomic_store(&rw->cur_writer, tid);
	return 0;
}

static int rw_wrunlock(void *l, struct ulock_stats *st)
{
	struct ulock_rwlock *rw = l;
	uint32_t r, w, old;
	int wake_writers;

	rw->held_writer--;
	uatomic_store(&rw->cur_writer, 0);
	wake_writers = !!(uatomic_xchg(&rw->writers_futex, 0) & USED);
	if (uatomic_load(&rw->flags) != ULOCK_RW_PREFER_READER) {
		w = uatomic_load(&rw->writers);
		while (w) {		/* writer-to-writer hand-over */
			old = uatomic_cmpxchg(&rw->writers, w, w | HANDOVER);
			if (old == w)
				goto done;
			w = old;
		}
	}
	r = uatomic_load(&rw->readers);
	while ((old = uatomic_cmpxchg(&rw->readers, r, (r ^ WL) ^
				      ((r >> SHIFT) ? WP : 0))) != r)
		r = old;
	if ((r >> SHIFT) && (uatomic_xchg(&rw->wrphase_futex, 0) & USED))
		ulock_futex_wake(&rw->wrphase_futex, INT_MAX, st);
done:
	assert_state(rw);
	if (wake_writers)
		ulock_futex_wake(&rw->writers_futex, 1, st);
	return 0;
}

static const struct ulock_rw_ops rw_read_side = {
	.rdlock		= rw_rdlock,
	.rdunlock	= rw_rdunlock,
};

/* the words a page of the run shows (struct ulock_ops.words) */
static const char *const rwlock_words[] = {
	"__readers", "__writers", "__wrphase_futex", "__writers_futex",
	"__cur_writer", NULL
};

const struct ulock_ops ulock_rw_prefer_reader_ops = {
	.name		= "rw-prefer-reader",
	.words		= rwlock_words,
	.description	= "glibc 2.25+ rwlock, PTHREAD_RWLOCK_PREFER_READER_NP (the default)",
	.size		= sizeof(struct ulock_rwlock),
	.init		= init_reader,
	.lock		= rw_wrlock,
	.unlock		= rw_wrunlock,
	.rw		= &rw_read_side,
};

const struct ulock_ops ulock_rw_prefer_writer_ops = {
	.name		= "rw-prefer-writer",
	.words		= rwlock_words,
	.description	= "glibc rwlock, PREFER_WRITER_NP: writer hand-over, readers never blocked",
	.size		= sizeof(struct ulock_rwlock),
	.init		= init_writer,
	.lock		= rw_wrlock,
	.unlock		= rw_wrunlock,
	.rw		= &rw_read_side,
};

const struct ulock_ops ulock_rw_prefer_writer_nr_ops = {
	.name		= "rw-prefer-writer-nr",
	.words		= rwlock_words,
	.description	= "glibc rwlock, PREFER_WRITER_NONRECURSIVE_NP: new readers wait for writers",
	.size		= sizeof(struct ulock_rwlock),
	.init		= init_writer_nr,
	.lock		= rw_wrlock,
	.unlock		= rw_wrunlock,
	.rw		= &rw_read_side,
};
