/*
 * tests/programs/futex2.c - the futex2 system calls of Linux 6.7
 * (futex_wait(2), futex_wake(2), futex_requeue(2)) from a program.
 *
 * Stage: test program (built with `futexsim build` by tests/test_series.c).
 * A waiter sleeps with futex_wait on `word`; main requeues it to `word2`
 * with futex_requeue, then wakes it there with futex_wake.  Prints one
 * line per call with its result and errno (the first through asprintf()), so the test can tell a 6.12
 * kernel (every call works) from a 6.1 one (ENOSYS, the calls do not
 * exist there).
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NR_futex_wake		454
#define NR_futex_wait		455
#define NR_futex_requeue	456
#define F2_U32_PRIVATE		(0x02 | 128)	/* FUTEX2_SIZE_U32 | FUTEX2_PRIVATE */

static uint32_t word, word2;
static volatile int waiting;

static void *waiter(void *arg)
{
	long r;

	waiting = 1;
	r = syscall(NR_futex_wait, &word, 0UL, 0xffffffffUL, F2_U32_PRIVATE, NULL, 0);
	printf("futex_wait: %ld %s\n", r, r ? strerror(errno) : "");
	return NULL;
}

int main(void)
{
	struct futex_waitv w[2];
	pthread_t t;
	char *line;
	long r;
	int e;

	r = syscall(NR_futex_wait, &word, 1UL, 0xffffffffUL, F2_U32_PRIVATE, NULL, 0);
	e = errno;
	/* asprintf() (the arena's, in a simulated program) as the 6.12
	 * selftests use it */
	if (asprintf(&line, "futex_wait on a changed word: %ld %s", r,
		     strerror(e)) < 0)
		return 1;
	puts(line);
	free(line);
	if (e == ENOSYS)
		return 0;
	pthread_create(&t, NULL, waiter, NULL);
	while (!waiting)
		sched_yield();
	usleep(100);	/* the waiter is asleep in the kernel by now */
	memset(w, 0, sizeof(w));
	w[0].uaddr = (uintptr_t)&word;
	w[0].flags = F2_U32_PRIVATE;
	w[1].uaddr = (uintptr_t)&word2;
	w[1].flags = F2_U32_PRIVATE;
	r = syscall(NR_futex_requeue, w, 0U, 0, 1);
	printf("futex_requeue: %ld\n", r);
	r = syscall(NR_futex_wake, &word, 0xffffffffUL, 1, F2_U32_PRIVATE);
	printf("futex_wake on the old word: %ld\n", r);
	r = syscall(NR_futex_wake, &word2, 0xffffffffUL, 1, F2_U32_PRIVATE);
	printf("futex_wake on the new word: %ld\n", r);
	pthread_join(t, NULL);
	return 0;
}
