/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/glibc/include/test-skeleton.c - the older entry point of glibc's
 * tests ("../test-skeleton.c" at the end of a test), this project's own:
 * mk/check-glibc.sh copies it where that include finds it.  It includes
 * the headers tests of that style expect from it, then the driver's
 * main() (tests/glibc/include/support/test-driver.c).
 *
 * Stage: tests (the glibc harness).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/param.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <support/check.h>
#include <support/support.h>
#include <support/xthread.h>

/* without TEST_FUNCTION, a test of this style defines do_test(argc, argv) */
#if !defined(TEST_FUNCTION) && !defined(TEST_FUNCTION_ARGV)
#define TEST_FUNCTION_ARGV do_test
#endif

#include <support/test-driver.c>
