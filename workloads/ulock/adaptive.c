/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/ulock/adaptive.c - glibc's adaptive mutex (lock=adaptive,
 * PTHREAD_MUTEX_ADAPTIVE_NP): spin a while in user space, then fall back
 * to the 3-state futex lock of workloads/ulock/ww.c; four versions of the
 * spin loop (docs/studies/adaptive-2018.md), chosen with adaptive=.
 *
 * Stage: user-space lock.  Called by the workload driver through
 * ulock_adaptive_ops; calls futex(2) through workloads/ulock/futex.h and
 * draws the 2.36 backoff jitter from the run's one PRNG (sim_draw()).
 *
 * Every version starts with one trylock (cmpxchg __lock 0 -> 1), ends with
 * the moving average   __spins += (cnt - __spins) / 8   (C division,
 * truncating toward 0) once the lock is held, and unlocks exactly like
 * the 3-state mutex: xchg 0, FUTEX_WAKE one if the old value was 2.
 * max_cnt = MIN(spin_count, __spins * 2 + 10) (+ 100 for seed2018).
 *
 *   pre2018   (glibc <= 2.28)  cnt++ >= max_cnt ? lll_lock : PAUSE, then
 *             trylock; repeat.  A CAS every iteration: the cache line
 *             ping-pongs between the spinners.  Gives up at max_cnt + 1.
 *   seed2018  (Kemi Wang's v1 patches 2+3, March 2018, never merged)
 *             PAUSE + plain load until the word reads 0 or ++cnt reaches
 *             max_cnt; then ONE trylock; if it fails, lll_lock (sleep):
 *             a spinner that lost the race for a free lock stops spinning.
 *   glibc235  pre2018 with a plain load before each CAS: the CAS is only
 *             tried when the word reads 0 (d672a98a1a, fixed 6b8dbbd03a).
 *   glibc236  glibc235 whose k-th round spins backoff + (jitter &
 *             (backoff - 1)) PAUSEs, backoff doubling to 16; cnt counts
 *             the PAUSEs and lll_lock is taken once cnt reaches max_cnt
 *             (8162147872, the x86_64 build: one jitter per lock call;
 *             the TSC's low bits there, a PRNG draw here).
 *
 * Counters (struct ulock_stats): spins, the PAUSEs spun; spin_giveups,
 * the contended calls that ended in lll_lock.  glibc's aarch64 build has
 * an empty atomic_spin_nop(); this file always PAUSEs, which the
 * aarch64-64 preset prices at 0.4 ns.
 */
#include <stddef.h>

#include "sim/replay/replay.h"
#include "workloads/ulock/adaptive.h"
#include "workloads/ulock/futex.h"
#include "workloads/ulock/uatomic.h"
#include "workloads/ulock/ulock.h"

#define ADAPTIVE_MAX_BACKOFF	16	/* x86_64 MAX_BACKOFF of 2.36	*/
#define ADAPTIVE_JITTER_RANGE	65536	/* the low 16 bits of a TSC read */

struct ulock_tunables ulock_tunables = {
	.adaptive	= ULOCK_ADAPTIVE_PRE2018,
	.spin_count	= 100,
};

const char *ulock_adaptive_name(int v)
{
	static const char *const names[] = {
		[ULOCK_ADAPTIVE_PRE2018] = "pre2018",
		[ULOCK_ADAPTIVE_SEED2018] = "seed2018",
		[ULOCK_ADAPTIVE_GLIBC235] = "glibc235",
		[ULOCK_ADAPTIVE_GLIBC236] = "glibc236",
	};

	return v >= 0 && v <= ULOCK_ADAPTIVE_GLIBC236 ? names[v] : "?";
}

int ulock_adaptive_max_cnt(int variant, unsigned int spin_count, int spins)
{
	int add = variant == ULOCK_ADAPTIVE_SEED2018 ? 100 : 10;
	int cnt = spins * 2 + add;

	if (cnt > (int)spin_count)
		cnt = (int)spin_count;
	return cnt < 0 ? 0 : cnt;
}

static void adaptive_init(void *l)
{
	struct ulock_adaptive_mutex *m = l;

	uatomic_store(&m->lock, 0);
	uatomic_store(&m->spins, 0);
}

static int trylock(struct ulock_adaptive_mutex *m)
{
	return uatomic_cmpxchg(&m->lock, 0, 1) == 0;
}

/* lll_lock(): the 3-state lock of workloads/ulock/ww.c, which may sleep. */
static void lll_lock(struct ulock_adaptive_mutex *m, struct ulock_stats *st)
{
	st->spin_giveups++;
	if (trylock(m))
		return;
	if (uatomic_load(&m->lock) == 2)
		goto wait;
	while (uatomic_xchg(&m->lock, 2) != 0) {
wait:
		ulock_futex_wait(&m->lock, 2, NULL, st);
	}
}

static void pause_n(int n, struct ulock_stats *st)
{
	for (int i = 0; i < n; i++)
		uatomic_pause();
	st->spins += n;
}

/* pre2018 and glibc235 (@read_first): Return: cnt. */
static int spin_cas(struct ulock_adaptive_mutex *m, int max_cnt, int read_first,
		    struct ulock_stats *st)
{
	int cnt = 0;

	do {
		if (cnt++ >= max_cnt) {
			lll_lock(m, st);
			break;
		}
		pause_n(1, st);
	} while ((read_first && uatomic_load(&m->lock) != 0) || !trylock(m));
	return cnt;
}

/* seed2018: read-only spin, one trylock, else sleep.  Return: cnt. */
static int spin_seed(struct ulock_adaptive_mutex *m, int max_cnt,
		     struct ulock_stats *st)
{
	int cnt = 0;

	for (;;) {
		pause_n(1, st);
		if (uatomic_load(&m->lock) == 0 || ++cnt >= max_cnt)
			break;
	}
	if (!trylock(m))
		lll_lock(m, st);	/* lost the race for a free lock */
	return cnt;
}

/* glibc236: exponential backoff with jitter.  Return: cnt. */
static int spin_backoff(struct ulock_adaptive_mutex *m, int max_cnt,
			struct ulock_stats *st)
{
	unsigned int jitter = sim_draw(SIM_DEC_JITTER, ADAPTIVE_JITTER_RANGE);
	int cnt = 0, backoff = 1, n;

	do {
		n = backoff + (int)(jitter & (backoff - 1));
		cnt += n;
		if (cnt >= max_cnt) {
			lll_lock(m, st);
			break;
		}
		pause_n(n, st);
		if (backoff < ADAPTIVE_MAX_BACKOFF)
			backoff *= 2;
	} while (uatomic_load(&m->lock) != 0 || !trylock(m));
	return cnt;
}

static int adaptive_lock(void *l, struct ulock_stats *st)
{
	struct ulock_adaptive_mutex *m = l;
	int v = ulock_tunables.adaptive, spins, max_cnt, cnt;

	if (trylock(m))
		return 0;
	spins = (int)uatomic_load(&m->spins);
	max_cnt = ulock_adaptive_max_cnt(v, ulock_tunables.spin_count, spins);
	switch (v) {
	case ULOCK_ADAPTIVE_SEED2018:
		cnt = spin_seed(m, max_cnt, st);
		break;
	case ULOCK_ADAPTIVE_GLIBC236:
		cnt = spin_backoff(m, max_cnt, st);
		break;
	default:
		cnt = spin_cas(m, max_cnt, v == ULOCK_ADAPTIVE_GLIBC235, st);
		break;
	}
	/* the holder's plain read-modify-write of __spins */
	spins = (int)uatomic_load(&m->spins);
	uatomic_store(&m->spins, (uint32_t)(spins + (cnt - spins) / 8));
	return 0;
}

static int adaptive_unlock(void *l, struct ulock_stats *st)
{
	struct ulock_adaptive_mutex *m = l;

	if (uatomic_xchg(&m->lock, 0) > 1)
		ulock_futex_wake(&m->lock, 1, st);
	return 0;
}

/* the words a page of the run shows (struct ulock_ops.words) */
static const char *const adaptive_words[] = { "__lock", "__spins", NULL };

const struct ulock_ops ulock_adaptive_ops = {
	.name		= "adaptive",
	.words		= adaptive_words,
	.description	= "glibc adaptive mutex: spin (adaptive=, spin-count=), then the 3-state lock",
	.size		= sizeof(struct ulock_adaptive_mutex),
	.init		= adaptive_init,
	.lock		= adaptive_lock,
	.unlock		= adaptive_unlock,
};
