/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/examples/spinlock_release.c - a test-and-set spinlock whose
 * unlock forgets the release order, or whose lock forgets the acquire
 * order: correct under sequential consistency and x86-TSO (stores leave
 * in order, loads are not satisfied early), broken on arm64, where the
 * store that frees the lock may become visible before the critical
 * section's own stores, or the critical section's load may read what the
 * previous owner's stores overwrote (docs/programs.md, "Memory models").
 *
 *   futexsim build --instrument workloads/examples/spinlock_release.c -o spin
 *   ./spin explore --memory=arm64 --args=relaxed --strategy=random
 *
 * Stage: user program (workload).
 *
 * Usage: spinlock_release relaxed|release|relaxed-lock [ROUNDS].  Two
 * threads each take the lock ROUNDS times (default 3; an acquiring
 * compare-and-swap, a relaxed one with "relaxed-lock": the second bug),
 * add 1 to a plain count inside and free it with a relaxed store
 * ("relaxed", the first bug: STR on arm64) or a release store ("release",
 * "relaxed-lock": STLR).  main checks the count: "lost update" aborts.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int lock_word;
static volatile int count;
static int order = __ATOMIC_RELEASE, lock_order = __ATOMIC_ACQUIRE;
static int rounds = 3;

static void spin_lock(void)
{
	int free_ = 0;

	while (!__atomic_compare_exchange_n(&lock_word, &free_, 1, 0,
					    lock_order, __ATOMIC_RELAXED)) {
		free_ = 0;
		while (__atomic_load_n(&lock_word, __ATOMIC_RELAXED))
			;
	}
}

static void spin_unlock(void)
{
	__atomic_store_n(&lock_word, 0, order);
}

static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < rounds; i++) {
		spin_lock();
		count = count + 1;
		spin_unlock();
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t th[2];

	if (argc < 2 || (strcmp(argv[1], "relaxed") && strcmp(argv[1], "release") &&
			 strcmp(argv[1], "relaxed-lock"))) {
		fprintf(stderr, "usage: spinlock_release relaxed|release|relaxed-lock [ROUNDS]\n");
		return 2;
	}
	if (!strcmp(argv[1], "relaxed"))
		order = __ATOMIC_RELAXED;
	if (!strcmp(argv[1], "relaxed-lock"))
		lock_order = __ATOMIC_RELAXED;
	if (argc > 2)
		rounds = atoi(argv[2]);
	for (int i = 0; i < 2; i++)
		pthread_create(&th[i], NULL, worker, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(th[i], NULL);
	if (count != 2 * rounds) {
		fprintf(stderr, "lost update: count %d, expected %d\n", count,
			2 * rounds);
		abort();
	}
	printf("count %d\n", count);
	return 0;
}
