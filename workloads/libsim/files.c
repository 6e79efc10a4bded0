/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/files.c - the files a program creates, kept in
 * simulated memory: open() with O_CREAT, ftruncate(), a MAP_SHARED
 * mmap() of one, close(), unlink() and remove().
 *
 * Stage: user program -> kernel (mm).  Called by the program through
 * workloads/libsim/futexsim.h; calls ksim_shm_add() (sim/arch/mm.c): a
 * file's pages are page-cache pages of an inode of its own, so a shared
 * futex in a mapping of it has the kernel's inode key, as a futex in a
 * MAP_SHARED file mapping has in Linux.
 *
 * Nothing reaches the host's files: a name is only a key into this
 * run's table.  Opening a name the program has not created ends the
 * run with a failure report naming open() (the program would read the
 * host's files otherwise).  A file's memory is arena memory of a fixed
 * capacity, set at its first ftruncate() or mmap() (at least 1 MiB, at
 * most 64 MiB); every mapping of it is that memory, at its one address.
 * read() and write() of a file are not simulated (the layer's write()
 * takes descriptors 1 and 2).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sim/host/arena.h"
#include "sim/machine/hooks.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"

#define FILE_PAGE	4096UL
#define FILE_MIN_CAP	(1UL << 20)
#define FILE_MAX_CAP	(64UL << 20)

static struct wl_prog_file *by_name(const char *path)
{
	for (int i = 0; i < wl_prog.nr_files; i++)
		if (wl_prog.files[i].linked &&
		    !strcmp(wl_prog.files[i].name, path))
			return &wl_prog.files[i];
	return NULL;
}

static struct wl_prog_file *by_fd(int fd)
{
	if (fd < 3 || fd >= WL_PROG_MAX_FDS || !wl_prog.fd_file[fd])
		return NULL;
	return &wl_prog.files[wl_prog.fd_file[fd] - 1];
}

/* The file's memory, @len bytes at least.  Return: 0 or an errno. */
static int file_memory(struct wl_prog_file *f, size_t len)
{
	size_t cap = len < FILE_MIN_CAP ? FILE_MIN_CAP :
		     (len + FILE_PAGE - 1) & ~(FILE_PAGE - 1);

	if (f->data)
		return len <= f->cap ? 0 : EFBIG;
	if (cap > FILE_MAX_CAP)
		return EFBIG;
	f->data = sim_arena_alloc(cap, FILE_PAGE);
	if (ksim_shm_add(f->data, cap))
		return ENOMEM;
	f->cap = cap;
	return 0;
}

int futexsim_open(const char *path, int flags, ...)
{
	struct wl_prog_file *f;
	int fd;

	if (!wl_prog_self())
		wl_prog_fail("open() outside a simulated program");
	f = by_name(path);
	if (!f && !(flags & O_CREAT))
		wl_prog_fail("open(): files are not simulated (stdout and stderr only; a file the program creates with O_CREAT is kept in memory)");
	if (f && (flags & O_CREAT) && (flags & O_EXCL)) {
		errno = EEXIST;
		return -1;
	}
	if (!f) {
		if (wl_prog.nr_files >= WL_PROG_MAX_FILES ||
		    strlen(path) >= sizeof(f->name)) {
			errno = ENFILE;
			return -1;
		}
		f = &wl_prog.files[wl_prog.nr_files++];
		strcpy(f->name, path);
		f->linked = 1;
	}
	if ((flags & O_TRUNC) && f->data) {
		memset(f->data, 0, f->size);
		f->size = 0;
	}
	for (fd = 3; fd < WL_PROG_MAX_FDS && wl_prog.fd_file[fd]; fd++)
		;
	if (fd == WL_PROG_MAX_FDS) {
		errno = EMFILE;
		return -1;
	}
	wl_prog.fd_file[fd] = (int)(f - wl_prog.files) + 1;
	return fd;
}

int futexsim_openat(int dirfd, const char *path, int flags, ...)
{
	if (dirfd != AT_FDCWD && path[0] != '/')
		wl_prog_fail("openat(): files are not simulated (a directory descriptor)");
	return futexsim_open(path, flags);
}

int futexsim_creat(const char *path, mode_t mode)
{
	return futexsim_open(path, O_CREAT | O_WRONLY | O_TRUNC);
}

int futexsim_close(int fd)
{
	if (fd >= 0 && fd <= 2)
		return 0;	/* the layer's streams stay */
	if (!by_fd(fd)) {
		errno = EBADF;
		return -1;
	}
	wl_prog.fd_file[fd] = 0;
	return 0;
}

int futexsim_ftruncate(int fd, off_t len)
{
	struct wl_prog_file *f = by_fd(fd);
	int err;

	if (!f || len < 0) {
		errno = f ? EINVAL : EBADF;
		return -1;
	}
	err = file_memory(f, (size_t)len);
	if (err) {
		errno = err;
		return -1;
	}
	if ((size_t)len < f->size)	/* what is cut off reads 0 again */
		memset((char *)f->data + len, 0, f->size - (size_t)len);
	f->size = (size_t)len;
	return 0;
}

void *wl_prog_file_map(size_t len, int fd, off_t off)
{
	struct wl_prog_file *f = by_fd(fd);
	int err;

	if (!f)
		return NULL;	/* not the program's file */
	if (off < 0 || (off & (FILE_PAGE - 1)) || !len) {
		errno = EINVAL;
		return MAP_FAILED;
	}
	err = file_memory(f, (size_t)off + len);
	if (err) {
		errno = err == EFBIG ? ENOMEM : err;
		return MAP_FAILED;
	}
	return (char *)f->data + off;
}

int wl_prog_file_mapped(const void *addr)
{
	for (int i = 0; i < wl_prog.nr_files; i++) {
		const struct wl_prog_file *f = &wl_prog.files[i];

		if (f->data && (const char *)addr >= (const char *)f->data &&
		    (const char *)addr < (const char *)f->data + f->cap)
			return 1;
	}
	return 0;
}

int futexsim_unlink(const char *path)
{
	struct wl_prog_file *f = by_name(path);

	if (!f) {
		errno = ENOENT;
		return -1;
	}
	f->linked = 0;	/* its descriptors and mappings stay */
	return 0;
}

int futexsim_remove(const char *path)
{
	return futexsim_unlink(path);
}
