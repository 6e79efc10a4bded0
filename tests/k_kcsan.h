/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/k_kcsan.h - kernel code with the races and marks KCSAN knows
 * (implemented in tests/k_kcsan.c, a kernel TU that make INSTR=1
 * instruments as it does the kernel files), for the race oracle's tests
 * (tests/test_kcsan.c).
 *
 * Stage: test glue, host test -> kernel.  Plain C only.  Each function
 * makes @n rounds on the word at @p (simulated memory), with cpu_relax()
 * between rounds; call from simulated tasks only.
 */
#ifndef TESTS_K_KCSAN_H
#define TESTS_K_KCSAN_H

enum ksim_test_kcsan {
	KT_PLAIN_INC,		/* (*p)++: plain read, plain write	*/
	KT_DATA_RACE_INC,	/* data_race((*p)++)			*/
	KT_READ_ONCE,		/* READ_ONCE(*p)			*/
	KT_WRITE_ONCE,		/* WRITE_ONCE(*p, i)			*/
	KT_PLAIN_READ,		/* a plain read of *p			*/
	KT_ASSERT_WRITER,	/* ASSERT_EXCLUSIVE_WRITER(*p), then READ_ONCE */
	KT_ASSERT_ACCESS_SCOPED, /* ASSERT_EXCLUSIVE_ACCESS_SCOPED(*p) over
				  * the rounds, each a plain increment	*/
	KT_ATOMIC_NEXT_READ,	/* kcsan_atomic_next(1), a plain read	*/
};

/* ksim_test_kcsan_run - @n rounds of @what on @p. */
void ksim_test_kcsan_run(enum ksim_test_kcsan what, unsigned long *p, int n);

#endif /* TESTS_K_KCSAN_H */
