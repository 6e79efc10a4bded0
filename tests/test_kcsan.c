/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/test_kcsan.c - the race oracle on kernel code (tests/k_kcsan.c):
 * KCSAN's marks honoured in an instrumented kernel build (make INSTR=1,
 * whose check binary make check-instr runs), nothing watched in a
 * normal one.
 *
 * Stage: tests.  Each case runs two tasks on two CPUs, @n rounds each on
 * one word, with the race oracle on, in a child process: a race is the
 * child's exit 3 with the report on stderr.
 *
 * With INSTR=1 (FUTEXSIM_KERNEL_INSTRUMENTED): a plain increment against
 * a plain increment is a race, as are a plain read against WRITE_ONCE()
 * and an assertion against another task's write; data_race() around the
 * same increments, READ_ONCE() against WRITE_ONCE(), an assertion of
 * exclusive writing against readers and kcsan_atomic_next() are not.  In
 * a normal build the same pairs run and no race is reported: the
 * instrumentation is what finds them (the negative control of the
 * oracle's mechanism).
 */
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "version.h"
#include "sim/explore/oracle.h"
#include "sim/explore/race.h"
#include "sim/host/arena.h"
#include "sim/machine/machine.h"
#include "sim/scenario/preset.h"
#include "tests/k_kcsan.h"
#include "tests/run_child.h"

#define ROUNDS	50

static struct {
	enum ksim_test_kcsan what[2];
	unsigned long *word;
} h;

static void racer(void *arg)
{
	int i = (int)(long)arg;

	ksim_test_kcsan_run(h.what[i], h.word, ROUNDS);
}

static void two_tasks(void *arg)
{
	static struct sim_preset p;

	(void)arg;
	sim_preset_defaults(&p);
	p.sockets = 1;
	p.threads_per_core = 1;
	p.cores_per_socket = 2;
	sim_machine_init(&p, 2, 1);
	sim_oracles.mask |= SIM_ORACLE_RACE;
	sim_race_reset();
	h.word = sim_arena_alloc(2 * sizeof(unsigned long), 64);
	sim_task_create("racer0", racer, (void *)0L, 0);
	sim_task_create("racer1", racer, (void *)1L, 1);
	sim_run();
}

/* Run @a against @b.  Return: the child's output. */
static struct child_out *pair(enum ksim_test_kcsan a, enum ksim_test_kcsan b)
{
	static struct child_out o;

	h.what[0] = a;
	h.what[1] = b;
	return run_child(two_tasks, NULL, &o);
}

/* @a against @b is a race, its report's first line containing each of
 * the NULL-terminated @words; in a normal build no race. */
static void race(enum ksim_test_kcsan a, enum ksim_test_kcsan b, ...)
{
	struct child_out *o = pair(a, b);
	const char *w;
	va_list ap;

	if (!FUTEXSIM_KERNEL_INSTRUMENTED) {
		ck_assert_msg(o->status == 0 && !strstr(o->err, "DATA RACE"),
			      "uninstrumented: status %d: %.300s", o->status,
			      o->err);
		return;
	}
	ck_assert_msg(o->status == 3, "status %d, expected 3: %.300s",
		      o->status, o->err);
	ck_assert_msg(!strncmp(o->err, "futexsim: DATA RACE: ", 21), "%.300s",
		      o->err);
	va_start(ap, b);
	while ((w = va_arg(ap, const char *)))
		ck_assert_msg(strstr(o->err, w) && strstr(o->err, w) < strchr(o->err, '\n'),
			      "no '%s' in: %.300s", w, o->err);
	va_end(ap);
	/* the report names both accesses' code */
	ck_assert_msg(strstr(o->err, "accesses (") &&
		      strstr(o->err, "ksim_test_kcsan_run (tests/k_kcsan.c:"),
		      "%.2000s", o->err);
}

static void no_race(enum ksim_test_kcsan a, enum ksim_test_kcsan b)
{
	struct child_out *o = pair(a, b);

	ck_assert_msg(o->status == 0, "status %d: %.400s", o->status, o->err);
}

START_TEST(test_plain_increments_race)
{
	race(KT_PLAIN_INC, KT_PLAIN_INC, "plain ", "while task", NULL);
}
END_TEST

START_TEST(test_data_race_hides_the_same_increments)
{
	no_race(KT_DATA_RACE_INC, KT_DATA_RACE_INC);
}
END_TEST

START_TEST(test_a_plain_read_races_with_write_once)
{
	race(KT_PLAIN_READ, KT_WRITE_ONCE, "marked write", "plain read", NULL);
}
END_TEST

START_TEST(test_read_once_and_write_once_do_not_race)
{
	no_race(KT_READ_ONCE, KT_WRITE_ONCE);
}
END_TEST

START_TEST(test_kcsan_atomic_next_marks_a_plain_read)
{
	no_race(KT_ATOMIC_NEXT_READ, KT_WRITE_ONCE);
}
END_TEST

START_TEST(test_assert_exclusive_writer_sees_a_marked_write)
{
	race(KT_ASSERT_WRITER, KT_WRITE_ONCE, "asserted ASSERT_EXCLUSIVE_WRITER",
	     "marked write", NULL);
}
END_TEST

START_TEST(test_assert_exclusive_writer_allows_readers)
{
	no_race(KT_ASSERT_WRITER, KT_READ_ONCE);
}
END_TEST

START_TEST(test_scoped_assert_exclusive_access_sees_a_reader)
{
	race(KT_READ_ONCE, KT_ASSERT_ACCESS_SCOPED, "ASSERT_EXCLUSIVE_ACCESS",
	     "marked read", NULL);
}
END_TEST

Suite *kcsan_suite(void)
{
	return one_case_suite("kcsan", 60, (const TTest *const[]){
		test_plain_increments_race,
		test_data_race_hides_the_same_increments,
		test_a_plain_read_races_with_write_once,
		test_read_once_and_write_once_do_not_race,
		test_kcsan_atomic_next_marks_a_plain_read,
		test_assert_exclusive_writer_sees_a_marked_write,
		test_assert_exclusive_writer_allows_readers,
		test_scoped_assert_exclusive_access_sees_a_reader,
		NULL });
}
