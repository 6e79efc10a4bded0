/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/rwlock.c - the reader-writer lock benchmark of the 2017 glibc
 * TP RFC (runs 2 and 3, docs/studies/glibc-2017.md): threads take one rwlock
 * for reading or for writing, run the critical section, release it, run
 * the work between operations, and repeat.
 *
 * Stage: workload, first in the flow.  Called by the CLI (one process per
 * lock) with a lock that has a read side (->rw, workloads/ulock/rwlock.h);
 * calls the lock's ops tables and the machine, and workloads/driver.c for
 * what every driver shares.
 *
 * Two ways to make the threads (sim/scenario/scenario.h):
 *   readers=N writers=M   N threads that only read and M that only write
 *                         (interleaved: reader, writer, reader, ... while
 *                         both kinds are left, so each kind gets CPUs on
 *                         every socket); the report gives ops per group.
 *   threads=N read-ratio=R  every thread mixes: of its operations, R% are
 *                         reads, spread evenly (operation k of worker i
 *                         reads when floor((k+i+1)R/100) > floor((k+i)R/100)),
 *                         so R = 50 alternates write, read, write, ...
 * In both, "readers" in the results counts read-lock operations and
 * "writers" write-lock ones.  read-depth=D makes every read take the
 * read lock D times, nested (a recursive reader): D = 2 deadlocks
 * rw-prefer-writer-nr, which glibc documents as forbidden.
 *
 * The driver checks the lock's contract itself, as workloads/mutex.c
 * does: a writer inside with anyone else, or a reader inside with a
 * writer, is a simulated failure (report, exit 3).  It records how many
 * readers were inside at once, which shows that readers do share.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/host/arena.h"
#include "sim/report/failure.h"
#include "sim/explore/oracle.h"
#include "sim/trace/trace.h"
#include "workloads/driver.h"
#include "workloads/ulock/rwlock.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/workload.h"

enum rw_role { ROLE_READER, ROLE_WRITER, ROLE_MIXED };

static struct {
	struct wl_run run;
	const struct ulock_ops *lock;
	void *word;			/* the lock, in simulated memory  */
	uint32_t *data;			/* the protected data (own line)  */
	enum rw_role *role;		/* of each worker		  */
	uint64_t *reads;		/* read operations of each worker */
	int readers_in, writer_in;	/* inside the section now	  */
	int readers_max;		/* most readers inside at once	  */
} rw;

static void rw_fail(const char *what)
{
	sim_fail(SIM_FAIL_INVARIANT, what);
}

static void enter(const struct wl_worker *w, int read)
{
	if (rw.writer_in)
		rw_fail(read ? "mutual exclusion violated: a reader entered while a writer held the rwlock" :
			       "mutual exclusion violated: two writers in the critical section");
	if (!read && rw.readers_in)
		rw_fail("mutual exclusion violated: a writer entered while readers held the rwlock");
	if (read && ++rw.readers_in > rw.readers_max)
		rw.readers_max = rw.readers_in;
	rw.writer_in = !read;
	sim_oracle_acquired(w->idx);
}

static void leave(int read)
{
	if (read ? rw.readers_in <= 0 || rw.writer_in : !rw.writer_in || rw.readers_in)
		rw_fail("mutual exclusion violated: the rwlock's holders changed inside the section");
	if (read)
		rw.readers_in--;
	else
		rw.writer_in = 0;
}

/* Operation @k of worker @i: a read? */
static int is_read(int i, uint64_t k)
{
	uint64_t r = rw.run.s->read_ratio, n = k + (uint64_t)i;

	switch (rw.role[i]) {
	case ROLE_READER:
		return 1;
	case ROLE_WRITER:
		return 0;
	default:
		return (n + 1) * r / 100 > n * r / 100;
	}
}

static void read_op(struct wl_worker *w)
{
	const struct ulock_rw_ops *ops = rw.lock->rw;
	unsigned int depth = rw.run.s->read_depth, d;
	uint64_t t0 = sim_now_ps();

	for (d = 0; d < depth; d++)
		ops->rdlock(rw.word, &w->st);
	wl_note_acquire(&rw.run, t0);
	enter(w, 1);
	wl_data_read(&rw.run, rw.data);		/* read the protected line */
	wl_do_work(&rw.run.s->cs);
	leave(1);
	for (d = 0; d < depth; d++)
		ops->rdunlock(rw.word, &w->st);
	rw.reads[w->idx]++;
}

static void write_op(struct wl_worker *w)
{
	uint64_t t0 = sim_now_ps();

	rw.lock->lock(rw.word, &w->st);
	wl_note_acquire(&rw.run, t0);
	enter(w, 0);
	wl_data_write(&rw.run, rw.data);	/* write the protected line */
	wl_do_work(&rw.run.s->cs);
	leave(0);
	rw.lock->unlock(rw.word, &w->st);
}

static void worker(void *arg)
{
	struct wl_worker *w = arg;

	w->start_ps = sim_now_ps();
	while (wl_keep_going(&rw.run, w)) {
		if (is_read(w->idx, w->ops))
			read_op(w);
		else
			write_op(w);
		w->ops++;
		sim_progress();
		wl_do_work(&rw.run.s->between);
	}
	w->end_ps = sim_now_ps();
}

/*
 * Roles, task i on CPU i: roles=alternate deals reader, writer, reader ...
 * while both are left; roles=split makes tasks 0..readers-1 the readers
 * (perf bench futex rwlock -x: thread ids below the reader count read,
 * each thread bound to CPU id % ncpus).
 */
static void assign_roles(const struct sim_scenario *s)
{
	int n = rw.run.n, readers = s->readers, writers = s->writers;
	int split = s->roles == SIM_ROLES_SPLIT;

	for (int i = 0; i < n; i++) {
		if (!s->readers_at.file && !s->writers_at.file)
			rw.role[i] = ROLE_MIXED;
		else if (readers && (split || !writers || i % 2 == 0))
			readers--, rw.role[i] = ROLE_READER;
		else
			writers--, rw.role[i] = ROLE_WRITER;
	}
}

static void collect_groups(struct sim_result *r)
{
	r->groups_counted = 1;
	for (int i = 0; i < rw.run.n; i++) {
		r->ops_readers += rw.reads[i];
		r->ops_writers += rw.run.w[i].ops - rw.reads[i];
	}
	r->readers_max = (uint64_t)rw.readers_max;
}

static void rwlock_run(const struct sim_scenario *s, const struct ulock_ops *lock,
		       struct sim_result *r)
{
	uint64_t start_ps, end_ps;

	if (!lock->rw)
		rw_fail("workload rwlock was given a lock without a read side");
	memset(&rw, 0, sizeof(rw));
	rw.lock = lock;
	rw.word = sim_arena_alloc(lock->size, 64);
	rw.data = sim_arena_alloc(sizeof(uint32_t), 64);
	lock->init(rw.word);
	sim_trace_lock_words(rw.word, lock->words);	/* an HTML page */
	wl_name_data(lock->name, rw.word, lock->size, rw.data);
	wl_run_begin(&rw.run, s);
	rw.role = calloc(rw.run.n, sizeof(*rw.role));
	rw.reads = calloc(rw.run.n, sizeof(*rw.reads));
	if (!rw.role || !rw.reads) {
		fprintf(stderr, "futexsim: out of memory for %d workers\n", rw.run.n);
		exit(2);
	}
	assign_roles(s);
	wl_run_tasks(&rw.run, "rw", worker, NULL);

	memset(r, 0, sizeof(*r));
	wl_run_sim(r);
	snprintf(r->lock, sizeof(r->lock), "%s", lock->name);
	wl_collect(&rw.run, r, &start_ps, &end_ps);
	collect_groups(r);
	r->elapsed_ns = end_ps / 1000;
	wl_run_end(&rw.run);
	free(rw.role);
	free(rw.reads);
}

const struct wl_workload wl_rwlock = {
	.name		= "rwlock",
	.description	= "readers and writers on one rwlock: readers=N writers=M, or threads=N read-ratio=R",
	.run		= rwlock_run,
	.rwlocks	= true,
};
