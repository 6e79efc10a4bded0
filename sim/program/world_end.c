/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim/program/world_end.c - where a program's own writable data ends.
 *
 * Stage: the driver of the whole flow.  Not part of libfutexsim.a: built
 * alone as build/libfutexsim-end.o, which `futexsim build`
 * (sim/program/build.c) links right after the program's objects and
 * libraries and before the archive.  The linker lays .data and .bss out
 * in the order of its inputs, so
 *
 *	[__data_start, futexsim_world_data_end)
 *	[__bss_start,  futexsim_world_bss_end)
 *
 * hold the C start files' variables and every global and static of the
 * program and of the static libraries it named, and nothing of the
 * simulator's, which comes after.  sim/explore/explore_fork.c copies
 * them before the first run of a search and puts them back before each
 * next run: the program starts every run from its initial values without
 * a process of its own (docs/internals.md, "Fresh worlds").
 *
 * A binary linked without this object (the futexsim binary itself) has
 * neither symbol, and the runs of a program fall back to a process each.
 */
char futexsim_world_data_end[1] __attribute__((section(".data"))) = { 1 };
char futexsim_world_bss_end[1] __attribute__((section(".bss")));
