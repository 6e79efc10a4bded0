/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_event.c - the event queue (sim/machine/event.c): (time, seq) order.
 */
#include <check.h>

#include "sim/machine/event.h"
#include "sim/machine/prng.h"

static void nop(struct sim_event *ev)
{
}

START_TEST(test_event_pops_in_time_order)
{
	struct sim_event ev[200];
	struct sim_prng r;
	uint64_t last = 0;

	sim_events_reset();
	sim_prng_seed(&r, 3);
	for (int i = 0; i < 200; i++) {
		sim_event_init(&ev[i], nop);
		sim_events_add(&ev[i], sim_prng_below(&r, 1000));
	}
	ck_assert_int_eq(sim_events_count(), 200);
	for (int i = 0; i < 200; i++) {
		struct sim_event *e = sim_events_pop();

		ck_assert_ptr_nonnull(e);
		ck_assert_uint_ge(e->when_ps, last);
		ck_assert_int_eq(e->heap_idx, -1);
		last = e->when_ps;
	}
	ck_assert_ptr_null(sim_events_pop());
}
END_TEST

START_TEST(test_event_equal_times_fire_in_arming_order)
{
	struct sim_event ev[50];

	sim_events_reset();
	for (int i = 0; i < 50; i++) {
		sim_event_init(&ev[i], nop);
		sim_events_add(&ev[i], 500);
	}
	for (int i = 0; i < 50; i++)
		ck_assert_ptr_eq(sim_events_pop(), &ev[i]);
}
END_TEST

START_TEST(test_event_delete_from_the_middle_keeps_order)
{
	struct sim_event ev[64];
	uint64_t last = 0;
	int n = 0;

	sim_events_reset();
	for (int i = 0; i < 64; i++) {
		sim_event_init(&ev[i], nop);
		sim_events_add(&ev[i], (uint64_t)(i * 37 % 64));
	}
	for (int i = 0; i < 64; i += 3)
		ck_assert_int_eq(sim_events_del(&ev[i]), 1);
	ck_assert_int_eq(sim_events_del(&ev[0]), 0);	/* not queued */
	for (struct sim_event *e; (e = sim_events_pop()); n++) {
		ck_assert_uint_ge(e->when_ps, last);
		last = e->when_ps;
	}
	ck_assert_int_eq(n, 64 - 22);
}
END_TEST

Suite *event_suite(void)
{
	Suite *s = suite_create("event");
	TCase *tc = tcase_create("event");

	tcase_add_test(tc, test_event_pops_in_time_order);
	tcase_add_test(tc, test_event_equal_times_fire_in_arming_order);
	tcase_add_test(tc, test_event_delete_from_the_middle_keeps_order);
	suite_add_tcase(s, tc);
	return s;
}
