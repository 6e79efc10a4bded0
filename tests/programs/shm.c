/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/shm.c - SysV shared memory and the shared futexes in it,
 * for tests/test_nptl.c: a segment is zeroed, page-aligned memory; a
 * shared FUTEX_WAIT in it is woken by a shared FUTEX_WAKE (the kernel's
 * inode key) and not by a private one (another key); keys, IPC_CREAT,
 * IPC_EXCL and IPC_STAT behave as in Linux; a file the program creates
 * (open() with O_CREAT, ftruncate()) mapped MAP_SHARED twice is one
 * memory, and a shared futex in it is woken as in a file mapping.
 *
 * Prints "ok NAME" or "FAIL NAME: ..." per check (check_value.h); the
 * argument "control" makes every check expect a wrong value.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "check_value.h"

static uint32_t *word;
static long wait_ret;

static void *waits(void *arg)
{
	wait_ret = syscall(SYS_futex, word, FUTEX_WAIT, 0, NULL, NULL, 0);
	return NULL;
}

static void sleep_us(long us)
{
	struct timespec ts = { 0, us * 1000 };

	nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	struct shmid_ds ds;
	pthread_t t;
	int id, named;

	control = argc > 1 && !strcmp(argv[1], "control");

	id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0666);
	check("shmget-private", id >= 0, 1);
	word = shmat(id, NULL, 0);
	check("shmat-page-aligned", ((uintptr_t)word & 4095) == 0, 1);
	check("shm-zeroed", word[0] | word[1023], 0);

	pthread_create(&t, NULL, waits, NULL);
	sleep_us(20);
	check("private-wake-misses-shared-waiter",
	      syscall(SYS_futex, word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0), 0);
	check("shared-wake-wakes",
	      syscall(SYS_futex, word, FUTEX_WAKE, 1, NULL, NULL, 0), 1);
	pthread_join(t, NULL);
	check("shared-wait-returns-0", wait_ret, 0);

	named = shmget(1234, 8192, IPC_CREAT | 0600);
	check("shmget-named", named >= 0 && named != id, 1);
	check("shmget-named-again", shmget(1234, 4096, 0), named);
	check("shmget-excl-eexist",
	      shmget(1234, 4096, IPC_CREAT | IPC_EXCL) == -1 && errno == EEXIST, 1);
	check("shmget-missing-enoent",
	      shmget(4321, 4096, 0) == -1 && errno == ENOENT, 1);
	check("shmctl-stat-size", shmctl(named, IPC_STAT, &ds) == 0 ?
	      (long)ds.shm_segsz : -1, 8192);
	check("shmdt", shmdt(word), 0);
	check("shmctl-rmid", shmctl(id, IPC_RMID, NULL), 0);

	int fd = open("futex_file", O_RDWR | O_CREAT, 0600);
	uint32_t *p, *q;

	check("file-open-creat", fd >= 3, 1);
	check("file-ftruncate", ftruncate(fd, 4096), 0);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	q = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	check("file-mmap-shared", p != MAP_FAILED && q != MAP_FAILED, 1);
	p[5] = 77;
	check("file-two-maps-one-memory", q[5], 77);
	word = p;
	pthread_create(&t, NULL, waits, NULL);
	sleep_us(20);
	check("file-shared-wake-wakes",
	      syscall(SYS_futex, p, FUTEX_WAKE, 1, NULL, NULL, 0), 1);
	pthread_join(t, NULL);
	check("file-open-existing", open("futex_file", O_RDWR) >= 3, 1);
	check("file-open-excl-eexist", open("futex_file", O_RDWR | O_CREAT |
	      O_EXCL, 0600) == -1 && errno == EEXIST, 1);
	check("file-munmap", munmap(p, 4096), 0);
	check("file-unlink", unlink("futex_file"), 0);
	check("file-remove-enoent", remove("futex_file") == -1 && errno == ENOENT, 1);
	check("file-close", close(fd), 0);
	check("file-close-ebadf", close(fd) == -1 && errno == EBADF, 1);
	return failures ? 1 : 0;
}
