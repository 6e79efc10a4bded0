/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/report/detail.c - the figures behind a run's plot (see
 * sim/report/detail.h), kept in the child and sent to the parent.
 *
 * Stage: trace/report.  Called by the workload drivers and sim/cli/cli.c;
 * calls sim/host/fdio.h.
 *
 * The record on the pipe: a header (a magic number, the thread count,
 * whether a histogram follows), the thread counts, then the histogram's
 * struct whole.  Both ends are this binary, so the layout is the host's.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/host/fdio.h"
#include "sim/machine/machine.h"
#include "sim/report/detail.h"

#define DETAIL_MAGIC	0x706c6f74u	/* "plot" */

struct detail_head {
	uint32_t magic;
	int32_t nr_threads;
	int32_t has_hist;
	int32_t pad;
};

static int wanted;
static struct sim_detail kept;

void sim_detail_want(int on)
{
	wanted = on;
}

void sim_detail_free(struct sim_detail *d)
{
	free(d->ops);
	free(d->acquire_ns);
	memset(d, 0, sizeof(*d));
}

void sim_detail_keep(const uint64_t *ops, int n, const struct sim_hist *all)
{
	if (!wanted)
		return;
	sim_detail_free(&kept);
	kept.ops = calloc(n > 0 ? (size_t)n : 1, sizeof(*ops));
	kept.acquire_ns = malloc(sizeof(*all));
	if (!kept.ops || !kept.acquire_ns) {
		sim_detail_free(&kept);
		return;
	}
	if (n > 0)
		memcpy(kept.ops, ops, (size_t)n * sizeof(*ops));
	memcpy(kept.acquire_ns, all, sizeof(*all));
	kept.nr_threads = n;
}

const struct sim_detail *sim_detail_kept(void)
{
	return &kept;
}

int sim_detail_send(int fd)
{
	struct detail_head h = { .magic = DETAIL_MAGIC,
				 .nr_threads = kept.nr_threads,
				 .has_hist = kept.acquire_ns != NULL };

	if (sim_write_full(fd, &h, sizeof(h)))
		return -1;
	if (h.nr_threads &&
	    sim_write_full(fd, kept.ops, (size_t)h.nr_threads * sizeof(*kept.ops)))
		return -1;
	if (h.has_hist &&
	    sim_write_full(fd, kept.acquire_ns, sizeof(*kept.acquire_ns)))
		return -1;
	return 0;
}

int sim_detail_recv(int fd, struct sim_detail *d)
{
	struct detail_head h;
	size_t ops_size;

	memset(d, 0, sizeof(*d));
	if (sim_read_full(fd, &h, sizeof(h)) != sizeof(h) ||
	    h.magic != DETAIL_MAGIC || h.nr_threads < 0 ||
	    h.nr_threads > 16 * SIM_MAX_TASKS)
		return -1;
	ops_size = (size_t)h.nr_threads * sizeof(*d->ops);
	d->ops = calloc(h.nr_threads ? (size_t)h.nr_threads : 1, sizeof(*d->ops));
	d->acquire_ns = h.has_hist ? malloc(sizeof(*d->acquire_ns)) : NULL;
	if (!d->ops || (h.has_hist && !d->acquire_ns) ||
	    (ops_size && sim_read_full(fd, d->ops, ops_size) != ops_size) ||
	    (h.has_hist && sim_read_full(fd, d->acquire_ns,
					 sizeof(*d->acquire_ns)) !=
			   sizeof(*d->acquire_ns))) {
		sim_detail_free(d);
		return -1;
	}
	d->nr_threads = h.nr_threads;
	return 0;
}
