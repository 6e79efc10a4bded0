/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/shm.c - SysV shared memory segments of the simulated
 * process: shmget(), shmat(), shmdt(), shmctl().
 *
 * Stage: user program -> kernel (mm).  Called by the program through
 * workloads/libsim/futexsim.h; calls ksim_shm_add() (sim/arch/mm.c),
 * which makes the segment shmem with an inode of its own, so a shared
 * futex in it has the kernel's inode key, as in Linux.
 *
 * One process: a segment is arena memory (zeroed, page-aligned, the same
 * address in every run), and every shmat() of it returns that one
 * address (a second attach at another address cannot be made within
 * one host address space); shmdt() and IPC_RMID leave the memory
 * mapped until the run ends.  A key other than IPC_PRIVATE names a
 * segment as in Linux (IPC_CREAT, IPC_EXCL); IPC_STAT gives its size.
 */
#include <errno.h>
#include <string.h>
#include <sys/shm.h>

#include "sim/host/arena.h"
#include "sim/machine/hooks.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"

#define SHM_PAGE	4096

int futexsim_shmget(key_t key, size_t size, int flags)
{
	struct wl_prog_shm *s;
	int i;

	if (!wl_prog_self())
		wl_prog_fail("shmget() outside a simulated program");
	for (i = 0; key != IPC_PRIVATE && i < wl_prog.nr_shm; i++) {
		s = &wl_prog.shm[i];
		if (s->key != key || s->removed)
			continue;
		if ((flags & IPC_CREAT) && (flags & IPC_EXCL)) {
			errno = EEXIST;
			return -1;
		}
		if (size > s->size) {
			errno = EINVAL;
			return -1;
		}
		return i;
	}
	if (key != IPC_PRIVATE && !(flags & IPC_CREAT)) {
		errno = ENOENT;
		return -1;
	}
	if (!size || size > (64UL << 20)) {
		errno = EINVAL;
		return -1;
	}
	if (wl_prog.nr_shm >= WL_PROG_MAX_SHM) {
		errno = ENOSPC;
		return -1;
	}
	s = &wl_prog.shm[wl_prog.nr_shm];
	s->size = size;
	s->key = key;
	s->addr = sim_arena_alloc((size + SHM_PAGE - 1) & ~(size_t)(SHM_PAGE - 1),
				  SHM_PAGE);
	if (ksim_shm_add(s->addr, size)) {
		errno = ENOMEM;
		return -1;
	}
	return wl_prog.nr_shm++;
}

void *futexsim_shmat(int id, const void *addr, int flags)
{
	if (!wl_prog_self())
		wl_prog_fail("shmat() outside a simulated program");
	if (id < 0 || id >= wl_prog.nr_shm || wl_prog.shm[id].removed) {
		errno = EINVAL;
		return (void *)-1;
	}
	if (addr && addr != wl_prog.shm[id].addr) {
		errno = EINVAL;	/* one address: where the segment is */
		return (void *)-1;
	}
	return wl_prog.shm[id].addr;
}

int futexsim_shmdt(const void *addr)
{
	for (int i = 0; i < wl_prog.nr_shm; i++)
		if (wl_prog.shm[i].addr == addr)
			return 0;
	errno = EINVAL;
	return -1;
}

int futexsim_shmctl(int id, int cmd, struct shmid_ds *buf)
{
	if (id < 0 || id >= wl_prog.nr_shm) {
		errno = EINVAL;
		return -1;
	}
	switch (cmd) {
	case IPC_RMID:
		wl_prog.shm[id].removed = 1;	/* mapped until the end */
		return 0;
	case IPC_STAT:
		memset(buf, 0, sizeof(*buf));
		buf->shm_segsz = wl_prog.shm[id].size;
		buf->shm_perm.__key = wl_prog.shm[id].key;
		buf->shm_nattch = 1;
		return 0;
	}
	errno = EINVAL;
	return -1;
}
