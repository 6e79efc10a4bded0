/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/glibc/include/support/test-driver.c - the main() of a glibc nptl
 * test built outside glibc's tree, by mk/check-glibc.sh, natively and
 * with `futexsim build`.  It stands in for glibc's own file of the same
 * name (the include path puts it first) and is this project's own code.
 *
 * Stage: tests (the glibc harness).  Included at the end of a test's
 * source, after its do_test(); calls the test's functions and
 * tests/glibc/driver.c.
 *
 * What it does: calls PREPARE (if defined) with argc and argv, then the
 * test function once: TEST_FUNCTION (an expression), TEST_FUNCTION_ARGV
 * (called with argc, argv) or do_test(); then CLEANUP_HANDLER.  There is
 * no fork and no alarm: a test runs in the process itself, and the
 * time limit is the caller's (timeout(1) natively; --livelock and
 * --stuck under futexsim).  The exit status is the test's result, made
 * 1 if a failure was recorded (TEST_VERIFY, TEST_COMPARE) and compared
 * with EXPECTED_STATUS where the test defines it: 0 pass, 1 fail, 77
 * unsupported.
 */
#include <stdio.h>
#include <stdlib.h>

int tst_driver_status(int status);

#ifdef TEST_FUNCTION
static int tst_driver_call(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return TEST_FUNCTION;
}
#elif defined(TEST_FUNCTION_ARGV)
static int tst_driver_call(int argc, char **argv)
{
	return TEST_FUNCTION_ARGV(argc, argv);
}
#else
static int tst_driver_call(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	return do_test();
}
#endif

int main(int argc, char **argv)
{
	int status;

	setvbuf(stdout, NULL, _IONBF, 0);
#ifdef PREPARE
	PREPARE(argc, argv);
#endif
	status = tst_driver_status(tst_driver_call(argc, argv));
#ifdef CLEANUP_HANDLER
	CLEANUP_HANDLER();
#endif
#ifdef EXPECTED_STATUS
	status = status == EXPECTED_STATUS ? 0 : 1;
#endif
	return status;
}
