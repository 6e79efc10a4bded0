/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/glibc/include/array_length.h - the element count of an array, as
 * glibc's tests use it.
 *
 * Stage: tests (the glibc harness).
 */
#ifndef TST_ARRAY_LENGTH_H
#define TST_ARRAY_LENGTH_H
#define array_length(a)	(sizeof(a) / sizeof((a)[0]))
#define array_end(a)	(&(a)[array_length(a)])
#endif
