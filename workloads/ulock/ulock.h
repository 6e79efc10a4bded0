/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/ulock.h - user-space locks over the simulated futex(2).
 *
 * Stage: user-space lock, between the workload driver and the futex(2)
 * boundary (sim/syscall/syscall.h).  Every shared access of a user lock goes
 * through workloads/ulock/uatomic.h, so it is a scheduling point with a
 * cost, exactly like the kernel's atomics.
 *
 * Error convention of this layer: 0 or a positive errno, like pthreads.
 *
 * Every lock is driven through one table of operations, so the workload
 * driver and the test harness treat them alike; the harness also runs the
 * deliberately broken locks (->broken), which must fail.
 */
#ifndef ULOCK_H
#define ULOCK_H

#include <stdbool.h>
#include <stdint.h>

/* What a lock's slow paths did, counted per thread. */
struct ulock_stats {
	uint64_t lock_syscalls;		/* futex calls made to lock	*/
	uint64_t unlock_syscalls;	/* futex calls made to unlock	*/
	uint64_t eagain;		/* FUTEX_WAIT returned EAGAIN	*/
	uint64_t timeouts;		/* FUTEX_WAIT returned ETIMEDOUT*/
	uint64_t wakeups;		/* tasks woken by our unlocks	*/
	uint64_t spins;			/* adaptive: PAUSEs spun	*/
	uint64_t spin_giveups;		/* adaptive: spun, then lll_lock*/
	/* tp: how each FUTEX_LOCK acquired (futex/tp_abi.h status codes)
	 * and the sleeps it reported */
	uint64_t steals;		/* tp: code 0, kernel steal	*/
	uint64_t top_waiter;		/* tp: code 1, top waiter	*/
	uint64_t handoffs;		/* tp: code 2, handed off	*/
	uint64_t sleeps;		/* tp: status >> 16, summed	*/
	/* not a count: the lock being taken or released is process-
	 * shared, so its futex calls go without FUTEX_PRIVATE_FLAG
	 * (workloads/ulock/futex.h, pi.c); the pthread layer sets it
	 * around a call, the built-in workloads never */
	int shared;
};

/*
 * The glibc tunables of the locks that have some (adaptive.c): process-
 * wide, as glibc.pthread.mutex_spin_count is.  The workload driver copies
 * the scenario's adaptive= and spin-count= in (wl_run_begin()).
 */
enum ulock_adaptive {
	ULOCK_ADAPTIVE_PRE2018,		/* CAS every iteration (<= 2.28)	*/
	ULOCK_ADAPTIVE_SEED2018,	/* read-only spin, try once, sleep	*/
	ULOCK_ADAPTIVE_GLIBC235,	/* read before CAS (2.35)		*/
	ULOCK_ADAPTIVE_GLIBC236,	/* + exponential backoff, jitter	*/
};

struct ulock_tunables {
	enum ulock_adaptive adaptive;
	unsigned int spin_count;	/* default 100, at most 32767	*/
};
extern struct ulock_tunables ulock_tunables;

struct ulock_rw_ops;			/* workloads/ulock/rwlock.h	*/

struct ulock_ops {
	const char *name;		/* the scenario's lock= value	*/
	const char *description;	/* one line, for `futexsim list`*/
	unsigned int size;		/* bytes of user memory it needs*/
	/* init - set up the lock at @l (zeroed user memory). */
	void (*init)(void *l);
	/* lock/unlock - Return: 0 or a positive errno. */
	int (*lock)(void *l, struct ulock_stats *st);
	int (*unlock)(void *l, struct ulock_stats *st);
	/* rw - an rwlock's read side (lock/unlock are then its write side,
	 * so it also runs as a mutex); NULL for a mutex. */
	const struct ulock_rw_ops *rw;
	bool broken;			/* a negative control: hidden	*/
	/* words - the names of the lock's 32-bit words from @l on, as
	 * glibc names the fields ("" for a word not shown), NULL-ended:
	 * the page of an HTML trace shows their values at every event
	 * (sim_trace_lock_words(), sim/trace/trace.h). */
	const char *const *words;
};

/* ulock_find - the lock called @name (broken ones included), or NULL. */
const struct ulock_ops *ulock_find(const char *name);
/* ulock_registry - NULL-terminated list of every lock. */
extern const struct ulock_ops *const ulock_registry[];

/* The locks (one file each). */
extern const struct ulock_ops ulock_ww_ops;		/* ww.c		*/
extern const struct ulock_ops ulock_ww_timed_ops;	/* ww.c		*/
extern const struct ulock_ops ulock_pi_ops;		/* pi.c		*/
extern const struct ulock_ops ulock_tp_ops;		/* tp.c		*/
extern const struct ulock_ops ulock_tp_timed_ops;	/* tp.c		*/
extern const struct ulock_ops ulock_tp_timed_busted_ops; /* tp.c	*/
/* ulock_tp_count - count in @st how a FUTEX_TP_LOCK or FUTEX_TP_LOCK_SHARED
 * acquisition went: status word @r (>= 0; futex/tp_abi.h), tp.c. */
void ulock_tp_count(long r, struct ulock_stats *st);
/* ulock_tp_lock_call - futex(2) op @op (FUTEX_TP_LOCK or
 * FUTEX_TP_LOCK_SHARED, private) with @val on @w until it returns a
 * status word (counted in @st) or an error other than EINTR/EAGAIN;
 * @timed: each call with an absolute deadline 50 us ahead, ETIMEDOUT
 * counted and retried, or, @busted, taken for the lock (the negative
 * controls).  Return: 0 or a positive errno.  tp.c. */
int ulock_tp_lock_call(uint32_t *w, int op, uint32_t val,
		       struct ulock_stats *st, bool timed, bool busted);
extern const struct ulock_ops ulock_ww_busted_ops;	/* busted.c	*/
extern const struct ulock_ops ulock_racy_ops;		/* busted.c	*/
extern const struct ulock_ops ulock_tas_relaxed_ops;	/* busted.c	*/
extern const struct ulock_ops ulock_adaptive_ops;	/* adaptive.c	*/
extern const struct ulock_ops ulock_rw_prefer_reader_ops;	/* rwlock.c */
extern const struct ulock_ops ulock_rw_prefer_writer_ops;	/* rwlock.c */
extern const struct ulock_ops ulock_rw_prefer_writer_nr_ops;	/* rwlock.c */
extern const struct ulock_ops ulock_rw_busted_ops;	/* rwlock_busted.c */
extern const struct ulock_ops ulock_rw_tp_ops;		/* rwlock_tp.c	*/
extern const struct ulock_ops ulock_rw_tp_preader_ops;	/* rwlock_tp.c	*/
extern const struct ulock_ops ulock_rw_tp_timed_ops;	/* rwlock_tp.c	*/
extern const struct ulock_ops ulock_rw_tp_timed_busted_ops; /* rwlock_tp.c */

#endif /* ULOCK_H */
