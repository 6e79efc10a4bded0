/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/prng.c - xoshiro256** seeded by splitmix64.
 *
 * Stage: machine.  The machine's sim_rng is the only generator of a run;
 * see sim/machine/prng.h for the rule.  Both algorithms are public domain
 * (Blackman and Vigna, "Scrambled linear pseudorandom number generators",
 * 2018); this is an implementation of their published description.
 */
#include "sim/machine/prng.h"

struct sim_prng sim_rng;

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void sim_prng_seed(struct sim_prng *r, uint64_t seed)
{
	uint64_t x = seed;

	/* splitmix64 never yields four zero words, which xoshiro forbids */
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

uint64_t sim_prng_next(struct sim_prng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

uint64_t sim_prng_below(struct sim_prng *r, uint64_t n)
{
	/* reject the top partial range so every value is equally likely */
	uint64_t limit, x;

	if (!(n & (n - 1)))	/* a power of two: no range to reject, */
		return sim_prng_next(r) & (n - 1);	/* and x % n */
	limit = -n % n;		/* == 2^64 mod n */
	do
		x = sim_prng_next(r);
	while (x < limit);
	return x % n;
}
