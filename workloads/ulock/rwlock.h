/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/rwlock.h - reader-writer locks: the ops table of their
 * read side, and the layout of glibc's 2.25+ rwlock (rwlock.c).
 *
 * Stage: user-space lock.  An rwlock is a struct ulock_ops whose ->rw
 * points at a struct ulock_rw_ops: ->lock/->unlock of the ulock_ops are
 * its write side, so the mutex workload can run it too (as writers only),
 * and workload=rwlock (workloads/rwlock.c) runs every lock that has ->rw.
 * A new rwlock (lock=rw-tp over the TP futex, say) is one more ulock_ops
 * with its own ulock_rw_ops, registered in workloads/ulock/registry.c.
 */
#ifndef ULOCK_RWLOCK_H
#define ULOCK_RWLOCK_H

#include <stdint.h>

#include "workloads/ulock/ulock.h"

struct ulock_rw_ops {
	/* rdlock/rdunlock - take and release the lock for reading; a task
	 * may hold it for reading several times where the kind allows it.
	 * Return: 0, or a positive errno (EDEADLK: the caller holds the
	 * lock for writing). */
	int (*rdlock)(void *l, struct ulock_stats *st);
	int (*rdunlock)(void *l, struct ulock_stats *st);
};

/* The glibc rwlock's words (nptl/pthread_rwlock_common.c), all in one cache line. */
#define ULOCK_RW_WRPHASE	1u	/* __readers: WP, a write phase	*/
#define ULOCK_RW_WRLOCKED	2u	/* __readers: WL, a primary writer */
#define ULOCK_RW_RWAITING	4u	/* __readers: RW, readers wait	*/
#define ULOCK_RW_READER_SHIFT	3	/* __readers >> 3: readers R	*/
#define ULOCK_RW_WRHANDOVER	(1u << 31)	/* __writers: the token	*/
#define ULOCK_RW_FUTEX_USED	2u	/* both futex words: may sleep	*/

/* The kinds (pthread_rwlockattr_setkind_np() values). */
enum ulock_rw_kind {
	ULOCK_RW_PREFER_READER,			/* the default		*/
	ULOCK_RW_PREFER_WRITER,			/* recursive readers ok	*/
	ULOCK_RW_PREFER_WRITER_NONRECURSIVE,	/* blocks new readers	*/
};

/*
 * struct ulock_rwlock - pthread_rwlock_t as rwlock.c keeps it.
 * @readers:       __readers: WP | WL | RW | R << 3.
 * @writers:       __writers: registered waiting writers | WRHANDOVER.
 * @wrphase_futex: 1 in a write phase, 0 in a read phase (| FUTEX_USED);
 *                 lags @readers: it is updated after the phase changes.
 * @writers_futex: 1 while there is a primary writer (| FUTEX_USED).
 * @cur_writer:    TID of the write owner (EDEADLK detection), or 0.
 * @flags:         enum ulock_rw_kind.
 * @held_readers, @held_writer: bookkeeping of the simulator (no glibc
 *                 field, never accessed with a hook, so free of cost):
 *                 the read holds and the write hold granted, updated at
 *                 the atomic step that grants or gives them back, for the
 *                 assert-state check.
 */
struct ulock_rwlock {
	uint32_t readers;
	uint32_t writers;
	uint32_t wrphase_futex;
	uint32_t writers_futex;
	uint32_t cur_writer;
	uint32_t flags;
	int32_t held_readers;
	int32_t held_writer;
};

/*
 * ulock_rwlock_check - the per-state invariants of rwlock.c's diagram on
 * @rw's words and holds.
 * Return: NULL if they hold, else a static one-line description of the
 * first that does not.
 */
const char *ulock_rwlock_check(const struct ulock_rwlock *rw);

#endif /* ULOCK_RWLOCK_H */
