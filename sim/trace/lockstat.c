/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/trace/lockstat.c - --lock-stat: per-lock contention and hold times of one
 * lock's run, printed in /proc/lock_stat's layout.
 *
 * Stage: trace/report, beside the flow.  Called by sim/trace/trace.c (every
 * qspinlock record as it is emitted), by the mutex workload (its user
 * lock's acquisitions and releases), by the shim's
 * alloc_large_system_hash() (the futex hash table's place) and by the
 * CLI's child (start, stop, write).  Calls libc only.
 *
 * Locks are kept in an open-addressing table keyed by arena address (the
 * same in every run, so the table and its order are deterministic).  A
 * qspinlock has one owner CPU at a time, so its acquisition time and a
 * CPU's slow-path entry are plain per-lock and per-CPU fields.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sim/report/symbols.h"
#include "sim/trace/lockstat.h"
#include "sim/machine/machine.h"

#define NR_SLOTS	(2 * SIM_LOCKSTAT_LOCKS)	/* power of two	*/
#define MAX_CPUS	1024

struct ls_lock {
	uint64_t addr;			/* 0: free slot			*/
	uint64_t con_bounces, contentions, acq_bounces, acquisitions;
	uint64_t wait_min, wait_max, wait_total;	/* ps		*/
	uint64_t hold_min, hold_max, hold_total;	/* ps		*/
	uint64_t acquired_ps;		/* the current holder's		*/
	int last_cpu;			/* of the last acquisition, -1	*/
	int held;
	int user;			/* the user lock word		*/
};

static struct {
	struct ls_lock slot[NR_SLOTS];
	struct ls_lock other;		/* locks beyond the table	*/
	unsigned int nr;
	uint64_t slow_ps[MAX_CPUS];	/* slow path entered at		*/
	uint64_t slow_addr[MAX_CPUS];	/* ... on this lock (0: none)	*/
	char user_name[32];
	uint64_t user_addr;		/* the user lock word; 0: none	*/
	/* the hash table of alloc_large_system_hash() */
	uint64_t hash_base;
	unsigned long hash_size, hash_nr;
} ls;

int sim_lockstat_on;

/* Set at machine boot, before any run starts collecting. */
void sim_lockstat_hash_table(const char *name, const void *base,
			     unsigned long bucketsize, unsigned long nr)
{
	if (strcmp(name, "futex") != 0)
		return;
	ls.hash_base = (uint64_t)(uintptr_t)base;
	ls.hash_size = bucketsize;
	ls.hash_nr = nr;
}

void sim_lockstat_start(void)
{
	uint64_t base = ls.hash_base;
	unsigned long size = ls.hash_size, nr = ls.hash_nr;

	memset(&ls, 0, sizeof(ls));
	ls.hash_base = base;
	ls.hash_size = size;
	ls.hash_nr = nr;
	ls.other.last_cpu = -1;
	ls.other.wait_min = ls.other.hold_min = UINT64_MAX;
	sim_lockstat_on = 1;
}

void sim_lockstat_stop(void)
{
	sim_lockstat_on = 0;
}

static long bucket_of(uint64_t addr)
{
	if (!ls.hash_nr || addr < ls.hash_base ||
	    addr >= ls.hash_base + (uint64_t)ls.hash_size * ls.hash_nr)
		return -1;
	return (long)((addr - ls.hash_base) / ls.hash_size);
}

long sim_lockstat_bucket_offset(uint64_t addr)
{
	return bucket_of(addr) < 0 ? -1 :
	       (long)((addr - ls.hash_base) % ls.hash_size);
}

const char *sim_lockstat_name(uint64_t addr, char *buf, size_t len)
{
	long b = bucket_of(addr);

	if (b >= 0)
		snprintf(buf, len, "futex_hash_bucket[%ld].lock", b);
	else if (addr && addr == ls.user_addr)
		snprintf(buf, len, "%s (user lock)", ls.user_name);
	else if (sim_sym_known(addr))
		sim_sym_name(addr, buf, len);
	else
		snprintf(buf, len, "lock@0x%" PRIx64, addr);
	return buf;
}

static struct ls_lock *find(uint64_t addr)
{
	unsigned int i = (unsigned int)((addr >> 2) * 0x9e3779b1u) & (NR_SLOTS - 1);

	while (ls.slot[i].addr && ls.slot[i].addr != addr)
		i = (i + 1) & (NR_SLOTS - 1);
	if (ls.slot[i].addr)
		return &ls.slot[i];
	if (ls.nr == SIM_LOCKSTAT_LOCKS)
		return &ls.other;
	ls.nr++;
	ls.slot[i].addr = addr;
	ls.slot[i].last_cpu = -1;
	ls.slot[i].wait_min = ls.slot[i].hold_min = UINT64_MAX;
	return &ls.slot[i];
}

static void minmax(uint64_t v, uint64_t *min, uint64_t *max, uint64_t *total)
{
	if (v < *min)
		*min = v;
	if (v > *max)
		*max = v;
	*total += v;
}

/* @l acquired on @cpu at @now, having waited @wait_ps if @contended. */
static void acquired(struct ls_lock *l, int cpu, uint64_t now, int contended,
		     uint64_t wait_ps)
{
	int bounce = l->last_cpu >= 0 && l->last_cpu != cpu;

	l->acquisitions++;
	l->acq_bounces += bounce;
	if (contended) {
		l->contentions++;
		l->con_bounces += bounce;
		minmax(wait_ps, &l->wait_min, &l->wait_max, &l->wait_total);
	}
	l->last_cpu = cpu;
	l->acquired_ps = now;
	l->held = 1;
}

static void released(struct ls_lock *l, uint64_t now)
{
	if (!l->held)
		return;
	l->held = 0;
	minmax(now - l->acquired_ps, &l->hold_min, &l->hold_max,
	       &l->hold_total);
}

void sim__lockstat_rec(const struct sim_trace_rec *r)
{
	int cpu = r->cpu < MAX_CPUS ? r->cpu : MAX_CPUS - 1;
	struct ls_lock *l;
	int slow;

	if (r->type != SIM_TEV_QSPINLOCK || !r->addr)
		return;
	l = find(r->addr);
	switch (r->op) {
	case SIM_QS_SLOWPATH:
		ls.slow_ps[cpu] = r->ts_ps;
		ls.slow_addr[cpu] = r->addr;
		break;
	case SIM_QS_LOCK:
		slow = ls.slow_addr[cpu] == r->addr;
		acquired(l, cpu, r->ts_ps, slow,
			 slow ? r->ts_ps - ls.slow_ps[cpu] : 0);
		ls.slow_addr[cpu] = 0;
		break;
	case SIM_QS_TRYLOCK:
		acquired(l, cpu, r->ts_ps, 0, 0);
		break;
	case SIM_QS_UNLOCK:
		released(l, r->ts_ps);
		break;
	}
}

void sim_lockstat_user_acquired(const void *word, const char *name,
				uint64_t call_ps, int contended)
{
	struct ls_lock *l;
	uint64_t now = sim_now_ps();

	if (!sim_lockstat_on)
		return;
	snprintf(ls.user_name, sizeof(ls.user_name), "%s", name);
	ls.user_addr = (uint64_t)(uintptr_t)word;
	l = find(ls.user_addr);
	l->user = 1;
	acquired(l, sim_this_cpu ? sim_this_cpu->cpu : 0, now, contended,
		 now - call_ps);
}

void sim_lockstat_word_acquired(const void *word, uint64_t call_ps,
				int contended)
{
	struct ls_lock *l;
	uint64_t now = sim_now_ps();

	if (!sim_lockstat_on)
		return;
	l = find((uint64_t)(uintptr_t)word);
	l->user = 1;		/* listed, as the user lock is */
	acquired(l, sim_this_cpu ? sim_this_cpu->cpu : 0, now, contended,
		 now - call_ps);
}

void sim_lockstat_user_release(const void *word)
{
	if (sim_lockstat_on)
		released(find((uint64_t)(uintptr_t)word), sim_now_ps());
}

/* ---- the table ------------------------------------------------------------ */

/* @ps in microseconds, two decimals, rounded: "12.34". */
static const char *us(uint64_t ps, char *buf)
{
	uint64_t c = (ps + 5000) / 10000;	/* hundredths of a us */

	snprintf(buf, 32, "%" PRIu64 ".%02" PRIu64, c / 100, c % 100);
	return buf;
}

static void put_line(FILE *f, const char *name, const struct ls_lock *l)
{
	char t[8][32];
	int w = l->contentions != 0, h = l->hold_max || l->hold_total;

	fprintf(f, "%40s: %14" PRIu64 " %14" PRIu64 " %14s %14s %14s %14s"
		" %14" PRIu64 " %14" PRIu64 " %14s %14s %14s %14s\n", name,
		l->con_bounces, l->contentions,
		us(w ? l->wait_min : 0, t[0]), us(l->wait_max, t[1]),
		us(l->wait_total, t[2]),
		us(w ? l->wait_total / l->contentions : 0, t[3]),
		l->acq_bounces, l->acquisitions,
		us(h ? l->hold_min : 0, t[4]), us(l->hold_max, t[5]),
		us(l->hold_total, t[6]),
		us(l->acquisitions ? l->hold_total / l->acquisitions : 0, t[7]));
}

static int cmp_locks(const void *a, const void *b)
{
	const struct ls_lock *x = *(struct ls_lock *const *)a;
	const struct ls_lock *y = *(struct ls_lock *const *)b;

	if (x->contentions != y->contentions)
		return x->contentions > y->contentions ? -1 : 1;
	if (x->acquisitions != y->acquisitions)
		return x->acquisitions > y->acquisitions ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void add(struct ls_lock *sum, const struct ls_lock *l)
{
	sum->con_bounces += l->con_bounces;
	sum->contentions += l->contentions;
	sum->acq_bounces += l->acq_bounces;
	sum->acquisitions += l->acquisitions;
	sum->wait_total += l->wait_total;
	sum->hold_total += l->hold_total;
	if (l->contentions && l->wait_min < sum->wait_min)
		sum->wait_min = l->wait_min;
	if (l->wait_max > sum->wait_max)
		sum->wait_max = l->wait_max;
	if (l->acquisitions && l->hold_min < sum->hold_min)
		sum->hold_min = l->hold_min;
	if (l->hold_max > sum->hold_max)
		sum->hold_max = l->hold_max;
}

static void put_rule(FILE *f)
{
	for (int i = 0; i < 40 + 12 * 15 + 1; i++)
		fputc('-', f);
	fputc('\n', f);
}

static void put_header(FILE *f, const char *title)
{
	fprintf(f, "%s\nlock_stat version 0.4\n", title);
	put_rule(f);
	fprintf(f, "%40s  %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s %14s\n",
		"class name", "con-bounces", "contentions", "waittime-min",
		"waittime-max", "waittime-total", "waittime-avg", "acq-bounces",
		"acquisitions", "holdtime-min", "holdtime-max",
		"holdtime-total", "holdtime-avg");
	put_rule(f);
}

int sim_lockstat_write(FILE *f, const char *title)
{
	static struct ls_lock *order[NR_SLOTS];
	struct ls_lock sum = { .wait_min = UINT64_MAX, .hold_min = UINT64_MAX };
	unsigned int i, n = 0, shown = 0, nr_buckets = 0;
	char name[64];

	for (i = 0; i < NR_SLOTS; i++)
		if (ls.slot[i].addr)
			order[n++] = &ls.slot[i];
	qsort(order, n, sizeof(struct ls_lock *), cmp_locks); /* NOLINT(bugprone-sizeof-expression): an array of pointers */
	put_header(f, title);
	for (i = 0; i < n; i++) {
		if (bucket_of(order[i]->addr) >= 0) {
			add(&sum, order[i]);
			nr_buckets++;
		}
		if (!order[i]->user && shown++ >= SIM_LOCKSTAT_TOP)
			continue;
		fputc('\n', f);
		put_line(f, sim_lockstat_name(order[i]->addr, name,
					      sizeof(name)), order[i]);
	}
	if (ls.other.acquisitions) {
		fputc('\n', f);
		put_line(f, "<other locks>", &ls.other);
	}
	if (nr_buckets) {
		snprintf(name, sizeof(name), "futex_hash_bucket[all %u].lock",
			 nr_buckets);
		fputc('\n', f);
		put_line(f, name, &sum);
	}
	put_rule(f);
	return ferror(f) ? -1 : 0;
}

/* ---- from the child to the parent ----------------------------------------- */

int sim_lockstat_send(int fd, const char *lock, uint64_t seed)
{
	char title[160];
	int dfd = dup(fd);
	FILE *f = dfd < 0 ? NULL : fdopen(dfd, "w");

	if (!f)
		return -1;
	snprintf(title, sizeof(title), "# lock-stat: lock=%s seed=%" PRIu64,
		 lock, seed);
	if (sim_lockstat_write(f, title)) {
		fclose(f);
		return -1;
	}
	return fclose(f) ? -1 : 0;
}

char *sim_lockstat_recv(int fd)
{
	size_t len = 0, cap = 0;
	char *buf = NULL, *p;
	ssize_t n;

	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? 2 * cap : 65536;
			p = realloc(buf, cap);
			if (!p)
				break;
			buf = p;
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	if (!len) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}
