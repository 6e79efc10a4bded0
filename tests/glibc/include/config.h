/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/glibc/include/config.h - glibc's build configuration as a test
 * built outside glibc sees it: nothing (the tests that include it only
 * test for macros of features the host has anyway).
 *
 * Stage: tests (the glibc harness).
 */
