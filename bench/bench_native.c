/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bench/bench_native.c - native_ops_per_s: the mutex run of
 * bench_mutex() done for real on this host, so that the simulator's speed
 * has a reference measured on the same machine at the same moment.
 *
 * Stage: a host tool beside the data flow (`make bench`).  Called by
 * main() in bench/bench.c; calls pthreads and futex(2) of the host, in a
 * forked child so that no host thread ever shares the bench's process
 * with a simulation; reads the host clock (host_now(), bench/bench.h).
 *
 * The work is that of `futexsim run --machine=tiny4 --threads=8
 * --lock=ww --ops=200000` (cs = pause:5, between = pause:1, the
 * scenario defaults): 8 threads take 200,000 operations from one shared
 * count, each an acquisition of one 3-state futex mutex (0 free, 1
 * locked, 2 locked with waiters: the lock of glibc's lll_lock, and of
 * Drepper's "Futexes Are Tricky", mutex 2), 5 PAUSEs inside, 1 PAUSE
 * after.  The time runs from the moment every thread has started to the
 * last one's end.  Best of NATIVE_ROUNDS.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"

#define NATIVE_THREADS	8
#define NATIVE_OPS	200000
#define NATIVE_ROUNDS	3

static struct {
	uint32_t word;			/* the mutex			*/
	int64_t left;			/* operations not yet taken	*/
	int started;
	uint32_t go;			/* the start line		*/
} nat;

static void cpu_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

static long futex(uint32_t *w, int op, uint32_t val)
{
	return syscall(SYS_futex, w, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

static void nat_lock(void)
{
	uint32_t c = 0;

	if (__atomic_compare_exchange_n(&nat.word, &c, 1, 0, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	if (c != 2)
		c = __atomic_exchange_n(&nat.word, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		futex(&nat.word, FUTEX_WAIT, 2);
		c = __atomic_exchange_n(&nat.word, 2, __ATOMIC_ACQUIRE);
	}
}

static void nat_unlock(void)
{
	if (__atomic_exchange_n(&nat.word, 0, __ATOMIC_RELEASE) == 2)
		futex(&nat.word, FUTEX_WAKE, 1);
}

static void *nat_thread(void *arg)
{
	__atomic_add_fetch(&nat.started, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&nat.go, __ATOMIC_ACQUIRE))
		cpu_pause();
	while (__atomic_sub_fetch(&nat.left, 1, __ATOMIC_RELAXED) >= 0) {
		nat_lock();
		for (int i = 0; i < 5; i++)
			cpu_pause();
		nat_unlock();
		cpu_pause();
	}
	return NULL;
}

/* One round in this process: operations per host second, or -1. */
static double nat_round(void)
{
	pthread_t th[NATIVE_THREADS];
	double t0;
	int i;

	memset(&nat, 0, sizeof(nat));
	nat.left = NATIVE_OPS;
	for (i = 0; i < NATIVE_THREADS; i++)
		if (pthread_create(&th[i], NULL, nat_thread, NULL))
			return -1;
	while (__atomic_load_n(&nat.started, __ATOMIC_ACQUIRE) < NATIVE_THREADS)
		usleep(100);
	t0 = host_now();
	__atomic_store_n(&nat.go, 1, __ATOMIC_RELEASE);
	for (i = 0; i < NATIVE_THREADS; i++)
		pthread_join(th[i], NULL);
	return NATIVE_OPS / (host_now() - t0);
}

double bench_native(void)
{
	double best = -1, v;
	int fds[2], st;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(fds[0]);
		for (int r = 0; r < NATIVE_ROUNDS; r++) {
			v = nat_round();
			if (v > best)
				best = v;
		}
		if (write(fds[1], &best, sizeof(best)) != sizeof(best))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], &best, sizeof(best)) != sizeof(best))
		best = -1;
	close(fds[0]);
	if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
		best = -1;
	return best;
}
