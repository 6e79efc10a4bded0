/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/programs/check_value.h - the one check of the test programs that
 * print a line per check: "ok NAME", or "FAIL NAME: got X, want Y" with
 * the count of failures in `failures`.  With `control` set (the
 * program's argument "control") every check expects a wrong value
 * instead: the negative control, in which every check must fail.
 *
 * Stage: tests (user programs built with `futexsim build`).
 */
#ifndef TESTS_PROGRAMS_CHECK_VALUE_H
#define TESTS_PROGRAMS_CHECK_VALUE_H

#include <stdio.h>

static int control, failures;

static void check(const char *name, long got, long want)
{
	if (control)
		want = want + 1000;
	if (got == want) {
		printf("ok %s\n", name);
	} else {
		printf("FAIL %s: got %ld, want %ld\n", name, got, want);
		failures++;
	}
}

#endif /* TESTS_PROGRAMS_CHECK_VALUE_H */
