/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_arena.c - the fixed-address arena (sim/host/arena.c).
 */
#include <check.h>
#include <stdint.h>
#include <string.h>

#include "sim/host/arena.h"

START_TEST(test_arena_is_at_its_fixed_address)
{
	sim_arena_init();
	char *p = sim_arena_alloc(10, 16);

	ck_assert_uint_ge((uintptr_t)p, SIM_ARENA_BASE);
	ck_assert_uint_lt((uintptr_t)p, SIM_ARENA_BASE + 4096);
	ck_assert(sim_arena_contains(p));
}
END_TEST

START_TEST(test_arena_same_calls_give_same_addresses)
{
	void *a[20], *b[20];

	sim_arena_init();
	for (int i = 0; i < 20; i++) {
		a[i] = sim_arena_alloc(i * 40 + 1, i % 3 ? 16 : 64);
		if (i % 4 == 0)
			sim_arena_free(a[i]);
	}
	sim_arena_init();	/* reset */
	for (int i = 0; i < 20; i++) {
		b[i] = sim_arena_alloc(i * 40 + 1, i % 3 ? 16 : 64);
		if (i % 4 == 0)
			sim_arena_free(b[i]);
	}
	ck_assert_mem_eq(a, b, sizeof(a));
}
END_TEST

START_TEST(test_arena_respects_alignment_and_zeroes)
{
	sim_arena_init();
	for (int i = 0; i < 10; i++) {
		char *p = sim_arena_alloc(100, 4096);

		ck_assert_uint_eq((uintptr_t)p % 4096, 0);
		for (int j = 0; j < 100; j++)
			ck_assert_int_eq(p[j], 0);
		memset(p, 0xff, 100);
		sim_arena_free(p);
	}
	char *q = sim_arena_alloc(100, 16);	/* reuses a freed block */

	for (int j = 0; j < 100; j++)
		ck_assert_int_eq(q[j], 0);
}
END_TEST

START_TEST(test_arena_reuses_a_freed_block_of_the_same_class)
{
	sim_arena_init();
	void *p = sim_arena_alloc(200, 16);

	sim_arena_free(p);
	ck_assert_ptr_eq(sim_arena_alloc(200, 16), p);
	ck_assert_ptr_ne(sim_arena_alloc(200, 16), p);
}
END_TEST

Suite *arena_suite(void)
{
	Suite *s = suite_create("arena");
	TCase *tc = tcase_create("arena");

	tcase_add_test(tc, test_arena_is_at_its_fixed_address);
	tcase_add_test(tc, test_arena_same_calls_give_same_addresses);
	tcase_add_test(tc, test_arena_respects_alignment_and_zeroes);
	tcase_add_test(tc, test_arena_reuses_a_freed_block_of_the_same_class);
	suite_add_tcase(s, tc);
	return s;
}
