/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_stats.c - suite "stats": the latency histogram and Jain's
 * index (sim/report/stats.c).
 *
 * Stage: trace/report, unit level.  Run by tests/check_main.c; calls only
 * sim/report/stats.h.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/report/stats.h"

static struct sim_hist *hist_new(void)
{
	struct sim_hist *h = calloc(1, sizeof(*h));

	ck_assert_ptr_nonnull(h);
	return h;
}

START_TEST(test_stats_empty_histogram_reports_0)
{
	struct sim_hist *h = hist_new();

	ck_assert_uint_eq(h->count, 0);
	ck_assert_uint_eq(sim_hist_percentile(h, 50), 0);
	ck_assert_uint_eq(sim_hist_percentile(h, 100), 0);
	free(h);
}
END_TEST

START_TEST(test_stats_values_below_1024_are_exact)
{
	struct sim_hist *h = hist_new();
	uint64_t v;

	/* Every value alone, next to a far larger one: p50 is its bucket's
	 * upper bound, which must be the value itself. */
	for (v = 0; v < 1024; v++) {
		memset(h, 0, sizeof(*h));
		sim_hist_add(h, v);
		sim_hist_add(h, UINT64_MAX);
		ck_assert_uint_eq(sim_hist_percentile(h, 50), v);
	}
	/* Neighbours stay apart. */
	memset(h, 0, sizeof(*h));
	sim_hist_add(h, 1022);
	sim_hist_add(h, 1023);
	ck_assert_uint_eq(sim_hist_percentile(h, 50), 1022);
	ck_assert_uint_eq(sim_hist_percentile(h, 100), 1023);
	free(h);
}
END_TEST

static void check_rel_error(struct sim_hist *h, uint64_t v)
{
	uint64_t got;

	memset(h, 0, sizeof(*h));
	sim_hist_add(h, v);
	sim_hist_add(h, UINT64_MAX);
	got = sim_hist_percentile(h, 50);
	ck_assert_msg(got >= v, "value %llu reported as %llu (below it)",
		      (unsigned long long)v, (unsigned long long)got);
	ck_assert_msg(got - v <= v / 64, "value %llu reported as %llu (> 1/64 off)",
		      (unsigned long long)v, (unsigned long long)got);
}

START_TEST(test_stats_values_above_1024_are_within_1_6_percent)
{
	struct sim_hist *h = hist_new();
	uint64_t v;
	int e;

	for (v = 1024; v < 70000; v++)
		check_rel_error(h, v);
	for (e = 10; e < 64; e++) {
		uint64_t p = 1ull << e;

		check_rel_error(h, p);
		check_rel_error(h, p - 1);
		check_rel_error(h, p + 1);
		check_rel_error(h, p + p / 3);
		check_rel_error(h, p + (p - 1));	/* 2^(e+1) - 1 */
	}
	/* The very top bucket ends at UINT64_MAX without wrapping. */
	memset(h, 0, sizeof(*h));
	sim_hist_add(h, UINT64_MAX - 5);
	sim_hist_add(h, UINT64_MAX);
	ck_assert_uint_eq(sim_hist_percentile(h, 50), UINT64_MAX);
	free(h);
}
END_TEST

/* p50 of @v next to UINT64_MAX: the upper bound of @v's bucket. */
static uint64_t top_of(struct sim_hist *h, uint64_t v)
{
	memset(h, 0, sizeof(*h));
	sim_hist_add(h, v);
	sim_hist_add(h, UINT64_MAX);
	return sim_hist_percentile(h, 50);
}

START_TEST(test_stats_buckets_are_64_per_power_of_two)
{
	struct sim_hist *h = hist_new();
	uint64_t lo, hi, w;
	int e, k;

	ck_assert_uint_eq(top_of(h, 1023), 1023);
	ck_assert_uint_eq(top_of(h, 1024), 1039);	/* [1024, 1040) */
	for (e = 10; e < 64; e++) {
		w = 1ull << (e - 6);
		for (k = 0; k < 64; k++) {
			lo = (uint64_t)(64 + k) << (e - 6);
			hi = lo + (w - 1);
			ck_assert_uint_eq(top_of(h, lo), hi);
			ck_assert_uint_eq(top_of(h, hi), hi);
			if (w > 1)
				ck_assert_uint_eq(top_of(h, lo + w / 2), hi);
			if (hi != UINT64_MAX)
				ck_assert_uint_gt(top_of(h, hi + 1), hi);
		}
	}
	free(h);
}
END_TEST

START_TEST(test_stats_percentiles_of_uniform_1_to_10000)
{
	struct sim_hist *h = hist_new();
	uint64_t v, p50, p99;

	for (v = 1; v <= 10000; v++)
		sim_hist_add(h, v);
	p50 = sim_hist_percentile(h, 50);
	p99 = sim_hist_percentile(h, 99);
	ck_assert_uint_ge(p50, 5000);
	ck_assert_uint_le(p50, 5000 + 5000 * 16 / 1000);
	ck_assert_uint_ge(p99, 9900);
	ck_assert_uint_le(p99, 9900 + 9900 * 16 / 1000);
	ck_assert_uint_eq(sim_hist_percentile(h, 100), 10000);
	ck_assert_uint_eq(sim_hist_percentile(h, 0.01), 1);
	ck_assert_uint_eq(sim_hist_percentile(h, 0), 1);
	ck_assert_uint_eq(sim_hist_percentile(h, 250), 10000);
	ck_assert_uint_eq(h->count, 10000);
	free(h);
}
END_TEST

START_TEST(test_stats_percentile_rank_is_exact_below_1024)
{
	struct sim_hist *h = hist_new();
	uint64_t v;

	/* 1..100: the p-th percentile is exactly p (rank ceil(p)). */
	for (v = 1; v <= 100; v++)
		sim_hist_add(h, v);
	ck_assert_uint_eq(sim_hist_percentile(h, 50), 50);
	ck_assert_uint_eq(sim_hist_percentile(h, 99), 99);
	ck_assert_uint_eq(sim_hist_percentile(h, 99.5), 100);
	ck_assert_uint_eq(sim_hist_percentile(h, 1), 1);
	/* A skewed distribution: 90 fast, 10 slow. */
	memset(h, 0, sizeof(*h));
	for (v = 0; v < 90; v++)
		sim_hist_add(h, 10);
	for (v = 0; v < 10; v++)
		sim_hist_add(h, 700);
	ck_assert_uint_eq(sim_hist_percentile(h, 90), 10);
	ck_assert_uint_eq(sim_hist_percentile(h, 91), 700);
	free(h);
}
END_TEST

START_TEST(test_stats_max_is_exact_and_caps_percentiles)
{
	struct sim_hist *h = hist_new();

	sim_hist_add(h, 5);
	sim_hist_add(h, 1000001);	/* bucket upper bound is above it */
	sim_hist_add(h, 123456);
	ck_assert_uint_eq(h->max, 1000001);
	ck_assert_uint_eq(sim_hist_percentile(h, 100), 1000001);
	ck_assert_uint_eq(sim_hist_percentile(h, 99), 1000001);
	ck_assert_uint_eq(h->count, 3);
	free(h);
}
END_TEST

START_TEST(test_stats_merge_equals_recording_into_one)
{
	struct sim_hist *a = hist_new(), *b = hist_new(), *all = hist_new();
	uint64_t v;

	for (v = 1; v <= 20000; v += 3) {
		sim_hist_add(v % 2 ? a : b, v * 37);
		sim_hist_add(all, v * 37);
	}
	sim_hist_add(b, 1ull << 40);
	sim_hist_add(all, 1ull << 40);
	sim_hist_merge(a, b);
	ck_assert_uint_eq(a->count, all->count);
	ck_assert_uint_eq(a->max, 1ull << 40);
	ck_assert_int_eq(memcmp(a, all, sizeof(*a)), 0);
	ck_assert_uint_eq(sim_hist_percentile(a, 50),
			  sim_hist_percentile(all, 50));

	/* Merging an empty histogram changes nothing. */
	memset(b, 0, sizeof(*b));
	sim_hist_merge(a, b);
	ck_assert_int_eq(memcmp(a, all, sizeof(*a)), 0);
	/* Merging into an empty one copies. */
	sim_hist_merge(b, all);
	ck_assert_int_eq(memcmp(b, all, sizeof(*b)), 0);
	free(a);
	free(b);
	free(all);
}
END_TEST

/* Clearing goes by group (only groups that sum to more than 0): values
 * in the first group, in groups far apart, and in the last one leave
 * every byte zero, and the cleared histogram records as a new one. */
START_TEST(test_stats_clear_leaves_every_byte_zero)
{
	static const uint64_t v[] = { 0, 63, 64, 1000, 5000, 1ull << 40,
				      UINT64_MAX };
	struct sim_hist *h = hist_new(), *zero = hist_new(),
			*fresh = hist_new();

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		sim_hist_add(h, v[i]);
	ck_assert_int_ne(memcmp(h, zero, sizeof(*h)), 0);
	sim_hist_clear(h);
	ck_assert_int_eq(memcmp(h, zero, sizeof(*h)), 0);
	sim_hist_add(h, 777);
	sim_hist_add(fresh, 777);
	ck_assert_int_eq(memcmp(h, fresh, sizeof(*h)), 0);
	free(h);
	free(zero);
	free(fresh);
}
END_TEST

START_TEST(test_stats_jain_of_equal_values_is_1)
{
	uint64_t x[5] = { 7, 7, 7, 7, 7 };
	uint64_t big[3] = { 1ull << 62, 1ull << 62, 1ull << 62 };

	ck_assert_double_eq_tol(sim_jain(x, 5), 1.0, 1e-12);
	ck_assert_double_eq_tol(sim_jain(big, 3), 1.0, 1e-12);
}
END_TEST

START_TEST(test_stats_jain_of_one_nonzero_is_1_over_n)
{
	uint64_t x[8] = { 0, 0, 0, 12345, 0, 0, 0, 0 };

	ck_assert_double_eq_tol(sim_jain(x, 8), 1.0 / 8, 1e-12);
	ck_assert_double_eq_tol(sim_jain(x, 4), 1.0 / 4, 1e-12);
}
END_TEST

START_TEST(test_stats_jain_of_mixed_values)
{
	uint64_t x[4] = { 1, 2, 3, 4 };	/* 100 / (4 * 30) */
	uint64_t y[2] = { 1, 3 };		/* 16 / (2 * 10) */

	ck_assert_double_eq_tol(sim_jain(x, 4), 100.0 / 120.0, 1e-12);
	ck_assert_double_eq_tol(sim_jain(y, 2), 0.8, 1e-12);
}
END_TEST

START_TEST(test_stats_jain_of_nothing_is_1)
{
	uint64_t z[3] = { 0, 0, 0 };

	ck_assert_double_eq(sim_jain(z, 0), 1.0);
	ck_assert_double_eq(sim_jain(z, 3), 1.0);
}
END_TEST

Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_stats_empty_histogram_reports_0);
	tcase_add_test(tc, test_stats_values_below_1024_are_exact);
	tcase_add_test(tc, test_stats_values_above_1024_are_within_1_6_percent);
	tcase_add_test(tc, test_stats_buckets_are_64_per_power_of_two);
	tcase_add_test(tc, test_stats_percentiles_of_uniform_1_to_10000);
	tcase_add_test(tc, test_stats_percentile_rank_is_exact_below_1024);
	tcase_add_test(tc, test_stats_max_is_exact_and_caps_percentiles);
	tcase_add_test(tc, test_stats_merge_equals_recording_into_one);
	tcase_add_test(tc, test_stats_clear_leaves_every_byte_zero);
	tcase_add_test(tc, test_stats_jain_of_equal_values_is_1);
	tcase_add_test(tc, test_stats_jain_of_one_nonzero_is_1_over_n);
	tcase_add_test(tc, test_stats_jain_of_mixed_values);
	tcase_add_test(tc, test_stats_jain_of_nothing_is_1);
	suite_add_tcase(s, tc);
	return s;
}
