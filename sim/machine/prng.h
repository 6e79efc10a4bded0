/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/machine/prng.h - the one seeded pseudo-random generator of a run.
 *
 * Stage: machine.  Every random choice of a run (timed-mode tie-breaks,
 * timer slack, cost jitter, workload choices) draws from the machine's
 * generator, so a run is a function of (scenario, seed).  Nothing may use
 * rand(), the host clock or host addresses instead.  The simulation draws
 * through sim_draw() (sim/replay/replay.h), never sim_prng_below(&sim_rng, ...)
 * directly, so that replay files record and check every draw.
 *
 * Algorithm: xoshiro256** seeded through splitmix64 (public domain
 * algorithms by Blackman and Vigna), written here from their description.
 */
#ifndef SIM_PRNG_H
#define SIM_PRNG_H

#include <stdint.h>

struct sim_prng {
	uint64_t s[4];
};

/* sim_prng_seed - seed @r; any 64-bit seed (0 included) is valid. */
void sim_prng_seed(struct sim_prng *r, uint64_t seed);
/* sim_prng_next - the next 64 random bits. */
uint64_t sim_prng_next(struct sim_prng *r);
/* sim_prng_below - uniform in [0, @n), @n > 0, without modulo bias. */
uint64_t sim_prng_below(struct sim_prng *r, uint64_t n);

/* The machine's generator (sim/machine/machine.c seeds it). */
extern struct sim_prng sim_rng;

#endif /* SIM_PRNG_H */
