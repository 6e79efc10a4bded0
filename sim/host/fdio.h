/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/host/fdio.h - whole reads and writes on a pipe between a process
 * and the child that runs a simulation for it.
 *
 * Stage: host, under the flow.  Called by the CLI's per-lock children
 * (sim/cli/cli.c), a program's fresh-world runs (sim/explore/explore_fork.c)
 * and its pre-pass (sim/program/prepass.c); calls read(2) and write(2),
 * retried on EINTR and on short transfers.
 */
#ifndef SIM_HOST_FDIO_H
#define SIM_HOST_FDIO_H

#include <stddef.h>

/* sim_write_full - all @n bytes of @p to @fd.  Return: 0, or -1 (errno)
 * if a write failed or wrote nothing. */
int sim_write_full(int fd, const void *p, size_t n);
/* sim_read_full - up to @n bytes from @fd into @p, until end of file.
 * Return: the bytes read (fewer than @n at end of file or on an error). */
size_t sim_read_full(int fd, void *p, size_t n);

#endif /* SIM_HOST_FDIO_H */
