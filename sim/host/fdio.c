/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/host/fdio.c - whole reads and writes on a pipe (see sim/host/fdio.h).
 *
 * Stage: host.  Called by the CLI, explore and program stages to move a
 * child's results to its parent; calls read(2) and write(2) only.
 */
#include <errno.h>
#include <unistd.h>

#include "sim/host/fdio.h"

int sim_write_full(int fd, const void *p, size_t n)
{
	const char *c = p;

	while (n) {
		ssize_t w = write(fd, c, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

size_t sim_read_full(int fd, void *p, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)p + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	return got;
}
