/* SPDX-License-Identifier: GPL-2.0 */
/*
 * workloads/libsim/rand.c - random numbers of a simulated program, all
 * from the run's seed.
 *
 * Stage: user program -> machine (the PRNG).  Called by the program
 * through workloads/libsim/futexsim.h.
 *
 *  getrandom(), getentropy(), arc4random*()  draw from the run's one
 *          generator (sim_draw(), sim/replay/replay.h), 32 bits a draw,
 *          recorded in replay files as jitter draws ("J 4294967296 V"),
 *          so a replay checks them; getrandom() and getentropy() cost a
 *          system call's entry and exit.
 *  rand(), random(), lrand48(), mrand48(), drand48()  one stream of the
 *          program, shared by its threads as glibc's state is, seeded
 *          from the run's seed and the last srand(), srandom() or
 *          srand48() argument (1 before any): the same seed and
 *          argument give the same numbers, another run seed others.
 *          These draws are no decisions of the run: they do not move
 *          the machine's generator.
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "sim/replay/replay.h"
#define FUTEXSIM_NO_RENAME
#include "workloads/libsim/futexsim.h"
#include "workloads/libsim/libsim.h"

#define WL_PROG_RAND_SALT	0x72616e6428292121ULL	/* "rand()!!" */

/* ---- the run's generator ------------------------------------------- */

static uint32_t draw32(void)
{
	return (uint32_t)sim_draw(SIM_DEC_JITTER, 1ULL << 32);
}

static void fill(void *buf, size_t len)
{
	unsigned char *p = buf;

	while (len) {
		uint32_t v = draw32();
		size_t n = len < 4 ? len : 4;

		memcpy(p, &v, n);
		p += n;
		len -= n;
	}
}

/* A system call's entry and exit on the running task, if there is one. */
static void syscall_cost(void)
{
	int e;

	if (!sim_current())
		return;
	e = wl_prog_errno_save();
	sim_delay_ps(sim.preset->syscall_ps);
	wl_prog_errno_restore(e);
}

ssize_t futexsim_getrandom(void *buf, size_t len, unsigned int flags)
{
	if (flags & ~(unsigned int)(GRND_NONBLOCK | GRND_RANDOM |
				    GRND_INSECURE)) {
		errno = EINVAL;
		return -1;
	}
	if (len > 33554431)		/* the kernel's cap for one call */
		len = 33554431;
	syscall_cost();
	fill(buf, len);
	return (ssize_t)len;
}

int futexsim_getentropy(void *buf, size_t len)
{
	if (len > 256) {
		errno = EIO;
		return -1;
	}
	syscall_cost();
	fill(buf, len);
	return 0;
}

uint32_t futexsim_arc4random(void)
{
	return draw32();
}

uint32_t futexsim_arc4random_uniform(uint32_t bound)
{
	return bound < 2 ? 0 : (uint32_t)sim_draw(SIM_DEC_JITTER, bound);
}

void futexsim_arc4random_buf(void *buf, size_t len)
{
	fill(buf, len);
}

/* ---- the program's stream ------------------------------------------ */

static void stream_seed(uint64_t arg)
{
	sim_prng_seed(&wl_prog.rand, sim.seed ^ WL_PROG_RAND_SALT ^
		      (arg * 0x9e3779b97f4a7c15ULL));
	wl_prog.rand_seeded = 1;
}

static uint64_t stream_next(void)
{
	if (!wl_prog.rand_seeded)
		stream_seed(1);
	return sim_prng_next(&wl_prog.rand);
}

int futexsim_rand(void)
{
	return (int)(stream_next() >> 33);	/* 0 .. RAND_MAX */
}

void futexsim_srand(unsigned int seed)
{
	stream_seed(seed);
}

long futexsim_random(void)
{
	return (long)(stream_next() >> 33);
}

void futexsim_srandom(unsigned int seed)
{
	stream_seed(seed);
}

double futexsim_drand48(void)
{
	return (double)(stream_next() >> 11) * 0x1p-53;
}

long futexsim_lrand48(void)
{
	return (long)(stream_next() >> 33);
}

long futexsim_mrand48(void)
{
	return (long)(int32_t)(stream_next() >> 32);
}

void futexsim_srand48(long seed)
{
	stream_seed((uint64_t)seed);
}
