/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_runheap.c - the CPUs that may run (sim/machine/runheap.c): with
 * a few CPUs in it (a sorted array), many (a heap) and in between (it
 * turns from one into the other), the CPU sim_runheap_pop_earliest() and
 * sim_runheap_push_pop() return is the one a plain scan picks: the
 * smallest clock, and among equal clocks the k-th smallest CPU number for
 * the k the run's generator draws.
 */
#include <check.h>
#include <stdbool.h>

#include "sim/machine/machine.h"
#include "sim/machine/prng.h"
#include "sim/machine/runheap.h"

/* The reference: a scan over @in of @cpus; draws from @r as sim_draw(). */
static int scan_pick(struct sim_cpu *cpus, const bool *in, int n,
		     struct sim_prng *r)
{
	uint64_t min = UINT64_MAX;
	int ties = 0, k;

	for (int i = 0; i < n; i++)
		if (in[i] && cpus[i].now_ps < min)
			min = cpus[i].now_ps;
	for (int i = 0; i < n; i++)
		ties += in[i] && cpus[i].now_ps == min;
	if (!ties)
		return -1;
	k = ties > 1 ? (int)sim_prng_below(r, (uint64_t)ties) : 0;
	for (int i = 0; i < n; i++)
		if (in[i] && cpus[i].now_ps == min && k-- == 0)
			return i;
	return -1;
}

/*
 * @n CPUs, 20,000 random steps in phases of 400 that mostly add, then
 * mostly take out: add a CPU with a clock from a small range (many
 * ties), take one out, or pop the earliest (alone, or with a CPU put in
 * by sim_runheap_push_pop()) and compare with the scan.
 * Return: the number of pops that disagreed; *@most: the most CPUs in
 * it at once.
 */
static int run_against_scan(int n, uint64_t seed, int *most)
{
	static struct sim_cpu cpus[64];
	bool in[64] = { false };
	struct sim_prng steps, ref;
	int wrong = 0, count = 0, pushed = 0;

	*most = 0;
	sim_prng_seed(&steps, seed);
	sim_prng_seed(&sim_rng, seed + 1);
	sim_prng_seed(&ref, seed + 1);
	for (int i = 0; i < n; i++) {
		cpus[i].k.cpu = i;
		cpus[i].run_idx = -1;
	}
	sim_runheap_reset();
	for (int step = 0; step < 20000; step++) {
		int c = (int)sim_prng_below(&steps, (uint64_t)n);
		bool grow = step / 400 % 2 == 0;
		uint64_t op = sim_prng_below(&steps, 4);

		if (grow ? op < 3 : op == 0) {
			if (in[c])
				continue;
			cpus[c].now_ps = sim_prng_below(&steps, 8);
			sim_runheap_add(&cpus[c]);
			in[c] = true;
			count++;
		} else if (op % 2) {
			if (!in[c])
				continue;
			sim_runheap_remove(&cpus[c]);
			in[c] = false;
			count--;
		} else {
			int want;
			struct sim_cpu *got;

			/* half of the pops: the dispatcher's push_pop of a
			 * CPU from outside, a candidate with the others */
			if (!in[c] && sim_prng_below(&steps, 2)) {
				cpus[c].now_ps = sim_prng_below(&steps, 8);
				in[c] = true;
				count++;
				want = scan_pick(cpus, in, n, &ref);
				got = sim_runheap_push_pop(&cpus[c]);
				pushed++;
			} else {
				want = scan_pick(cpus, in, n, &ref);
				got = sim_runheap_pop_earliest();
			}

			if (want < 0 ? got != NULL : got != &cpus[want])
				wrong++;
			if (got) {
				in[got->k.cpu] = false;
				count--;
			}
		}
		ck_assert_int_eq(sim_runheap_nr(), count);
		if (count > *most)
			*most = count;
	}
	ck_assert_int_gt(pushed, 500);
	return wrong;
}

START_TEST(test_runheap_small_machine_picks_as_a_scan)
{
	int most;

	ck_assert_int_eq(run_against_scan(4, 11, &most), 0);
	ck_assert_int_eq(most, 4);
	ck_assert_int_eq(run_against_scan(8, 12, &most), 0);
}
END_TEST

/* 20 and 64 CPUs: the set grows past 16 (a heap) and shrinks to 8 (sorted)
 * again and again */
START_TEST(test_runheap_large_machine_picks_as_a_scan)
{
	int most;

	ck_assert_int_eq(run_against_scan(20, 13, &most), 0);
	ck_assert_int_gt(most, 16);
	ck_assert_int_eq(run_against_scan(64, 14, &most), 0);
	ck_assert_int_gt(most, 40);
}
END_TEST

/* Negative control: a reference that draws from another stream than the
 * run's disagrees, so the comparison above can fail. */
START_TEST(test_runheap_scan_with_other_draws_disagrees)
{
	static struct sim_cpu cpus[4];
	struct sim_prng ref;
	bool in[4] = { true, true, true, true };
	int wrong = 0;

	sim_runheap_reset();
	sim_prng_seed(&sim_rng, 5);
	sim_prng_seed(&ref, 6);
	for (int round = 0; round < 50; round++) {
		for (int i = 0; i < 4; i++) {
			cpus[i].k.cpu = i;
			cpus[i].now_ps = 7;	/* all equal: a draw each pop */
			sim_runheap_add(&cpus[i]);
		}
		wrong += sim_runheap_pop_earliest() != &cpus[scan_pick(cpus, in, 4, &ref)];
		while (sim_runheap_pop_earliest())
			;
	}
	ck_assert_int_gt(wrong, 0);
}
END_TEST

Suite *runheap_suite(void)
{
	Suite *s = suite_create("runheap");
	TCase *tc = tcase_create("runheap");

	tcase_add_test(tc, test_runheap_small_machine_picks_as_a_scan);
	tcase_add_test(tc, test_runheap_large_machine_picks_as_a_scan);
	tcase_add_test(tc, test_runheap_scan_with_other_draws_disagrees);
	suite_add_tcase(s, tc);
	return s;
}
