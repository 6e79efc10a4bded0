// SPDX-License-Identifier: GPL-2.0
/*
 * tests/k_kcsan.c - kernel code that races, and code that marks its
 * races the kernel's way (tests/k_kcsan.h).
 *
 * Stage: test glue (kernel TU).  Instrumented with make INSTR=1 (the
 * Makefile's KINSTR_SRCS), so its plain accesses are the race oracle's,
 * data_race() and the assertions KCSAN's calls (sim/arch/kcsan.c); in a
 * normal build they are plain code that nothing watches.
 */
#include <linux/compiler.h>
#include <linux/kcsan-checks.h>
#include <asm/processor.h>
#include "tests/k_kcsan.h"

void ksim_test_kcsan_run(enum ksim_test_kcsan what, unsigned long *p, int n)
{
	unsigned long sink = 0;

	if (what == KT_ASSERT_ACCESS_SCOPED) {
		ASSERT_EXCLUSIVE_ACCESS_SCOPED(*p);

		for (int i = 0; i < n; i++) {
			(*p)++;
			cpu_relax();
		}
		return;
	}
	for (int i = 0; i < n; i++) {
		switch (what) {
		case KT_PLAIN_INC:
			(*p)++;
			break;
		case KT_DATA_RACE_INC:
			data_race((*p)++);
			break;
		case KT_READ_ONCE:
			sink += READ_ONCE(*p);
			break;
		case KT_WRITE_ONCE:
			WRITE_ONCE(*p, i);
			break;
		case KT_PLAIN_READ:
			sink += *(unsigned long *)p;
			break;
		case KT_ASSERT_WRITER:
			ASSERT_EXCLUSIVE_WRITER(*p);
			sink += READ_ONCE(*p);
			break;
		case KT_ATOMIC_NEXT_READ:
			kcsan_atomic_next(1);
			sink ^= *(unsigned long *)p;
			break;
		default:
			break;
		}
		cpu_relax();
	}
	WRITE_ONCE(p[1], sink);	/* the reads are used */
}
