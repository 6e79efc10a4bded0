/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/rwlock_busted.c - a deliberately broken rwlock, the
 * negative control of the rwlock harness (Linux locktorture's
 * lock_busted_ops): lock=rw-busted, hidden from `futexsim list`.
 *
 * Stage: user-space lock.  Run by workloads/rwlock.c through
 * ulock_rw_busted_ops; its write side and read unlock are the glibc
 * prefer-reader rwlock's (rwlock.c), reached through that lock's table.
 *
 * The bug: the read lock registers (fetch_add R) and returns at once,
 * without looking at WP, as if every phase were a read phase.  A reader
 * that arrives while a writer holds the lock (#7 -> #8) walks into the
 * critical section beside it.  The workload's reader/writer check must
 * report it (exit 3); with FUTEXSIM_CHECK_STATE=1 the rwlock's
 * assert-state check ("read holds in a write phase") may fire first.
 */
#include <stddef.h>

#include "workloads/ulock/rwlock.h"
#include "workloads/ulock/uatomic.h"

static void busted_init(void *l)
{
	ulock_rw_prefer_reader_ops.init(l);
}

static int busted_rdlock(void *l, struct ulock_stats *st)
{
	struct ulock_rwlock *rw = l;

	uatomic_fetch_add(&rw->readers, 1u << ULOCK_RW_READER_SHIFT);
	rw->held_readers++;		/* BUG: held even in a write phase */
	return 0;
}

static int busted_rdunlock(void *l, struct ulock_stats *st)
{
	return ulock_rw_prefer_reader_ops.rw->rdunlock(l, st);
}

static int busted_wrlock(void *l, struct ulock_stats *st)
{
	return ulock_rw_prefer_reader_ops.lock(l, st);
}

static int busted_wrunlock(void *l, struct ulock_stats *st)
{
	return ulock_rw_prefer_reader_ops.unlock(l, st);
}

static const struct ulock_rw_ops busted_read_side = {
	.rdlock		= busted_rdlock,
	.rdunlock	= busted_rdunlock,
};

/* the words a page of the run shows (struct ulock_ops.words) */
static const char *const rwlock_busted_words[] = {
	"__readers", "__writers", "__wrphase_futex", "__writers_futex",
	"__cur_writer", NULL
};

const struct ulock_ops ulock_rw_busted_ops = {
	.name		= "rw-busted",
	.words		= rwlock_busted_words,
	.description	= "BROKEN: rwlock whose readers ignore the write phase",
	.size		= sizeof(struct ulock_rwlock),
	.init		= busted_init,
	.lock		= busted_wrlock,
	.unlock		= busted_wrunlock,
	.rw		= &busted_read_side,
	.broken		= true,
};
