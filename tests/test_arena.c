/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_arena.c - the fixed-address arena (sim/host/arena.c).
 */
#include <check.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "sim/host/arena.h"
#include "tests/run_child.h"

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

/* ---- blocks left to their owners (sim_arena_owner_clears()) ---- */

#define OWNED_BYTES	(64 * 1024)

static char *owned_block;
static size_t owned_from, owned_to;	/* what the owner wrote: [from, to) */
static int owned_clears;

static void owned_clear(void *block)
{
	ck_assert_ptr_eq(block, owned_block);
	memset(owned_block + owned_from, 0, owned_to - owned_from);
	owned_clears++;
}

/* A table, a neighbour, the owner writes a few entries, another boot. */
static void owned_boot(size_t from, size_t to, char **neighbour)
{
	owned_block = sim_arena_alloc(OWNED_BYTES, 64);
	sim_arena_owner_clears(owned_block, owned_clear);
	*neighbour = sim_arena_alloc(100, 16);
	memset(owned_block + 1000, 0x5a, 24);
	memset(*neighbour, 0xa5, 100);
	owned_from = from;
	owned_to = to;
}

START_TEST(test_arena_owner_clears_its_block_and_the_arena_the_rest)
{
	char *first, *neighbour;

	sim_arena_check_owners(1);
	sim_arena_init();
	owned_clears = 0;
	owned_boot(1000, 1024, &neighbour);
	first = owned_block;
	sim_arena_init();		/* the owner's clear, then the rest */
	ck_assert_int_eq(owned_clears, 1);
	ck_assert_ptr_eq(sim_arena_alloc(OWNED_BYTES, 64), first);
	ck_assert_ptr_eq(sim_arena_alloc(100, 16), neighbour);
	for (size_t i = 0; i < OWNED_BYTES; i++)
		ck_assert_int_eq(first[i], 0);
	for (int i = 0; i < 100; i++)
		ck_assert_int_eq(neighbour[i], 0);
	sim_arena_init();		/* not given again: the arena's own */
	ck_assert_int_eq(owned_clears, 1);
	sim_arena_check_owners(0);
}
END_TEST

static void owner_misses_a_byte(void *arg)
{
	char *neighbour;

	(void)arg;
	sim_arena_check_owners(1);
	sim_arena_init();
	owned_boot(1000, 1023, &neighbour);	/* one byte left */
	sim_arena_init();
}

/* negative control: the check finds the byte the owner left */
START_TEST(test_arena_check_finds_a_byte_an_owner_left)
{
	static struct child_out o;

	run_child(owner_misses_a_byte, NULL, &o);
	ck_assert_msg(o.status == 128 + SIGABRT, "status %d, stderr:\n%s",
		      o.status, o.err);
	ck_assert_msg(strstr(o.err, "byte 1023 is 0x5a after its owner cleared it"),
		      "stderr:\n%s", o.err);
}
END_TEST

/* ---- a block kept for its owner (sim_arena_keep()) ---- */

#define KEPT_BYTES	(64 * 1024 + 64)

static char *kept_block;
static size_t kept_from, kept_to;	/* what the run changed: [from, to) */
static int kept_restores;

static void kept_restore(void *block)
{
	ck_assert_ptr_eq(block, kept_block);
	memset(kept_block + kept_from, 0x11, kept_to - kept_from);
	kept_restores++;
}

/* A neighbour, the table set up and kept, a neighbour, a run. */
static void kept_boot(char **before, char **after, size_t from, size_t to)
{
	*before = sim_arena_alloc(100, 16);
	kept_block = sim_arena_alloc(KEPT_BYTES, 64);
	memset(kept_block, 0x11, KEPT_BYTES);
	sim_arena_keep(kept_block, KEPT_BYTES, kept_restore);
	*after = sim_arena_alloc(100, 16);
	memset(*after, 0xa5, 100);
	memset(kept_block + 1000, 0x77, 24);	/* the run */
	kept_from = from;
	kept_to = to;
}

START_TEST(test_arena_gives_a_kept_block_back_as_restored)
{
	char *before, *after, *p;

	sim_arena_check_owners(1);
	sim_arena_init();
	kept_restores = 0;
	kept_boot(&before, &after, 1000, 1024);
	sim_arena_init();		/* the owner restores, the arena zeroes */
	ck_assert_int_eq(kept_restores, 1);
	ck_assert_ptr_eq(sim_arena_alloc(100, 16), before);
	p = sim_arena_take_back(kept_block, KEPT_BYTES, 64);
	ck_assert_ptr_eq(p, kept_block);
	for (size_t i = 0; i < KEPT_BYTES; i++)
		ck_assert_int_eq(p[i], 0x11);
	ck_assert_ptr_eq(sim_arena_alloc(100, 16), after);
	for (int i = 0; i < 100; i++)
		ck_assert_int_eq(after[i], 0);
	sim_arena_init();		/* taken back: kept again */
	ck_assert_int_eq(kept_restores, 2);
	sim_arena_check_owners(0);
}
END_TEST

/* Other calls after the reset: the block is not given back, and the
 * allocation that reaches it gets zeros. */
START_TEST(test_arena_zeroes_a_kept_block_not_taken_back)
{
	char *before, *after, *p;

	sim_arena_init();
	kept_boot(&before, &after, 1000, 1024);
	sim_arena_init();
	/* not where it was: the allocations before it are missing */
	ck_assert_ptr_null(sim_arena_take_back(kept_block, KEPT_BYTES, 64));
	p = sim_arena_alloc(200, 16);	/* other calls: they reach it */
	ck_assert_ptr_null(sim_arena_take_back(kept_block, KEPT_BYTES, 64));
	for (size_t i = 0; i < KEPT_BYTES; i++)
		ck_assert_int_eq(kept_block[i], 0);
	p = sim_arena_alloc(KEPT_BYTES, 64);
	for (size_t i = 0; i < KEPT_BYTES; i++)
		ck_assert_int_eq(p[i], 0);
}
END_TEST

static void owner_restores_too_little(void *arg)
{
	char *before, *after;

	(void)arg;
	sim_arena_check_owners(1);
	sim_arena_init();
	kept_boot(&before, &after, 1000, 1023);	/* one byte left */
	sim_arena_init();
}

/* negative control: the check finds the byte the owner left */
START_TEST(test_arena_check_finds_a_byte_a_restore_left)
{
	static struct child_out o;

	run_child(owner_restores_too_little, NULL, &o);
	ck_assert_msg(o.status == 128 + SIGABRT, "status %d, stderr:\n%s",
		      o.status, o.err);
	ck_assert_msg(strstr(o.err, "is not as it was kept after its owner restored it"),
		      "stderr:\n%s", o.err);
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
	tcase_add_test(tc, test_arena_owner_clears_its_block_and_the_arena_the_rest);
	tcase_add_test(tc, test_arena_check_finds_a_byte_an_owner_left);
	tcase_add_test(tc, test_arena_gives_a_kept_block_back_as_restored);
	tcase_add_test(tc, test_arena_zeroes_a_kept_block_not_taken_back);
	tcase_add_test(tc, test_arena_check_finds_a_byte_a_restore_left);
	suite_add_tcase(s, tc);
	return s;
}
