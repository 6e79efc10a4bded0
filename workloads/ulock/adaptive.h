/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/adaptive.h - the layout of glibc's adaptive mutex
 * (PTHREAD_MUTEX_ADAPTIVE_NP) as workloads/ulock/adaptive.c keeps it in
 * simulated user memory, for the tests that check its moving average.
 *
 * Stage: user-space lock.  The lock itself is driven through
 * ulock_adaptive_ops (workloads/ulock/ulock.h) like every other lock;
 * which of the four loops of docs/studies/adaptive-2018.md it runs, and its spin
 * budget, come from ulock_tunables.
 */
#ifndef ULOCK_ADAPTIVE_H
#define ULOCK_ADAPTIVE_H

#include <stdint.h>

/*
 * struct ulock_adaptive_mutex - the two words of pthread_mutex_t that the
 * adaptive kind uses; both in one cache line, as in glibc.
 * @lock:  __lock, the 3-state word of workloads/ulock/ww.c (0 free, 1 held,
 *         2 held with possible sleepers).
 * @spins: __spins, the moving average of how long acquisitions had to
 *         spin; a signed value (a short in glibc), read and written with
 *         plain accesses by the lock holder only.
 */
struct ulock_adaptive_mutex {
	uint32_t lock;
	uint32_t spins;
};

/* ulock_adaptive_name - "pre2018", "seed2018", "glibc235", "glibc236"
 * for enum ulock_adaptive @v (the values of the adaptive= key). */
const char *ulock_adaptive_name(int v);

/*
 * ulock_adaptive_max_cnt - the spin budget of one contended lock call:
 * MIN(spin_count, spins * 2 + 10), with + 100 for seed2018 (the context
 * lines of Kemi Wang's v1 patch, libc-alpha, March 2018; glibc itself
 * has always had + 10).
 * Return: the budget (never negative).
 */
int ulock_adaptive_max_cnt(int variant, unsigned int spin_count, int spins);

#endif /* ULOCK_ADAPTIVE_H */
