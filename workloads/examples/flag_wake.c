/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/examples/flag_wake.c - the futex(2) handshake every lock and
 * condition variable is made of: a waiter sleeps in FUTEX_WAIT while a
 * flag is 0; a waker stores 1 and calls FUTEX_WAKE.  Correct on every
 * machine because the kernel orders the waker's store before its look
 * at the bucket's waiters, and the waiter's count before its read of the
 * word (barriers (B) and (A) of kernel/futex/waitwake.c's opening
 * comment; docs/programs.md, "Memory models").  A kernel without (B)
 * loses the wakeup on arm64:
 *
 *   sh tests/kpatch/waiters-pending-no-mb.sh build/linux > nomb.patch
 *   make KPATCH=nomb.patch
 *   build-patch-nomb/futexsim build --instrument workloads/examples/flag_wake.c -o fw
 *   ./fw explore --memory=arm64 --strategy=random --runs=2000
 *
 * Stage: user program (workload).
 *
 * Usage: flag_wake [ROUNDS].  ROUNDS handshakes (default 2), each on a
 * flag of its own.  The waker's store is a release store (STLR on
 * arm64), as glibc's are: it orders what came before, not the loads
 * after it.
 */
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

#define ROUNDS_MAX	16

static unsigned int flag[ROUNDS_MAX];
static int rounds = 2;

static void *waiter(void *arg)
{
	(void)arg;
	for (int i = 0; i < rounds; i++)
		while (!__atomic_load_n(&flag[i], __ATOMIC_ACQUIRE))
			syscall(SYS_futex, &flag[i], FUTEX_WAIT_PRIVATE, 0,
				NULL, NULL, 0);
	return NULL;
}

static void *waker(void *arg)
{
	(void)arg;
	for (int i = 0; i < rounds; i++) {
		__atomic_store_n(&flag[i], 1, __ATOMIC_RELEASE);
		syscall(SYS_futex, &flag[i], FUTEX_WAKE_PRIVATE, 1, NULL,
			NULL, 0);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t w, k;

	if (argc > 1)
		rounds = atoi(argv[1]);
	if (rounds < 1 || rounds > ROUNDS_MAX) {
		fprintf(stderr, "usage: flag_wake [ROUNDS], ROUNDS 1 to %d\n",
			ROUNDS_MAX);
		return 2;
	}
	pthread_create(&w, NULL, waiter, NULL);
	pthread_create(&k, NULL, waker, NULL);
	pthread_join(w, NULL);
	pthread_join(k, NULL);
	printf("%d handshakes\n", rounds);
	return 0;
}
